"""How fast the command line answers: ``companion score`` on a small round against a bare
``python -c pass`` of the same interpreter, measured in the same run and interleaved, so a
busy machine slows both alike. Prints the medians, the ratio and the load average.

    .venv/bin/python bench/startup.py [--runs 15] [FILE]

Goal: the ratio at most 10. Also times ``match``, ``check``, ``turn`` and
``standings`` (none of which needs OR-Tools) and ``rescue`` (which does). Not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def timed(argv: list[str]) -> float:
    """Seconds one run of ``argv`` takes, from start to exit."""
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("file", nargs="?", default=str(DATA / "rummy17-round.json"))
    args = parser.parse_args()
    py = sys.executable
    commands = {
        "python -c pass": [py, "-c", "pass"],
        "score": [py, "-m", "companion", "score", args.file],
        "match": [py, "-m", "companion", "match", str(DATA / "rummy17-match.json")],
        "check": [py, "-m", "companion", "check", "--game", "rummikub", "R5", "R6", "R7"],
        "standings": [py, "-m", "companion", "standings", str(DATA / "event.json")],
        "rescue": [py, "-m", "companion", "rescue", "--game", "rummikub", "R5", "R6", "R7", "*"],
    }
    for argv in commands.values():  # warm the file cache and the .pyc files
        timed(argv)
    load_before = os.getloadavg()
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, argv in commands.items():  # interleaved: a busy moment slows all alike
            times[name].append(timed(argv))
    load_after = os.getloadavg()
    base = statistics.median(times["python -c pass"])
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")
    print(f"{'command':<16} {'median ms':>10} {'ratio':>7}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<16} {1000 * median:>10.1f} {median / base:>7.1f}")
    ratio = statistics.median(times["score"]) / base
    print(f"score / python -c pass = {ratio:.1f} (goal: at most 10)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
