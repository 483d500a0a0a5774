"""``companion serve``: the web app under waitress, a production WSGI server."""

from __future__ import annotations

import socket
import sys

from flask_babel import gettext as _

from companion.app import create_app

ANY_ADDRESS = {"0.0.0.0", "::", ""}


def lan_address() -> str | None:
    """This machine's address on the local network, as a phone on the same Wi-Fi reaches it."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # No packet is sent: connecting a UDP socket only picks the outgoing interface.
        probe.connect(("192.0.2.1", 9))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def url(host: str, port: int) -> str:
    """The address to type into a browser for ``host``."""
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def addresses(host: str, port: int) -> list[str]:
    """What to tell the person starting the server: where to open the app."""
    if host in ANY_ADDRESS:
        lines = [
            _("Companion is running. Open %(url)s on this computer.", url=url("127.0.0.1", port))
        ]
        lan = lan_address()
        if lan:
            lines.append(_("On a phone on the same network, open %(url)s", url=url(lan, port)))
        else:
            lines.append(_("No local network address found; a phone cannot reach this computer."))
        return lines
    lines = [_("Companion is running. Open %(url)s", url=url(host, port))]
    if host.startswith("127.") or host in {"localhost", "::1"}:
        lines.append(
            _(
                "Only this computer can reach it. To play from a phone on the same network, "
                "run: companion serve --host 0.0.0.0"
            )
        )
    return lines


def serve(host: str = "127.0.0.1", port: int = 5000) -> None:
    """Migrate the database, say where to open the app, and serve it until interrupted."""
    import waitress

    app = create_app()  # creates the instance folder and runs the migrations first
    with app.app_context():
        for line in addresses(host, port):
            print(line, flush=True)
        print(
            _("Data: %(db)s. Stop with Ctrl+C.", db=app.extensions["companion_db"].url), flush=True
        )
    try:
        waitress.serve(app, host=host, port=port, ident="companion", threads=8)
    except OSError as err:
        print(
            _(
                "Cannot listen on %(host)s:%(port)s: %(err)s",
                host=host,
                port=port,
                err=err.strerror or err,
            ),
            file=sys.stderr,
        )
        raise SystemExit(1) from None
