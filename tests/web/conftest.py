"""Fixtures for the web tests: ``app``, ``client`` and ``runner`` on a database of each test's own.

Each test has a database of its own, made by the real Alembic migrations as ``companion
serve`` runs them — once per test process, into a template that each test gets a copy of (a
copy of the SQLite file; on PostgreSQL a schema of its own, made by the template schema's
``pg_dump``), dropped after the test. Nothing one test writes is seen by another.

Which database: SQLite, the default a table's computer runs on. The modules marked
``both_databases`` — the store's own behaviour: revisions, races, idempotency keys, one
snapshot per request, the limiter's storage, migrations — run every test on PostgreSQL
(``COMPANION_TEST_POSTGRES_URL``; scripts/test starts one, on PGPORT_TEST or a free port) as
well. The pages and the API above the store never ask which database it is
(docs/adr/0007-test-time.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from support import (  # noqa: F401
    POSTGRES_ENV,
    make_app,
    on_own_database,
    postgres_copy,
    postgres_schema,
    sqlite_copy,
)

DATABASES = ["sqlite", "postgresql"]
#: The fixtures that give a test its database.
DATABASE_FIXTURES = ("database_url", "empty_database_url")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """SQLite for every test that takes a database; PostgreSQL too where its module (or the
    test) is marked ``both_databases``."""
    for name in DATABASE_FIXTURES:
        if name in metafunc.fixturenames:
            both = metafunc.definition.get_closest_marker("both_databases") is not None
            metafunc.parametrize(name, DATABASES if both else DATABASES[:1], indirect=True)
            return


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The database under test, migrated and empty, this test's own: a copy of the SQLite
    template file, or a PostgreSQL schema copied from the template schema."""
    if request.param == "sqlite":
        template = request.getfixturevalue("sqlite_template")
        yield sqlite_copy(template, tmp_path / "companion.sqlite3")
        return
    template = request.getfixturevalue("postgres_template")
    with postgres_copy(template, request.node.originalname) as url:
        yield url


@pytest.fixture
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of its own for one test (migrations): SQLite file or new schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    with postgres_schema(request.node.originalname) as url:
        yield url


@pytest.fixture
def app(one_app: Flask, tmp_path: Path, database_url: str) -> Iterator[Flask]:
    """The app on the database under test, CSRF off (see ``csrf_app``)."""
    with on_own_database(one_app, tmp_path, database_url) as app:
        yield app


@pytest.fixture
def csrf_app(one_app: Flask, tmp_path: Path, database_url: str) -> Iterator[Flask]:
    """The app with CSRF protection on, as in production."""
    with on_own_database(one_app, tmp_path, database_url, WTF_CSRF_ENABLED=True) as app:
        yield app


@pytest.fixture
def app_factory(tmp_path: Path, database_url: str) -> Iterator[Callable[..., Flask]]:
    """Make apps on the database under test with extra configuration; disposed afterwards."""
    made: list[Flask] = []

    def factory(**config: object) -> Flask:
        made.append(make_app(tmp_path, database_url, **config))
        return made[-1]

    yield factory
    for app in made:
        app.extensions["companion_db"].dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for ``app``."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A CLI runner for ``app``'s flask commands."""
    return app.test_cli_runner()


@pytest.fixture
def session(app: Flask) -> Iterator[object]:
    """A database session inside an app context (what a view gets from get_session)."""
    from companion.adapters.db import get_session

    with app.app_context():
        yield get_session()
