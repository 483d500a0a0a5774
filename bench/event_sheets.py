"""An event's session on paper : ``sheets.pdf`` and ``cards.pdf``, goal ≤ 5 s each.

Sets up, in a temporary instance, an event of 200 entrants (Rummikub, tables of four) with
``--sessions`` sessions seated (50 tables each) and ``--played`` rounds saved at every table
of the last one, then starts a fresh ``companion serve`` (gunicorn, one worker per core),
waits until its processes are idle (``--fresh``: asks at once, as soon as it answers) and
asks for the last session's filled sheets and table cards over HTTP: each alone, twice (the
second is kept on disk), then on Letter paper (made afresh) while a scoreboard and the home
page are loaded every 50 ms (their response times meanwhile: no page may get slower while
sheets are made). Prints each time with the load average beside it and the CPU seconds the
server's processes spent meanwhile (what the load does not move), the pages' figures, and
the memory of the server and its renderers at the end. Not a test.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from common import ROOT, Server, make_matches, seated_event
from sheet_first import group_cpu, group_rss_mb

sys.path.insert(0, str(ROOT / "tests" / "web"))

from samples import sample_round  # noqa: E402

ENTRANTS = 200


def make_event(instance: Path, sessions: int, played: int, rounds: int | None) -> str:
    """The event's edit token; its last seated session's tables have ``played`` rounds."""
    from companion.adapters import store
    from companion.adapters.db import get_session
    from companion.adapters.store import events
    from companion.web.app import create_app

    app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "bench"})
    with app.app_context():
        session = get_session()
        event = seated_event(session, ENTRANTS, sessions, rounds)
        for table in events.sessions_of(event)[-1]:
            assert table.match is not None
            for n in range(played):
                names = list(table.match.players)
                store.add_round(session, table.match, sample_round("rummikub", n + 1, names))
        edit = event.edit_token
    app.extensions["companion_db"].dispose()
    return edit


def fetch(url: str) -> tuple[float, int, bytes]:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=300) as answer:
        data = answer.read()
        return time.perf_counter() - start, answer.status, data


def settle(pgid: int, limit: float = 60.0) -> float:
    """Wait until the server's processes are idle (renderers done warming up), so that the
    CPU seconds counted next are the download's alone; how long that took."""
    start = time.perf_counter()
    before = group_cpu(pgid)
    while time.perf_counter() - start < limit:
        time.sleep(1.0)
        now = group_cpu(pgid)
        if now - before < 0.05:
            break
        before = now
    return time.perf_counter() - start


def pages_of(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=1, help="sessions seated")
    parser.add_argument("--played", type=int, default=1, help="rounds saved at each table")
    parser.add_argument("--rounds", type=int, default=None, help="rounds a match (game default)")
    parser.add_argument(
        "--fresh", action="store_true", help="ask at once, not once the server is idle"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        instance = Path(folder) / "instance"
        started = time.perf_counter()
        edit = make_event(instance, args.sessions, args.played, args.rounds)
        ((board_edit, board),) = make_matches(instance, 1, players=6, games=12)
        print(
            f"event: {ENTRANTS} entrants, {args.sessions} sessions seated, 50 tables, "
            f"{args.played} rounds played (set up in {time.perf_counter() - started:.0f} s)"
        )
        with Server("companion", "gunicorn", instance) as server:
            pages = [f"{server.url}/v/{board}", f"{server.url}/", f"{server.url}/m/{board_edit}"]
            for page in pages * 2:
                fetch(page)  # warm: each worker's first request, the page cache
            if not args.fresh:
                quiet = settle(server.process.pid)
                load = os.getloadavg()[0]
                print(f"server quiet after {quiet:.1f} s (renderers warm)   load {load:.2f}")
            figures: dict[str, float] = {}

            def download(name: str, query: str, label: str) -> None:
                load = os.getloadavg()[0]
                cpu = group_cpu(server.process.pid)
                took, status, pdf = fetch(f"{server.url}/e/{edit}/{name}.pdf{query}")
                cpu = group_cpu(server.process.pid) - cpu
                assert status == 200 and pdf.startswith(b"%PDF"), status
                figures.setdefault(name, took)
                print(
                    f"{name}.pdf {label:28} {took:5.2f} s ({cpu:4.2f} CPU s), "
                    f"{pages_of(pdf)} pages, {len(pdf) // 1024} KB   load {load:.2f}",
                    flush=True,
                )

            for name in ("sheets", "cards"):  # alone: the CPU seconds are the download's
                download(name, "", "first")
                download(name, "", "again (kept)")
            probes: list[float] = []
            done = threading.Event()

            def probe() -> None:
                while not done.is_set():
                    for page in pages:
                        probes.append(fetch(page)[0] * 1000)
                    time.sleep(0.05)

            prober = threading.Thread(target=probe)
            prober.start()
            try:  # made afresh (another paper) while the pages are loaded every 50 ms
                for name in ("sheets", "cards"):
                    download(name, "?paper=letter", "letter, pages loaded meanwhile")
            finally:
                done.set()
                prober.join()
            ms = sorted(probes)
            print(
                f"other pages meanwhile: {len(ms)} requests, median {statistics.median(ms):.0f} ms,"
                f" p95 {ms[int(len(ms) * 0.95) - 1]:.0f} ms, slowest {ms[-1]:.0f} ms, "
                f"over 200 ms: {sum(m > 200 for m in ms)}"
            )
            processes, rss = group_rss_mb(server.process.pid)
            print(
                f"first download: sheets {figures['sheets']:.2f} s, "
                f"cards {figures['cards']:.2f} s (goal <= 5 s each); server + renderers: "
                f"{processes} processes, {rss:.0f} MB resident; load {os.getloadavg()[0]:.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
