"""The database: one engine per app, one session per request, and Alembic migrations.

SQLite in the instance folder by default; PostgreSQL (psycopg 3) when
``COMPANION_DATABASE_URL`` says so, e.g. ``postgresql+psycopg://user:pw@host/companion``.
"""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from flask import Flask, current_app, g
from sqlalchemy import Engine, create_engine, event
from sqlmodel import Session

MIGRATIONS = Path(__file__).parent / "migrations"
SQLITE_NAME = "companion.sqlite3"


def database_url(app: Flask) -> str:
    """The configured URL, or a SQLite file in the instance folder."""
    url = app.config.get("DATABASE_URL") or os.environ.get("COMPANION_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{Path(app.instance_path) / SQLITE_NAME}"


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys switched on."""
    if url.startswith("sqlite"):
        kwargs.setdefault("connect_args", {"check_same_thread": False})
    else:
        kwargs.setdefault("pool_pre_ping", True)
    # Names stay readable in the database ("Béla", not an escaped "B\u00e9la").
    kwargs.setdefault("json_serializer", partial(json.dumps, ensure_ascii=False))
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def get_engine(app: Flask | None = None) -> Engine:
    """The app's engine."""
    return (app or current_app).extensions["companion_db"]


def get_session() -> Session:
    """The session of the current request, opened on first use and closed at teardown."""
    if "db_session" not in g:
        g.db_session = Session(get_engine(), expire_on_commit=False)
    return g.db_session


def close_session(_exc: BaseException | None = None) -> None:
    """Close the request's session, rolling back anything left uncommitted."""
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def upgrade(engine: Engine) -> None:
    """Bring the database schema up to date (``alembic upgrade head``)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # The URL is not put into the config: "%" (an escaped password) breaks its interpolation.
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def init_app(app: Flask) -> None:
    """Create the engine, migrate unless told not to, and close sessions at teardown."""
    url = database_url(app)
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = make_engine(url, **app.config.get("DATABASE_ENGINE_OPTIONS", {}))
    app.extensions["companion_db"] = engine
    if app.config.get("DATABASE_MIGRATE", True):
        upgrade(engine)
    app.teardown_appcontext(close_session)
