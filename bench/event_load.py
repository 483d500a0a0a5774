"""Load benchmark of a club night: an event's standings page while every table saves rounds.

Sets up, in a temporary instance, an event of 200 entrants and 10 sessions, all seated (50
tables of four a session, 500 matches), and a 6 × 12 Rummy 17 match for the comparison. Starts
``companion serve`` (gunicorn, one worker per core: several processes, so nothing can rely on
one process's memory). Then, at the same time:

- writers: each of the last session's 50 tables saves a round over the matches API every
  ``--every`` seconds (default 3), as the tables' phones would;
- readers (Locust, ``--clients`` phones reloading about once a second): the event's standings
  page (``/ev/VIEW``), then, in a second phase under the same writers, the match's read-only
  scoreboard (``/v/VIEW``): the figure it is compared with.

Prints requests, errors and the 99th percentile of both (goal: standings under 200 ms at p99)
and the load average. ``--postgres URL`` runs on PostgreSQL instead of SQLite. ``--quick``:
short phases. Not a test: the figures move with the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from common import Server, make_matches, seated_event
from load import phase

ENTRANTS = 200
SESSIONS = 10


def make_event(instance: Path) -> tuple[str, list[str]]:
    """The event's read-only token and the edit tokens of its last session's tables."""
    from companion.adapters.db import get_session
    from companion.adapters.store import events
    from companion.web.app import create_app

    app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "bench"})
    with app.app_context():
        session = get_session()
        # long matches (60 rounds): the writers keep saving for the whole run
        event = seated_event(session, ENTRANTS, SESSIONS, 60)
        last = events.sessions_of(event)[-1]
        tokens = [t.match.edit_token for t in last if t.match is not None]
        view = event.view_token
    app.extensions["companion_db"].dispose()
    return view, tokens


def writer(
    url: str, token: str, every: float, stop: threading.Event, tally: dict[str, int]
) -> None:
    """One table's phone: a round every ``every`` seconds (random racks), until stopped."""
    rng = random.Random(token)
    time.sleep(rng.uniform(0, every))
    while not stop.is_set():
        try:
            with urllib.request.urlopen(f"{url}/api/v1/matches/{token}", timeout=10) as answer:
                match = json.load(answer)
            players = match["document"]["players"]
            if match["result"]["finished"]:
                return
            winner = rng.choice(players)
            body = {
                "went_out": winner,
                "players": [
                    {"name": n, "rack": [] if n == winner else {"points": rng.randint(1, 60)}}
                    for n in players
                ],
            }
            request = urllib.request.Request(
                f"{url}/api/v1/matches/{token}/games",
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json", "If-Match": f'"{match["revision"]}"'},
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=10):
                tally["saved"] += 1
        except OSError:
            tally["failed"] += 1
        stop.wait(every)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=40, help="length of each phase")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between a table's saves")
    parser.add_argument("--postgres", help="a PostgreSQL URL (default: SQLite in a temp folder)")
    parser.add_argument("--quick", action="store_true", help="15 s phases, 20 clients")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.clients = 15, 20
    if args.postgres:
        os.environ["COMPANION_DATABASE_URL"] = args.postgres
    with tempfile.TemporaryDirectory() as folder:
        instance = Path(folder) / "instance"
        started = time.monotonic()
        view, tables = make_event(instance)
        ((_edit, board),) = make_matches(instance, 1, players=6, games=12)
        print(
            f"event: {ENTRANTS} entrants, {SESSIONS} sessions, {len(tables)} tables a session "
            f"(set up in {time.monotonic() - started:.0f} s); "
            f"database: {'PostgreSQL' if args.postgres else 'SQLite'}"
        )
        with Server("companion", "gunicorn", instance) as companion:
            results: dict[str, Any] = {}
            tally = {"saved": 0, "failed": 0}
            load_before = os.getloadavg()[0]
            # Warm up: each server process scores the 500 tables once (its own result cache).
            phase(companion.url, f"/ev/{view}", args.clients, 8, paced=True)
            phase(companion.url, f"/v/{board}", args.clients, 4, paced=True)
            for name, path in (("standings", f"/ev/{view}"), ("scoreboard", f"/v/{board}")):
                stop = threading.Event()
                threads = [
                    threading.Thread(
                        target=writer, args=(companion.url, t, args.every, stop, tally), daemon=True
                    )
                    for t in tables
                ]
                for thread in threads:
                    thread.start()
                results[name] = phase(companion.url, path, args.clients, args.seconds, paced=True)
                stop.set()
                for thread in threads:
                    thread.join(timeout=15)
            load_after = os.getloadavg()[0]
        print(f"load average {load_before:.2f} → {load_after:.2f} (1 min)")
        print(
            f"writers: {len(tables)} tables, a round every {args.every:.0f} s each: "
            f"{tally['saved']} saved, {tally['failed']} failed"
        )
        for name, figures in results.items():
            print(
                f"{name:<11} {figures['requests']:6d} requests, errors {figures['failures']}, "
                f"p50 {figures['p50']:.0f} ms, p99 {figures['p99']:.0f} ms"
            )
        print(
            f"standings p99 / scoreboard p99 = "
            f"{results['standings']['p99'] / max(results['scoreboard']['p99'], 1):.2f} "
            "(goal: standings p99 under 200 ms)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
