"""``companion serve``: the web app in one server process per core, each reading every
request whole before a thread runs the app.

gunicorn's arbiter binds the address, builds the app once (``preload_app``: the migrations run
exactly once), forks a worker per core, restarts one that dies and stops them gracefully. Each
worker (``WaitressWorker``) serves the arbiter's listening socket with waitress
(``sockets=``): waitress's event loop reads a request's head and body into its own buffers,
and only a whole request reaches one of the ``THREADS`` threads. A client sending its head a
byte a second (slowloris) costs a socket, never a thread, so the pages keep answering. A body
announced or sent over ``READ_LIMIT`` is refused by waitress at once (413, connection closed);
one over the app's own limit (``MAX_BODY``, Flask's MAX_CONTENT_LENGTH) and within
``READ_LIMIT`` is read and refused by the app in its own words (a page, or the API's error
object). Both are public, documented parts: gunicorn's custom worker class (its ``Worker``:
``sockets``, ``wsgi``, ``notify``, ``alive``) and waitress's ``create_server``; nothing of
either's internals. The choice, and the servers measured for it: docs/adr/0001-server.md.

``serve_app`` serves any WSGI app the same way (the benchmark's bare "hello" app).
"""

from __future__ import annotations

# getaddrinfo() imports the "idna" codec the first time it is given a host name. The
# arbiter's `answering` thread does that while workers are forked: a worker forked in that
# moment inherited the import's lock held, and hung for good on its own getaddrinfo()
# (waitress's create_server), still holding the listening socket through a graceful stop.
# Imported here, before any thread or fork, the codec is never imported late.
import encodings.idna  # noqa: F401
import http.client
import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask_babel import gettext as _
from gunicorn.workers.base import Worker

from companion.adapters import render_queue
from companion.domain.bounds import MAX_BODY, MAX_PHOTO
from companion.services import photos
from companion.web.app import create_app

ANY_ADDRESS = {"0.0.0.0", "::", ""}

#: Threads per worker: a request waiting on the database or a score sheet frees the core;
#: at most render_queue.WAITING of them wait for sheets, the rest are the pages'.
THREADS = 32
#: Open connections per worker (phones keep theirs alive between requests; a slow client
#: holds one too, but no thread).
CONNECTIONS = 1000
#: The worker: waitress on the arbiter's listening sockets (``WaitressWorker`` below).
WORKER = "companion.web.server.WaitressWorker"
#: Connections waiting to be accepted (the kernel caps it at net.core.somaxconn).
BACKLOG = 2048
#: The most body bytes waitress reads for the app. A body over ``MAX_BODY`` and within this
#: is read and refused by the app in its own words (413: a page, or the API's error object);
#: one announced or sent over it is refused by waitress at once, and the connection closed.
#: The photo endpoint's bodies (``MAX_PHOTO``) are the largest the app takes; every other path
#: keeps the app's ``MAX_BODY``, refused in the app's own words.
READ_LIMIT = MAX_PHOTO + MAX_BODY
#: Seconds a connection may stay silent (kept alive between requests, or a request stalled
#: half way) before it is closed.
IDLE_SECONDS = 30
#: How long a stopping worker waits for requests on their way (seconds; the default of
#: ``COMPANION_STOP_SECONDS``), then for the answers being made (``ANSWERING`` more at most).
STOP_SECONDS = 5.0
ANSWERING = 5.0
#: How long ``companion serve`` waits for its first answer before it says where to open it.
ANSWER_SECONDS = 120.0


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


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def stop_seconds() -> float:
    """Seconds a stopping worker waits for requests on their way: ``COMPANION_STOP_SECONDS``,
    else ``STOP_SECONDS`` (a slow network, or a loaded machine, may want more)."""
    raw = os.environ.get("COMPANION_STOP_SECONDS", "").strip()
    try:
        chosen = float(raw) if raw else STOP_SECONDS
    except ValueError:
        chosen = STOP_SECONDS
    return chosen if 0 <= chosen <= 3600 else STOP_SECONDS


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


