"""``companion serve``: gunicorn workers on every core, the friendly lines, a busy port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
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


def test_the_address_is_said_only_once_the_server_answers_a_page():
    """`companion serve` says "Companion is running" only after a page was answered: the
    first page opened after it no longer waits for the workers to start."""
    from companion.server import announce_when_answering

    events: list[str] = []
    answers = iter([False, False, False, True])

    def probe(address: str) -> bool:
        ok = next(answers)
        events.append(f"asked {address}: {ok}")
        return ok

    said = announce_when_answering(
        "http://127.0.0.1:5000/", lambda: events.append("said"), probe=probe, wait=lambda s: None
    )
    assert said is True
    assert events[-1] == "said" and events.count("said") == 1
    assert events[:4] == [f"asked http://127.0.0.1:5000/: {ok}" for ok in (False,) * 3 + (True,)]


def test_a_server_that_never_answers_is_never_announced():
    from companion.server import announce_when_answering

    said: list[str] = []
    assert not announce_when_answering(
        "http://x/", lambda: said.append("x"), probe=lambda a: False, wait=lambda s: None, tries=5
    )
    assert said == []
