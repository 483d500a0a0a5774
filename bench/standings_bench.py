"""How long the standings of a big event take (EV-5, EV-6): 200 entrants, 50 tables of four,
10 sessions, every table having played its four rounds, against scoring one match in the same
run. Prints both medians, the ratio and the load average. Not a test.

    .venv/bin/python bench/standings_bench.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.domain import get_game, match_document  # noqa: E402
from companion.domain.club import met_pairs, seat_session, standings  # noqa: E402


def table(players: tuple[str, ...], rng: random.Random) -> dict:
    """A finished Rummikub table: one round per seat, a random winner and racks each round."""
    rounds = []
    for _ in players:
        winner = rng.choice(players)
        rounds.append(
            {
                "went_out": winner,
                "players": [
                    {"name": n, "rack": [] if n == winner else {"points": rng.randint(1, 80)}}
                    for n in players
                ],
            }
        )
    return {"players": list(players), "first_dealer": players[0], "rounds": rounds}


def event(rng: random.Random) -> dict:
    game = get_game("rummikub")
    names = [f"Player {i:03}" for i in range(200)]
    sessions: list[list[tuple[str, ...]]] = []
    for s in range(10):
        seated = seat_session(names, game, seed=s, met=met_pairs(sessions))
        sessions.append(list(seated))
    return {
        "game": "rummikub",
        "entrants": names,
        "sessions": [{"tables": [table(t, rng) for t in tables]} for tables in sessions],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    doc = event(random.Random(1))
    one = {"game": "rummikub", **doc["sessions"][0]["tables"][0]}
    load = os.getloadavg()[0]
    big, small = [], []
    for _ in range(args.runs):
        start = time.perf_counter()
        standings(doc)
        big.append(time.perf_counter() - start)
        start = time.perf_counter()
        match_document(one)
        small.append(time.perf_counter() - start)
    b, m = statistics.median(big), statistics.median(small)
    tables = sum(len(s["tables"]) for s in doc["sessions"])
    print(f"load average {load:.2f} → {os.getloadavg()[0]:.2f}")
    print(f"standings of 200 entrants, {tables} tables, 10 sessions: {1000 * b:.1f} ms")
    print(f"one match of four rounds: {1000 * m:.2f} ms; ratio {b / m:.0f} (≈ {tables} tables)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
