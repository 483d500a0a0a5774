"""The benchmark's servers other than ``companion serve``: ``hello.py WHAT HOW PORT``.

WHAT is ``hello`` (a bare Flask app answering "hello") or ``companion`` (the app);
HOW is ``gunicorn`` (exactly as ``companion serve`` serves: gunicorn's arbiter, waitress in
each worker; companion.web.server.serve_app),
``waitress`` (one process, 8 threads: how ``companion serve`` ran at first; at most
``BENCH_CONNECTIONS`` connections, default waitress's 100), or, for bench/slowloris.py,
``gthread`` (gunicorn's threaded worker as ``companion serve`` ran before waitress),
``gevent`` (gunicorn's gevent worker), ``asgi`` (gunicorn's asyncio worker, the app behind
a2wsgi's thread pool) or ``granian`` (granian's WSGI server, one worker per core).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask  # noqa: E402


def hello_app() -> Flask:
    app = Flask("hello")

    @app.get("/")
    def hello() -> str:
        return "hello"

    return app


def companion_app() -> Flask:
    """The app, its database connections closed (each worker opens its own)."""
    from companion.web.app import create_app

    app = create_app()
    app.extensions["companion_db"].dispose()
    return app


def main() -> None:
    what, how, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    app: Any = hello_app() if what == "hello" else companion_app()
    if how == "waitress":
        import waitress

        limit = int(os.environ.get("BENCH_CONNECTIONS", "100"))
        waitress.serve(
            app, host="127.0.0.1", port=port, threads=8, connection_limit=limit, _quiet=True
        )
        return
    if how == "granian":
        from granian import Granian  # type: ignore[import-not-found]
        from granian.constants import Interfaces  # type: ignore[import-not-found]

        from companion.web.server import THREADS, workers

        sys.path.insert(0, str(Path(__file__).resolve().parent))
        target = "hello:hello_app" if what == "hello" else "hello:companion_app"
        Granian(
            target,
            address="127.0.0.1",
            port=port,
            interface=Interfaces.WSGI,
            workers=workers(),
            blocking_threads=THREADS,
            factory=True,
            log_access=False,
        ).serve()
        return
    from companion.web.server import serve_app

    after_fork = None
    if what == "companion":
        engine = app.extensions["companion_db"]

        def after_fork() -> None:
            engine.dispose(close=False)

    if how == "asgi":
        from a2wsgi import WSGIMiddleware  # type: ignore[import-not-found]

        from companion.web.server import THREADS

        serve_app(WSGIMiddleware(app, workers=THREADS), "127.0.0.1", port, worker_class="asgi")
    elif how in {"gthread", "gevent"}:
        serve_app(app, "127.0.0.1", port, after_fork=after_fork, worker_class=how)
    else:
        serve_app(app, "127.0.0.1", port, after_fork=after_fork)


if __name__ == "__main__":
    main()
