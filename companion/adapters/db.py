"""The database: one engine per app, one session per request, and Alembic migrations.

SQLite is set up for durability on every connection (``SQLITE_PRAGMAS``: WAL, synchronous
FULL, foreign keys; and a busy timeout) and its file is private to its owner (0600).

One snapshot per request. A request's session reads and writes in one transaction, begun at
its first statement and ended by the write's commit or at teardown, so everything a request
reads is one state of the database and its write is checked against that same state (two
separate reads could see a row and then not see it, or a match's old revision with its new
round). On SQLite the driver's own transaction handling is switched off and every
transaction is begun by us (``_sqlite_begin``): ``BEGIN`` for a read, whose snapshot is taken
at its first SELECT; ``BEGIN IMMEDIATE`` for a request that may write (any method but GET,
HEAD and OPTIONS), which takes the write lock before the request reads anything: a
transaction that read first could not be upgraded to a write once another connection wrote
(SQLITE_BUSY at once, no busy timeout), while one that waits for the lock up front waits
politely (the busy timeout) and then reads the newest state. PostgreSQL runs every
transaction at REPEATABLE READ (one snapshot from the first statement on); a write that finds
its row changed since that snapshot fails with a serialization failure, which the store
answers as a stale revision or a conflict, and which ``transient`` names for the error
handler otherwise (503, try again; never a 500).

SQLite in the instance folder by default; PostgreSQL (psycopg 3) when
``COMPANION_DATABASE_URL`` says so, e.g. ``postgresql+psycopg://user:pw@host/companion``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache, partial
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app, g, has_request_context, request
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

MIGRATIONS = Path(__file__).parent / "migrations"
SQLITE_NAME = "companion.sqlite3"


def database_url(app: Flask) -> str:
    """The configured URL, or a SQLite file in the instance folder."""
    url = app.config.get("DATABASE_URL") or os.environ.get("COMPANION_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{Path(app.instance_path) / SQLITE_NAME}"


#: How long a connection waits for another one's write lock before giving up (ms).
BUSY_TIMEOUT_MS = 10_000

#: Every SQLite connection, on opening. WAL: readers never wait for the writer, and a
#: crash can only lose a write that was not yet acknowledged. synchronous=FULL: a commit is
#: on the disk before the answer leaves (NORMAL would be faster in WAL mode but may lose the
#: last acknowledged writes on a power cut; bench/README.md has the figures). The busy
#: timeout (the driver's ``timeout``, which is SQLite's busy_timeout, BUSY_TIMEOUT_MS unless
#: the engine options say otherwise) lets a write wait for another process's write.
SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA foreign_keys=ON",
)


#: The execution option that makes a transaction a writer's: on SQLite it begins with
#: ``BEGIN IMMEDIATE`` (the write lock first, then the reads). Pass it to
#: ``Session.connection(execution_options=WRITING)`` before a session's first statement.
WRITING = {"companion_writing": True}

#: The HTTP methods that never write; a request with any other method begins as a writer.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite connections get ``SQLITE_PRAGMAS``, the busy timeout and
    transactions begun by ``_sqlite_begin``; PostgreSQL's run at REPEATABLE READ."""
    if url.startswith("sqlite"):
        kwargs.setdefault(
            "connect_args", {"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
        )
    else:
        kwargs.setdefault("pool_pre_ping", True)
        kwargs.setdefault("isolation_level", "REPEATABLE READ")
    # A database error's message never shows the values sent (link tokens among them).
    kwargs.setdefault("hide_parameters", True)
    # Names stay readable in the database ("Béla", not an escaped "B\u00e9la").
    kwargs.setdefault("json_serializer", partial(json.dumps, ensure_ascii=False))
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """A new SQLite connection: the pragmas, and the driver's transaction handling off (it
    would begin a transaction only before a write, so every SELECT saw the database anew)."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    """Begin a transaction for real (the SQLAlchemy documentation's pysqlite recipe):
    ``BEGIN IMMEDIATE`` for a writer (``WRITING``), else a deferred ``BEGIN``."""
    writing = connection.get_execution_options().get("companion_writing")
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")


#: PostgreSQL's SQLSTATEs of a transaction that lost to another and may simply be tried again:
#: serialization_failure, deadlock_detected.
RETRYABLE_SQLSTATES = frozenset({"40001", "40P01"})
#: SQLite's primary result codes of the same: SQLITE_BUSY, SQLITE_LOCKED.
RETRYABLE_SQLITE_CODES = frozenset({5, 6})


def transient(err: OperationalError) -> bool:
    """Whether the database refused because another transaction was in the way (a
    serialization failure or deadlock on PostgreSQL; a busy or locked database on SQLite), so
    that the same request may succeed when tried again; not a broken database."""
    orig = err.orig
    if getattr(orig, "sqlstate", None) in RETRYABLE_SQLSTATES:
        return True
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in RETRYABLE_SQLITE_CODES
    return "database is locked" in str(orig)


def private_file(path: Path) -> None:
    """Create the SQLite file readable by its owner only (0600), or make it so.

    SQLite gives its -wal and -shm files the database file's permissions, so they are
    private too. Created with O_EXCL: of several processes starting at once, one creates it.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            if name.stat().st_mode & 0o077:
                name.chmod(0o600)
        except FileNotFoundError:
            pass


def get_engine(app: Flask | None = None) -> Engine:
    """The app's engine."""
    engine: Engine = (app or current_app).extensions["companion_db"]
    return engine


def get_session() -> Session:
    """The session of the current request, opened on first use and closed at teardown.

    Its first transaction is the request's snapshot (see the module's words); a request that
    may write (not GET, HEAD or OPTIONS) begins it as a writer at once (``WRITING``), so its
    reads and its write are one transaction that no other write can come between. After a
    commit, what the request reads for its answer is a new (reading) transaction.
    """
    if "db_session" not in g:
        session = Session(get_engine(), expire_on_commit=False)
        g.db_session = session
        if has_request_context() and request.method not in SAFE_METHODS:
            session.connection(execution_options=WRITING)
    found: Session = g.db_session
    return found


def close_session(_exc: BaseException | None = None) -> None:
    """Close the request's session, rolling back anything left uncommitted."""
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for our migrations, on ``connection`` when given."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # The URL is not put into the config: "%" (an escaped password) breaks its interpolation.
    if connection is not None:
        config.attributes["connection"] = connection
    return config


#: Taken first in a PostgreSQL migration's transaction and held until it ends: two servers
#: started at once on one database (a club on two computers) would otherwise both run the
#: same migration, and the second fail on a table the first just made. The second now waits,
#: then finds the schema up to date. One lock per schema, so databases in other schemas
#: (the tests') do not wait for each other.
MIGRATION_LOCK = text(
    "SELECT pg_advisory_xact_lock(hashtext('companion migrations ' || current_schema()))"
)


@contextmanager
def migrating(engine: Engine) -> Iterator[Connection]:
    """A connection holding one transaction for migrations: all of them happen, or none.

    On SQLite, foreign keys are switched off for the duration (batch mode copies a table and
    drops the old one, which would cascade-delete the rows referring to it; they are checked
    before commit). The transaction is a writer's (``BEGIN IMMEDIATE``, see
    ``_sqlite_begin``): the DDL is inside it too, and of several processes starting at once,
    one migrates while the others wait and then find nothing left to do. On PostgreSQL the
    transaction first takes ``MIGRATION_LOCK`` (one server migrates at a time) at READ
    COMMITTED, so that once it holds the lock it sees what the server before it migrated.
    """
    with engine.connect() as connection:
        if connection.dialect.name != "sqlite":
            if connection.dialect.name == "postgresql":
                connection.execution_options(isolation_level="READ COMMITTED")
            with connection.begin():
                if connection.dialect.name == "postgresql":
                    connection.execute(MIGRATION_LOCK)
                yield connection
            return
        driver: Any = connection.connection.driver_connection
        driver.execute("PRAGMA foreign_keys=OFF")  # only works outside a transaction
        try:
            connection.execution_options(**WRITING)
            with connection.begin():
                yield connection
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
        finally:
            driver.execute("PRAGMA foreign_keys=ON")


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database schema up to date (``alembic upgrade head``)."""
    with migrating(engine) as connection:
        command.upgrade(alembic_config(connection), revision)


@cache
def shipped_heads() -> frozenset[str]:
    """The newest revisions of the migrations shipped, read from their files once per process."""
    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def up_to_date(engine: Engine) -> bool:
    """Whether the database is at the shipped migrations' head already (one small query): a
    process starting on a migrated database, every start but the first, then loads no
    migration. Two processes that both find it behind both ``upgrade``; the second waits
    for the first (``migrating``) and finds nothing left to do."""
    with engine.connect() as connection:
        found = MigrationContext.configure(connection).get_current_heads()
    return frozenset(found) == shipped_heads()


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database schema back to ``revision`` (``alembic downgrade``), keeping data."""
    with migrating(engine) as connection:
        command.downgrade(alembic_config(connection), revision)


def init_app(app: Flask) -> None:
    """Open the app's database (``open_database``) and close sessions at teardown."""
    open_database(app)
    app.teardown_appcontext(close_session)


def open_database(app: Flask) -> Engine:
    """The engine of the app's ``DATABASE_URL`` (migrated unless ``DATABASE_MIGRATE`` is
    false), from now on the app's. The tests put one app on each test's own database."""
    url = database_url(app)
    if url.startswith("sqlite:///") and url.removeprefix("sqlite:///") not in ("", ":memory:"):
        private_file(Path(url.removeprefix("sqlite:///").split("?", 1)[0]))
    engine = make_engine(url, **app.config.get("DATABASE_ENGINE_OPTIONS", {}))
    app.extensions["companion_db"] = engine
    if app.config.get("DATABASE_MIGRATE", True) and not up_to_date(engine):
        upgrade(engine)
    return engine
