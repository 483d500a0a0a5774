"""Puts tests/ on sys.path (pytest's prepend import mode) so tests can ``import support``.

Hypothesis runs without per-example deadlines: CI machines are shared and slow at times, and a
property either holds or not — speed is measured by the bench scripts, never by a test.

Databases are migrated once per test process (``sqlite_template``, ``postgres_template``:
the whole Alembic chain, as ``companion serve`` runs it) and copied for each test that wants
one, so every test starts on a database of its own, migrated and empty.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
import support
from hypothesis import settings
from support import DATA, gin_installed, load, migrated_sqlite, unavailable  # noqa: F401

settings.register_profile("companion", deadline=None)
settings.load_profile("companion")

BROWSER = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything in tests/browser/ is ``browser`` (the other markers are set by each test)."""
    for item in items:
        if BROWSER in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture
def gin() -> Iterator[None]:
    """Gin Rummy (tests/games/) installed for one test, the way any game is."""
    with gin_installed():
        yield


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once for this test process; ``support.sqlite_copy`` copies it."""
    return migrated_sqlite(tmp_path_factory.mktemp("template") / "companion.sqlite3")


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[support.PostgresTemplate]:
    """A PostgreSQL schema migrated once for this test process, which
    ``support.postgres_copy`` copies; skipped (failed in CI) without PostgreSQL."""
    with support.postgres_template() as template:
        yield template
