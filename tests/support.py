"""Test helpers any test module can import (``from support import load, unavailable``)."""

from __future__ import annotations

import glob
import html
import importlib
import io
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import pytest
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.exc import OperationalError

if TYPE_CHECKING:
    from flask import Flask

DATA = Path(__file__).parent / "data"
#: Games that live only under tests/ (Gin Rummy), each a distribution beside its module.
GAMES = Path(__file__).parent / "games"


def load(name: str) -> dict:
    """An example document from tests/data."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def unlinked(page: str) -> str:
    """A page's words: entities unescaped, clause links (``rule_links``) back to plain ids."""
    return html.unescape(re.sub(r'<a class="rule-link" href="[^"]*">([^<]*)</a>', r"\1", page))


def unavailable(reason: str) -> None:
    """Skip locally, but fail in CI, where every test must run."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (in CI nothing may be skipped)")
    pytest.skip(reason)


def subset(expected: object, got: object) -> bool:
    """True when every field of ``expected`` is in ``got`` with the same value (recursively)."""
    if isinstance(expected, dict):
        return isinstance(got, dict) and all(
            k in got and subset(v, got[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(got, list) and len(expected) == len(got) and all(map(subset, expected, got))
        )
    return expected == got


def run_companion(
    *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the ``companion`` command as a user would; it must never print a traceback."""
    proc = subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        check=False,
    )
    assert "Traceback" not in proc.stderr + proc.stdout
    return proc


