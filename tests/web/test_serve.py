"""``companion serve``: gunicorn workers on every core, the friendly lines, a busy port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

from live_server import ROOT, serving

from companion.server import BACKLOG, CONNECTIONS, cores, workers


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def test_serve_says_where_to_open_it_and_runs_one_worker_per_core(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_WORKERS", raising=False)
    assert workers() == cores()
    assert CONNECTIONS * workers() >= 500 and BACKLOG >= 500
    env = {"COMPANION_INSTANCE_PATH": str(tmp_path / "instance"), "COMPANION_WORKERS": "2"}
    with serving(env) as server:
        assert server.process is not None and server.process.stdout is not None
        first = server.process.stdout.readline()
        assert first.strip() == f"Companion is running. Open http://127.0.0.1:{server.port}/"
        assert "companion serve --host 0.0.0.0" in server.process.stdout.readline()
        assert "Stop with Ctrl+C" in server.process.stdout.readline()
        # gunicorn starts the workers one after another: wait for the second.
        deadline = time.monotonic() + 30
        while len(children(server.process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(children(server.process.pid)) == 2


#: Run in the server before the app is made: every request the app answers says so on the
#: server's output first (its workers share it with the arbiter).
SAYS_ANSWERED = """
import companion.app

made = companion.app.create_app


def create_app(*args, **kwargs):
    app = made(*args, **kwargs)
    inner = app.wsgi_app

    def answering(environ, start_response):
        print("answered " + environ["PATH_INFO"], flush=True)
        return inner(environ, start_response)

    app.wsgi_app = answering
    return app


companion.app.create_app = create_app
"""


def test_serve_says_where_to_open_it_only_once_it_has_answered(tmp_path):
    """The arbiter listens before its workers have started (and warmed their renderers):
    "Companion is running" used to come first, and the first page then took seconds. Now
    the server asks itself for a page and says where to open it once it was answered."""
    env = {"COMPANION_INSTANCE_PATH": str(tmp_path / "instance"), "COMPANION_WORKERS": "2"}
    with serving(env, preamble=SAYS_ANSWERED) as server:
        assert server.process is not None and server.process.stdout is not None
        lines = []
        while not (line := server.process.stdout.readline()).startswith("Companion is running"):
            assert line, f"the server ended: {lines}"
            lines.append(line.strip())
        assert "answered /" in lines  # its own request for the home page, answered before


def test_a_busy_port_is_one_sentence_and_exit_1(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "companion", "serve", "--port", str(port)],
            env={
                "PATH": "/usr/bin:/bin",
                "PYTHONPATH": str(ROOT),
                "COMPANION_INSTANCE_PATH": str(tmp_path / "instance"),
            },
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert proc.returncode == 1
    assert f"Cannot listen on 127.0.0.1:{port}" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_the_server_uses_no_librarys_internals_and_pins_no_release_away():
    """What the server and the limiter build on is the libraries' public side (gunicorn's
    worker class, waitress's create_server, Flask-Limiter's decorators, the limits storage
    interface), so nothing pins a library below its next release."""
    source = "\n".join(path.read_text() for path in (ROOT / "companion").rglob("*.py"))
    for internal in ("take_buffered", "_check_request_limit", "nr_conns", "._processes"):
        assert internal not in source, internal
    with open(ROOT / "pyproject.toml", "rb") as project:
        needs = tomllib.load(project)["project"]["dependencies"]
    assert [need for need in needs if "<" in need] == []
