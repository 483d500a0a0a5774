"""What the shared render queue adds to a sheet (docs/adr/0001-render-queue.md): Huey's
polling, its SQLite storage and the result's trip back, against the same sheet drawn in the
asking process.

Draws ``--sheets`` different blank sheets (a new key each) in a warm process of its own
(``RenderQueue(inline=True)``: the drawing alone), then as many through a render process with
one worker (``render_queue.start``), and prints both medians, their difference (the queue's
cost per sheet), a kept sheet's read, and the load average beside each. Not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.adapters import render_queue  # noqa: E402
from companion.adapters.render_queue import RenderQueue  # noqa: E402
from companion.sheets.render import warm_up  # noqa: E402

BLANK = [("blank", {"players": 4, "game": "rummikub", "paper": "a4"})]


def timed(queue: RenderQueue, label: str, count: int) -> list[float]:
    times = []
    for n in range(count):
        start = time.perf_counter()
        queue.document(f"{label} {n} {time.time()}", "en", BLANK)
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sheets", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        warm_up()
        inline = RenderQueue(Path(folder) / "inline", inline=True)
        timed(inline, "warm", 2)
        load = os.getloadavg()[0]
        here = timed(inline, "inline", args.sheets)
        ms = statistics.median(here) * 1000
        print(f"drawn here:        median {ms:5.0f} ms   load {load:.2f}")
        process = render_queue.start(Path(folder) / "queued", 1)
        try:
            queued = RenderQueue(Path(folder) / "queued", inline=False)
            timed(queued, "warm", 2)
            load = os.getloadavg()[0]
            there = timed(queued, "queued", args.sheets)
            kept_key = f"kept {time.time()}"
            queued.document(kept_key, "en", BLANK)
            start = time.perf_counter()
            for _ in range(100):
                queued.document(kept_key, "en", BLANK)
            kept = (time.perf_counter() - start) / 100
        finally:
            render_queue.stop(process)
        ms = statistics.median(there) * 1000
        print(f"through the queue: median {ms:5.0f} ms   load {load:.2f}")
        cost = (statistics.median(there) - statistics.median(here)) * 1000
        print(f"the queue's cost: {cost:5.0f} ms a sheet; a kept sheet read in {kept * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
