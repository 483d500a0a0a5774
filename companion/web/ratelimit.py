"""How many matches and events one address may start: a public server's guard (Flask-Limiter).

On the internet (``deploy/Caddyfile.public``) anybody could start matches and events in a
loop until the disk is full. Starting one (the start page, a rematch, ``POST
/api/v1/matches``, a new event on its page or over the API) is limited per client address,
``COMPANION_CREATE_LIMIT`` (default ``120/hour``: a club night of 50 tables behind one
address, each starting a match and a rematch within the hour, still fits), counted over a
moving hour and only when something was made (a form sent back with a mistake costs
nothing). Everything else is never limited: the scoreboards, saving rounds, seating an
event's sessions (which makes its tables' matches), so 200 phones behind one address at a
busy club night play on. ``COMPANION_CREATE_LIMIT=off`` turns it off.

The client address is the one ``ProxyFix`` took from the proxy's ``X-Forwarded-For`` when
``COMPANION_PROXY`` is set (without it, the connection's: the proxy's own address would
count for everybody, and an unset proxy setting would let anybody name any address). An
IPv6 address counts by its /64 network, which one household or phone is given whole.

The counts live in a small SQLite file in the instance folder (``limits.sqlite3``), not in
each process's memory: ``companion serve`` runs a gunicorn worker per core, and counts kept
per worker would let an address start the limit times the number of workers. Several
machines in front of one database each count their own (``COMPANION_CREATE_LIMIT_STORAGE``
takes any storage the ``limits`` package knows, e.g. ``redis://host``, to share them).
"""

from __future__ import annotations

import ipaddress
import math
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask, request
from flask_babel import ngettext
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import parse_many
from limits.storage import MovingWindowSupport, Storage

#: The default limit: matches and events one address may start in a moving hour.
DEFAULT_LIMIT = "120/hour"
#: Values of COMPANION_CREATE_LIMIT that turn the limit off.
OFF = {"", "0", "off", "no", "false", "none"}
#: The views that start something, all counted together.
CREATING = (
    "pages.start",
    "pages.rematch",
    "api.create_match",
    "events.new",
    "events_api.create",
)
#: The answers that mean something was made (a redirect to it, or 201 Created).
MADE = frozenset({201, 302, 303})


class SqliteStorage(Storage, MovingWindowSupport):
    """Counts shared by every process on this machine: a SQLite file, one row per start.

    ``companion+sqlite:///path/limits.sqlite3``. Each call opens its own connection (the
    file outlives the process that made it, and no connection crosses gunicorn's fork);
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


def client_address() -> str:
    """Whose starts are counted together: the client's address, an IPv6 one by its /64."""
    raw = request.remote_addr or "unknown"
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # an IPv4 client on a dual-stack socket
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


def create_limit(app: Flask) -> str | None:
    """``COMPANION_CREATE_LIMIT`` as the limits package reads it, or None when it is off."""
    raw = app.config.get("CREATE_LIMIT", DEFAULT_LIMIT)
    text = "" if raw is None or raw is False else str(raw).strip()
    if text.lower() in OFF:
        return None
    try:
        parse_many(text)
    except ValueError as err:
        raise ValueError(f"COMPANION_CREATE_LIMIT: {text!r} is not a limit like 60/hour") from err
    return text


def init_app(app: Flask, answer: Callable[[Any], Any]) -> None:
    """Limit the views that start something (after the blueprints are registered).

    ``answer`` is the app's error handler: a refusal is answered as every other error is (a
    page, or the API's JSON error object), with ``Retry-After`` and a sentence saying when.
    """
    limit = create_limit(app)
    if limit is None:
        return
    storage = app.config.get("CREATE_LIMIT_STORAGE") or (
        f"companion+sqlite:///{Path(app.instance_path, 'limits.sqlite3')}"
    )
    limiter = Limiter(
        client_address,
        storage_uri=str(storage),
        strategy="moving-window",
        headers_enabled=False,
        key_prefix="companion",
    )
    limiter.init_app(app)
    app.extensions["companion_limiter"] = limiter

    # Only the views that start something are limited, and their wrappers (below) check for
    # themselves: the check Flask-Limiter hangs before every request looks up each request's
    # limits to find none, a seventh of the read-only scoreboard's time. It goes.
    app.before_request_funcs[None].remove(limiter._check_request_limit)

    shared = limiter.shared_limit(
        limit,
        scope="create",
        methods=["POST"],
        deduct_when=lambda response: response.status_code in MADE,
    )
    views: dict[str, Any] = app.view_functions
    for endpoint in CREATING:
        views[endpoint] = shared(views[endpoint])

    def too_many(err: RateLimitExceeded) -> Any:
        seconds = retry_after(limiter)
        minutes = math.ceil(seconds / 60)
        err.description = ngettext(
            "This address has started as many matches and events as it may for now. "
            "Try again in %(num)s minute.",
            "This address has started as many matches and events as it may for now. "
            "Try again in %(num)s minutes.",
            minutes,
        )
        err.retry_after = seconds
        return answer(err)

    app.register_error_handler(RateLimitExceeded, too_many)


def retry_after(limiter: Limiter) -> int:
    """Whole seconds until this address may start something again (at least 1)."""
    current = limiter.current_limit
    storage = limiter.storage
    now = storage.clock() if isinstance(storage, SqliteStorage) else time.time()
    if current is None:
        return 60
    return max(1, math.ceil(current.window.reset_time - now))
