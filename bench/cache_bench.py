"""What the per-revision caches save, in one process, no server: a 6 × 12
Rummy 17 match's result scored afresh against taken from the cache, and its read-only and
edit scoreboards rendered afresh against served from the cache (the edit page with CSRF on
and its session cookie kept, as a phone keeps it). Prints medians of ``--repeat`` runs and
the load average. Not a test."""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from common import make_matches

from companion.adapters import cache, store
from companion.adapters.db import get_session
from companion.web.app import create_app


def median_ms(run: Callable[[], object], repeat: int, before: Callable[[], None]) -> float:
    times = []
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        instance = Path(folder) / "instance"
        ((edit, view),) = make_matches(instance)
        app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "bench"})
        client = app.test_client()
        with app.app_context():
            match = store.get_by_view_token(get_session(), view)
            assert match is not None
            cold = median_ms(lambda: store.result(match), args.repeat, cache.results.clear)
            warm = median_ms(lambda: store.result(match), args.repeat, lambda: None)
        print(f"result of a 6 x 12 match: scored {cold:.2f} ms, from the cache {warm:.3f} ms")

        def clear() -> None:
            cache.results.clear()
            cache.pages.clear()

        for name, page in (("read-only", f"/v/{view}"), ("edit", f"/m/{edit}")):
            assert client.get(page).status_code == 200
            cold = median_ms(lambda: client.get(page), args.repeat, clear)  # noqa: B023
            warm = median_ms(lambda: client.get(page), args.repeat, lambda: None)  # noqa: B023
            print(f"{name} scoreboard page: rendered {cold:.1f} ms, from the cache {warm:.2f} ms")
        print("load average: " + ", ".join(f"{figure:.2f}" for figure in os.getloadavg()))
        app.extensions["companion_db"].dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