def run_main(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``companion *args`` in this process: the command's own ``main`` with its standard
    streams and exit code, as ``run_companion`` gives them, without starting Python and
    importing the PDF and photo libraries again for every call. An exception escaping
    ``main`` (what a user would see as a traceback) fails the test that called it."""
    from companion.cli import main

    streams = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO((stdin or "").encode("utf-8")), encoding="utf-8")
    out = sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = sys.stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    try:
        try:
            code = main(list(args))
        except SystemExit as leaving:  # argparse's refusals, exit 2
            code = leaving.code if isinstance(leaving.code, int) else 1
        out.flush()
        err.flush()
        written = [stream.buffer.getvalue().decode("utf-8") for stream in (out, err)]  # type: ignore[attr-defined]
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
    return subprocess.CompletedProcess(["companion", *args], code, written[0], written[1])


# --- Gin Rummy, the game installed by the tests (tests/games/, docs/adding-a-game.md) ------


def forget_games() -> None:
    """Ask the entry points afresh, and drop what was made from the games found before."""
    from companion.adapters.sheets import render
    from companion.domain.game import forget_games as forget_registry
    from companion.i18n import catalogues, reference

    forget_registry()
    catalogues.translator.cache_clear()
    reference.load.cache_clear()
    render.environment.cache_clear()
    for cached in (reference.owners, reference._mention):
        cached.cache_clear()


@contextmanager
def gin_installed() -> Iterator[None]:
    """Gin Rummy installed while the block runs: its distribution on ``sys.path`` (so its
    ``companion.games`` entry point is found) and its words compiled; gone afterwards."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in GAMES.glob("*/translations/*/LC_MESSAGES/messages.po"):
        with po.open("rb") as source, po.with_suffix(".mo").open("wb") as target:
            write_mo(target, read_po(source))
    sys.path.insert(0, str(GAMES))
    importlib.invalidate_caches()
    forget_games()
    try:
        yield
    finally:
        sys.path.remove(str(GAMES))
        sys.modules.pop("gin_rummy", None)
        forget_games()


def every_game() -> list[str]:
    """The id of every game that registers, Gin Rummy included (for ``parametrize``)."""
    from companion.domain import all_games

    with gin_installed():
        return [game.id for game in all_games()]


# --- Databases: migrated once, copied for each test (tests/conftest.py) ---------------------

POSTGRES_ENV = "COMPANION_TEST_POSTGRES_URL"


def migrated_sqlite(path: Path) -> Path:
    """A new SQLite file at ``path`` taken through the whole Alembic chain, as ``companion
    serve`` does, with its write-ahead log folded in: a copy of the one file is the database."""
    from companion.adapters.db import make_engine, private_file, upgrade

    private_file(path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        upgrade(engine)
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        engine.dispose()
    return path


def sqlite_copy(template: Path, path: Path) -> str:
    """A copy of the migrated ``template`` at ``path`` (owner-only, as the app makes it); its
    URL."""
    shutil.copyfile(template, path)
    path.chmod(0o600)
    return f"sqlite:///{path}"


def postgres_base() -> str:
    """The URL of the PostgreSQL server for the tests (``COMPANION_TEST_POSTGRES_URL``)."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        unavailable(f"PostgreSQL not configured (set {POSTGRES_ENV})")
    return str(base)


def database_name(name: str) -> str:
    """A new database or schema name made from ``name``: this test process's, never taken."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    tidy = re.sub(r"[^a-z0-9_]+", "_", name.lower())
    return f"t_{worker}_{secrets.token_hex(4)}_{tidy}"[:63]


@dataclass(frozen=True)
class PostgresTemplate:
    """A PostgreSQL schema migrated once (``schema``), and the SQL that makes a copy of it (its
    ``pg_dump``, naming it), or None where no pg_dump can read the server."""

    base: str
    schema: str
    sql: str | None


@contextmanager
def postgres_template() -> Iterator[PostgresTemplate]:
    """A schema taken through the whole Alembic chain once, as ``companion serve`` does, for
    ``postgres_copy`` to copy for each test; dropped afterwards."""
    from companion.adapters.db import make_engine, upgrade

    base = postgres_base()
    with postgres_schema("template") as url:
        engine = make_engine(url)
        try:
            upgrade(engine)
        finally:
            engine.dispose()
        schema = schema_of(url)
        yield PostgresTemplate(base, schema, schema_sql(base, schema))


def schema_sql(base: str, schema: str) -> str | None:
    """What ``pg_dump`` writes for ``schema`` (its tables, sequences, keys and rows), psql's
    own commands left out; None without a pg_dump that can read the server."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_dump"), key=_version)
    dump = found[-1] if found else shutil.which("pg_dump")
    if dump is None:
        return None
    uri = make_url(base).set(drivername="postgresql").render_as_string(hide_password=False)
    command = [dump, "--schema", schema, "--inserts", "--no-owner", "--no-privileges", uri]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None
    return "\n".join(line for line in done.stdout.splitlines() if not line.startswith("\\"))


def _version(path: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", path))


def schema_of(url: str) -> str:
    """The schema a ``with_search_path`` URL names."""
    options = make_url(url).query["options"]
    return str(options).removeprefix("-csearch_path=")


@contextmanager
def postgres_copy(template: PostgresTemplate, name: str) -> Iterator[str]:
    """A new schema named after ``name``, a copy of ``template`` made in one transaction (its
    SQL run again under the new name; where there is none, the migrations run again), as a
    URL; dropped afterwards."""
    schema = database_name(name)
    admin = create_engine(template.base)
    try:
        with admin.begin() as conn:
            if template.sql is None:
                conn.execute(text(f'CREATE SCHEMA "{schema}"'))
            else:
                conn.exec_driver_sql(template.sql.replace(template.schema, schema))
        url = with_search_path(template.base, schema)
        if template.sql is None:
            from companion.adapters.db import make_engine, upgrade

            engine = make_engine(url)
            upgrade(engine)
            engine.dispose()
        try:
            yield url
        finally:
            drop_schema(template.base, schema)
    finally:
        admin.dispose()


#: How long dropping a test's schema waits for a lock before it ends the connections holding
#: one: a wait, never a measure.
LOCK_WAIT = "15s"
#: The other connections holding a lock on anything in a schema (``:schema``).
HOLDERS = """
    SELECT DISTINCT pg_terminate_backend(l.pid)
    FROM pg_locks l
    JOIN pg_class c ON c.oid = l.relation
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = :schema AND l.pid <> pg_backend_pid()
"""


def drop_schema(base: str, schema: str) -> None:
    """``DROP SCHEMA … CASCADE``, bounded. A connection a failed test left open inside a
    transaction (a thread still waiting, a server not yet gone) holds locks the drop would wait
    for forever, and with it the whole test run; after ``LOCK_WAIT`` such connections are
    ended and the drop is tried again."""
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        for _ in range(3):
            with admin.connect() as conn:
                conn.exec_driver_sql(f"SET lock_timeout = '{LOCK_WAIT}'")
                try:
                    conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                    return
                except OperationalError:
                    conn.execute(text(HOLDERS), {"schema": schema})
        raise RuntimeError(f"schema {schema} could not be dropped")
    finally:
        admin.dispose()


def with_search_path(url: str, schema: str) -> str:
    """``url`` with every connection's search_path set to ``schema``."""
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def postgres_schema(name: str) -> Iterator[str]:
    """A new, empty PostgreSQL schema named after ``name``, as a URL; dropped afterwards."""
    base = postgres_base()
    schema = database_name(name)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    admin.dispose()
    try:
        yield with_search_path(base, schema)
    finally:
        drop_schema(base, schema)


# --- Apps for the tests ----------------------------------------------------------------------


def make_app(tmp_path: Path, database_url: str, **config: object) -> Flask:
    """An app for tests: its own instance folder, the given database, CSRF off unless asked."""
    from companion.web.app import create_app

    settings: dict[str, object] = {
        "TESTING": True,
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "DATABASE_URL": database_url,
        "SECRET_KEY": "test secret key",
        "WTF_CSRF_ENABLED": False,
    }
    settings.update(config)
    return create_app(settings)


@contextmanager
def on_own_database(
    app: Flask, tmp_path: Path, database_url: str, **config: object
) -> Iterator[Flask]:
    """``app`` (tests/conftest.py's ``one_app``) for one test: its own database, instance
    folder and ``config``, the create limit's counts reset; afterwards its configuration as
    it was (whatever the test changed in it), with its instance folder and database."""
    from companion.adapters.db import open_database
    from companion.web.ratelimit import limiter

    kept = dict(app.config)
    kept_instance, kept_engine = app.instance_path, app.extensions["companion_db"]
    instance = tmp_path / "instance"
    instance.mkdir(exist_ok=True)
    app.instance_path = str(instance)
    app.config.update(DATABASE_URL=database_url, **config)
    engine = open_database(app)
    limiter.reset()
    try:
        yield app
    finally:
        engine.dispose()
        app.config.clear()
        app.config.update(kept)
        app.instance_path, app.extensions["companion_db"] = kept_instance, kept_engine
