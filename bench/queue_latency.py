"""What the shared render queue adds to a sheet (docs/adr/0003-render-queue.md): Huey's
polling, its SQLite storage and the result's trip back, against the same sheet drawn in the
asking process.

Draws ``--sheets`` different score sheets (a 4-player Rummikub match of 8 rounds, a new key
each) in a warm process of its own (``RenderQueue(inline=True)``: the drawing alone), then as
many through a render process with one worker (``render_queue.start``), and prints both
medians, the CPU seconds a sheet took on each side (this process; the render process and its
worker), their difference (the queue's cost per sheet), a kept sheet's read, and the load
average beside each. Not a test.
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
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "sheets")]

from sheet_samples import sample_rack_match  # noqa: E402

from companion.adapters import render_queue  # noqa: E402
from companion.adapters.render_queue import RenderQueue  # noqa: E402
from companion.adapters.sheets.render import warm_up  # noqa: E402

SHEET = [("match", {"doc": sample_rack_match("rummikub", 4, 8, planned=12), "paper": "a4"})]
TICKS = os.sysconf("SC_CLK_TCK")


def group_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its children so far."""
    pids = [pid, *map(int, Path(f"/proc/{pid}/task/{pid}/children").read_text().split())]
    ticks = 0
    for each in pids:
        fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / TICKS


def timed(queue: RenderQueue, label: str, count: int) -> list[float]:
    times = []
    for n in range(count):
        start = time.perf_counter()
        queue.document(f"{label} {n} {time.time()}", "en", SHEET)
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
        cpu = time.process_time()
        here = timed(inline, "inline", args.sheets)
        cpu_here = (time.process_time() - cpu) / args.sheets
        ms = statistics.median(here) * 1000
        print(f"drawn here:        median {ms:5.0f} ms, {cpu_here:.3f} CPU s   load {load:.2f}")
        process = render_queue.start(Path(folder) / "queued", 1)
        try:
            queued = RenderQueue(Path(folder) / "queued", inline=False)
            timed(queued, "warm", 2)
            load = os.getloadavg()[0]
            cpu, own = group_cpu(process.pid), time.process_time()
            there = timed(queued, "queued", args.sheets)
            cpu_there = (group_cpu(process.pid) - cpu + time.process_time() - own) / args.sheets
            kept_key = f"kept {time.time()}"
            queued.document(kept_key, "en", SHEET)
            start = time.perf_counter()
            for _ in range(100):
                queued.document(kept_key, "en", SHEET)
            kept = (time.perf_counter() - start) / 100
        finally:
            render_queue.stop(process)
        ms = statistics.median(there) * 1000
        print(f"through the queue: median {ms:5.0f} ms, {cpu_there:.3f} CPU s   load {load:.2f}")
        cost = (statistics.median(there) - statistics.median(here)) * 1000
        print(f"the queue's cost: {cost:5.0f} ms a sheet; a kept sheet read in {kept * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
