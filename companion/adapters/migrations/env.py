"""Alembic environment: migrates the connection handed over by ``companion.adapters.db.upgrade``.

Run from a checkout with ``alembic upgrade head`` (alembic.ini at the repository top), the
URL comes from ``COMPANION_DATABASE_URL`` or ``-x url=...``.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import Connection
from sqlmodel import SQLModel

import companion.adapters.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from companion.adapters.db import make_engine, migrating

config = context.config
target_metadata = SQLModel.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def run_migrations_offline() -> None:
    """Write the SQL to standard output instead of running it."""
    context.configure(
        url=_url(), target_metadata=target_metadata, literal_binds=True, compare_type=True
    )
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url")
    url = url or os.environ.get("COMPANION_DATABASE_URL")
    url = url or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("set COMPANION_DATABASE_URL or pass -x url=... to alembic")
    return url


def run_migrations_online() -> None:
    """Migrate the given connection, or one opened from the configured URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(_url())
    with migrating(engine) as connection:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
