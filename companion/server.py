"""``companion serve``: the web app under gunicorn, one worker process per core.

Why gunicorn with threaded workers (``gthread``) and not waitress: waitress serves from one
process, so one core does all the Python work whatever the machine has, and it reads a whole
request body (up to 1 GiB) before the app may refuse it. Measured side by side with
bench/load.py (figures in bench/README.md), gunicorn's workers serve the scoreboard on every
core, keep 1,000 connections each and pass the body through unread, so a request over the
size limit is refused on its Content-Length (Flask's MAX_CONTENT_LENGTH) without reading it.

The worker is gthread with its event loop reading each request whole (head, and a body up to
the 1 MiB limit) before a thread takes it (companion/worker.py): a client trickling its head
a byte a second (slowloris) costs a socket, not one of the 32 threads. gthread alone gave a
thread to a connection at its first byte, and 70 such clients stopped every page; gevent
workers, gunicorn's asyncio worker behind a2wsgi, waitress and granian were measured against
it too (bench/slowloris.py, bench/README.md).

The app is built once in the arbiter before the workers fork (``preload_app``), so the
migrations run exactly once; each worker then opens its own database connections.
``serve_app`` serves any WSGI app the same way (the benchmark's bare "hello" app).
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask_babel import gettext as _

from companion.app import create_app
from companion.renderer import RENDERERS, renderer

ANY_ADDRESS = {"0.0.0.0", "::", ""}

#: Threads per worker: a request waiting on the database or a score sheet frees the core;
#: at most renderer.WAITING of them wait for sheets, the rest are the pages'.
THREADS = 32
#: Open connections per worker (phones keep theirs alive between requests).
CONNECTIONS = 1000
#: The worker: gthread whose event loop reads each request whole before a thread takes it
#: (companion/worker.py), so slow clients cost no thread.
WORKER = "companion.worker.BufferedWorker"
#: Connections waiting to be accepted (the kernel caps it at net.core.somaxconn).
BACKLOG = 2048


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


def answers(address: str) -> bool:
    """Whether the server at ``address`` answers a page (any HTTP status counts)."""
    try:
        with urllib.request.urlopen(address, timeout=5):
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):
        return False


def announce_when_answering(
    address: str,
    say: Callable[[], None],
    probe: Callable[[str], bool] = answers,
    wait: Callable[[float], None] = time.sleep,
    tries: int = 600,
) -> bool:
    """Call ``say`` once ``address`` answers a page, so the first page a person opens after
    "Companion is running" is served at once; ``False`` if it never answered."""
    for _try in range(tries):
        if probe(address):
            say()
            return True
        wait(0.1)
    return False


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def workers() -> int:
    """Worker processes: ``COMPANION_WORKERS``, else one per core."""
    raw = os.environ.get("COMPANION_WORKERS", "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and int(raw) > 0 else cores()


def bind_address(host: str, port: int) -> str:
    """gunicorn's form of an address: ``host:port``, ``[::1]:port``."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def check_port(host: str, port: int) -> None:
    """Bind and release the address once, so a busy port gets one clear sentence and exit 1
    (gunicorn on its own retries for five seconds and logs in its own words)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except (OSError, OverflowError) as err:
        reason = (err.strerror if isinstance(err, OSError) else None) or err
        print(
            _("Cannot listen on %(host)s:%(port)s: %(err)s", host=host, port=port, err=reason),
            file=sys.stderr,
        )
        raise SystemExit(1) from None


def closing_refusals(app: Callable[..., Any]) -> Callable[..., Any]:
    """``app``, except that the connection of a refused body (413) is closed after the answer.

    A body over the limit is refused unread (on its Content-Length, or once a chunked body
    passes the limit), so where the next request on that connection starts is unknown.
    gunicorn would answer ``Connection: keep-alive`` and then, failing to skip the unread
    body, drop the connection, so a client reusing it failed its next request. The answer
    must say ``Connection: close``. gunicorn ignores a Connection header an app sends (a
    WSGI app may not set hop-by-hop headers), so the server's own response object is told
    to close: gunicorn's ``start_response`` is a method of it, ``force_close`` its switch.
    """

    def wrapped(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if status.startswith("413"):
                force_close = getattr(
                    getattr(start_response, "__self__", None), "force_close", None
                )
                if callable(force_close):
                    force_close()
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return wrapped


def serve_app(
    app: Callable[..., Any],
    host: str,
    port: int,
    *,
    ready: Callable[[], None] | None = None,
    after_fork: Callable[[], None] | None = None,
    worker_class: str = WORKER,
) -> None:
    """Serve the WSGI ``app`` with gunicorn until interrupted (Ctrl+C stops it gracefully).

    ``worker_class`` is for the benchmarks' comparisons (bench/slowloris.py)."""
    from gunicorn.app.base import BaseApplication

    options: dict[str, Any] = {
        "bind": [bind_address(host, port)],
        "workers": workers(),
        "worker_class": worker_class,
        "threads": THREADS,
        "worker_connections": CONNECTIONS,
        "backlog": BACKLOG,
        "keepalive": 5,
        "timeout": 60,
        "graceful_timeout": 10,
        "preload_app": True,
        "accesslog": None,  # paths hold link tokens: no access log
        "errorlog": "-",
        "loglevel": "warning",
        "proc_name": "companion",
        "when_ready": lambda _server: ready() if ready else None,
        "post_fork": lambda _server, _worker: after_fork() if after_fork else None,
        "worker_exit": lambda _server, _worker: renderer.shutdown(),
    }

    class Gunicorn(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self) -> Callable[..., Any]:
            return closing_refusals(app)

    check_port(host, port)
    Gunicorn().run()


def serve(host: str = "127.0.0.1", port: int = 5000) -> None:
    """Migrate the database, say where to open the app, and serve it until interrupted."""
    app: Flask = create_app()  # creates the instance folder and runs the migrations, once
    engine = app.extensions["companion_db"]
    engine.dispose()  # no connection of the arbiter's may be shared with a worker

    def say() -> None:
        with app.app_context():
            for line in addresses(host, port):
                print(line, flush=True)
            print(_("Data: %(db)s. Stop with Ctrl+C.", db=engine.url), flush=True)

    def ready() -> None:
        # The workers are still starting: say where to open it once it answers a page.
        own = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
        first = url(own, port)
        threading.Thread(target=announce_when_answering, args=(first, say), daemon=True).start()

    def after_fork() -> None:
        engine.dispose(close=False)  # a fresh pool in every worker
        # Its sheet renderers started and warm before it takes requests (issue 26).
        renderer.start(int(app.config.get("SHEET_RENDERERS", RENDERERS)))

    serve_app(app, host, port, ready=ready, after_fork=after_fork)
