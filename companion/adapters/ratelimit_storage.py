"""The create limit's counts in a SQLite file shared by every server process on this machine.

``companion serve`` runs a worker process per core: counts kept in each one's memory would let
an address start the limit times the number of workers. This is a storage for the ``limits``
package (which Flask-Limiter counts with), registered under the scheme ``companion+sqlite``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from limits.storage import MovingWindowSupport, Storage


class SqliteStorage(Storage, MovingWindowSupport):
    """Counts shared by every process on this machine: a SQLite file, one row per start.

    ``companion+sqlite:///path/limits.sqlite3``. The ``limits`` package's storage interface
    (its moving window, and the fixed window it asks for too), and ``give_back``. Each call
    opens its own connection (the file outlives the process that made it, and no connection
    crosses the fork into the server's workers);
    a start takes the write lock (``BEGIN IMMEDIATE``), so two processes never both take
    the last place. ``clock`` gives the time (the tests turn it by hand).
    """

    STORAGE_SCHEME = ["companion+sqlite"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = Path((uri or "").split("://", 1)[1])
        self.clock: Callable[[], float] = time.time
        with self._connection() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS hits (key TEXT NOT NULL, at REAL NOT NULL, "
                "expires REAL NOT NULL)"
            )
            db.execute("CREATE INDEX IF NOT EXISTS hits_key ON hits (key, at)")

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            yield db
        finally:
            db.close()

    @contextmanager
    def _writing(self) -> Iterator[tuple[sqlite3.Connection, float]]:
        """A write under the file's lock, the expired rows gone first; the time now."""
        with self._connection() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                now = self.clock()
                db.execute("DELETE FROM hits WHERE expires <= ?", (now,))
                yield db, now
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _window(self, db: sqlite3.Connection, key: str, since: float) -> tuple[float | None, int]:
        row = db.execute(
            "SELECT MIN(at), COUNT(*) FROM hits WHERE key = ? AND at > ?", (key, since)
        ).fetchone()
        return row[0], int(row[1])

    # --- the moving window (the strategy the app uses) ------------------------------------

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        with self._writing() as (db, now):
            _, count = self._window(db, key, now - expiry)
            if count + amount > limit:
                return False
            rows = [(key, now, now + expiry)] * amount
            db.executemany("INSERT INTO hits (key, at, expires) VALUES (?, ?, ?)", rows)
            return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        with self._connection() as db:
            now = self.clock()
            first, count = self._window(db, key, now - expiry)
            return (first if first is not None else now), count

    # --- a fixed window (the storage interface asks for it too) ---------------------------

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        with self._writing() as (db, now):
            row = db.execute("SELECT MIN(expires) FROM hits WHERE key = ?", (key,)).fetchone()
            ends = row[0] if row[0] is not None else now + expiry
            rows = [(key, now, ends)] * amount
            db.executemany("INSERT INTO hits (key, at, expires) VALUES (?, ?, ?)", rows)
            return int(db.execute("SELECT COUNT(*) FROM hits WHERE key = ?", (key,)).fetchone()[0])

    def get(self, key: str) -> int:
        with self._connection() as db:
            query = "SELECT COUNT(*) FROM hits WHERE key = ? AND expires > ?"
            return int(db.execute(query, (key, self.clock())).fetchone()[0])

    def get_expiry(self, key: str) -> float:
        with self._connection() as db:
            query = "SELECT MIN(expires) FROM hits WHERE key = ? AND expires > ?"
            row = db.execute(query, (key, self.clock())).fetchone()
            return float(row[0]) if row[0] is not None else self.clock()

    def check(self) -> bool:
        try:
            with self._connection() as db:
                db.execute("SELECT 1 FROM hits LIMIT 1")
            return True
        except sqlite3.Error:
            return False

    def reset(self) -> int | None:
        with self._writing() as (db, _now):
            return db.execute("DELETE FROM hits").rowcount

    def clear(self, key: str) -> None:
        with self._writing() as (db, _now):
            db.execute("DELETE FROM hits WHERE key = ?", (key,))

    # --- giving a start back --------------------------------------------------------------

    def give_back(self, key: str, amount: int = 1) -> None:
        """Take the newest ``amount`` entries of ``key`` out of its window: they were counted
        before a request that then made nothing (``companion.ratelimit``)."""
        with self._writing() as (db, _now):
            db.execute(
                "DELETE FROM hits WHERE rowid IN "
                "(SELECT rowid FROM hits WHERE key = ? ORDER BY at DESC LIMIT ?)",
                (key, amount),
            )
