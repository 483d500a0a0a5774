"""Time the largest one-page score sheet against a one-line WeasyPrint document.

Both are rendered in the same run, a few times each after a warm-up; the script prints the
medians, their ratio (goal: at most 4×) and the sheet's size in KB. ``--game`` picks the
sheet: Rummy 17 6 × 12 (default), Rummikub or Rummy-O 4 × 12, Manipulation 5 × 12. Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "sheets"))

from sheet_samples import manipulation_long, sample_match, sample_rack_match  # noqa: E402
from weasyprint import HTML  # noqa: E402

from companion.adapters.sheets import match_sheet  # noqa: E402

GOAL = 4.0
SAMPLES: dict[str, Callable[[], dict[str, Any]]] = {
    "rummy17": lambda: sample_match(6, 12, planned=12),
    "rummikub": lambda: sample_rack_match("rummikub", 4, 12, planned=12),
    "rummy-o": lambda: sample_rack_match("rummy-o", 4, 12, planned=12),
    "manipulation": lambda: manipulation_long(5, 12),
}


def median_seconds(render: Callable[[], bytes], repeat: int) -> tuple[float, bytes]:
    """The median wall time of ``repeat`` renders after one warm-up, and the last output."""
    out = render()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = render()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4")
    parser.add_argument("--game", choices=sorted(SAMPLES), default="rummy17")
    args = parser.parse_args()

    doc = SAMPLES[args.game]()
    history = [
        {"when": datetime(2024, 5, 1, 20, n), "what": f"Round {n} edited: a hand corrected"}
        for n in range(1, 4)
    ]
    url = "https://companion.example/v/Qx7kP2mZ9aLr4TbW"

    def sheet() -> bytes:
        return match_sheet(doc, paper=args.paper, history=history, readonly_url=url)

    def one_line() -> bytes:
        return HTML(string="<p style='font-family: DejaVu Sans'>Rummy 17</p>").write_pdf()

    base, _ = median_seconds(one_line, args.repeat)
    took, pdf = median_seconds(sheet, args.repeat)
    ratio = took / base
    print(f"one-line document: {base * 1000:8.1f} ms (median of {args.repeat})")
    size = f"{len(doc['players'])}×{len(doc['rounds'])}"
    print(f"{size} {args.game} sheet: {took * 1000:8.1f} ms (median of {args.repeat})")
    verdict = "met" if ratio <= GOAL else "NOT met"
    print(f"ratio:             {ratio:8.1f}×  (goal ≤ {GOAL:g}×: {verdict})")
    print(f"sheet PDF size:    {len(pdf) / 1024:8.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
