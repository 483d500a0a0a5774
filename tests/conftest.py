"""Puts tests/ on sys.path (pytest's prepend import mode) so tests can ``import support``.

Hypothesis runs without per-example deadlines: CI machines are shared and slow at times, and a
property either holds or not — speed is measured by the bench scripts, never by a test.

Databases are migrated once per test process (``sqlite_template``, ``postgres_template``:
the whole Alembic chain, as ``companion serve`` runs it) and copied for each test that wants
one, so every test starts on a database of its own, migrated and empty.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import flask
import pytest
import support
from hypothesis import settings
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from support import DATA, gin_installed, load, migrated_sqlite, unavailable  # noqa: F401

settings.register_profile("companion", deadline=None)
settings.load_profile("companion")


class CompiledTemplates(BytecodeCache):
    """Jinja's bytecode cache, in memory, for every app this test process makes.

    A running server makes one app and compiles each template once. The tests make an app
    per test, and compiling the same templates again for each one was most of a page test's
    time (2.1 s for four pages, 0.4 s with this). The key holds the template's name and the
    checksum of its source, so a changed template is compiled again."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


# Flask's documented way to configure the environment of the apps it makes.
flask.Flask.jinja_options = {**flask.Flask.jinja_options, "bytecode_cache": CompiledTemplates()}

TESTS = Path(__file__).parent
BROWSER = TESTS / "browser"
#: Whole folders and modules of seconds-long tests: PDFs drawn by WeasyPrint (sheets/), full
#: hypothesis counts, the API fuzzed from its OpenAPI document, the CLI in subprocesses, and
#: throwaway PostgreSQL clusters started by scripts/postgres.sh.
SLOW = [
    TESTS / "sheets",
    TESTS / "rules" / "test_properties.py",
    TESTS / "rules" / "test_turn_properties.py",
    TESTS / "web" / "test_schemathesis.py",
    TESTS / "web" / "test_fuzz.py",
    TESTS / "web" / "test_hostile_input.py",
    TESTS / "web" / "test_sheets_ready.py",
    TESTS / "test_test_script.py",
    TESTS / "test_readme.py",
    TESTS / "test_cli.py",
    TESTS / "test_events_cli.py",
    TESTS / "test_referee_cli.py",
    TESTS / "test_rescue_cli.py",
    TESTS / "test_msgfmt.py",
]
#: A test elsewhere that draws a PDF says so in its name (``…_sheet_…``, ``…_pdf…``).
PDF = re.compile(r"sheet|pdf", re.IGNORECASE)
#: The fixtures that start ``companion serve`` for real (tests/web/live_server.py).
SERVERS = {"server", "servers"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark by folder, module and fixture, so a new test is marked where it lives: tests/browser/
    is ``browser``; a test that uses a live server is ``server``; the modules in ``SLOW``, and
    the web tests that draw a PDF, are ``slow``. ``-m "not slow and not server and not
    browser"`` is then the fast run (README.md)."""
    for item in items:
        path = item.path
        if BROWSER in path.parents:
            item.add_marker(pytest.mark.browser)
        if SERVERS & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.server)
        if any(path == slow or slow in path.parents for slow in SLOW) or (
            TESTS / "web" in path.parents and PDF.search(item.name)
        ):
            item.add_marker(pytest.mark.slow)
    # The modules of seconds-long tests first: pytest-xdist hands out whole modules in this
    # order (--dist loadfile), so the long ones start early and the many short ones fill the
    # gaps at the end, instead of one worker finishing a long module alone. Stable: a module's
    # tests keep their order and stay together.
    # (scripts/test turns off xdist's own reordering, by number of tests.)
    weight: dict[Path, int] = {}
    for item in items:
        marks = {mark.name for mark in item.iter_markers()}
        heavy = 0 if marks & {"server", "browser"} else 1 if "slow" in marks else 2
        weight[item.path] = min(weight.get(item.path, 2), heavy)
    items.sort(key=lambda item: weight[item.path])


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
def one_app(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> flask.Flask:
    """The app of this test process's tests (``support.on_own_database`` puts it on each
    test's own database), made once: making an app compiles its 83 URL rules (werkzeug),
    0.07 s of a core that every test paid."""
    folder = tmp_path_factory.mktemp("one_app")
    url = support.sqlite_copy(sqlite_template, folder / "companion.sqlite3")
    return support.make_app(folder, url)


@pytest.fixture
def app(one_app: flask.Flask, tmp_path: Path, sqlite_template: Path) -> Iterator[flask.Flask]:
    """The app on a SQLite copy of the migrated template (tests/web/conftest.py's ``app``
    takes PostgreSQL too, where a module asks for both)."""
    url = support.sqlite_copy(sqlite_template, tmp_path / "companion.sqlite3")
    with support.on_own_database(one_app, tmp_path, url) as app:
        yield app


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[support.PostgresTemplate]:
    """A PostgreSQL schema migrated once for this test process, which
    ``support.postgres_copy`` copies; skipped (failed in CI) without PostgreSQL."""
    with support.postgres_template() as template:
        yield template
