"""PDF never blocks the table : 20 score sheets at once, and the pages meanwhile.

Starts ``companion serve`` on SQLite with 20 different 6 × 12 Rummy 17 matches, asks for
their 20 sheets at the same moment and, while they render, loads a scoreboard and the home
page every 50 ms. Prints when the first and the last sheet arrived, the pages' response
times meanwhile (goal: every one under 200 ms), and the same 20 downloads again, now from
the sheets kept on disk (no render). Not a test; the figures move with the machine's load.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from common import Server, make_matches

SHEETS = 20


def fetch(url: str) -> tuple[float, int, int]:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=300) as answer:
            size = len(answer.read())
            return time.perf_counter() - start, answer.status, size
    except urllib.error.HTTPError as refused:
        return time.perf_counter() - start, refused.code, 0


def one_round(server: Server, tokens: list[tuple[str, str]], pages: list[str], name: str) -> None:
    """Download every sheet at once while probing the pages; print the figures."""
    arrivals: list[float] = []
    statuses: list[int] = []
    probes: list[float] = []
    by_page: dict[str, list[float]] = {page: [] for page in pages}
    done = threading.Event()
    start = time.perf_counter()

    def download(view: str) -> None:
        _took, status, _size = fetch(f"{server.url}/v/{view}/sheet.pdf")
        statuses.append(status)
        arrivals.append(time.perf_counter() - start)

    def probe() -> None:
        while not done.is_set():
            for page in pages:
                took = fetch(page)[0]
                probes.append(took)
                by_page[page].append(took * 1000)
            time.sleep(0.05)

    prober = threading.Thread(target=probe)
    prober.start()
    threads = [threading.Thread(target=download, args=(view,)) for _edit, view in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    prober.join()
    arrivals.sort()
    ms = sorted(p * 1000 for p in probes)
    ok = statuses.count(200)
    print(
        f"{len(tokens)} sheets at once ({name}): {ok} delivered, first after {arrivals[0]:.1f} s, "
        f"last after {arrivals[-1]:.1f} s"
    )
    print(
        f"  other pages meanwhile: {len(ms)} requests, median {statistics.median(ms):.0f} ms, "
        f"p95 {ms[int(len(ms) * 0.95) - 1]:.0f} ms, slowest {ms[-1]:.0f} ms (goal < 200 ms); "
        f"over 200 ms: {sum(m > 200 for m in ms)}"
    )
    for page, names in zip(
        pages, ("read-only scoreboard", "home page", "edit scoreboard"), strict=True
    ):
        times = sorted(by_page[page])
        if times:
            print(
                f"    {names:21} median {statistics.median(times):4.0f} ms, "
                f"slowest {times[-1]:5.0f} ms, over 200 ms: {sum(t > 200 for t in times)}"
            )


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        instance = Path(folder) / "instance"
        tokens = make_matches(instance, SHEETS)
        with Server("companion", "gunicorn", instance) as server:
            edit, view = tokens[0]
            pages = [f"{server.url}/v/{view}", f"{server.url}/", f"{server.url}/m/{edit}"]
            for page in pages:
                fetch(page)  # warm: each worker's first request, the page cache
            one_round(server, tokens, pages, "rendered")
            one_round(server, tokens, pages, "kept on disk")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
