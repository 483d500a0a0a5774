"""``companion serve`` as a real process for the tests that need one (crash, body limits).

``serving(env)`` starts it on a free port in its own process group, waits until it answers
and stops it afterwards; ``Server.kill()`` SIGKILLs the whole group (arbiter, workers and
renderers) as a power cut or an OOM kill would.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: How long a server may take to answer its first page: a wait, never a measure. A loaded
#: machine (load 8: two workers and the render warm-up starting at once) took over 30 s.
STARTUP_SECONDS = 180
#: For a server whose test is not about sheets: no render process. ``companion serve`` waits
#: for it to warm up (WeasyPrint imported, a sheet of every game drawn: 2 s of a core) before
#: it answers; without it a sheet asked for is drawn in the asking thread (render_queue's
#: inline mode). test_crash, test_serve and test_sheets_ready run it as users do.
WITHOUT_SHEETS = {"COMPANION_SHEET_RENDERERS": "0"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    env: dict[str, str]
    port: int
    process: subprocess.Popen[str] | None = None
    #: Python run in the server's process before the app is made (a test's setting).
    preamble: str = ""
    #: Where the server's output goes; None: a pipe, read by the test (it must keep reading
    #: it, or a server writing much, a traceback per request, stops when the pipe is full).
    log: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, **self.env}
        env["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        run = ["-m", "companion"]
        if self.preamble:
            run = [
                "-c",
                f"{self.preamble}\nfrom companion.cli import main\nraise SystemExit(main())",
            ]
        output = subprocess.PIPE if self.log is None else self.log.open("a", encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, *run, "serve", "--port", str(self.port)],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group: kill() reaches every worker
        )
        if self.log is not None:
            output.close()  # the server has its own copy
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                out = self.process.stdout.read() if self.process.stdout else self.output()
                raise RuntimeError(f"companion serve exited {self.process.returncode}: {out}")
            try:
                with urllib.request.urlopen(self.url + "/api/v1/games", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("companion serve did not answer in time")

    def output(self) -> str:
        """What the server wrote to its ``log`` so far."""
        return self.log.read_text(encoding="utf-8") if self.log is not None else ""

    def kill(self) -> None:
        """SIGKILL the arbiter, its workers and renderers at once; nothing gets to clean up."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()
        self.process = None

    def stop(self) -> None:
        """Stop it as Ctrl+C would (SIGINT to the arbiter), or kill it if it will not."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass
        self.kill()


@contextmanager
def serving(env: dict[str, str], preamble: str = "", log: Path | None = None) -> Iterator[Server]:
    server = Server(env, free_port(), preamble=preamble, log=log)
    server.start()
    try:
        yield server
    finally:
        server.stop()
