"""What the benchmarks share: a database with matches in it, and servers to measure.

``companion serve`` is started exactly as a user starts it (gunicorn's arbiter, waitress in
each of its workers, one per core),
on SQLite in a temporary instance folder; ``--server waitress`` serves the same app with
waitress in one process (8 threads, its old setup) for the comparison in README.md, and the
other ways bench/hello.py knows (gthread, gevent, asgi, granian). The bare
Flask "hello" app (bench/hello.py) is served the same way. Not tests.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "sheets")]

PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def make_matches(instance: Path, count: int = 1, players: int = 6, games: int = 12) -> list[Any]:
    """``count`` Rummy 17 matches of ``players`` × ``games`` played rounds; their tokens."""
    from sheet_samples import sample_match

    from companion.adapters import store
    from companion.adapters.db import get_session
    from companion.web.app import create_app

    app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "bench"})
    tokens = []
    with app.app_context():
        session = get_session()
        for _ in range(count):
            doc = sample_match(players, games, planned=games)
            match = store.create_match(
                session,
                game=doc["game"],
                players=doc["players"],
                first_dealer=doc["first_dealer"],
                games=games,
                title=doc["title"],
            )
            for round_doc in doc["rounds"]:
                store.add_round(session, match, round_doc)
            tokens.append((match.edit_token, match.view_token))
    app.extensions["companion_db"].dispose()
    return tokens


def seated_event(session: Any, entrants: int, sessions: int, rounds: int | None) -> Any:
    """A Rummikub event of ``entrants`` at tables of four, ``sessions`` of them seated."""
    from companion.adapters.store import events

    event = events.create_event(
        session,
        game="rummikub",
        entrants=[f"Player {i:03}" for i in range(entrants)],
        sessions=max(sessions, 1),
        size=4,
        rounds=rounds,
    )
    for _ in range(sessions):
        events.seat_next(session, event)
    return event


def stop_group(process: subprocess.Popen[bytes], log: Any) -> None:
    """Stop a process started in a session of its own, and all it started; close its log."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    log.close()


class Server:
    """A server process: ``what`` is ``companion`` or ``hello``; ``how`` gunicorn or waitress."""

    def __init__(
        self, what: str, how: str, instance: Path, env: dict[str, str] | None = None
    ) -> None:
        """Start it and wait until it answers; ``env``: more environment variables."""
        self.what, self.how, self.port = what, how, free_port()
        env = {**os.environ, **(env or {}), "COMPANION_INSTANCE_PATH": str(instance)}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        if what == "companion" and how == "gunicorn":
            command = [PYTHON, "-m", "companion", "serve", "--port", str(self.port)]
        else:
            command = [PYTHON, str(ROOT / "bench" / "hello.py"), what, how, str(self.port)]
        self.log = open(instance.parent / f"{what}-{how}.log", "w", encoding="utf-8")  # noqa: SIM115
        self.process = subprocess.Popen(
            command, env=env, stdout=self.log, stderr=self.log, start_new_session=True
        )
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{what} under {how} did not start")

    def stop(self) -> None:
        stop_group(self.process, self.log)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()
