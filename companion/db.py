"""The database: one engine per app, one session per request, and Alembic migrations.

SQLite is set up for durability on every connection (``SQLITE_PRAGMAS``: WAL, synchronous
FULL, foreign keys; and a busy timeout) and its file is private to its owner (0600).

SQLite in the instance folder by default; PostgreSQL (psycopg 3) when
``COMPANION_DATABASE_URL`` says so, e.g. ``postgresql+psycopg://user:pw@host/companion``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from flask import Flask, current_app, g
from sqlalchemy import Connection, Engine, create_engine, event, text
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


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite connections get ``SQLITE_PRAGMAS`` and the busy timeout."""
    if url.startswith("sqlite"):
        kwargs.setdefault(
            "connect_args", {"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
        )
    else:
        kwargs.setdefault("pool_pre_ping", True)
    # A database error's message never shows the values sent (link tokens among them).
    kwargs.setdefault("hide_parameters", True)
    # Names stay readable in the database ("Béla", not an escaped "B\u00e9la").
    kwargs.setdefault("json_serializer", partial(json.dumps, ensure_ascii=False))
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


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
    """The session of the current request, opened on first use and closed at teardown."""
    if "db_session" not in g:
        g.db_session = Session(get_engine(), expire_on_commit=False)
    session: Session = g.db_session
    return session


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
    before commit), and the transaction is begun explicitly so the DDL is inside it too
    (pysqlite on its own would run CREATE and DROP outside any transaction). On PostgreSQL
    the transaction first takes ``MIGRATION_LOCK``: one server migrates at a time.
    """
    with engine.connect() as connection:
        if connection.dialect.name != "sqlite":
            with connection.begin():
                if connection.dialect.name == "postgresql":
                    connection.execute(MIGRATION_LOCK)
                yield connection
            return
        driver = connection.connection.driver_connection
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # only works outside a transaction
        connection.commit()
        level = driver.isolation_level  # type: ignore[union-attr]
        driver.isolation_level = None  # type: ignore[union-attr]
        try:
            with connection.begin():
                connection.exec_driver_sql("BEGIN")
                yield connection
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
        finally:
            driver.isolation_level = level  # type: ignore[union-attr]
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database schema up to date (``alembic upgrade head``)."""
    with migrating(engine) as connection:
        command.upgrade(alembic_config(connection), revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database schema back to ``revision`` (``alembic downgrade``), keeping data."""
    with migrating(engine) as connection:
        command.downgrade(alembic_config(connection), revision)


def init_app(app: Flask) -> None:
    """Create the engine, migrate unless told not to, and close sessions at teardown."""
    url = database_url(app)
    if url.startswith("sqlite:///") and url.removeprefix("sqlite:///") not in ("", ":memory:"):
        private_file(Path(url.removeprefix("sqlite:///").split("?", 1)[0]))
    engine = make_engine(url, **app.config.get("DATABASE_ENGINE_OPTIONS", {}))
    app.extensions["companion_db"] = engine
    if app.config.get("DATABASE_MIGRATE", True):
        upgrade(engine)
    app.teardown_appcontext(close_session)
