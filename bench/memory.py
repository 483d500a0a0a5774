"""Memory over a long fuzz run : is the app's memory flat?

Sends ``--requests`` (default 20,000) hostile requests in-process to the app on a fresh
SQLite file — the corpus of tests/web/test_fuzz.py: raw bodies (deep nesting, NaN, lone
surrogates, NUL, huge numbers), valid documents with one value swapped for something hostile,
form posts with hostile values and names, odd query strings and paths — and prints the
resident memory (RSS) at the start (after a warm-up), in the middle and at the end, the
growth ratio end/start (goal: about 1.0) and how many answers were 5xx (goal: 0).
Linux only (reads /proc/self/status). Not a test.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "web"))

from samples import PLAYERS, sample_round  # noqa: E402
from test_fuzz import HOSTILE_NAMES, HOSTILE_TEXT, RAW  # noqa: E402

from companion.adapters import store  # noqa: E402
from companion.adapters.db import get_session  # noqa: E402
from companion.domain import all_games  # noqa: E402
from companion.web.app import create_app  # noqa: E402

GAME_IDS = [g.id for g in all_games()]
HOSTILE_VALUES: list[Any] = [
    None,
    True,
    -1,
    10**14,
    1.5,
    [],
    {},
    [[[[["deep"]]]]],
    *HOSTILE_TEXT,
]


def rss_mb() -> float:
    """The process' resident memory now, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*prefix, i))
    return out


def mutated(rng: random.Random, doc: Any) -> bytes:
    """``doc`` with one value anywhere in it swapped for a hostile one, as JSON bytes."""
    copy = json.loads(json.dumps(doc))
    path = rng.choice(_paths(copy))
    new = rng.choice(HOSTILE_VALUES)
    if not path:
        copy = new
    else:
        here = copy
        for step in path[:-1]:
            here = here[step]
        here[path[-1]] = new
    return json.dumps(copy, ensure_ascii=False).encode("utf-8", "surrogatepass")


def browser_text(text: str) -> str:
    return text.encode("utf-8", "replace").decode("utf-8")


def one_request(client: Any, rng: random.Random, edits: dict[str, str]) -> int:
    """Send one request of the corpus; its status code."""
    game = rng.choice(GAME_IDS)
    edit = edits[game]
    kind = rng.randrange(8)
    if kind == 0:
        body = rng.choice(RAW)
        path = rng.choice(["/api/v1/score", "/api/v1/match", "/api/v1/check", "/api/v1/matches"])
        return int(client.post(path, data=body, content_type="application/json").status_code)
    if kind in (1, 2):
        body = mutated(rng, sample_round(game, rng.randrange(1, 9)))
        return int(client.post("/api/v1/score", data=body).status_code)
    if kind == 3:
        body = mutated(rng, sample_round(game, 1))
        url = f"/api/v1/matches/{edit}/games/{rng.choice([1, 2])}"
        return int(client.put(url, data=body, headers={"If-Match": "*"}).status_code)
    if kind == 4:
        name = rng.choice([*HOSTILE_NAMES, "players-0-rack", "players-1-hand", "went_out"])
        value = browser_text(rng.choice(HOSTILE_TEXT))
        return int(client.post(f"/m/{edit}/rounds/new", data={name: value}).status_code)
    if kind == 5:
        data = {"names-0": browser_text(rng.choice(HOSTILE_TEXT)), "names-1": "Béla", "first": "0"}
        return int(client.post(f"/start/{game}", data=data).status_code)
    text = quote(rng.choice(HOSTILE_TEXT).encode("utf-8", "surrogatepass"), safe="")
    where = rng.choice(
        [
            f"/check?game={game}&cards={text}",
            f"/m/{text}",
            f"/api/v1/matches/{text}",
            f"/m/{edit}?history={text}",
            f"/v/{text}.json",
        ]
    )
    return int(client.get(where).status_code)


def main() -> None:
    """Run the fuzz and print RSS at start, middle and end, and the growth ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3",
                "INSTANCE_PATH": tmp,
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
            }
        )
        edits = {}
        with app.app_context():
            for game in GAME_IDS:
                match = store.create_match(
                    get_session(), game=game, players=PLAYERS, first_dealer="Anna", games=None
                )
                store.add_round(get_session(), match, sample_round(game, 1))
                edits[game] = match.edit_token
        client = app.test_client()
        rng = random.Random(args.seed)
        warm = min(1000, args.requests // 10)
        for _ in range(warm):
            one_request(client, rng, edits)
        gc.collect()
        start = rss_mb()
        marks: list[tuple[int, float]] = []
        errors = 0
        began = time.perf_counter()
        for n in range(1, args.requests + 1):
            errors += one_request(client, rng, edits) >= 500
            if n == args.requests // 2:
                gc.collect()
                marks.append((n, rss_mb()))
        gc.collect()
        end = rss_mb()
        took = time.perf_counter() - began
        app.extensions["companion_db"].dispose()
    print(f"requests: {args.requests} (+{warm} warm-up) in {took:.0f} s, 5xx answers: {errors}")
    print(f"RSS start:  {start:7.1f} MB")
    for n, mb in marks:
        print(f"RSS middle: {mb:7.1f} MB (after {n})")
    print(f"RSS end:    {end:7.1f} MB")
    print(f"growth end/start: {end / start:.3f} (goal: flat, about 1.0)")


if __name__ == "__main__":
    main()
