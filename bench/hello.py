"""The benchmark's servers other than ``companion serve``: ``hello.py WHAT HOW PORT``.

WHAT is ``hello`` (a bare Flask app answering "hello") or ``companion`` (the app);
HOW is ``gunicorn`` (exactly as ``companion serve`` serves, companion.server.serve_app) or
``waitress`` (one process, 8 threads: how ``companion serve`` ran before issue 9).
"""

from __future__ import annotations

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


def main() -> None:
    what, how, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    app: Any
    if what == "hello":
        app = hello_app()
    else:
        from companion.app import create_app

        app = create_app()
    if how == "waitress":
        import waitress

        waitress.serve(app, host="127.0.0.1", port=port, threads=8, _quiet=True)
    else:
        from companion.server import serve_app

        serve_app(app, "127.0.0.1", port)


if __name__ == "__main__":
    main()