class WaitressWorker(Worker):  # type: ignore[misc]
    """A gunicorn worker process that serves the arbiter's listening sockets with waitress.

    Waitress's loop reads each request whole (head, then body up to ``READ_LIMIT``) before
    one of ``THREADS`` threads runs the app. The loop is run here a poll at a time, so the
    worker tells the arbiter it is alive (``notify``) and sees the stop signal (``alive``).
    On a graceful stop it accepts nothing more, lets requests already on their way arrive for
    ``stop_seconds()``, and waits for the answers being made and sent, ``ANSWERING`` more.
    """

    def run(self) -> None:
        from waitress import wasyncore
        from waitress.channel import HTTPChannel
        from waitress.server import BaseWSGIServer, create_server

        # "Task queue depth is N": every thread busy, a request waits for one. A club night's
        # peaks do that by the second; it is no warning worth a line each.
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)
        busy = Busy(self.wsgi)
        # The photo reader's networks loaded beside the first pages, not in the first photo's
        # time (the shutter to the chips: at most 2 s).
        threading.Thread(target=photos.warm, name="photo-reader", daemon=True).start()
        connections: dict[int, Any] = {}
        # The worker's own copies of the arbiter's sockets (waitress makes them non-blocking).
        sockets = [socket.socket(fileno=os.dup(listener.fileno())) for listener in self.sockets]
        server = create_server(
            busy,
            map=connections,
            sockets=sockets,
            threads=THREADS,
            connection_limit=CONNECTIONS,
            backlog=BACKLOG,
            max_request_body_size=READ_LIMIT + 1,  # waitress refuses a body of this size
            channel_timeout=IDLE_SECONDS,
            cleanup_interval=min(IDLE_SECONDS, 10),
            asyncore_use_poll=True,  # select() stops at 1,024 descriptors
            # X-Forwarded-* are the app's to believe or not (COMPANION_PROXY, ProxyFix).
            clear_untrusted_proxy_headers=False,
            ident="companion",
        )

        def poll(timeout: float) -> None:
            self.notify()
            wasyncore.loop(timeout=timeout, map=connections, use_poll=True, count=1)

        while self.alive and os.getppid() == self.ppid:
            poll(1.0)

        # Stopping: nothing new is accepted, requests on their way get stop_seconds() to
        # arrive, answers being made and sent ANSWERING more at most.
        for dispatcher in list(connections.values()):
            if isinstance(dispatcher, BaseWSGIServer):
                dispatcher.del_channel()
        for sock in [*sockets, *self.sockets]:
            sock.close()
        now = time.monotonic()
        arriving = now + stop_seconds()
        deadline = arriving + ANSWERING
        while time.monotonic() < deadline:
            channels = [d for d in connections.values() if isinstance(d, HTTPChannel)]
            sending = busy.count or any(channel.writable() for channel in channels)
            if not channels or (not sending and time.monotonic() > arriving):
                break
            poll(0.05)
        server.task_dispatcher.shutdown(timeout=1)


class Busy:
    """The app, counting the requests it is running (a stopping worker waits for them; an
    answer made is then in its connection's buffer, which the worker waits to send)."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self.count = 0
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        with self.lock:
            self.count += 1
        try:
            return self.app(environ, start_response)
        finally:
            with self.lock:
                self.count -= 1


def serve_app(
    app: Callable[..., Any],
    host: str,
    port: int,
    *,
    ready: Callable[[], None] | None = None,
    after_fork: Callable[[], None] | None = None,
    worker_class: str = WORKER,
) -> None:
    """Serve the WSGI ``app`` until interrupted (Ctrl+C stops it gracefully); ``ready`` is
    called once it has answered a request (``answering``).

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
        "graceful_timeout": int(stop_seconds() + ANSWERING) + 5,
        "preload_app": True,
        "accesslog": None,  # paths hold link tokens: no access log
        "errorlog": "-",
        "loglevel": "warning",
        "proc_name": "companion",
        "when_ready": lambda _server: answering(host, port, ready) if ready else None,
        "post_fork": lambda _server, _worker: after_fork() if after_fork else None,
    }

    class Gunicorn(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self) -> Callable[..., Any]:
            return app

    check_port(host, port)
    Gunicorn().run()


def answering(host: str, port: int, then: Callable[[], None]) -> None:
    """Call ``then`` once the server answers a request, from a thread of the arbiter's.

    The arbiter is ready when it listens; its workers still have to start (and warm their
    sheet renderers), so a page asked for at once waited seconds on a loaded machine. The
    address is said only once a page was answered.
    """
    if host in ANY_ADDRESS:
        host = "::1" if host == "::" else "127.0.0.1"

    def wait() -> None:
        deadline = time.monotonic() + ANSWER_SECONDS
        while time.monotonic() < deadline:
            ask = http.client.HTTPConnection(host, port, timeout=5)
            try:
                ask.request("GET", "/")
                ask.getresponse().read()
                break
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
            finally:
                ask.close()
        then()

    threading.Thread(target=wait, name="answering", daemon=True).start()


def serve(host: str = "127.0.0.1", port: int = 5000) -> None:
    """Migrate the database, serve the app until interrupted, and say where to open it once
    it answers."""
    check_port(host, port)  # a busy port is said at once, before migrating and warming up
    app: Flask = create_app()  # creates the instance folder and runs the migrations, once
    engine = app.extensions["companion_db"]
    engine.dispose()  # no connection of the arbiter's may be shared with a worker

    def ready() -> None:
        with app.app_context():
            for line in addresses(host, port):
                print(line, flush=True)
            print(_("Data: %(db)s. Stop with Ctrl+C.", db=engine.url), flush=True)

    def after_fork() -> None:
        engine.dispose(close=False)  # a fresh pool in every worker

    # One render process for every worker, warm before they take requests.
    with render_queue.serving(app):
        serve_app(app, host, port, ready=ready, after_fork=after_fork)
