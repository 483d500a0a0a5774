"""SQLite in WAL mode: what ``synchronous=FULL`` costs against ``NORMAL`` on this disk.

Times ``--writes`` small committed transactions (one row each, as a saved round is) with each
setting and prints the median commit time. Not a test."""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path


def commit_ms(path: Path, synchronous: str, writes: int) -> float:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={synchronous}")
    db.execute("CREATE TABLE IF NOT EXISTS round (id INTEGER PRIMARY KEY, doc TEXT)")
    times = []
    for n in range(writes):
        start = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO round (doc) VALUES (?)", ("x" * 600 + str(n),))
        db.execute("COMMIT")
        times.append((time.perf_counter() - start) * 1000)
    db.close()
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--writes", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as folder:
        for setting in ("FULL", "NORMAL"):
            ms = commit_ms(Path(folder) / f"{setting}.sqlite3", setting, args.writes)
            print(f"synchronous={setting:6}  median commit {ms:.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
