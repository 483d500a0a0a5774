"""Time table rescue (goal: a full 106-tile table in about a second).

In one run: the full table (106 tiles), random legal tables, and a table with one tile that
cannot be placed are each solved by ``Game.rescue``; as the baseline, the full table's known
arrangement is merely checked meld by meld with ``Game.check_meld``. Prints each median and
the ratio of the full-table solve to the baseline. Not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "rules"))

from rescue_tables import cards_of, full_table, impossible_table, legal_table  # noqa: E402

from companion.domain import all_games, get_game  # noqa: E402

GOAL = 1.0  # seconds for a full table


def median_seconds(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median wall time of ``repeat`` runs after one warm-up, and the last answer."""
    out = run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    ids = [g.id for g in all_games() if g.rescues]
    parser.add_argument("--game", default=ids[0], choices=ids)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tables", type=int, default=10, help="random legal tables")
    args = parser.parse_args()
    game = get_game(args.game)
    cards, melds = full_table(args.game)

    def check_all() -> bool:
        return all(game.check_meld(m)["valid"] for m in melds)

    baseline, legal = median_seconds(check_all, args.repeat)
    full, answer = median_seconds(lambda: game.rescue(cards), args.repeat)
    assert legal and answer["solved"], "the full table must be solvable"
    rng = random.Random(10)
    tables = [cards_of(legal_table(args.game, rng, tries=60), rng) for _ in range(args.tables)]
    times = []
    for table in tables:
        start = time.perf_counter()
        assert game.rescue(table)["solved"]
        times.append(time.perf_counter() - start)
    heap, lone = impossible_table(args.game)
    stuck, refused = median_seconds(lambda: game.rescue(heap), args.repeat)
    assert refused["unplaceable"] == [lone]
    sizes = [len(t) for t in tables]
    print(f"game: {args.game}")
    print(f"baseline: check the full table's {len(melds)} melds: {baseline * 1000:.2f} ms")
    print(f"full table ({len(cards)} tiles) solved: {full * 1000:.0f} ms (goal {GOAL:.0f} s)")
    print(
        f"{len(tables)} random legal tables ({min(sizes)}-{max(sizes)} tiles): median "
        f"{statistics.median(times) * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms"
    )
    print(f"table with one impossible tile ({len(heap)} tiles, {lone}): {stuck * 1000:.0f} ms")
    print(f"ratio full solve / baseline check: {full / baseline:.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
