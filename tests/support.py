"""Test helpers any test module can import (``from support import load, unavailable``)."""

from __future__ import annotations

import html
import importlib
import json
import os
import re
import secrets
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from sqlalchemy import create_engine, text

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


# --- PostgreSQL for the tests that use it (tests/web/conftest.py, tests/web/test_crash.py) --

POSTGRES_ENV = "COMPANION_TEST_POSTGRES_URL"


def with_search_path(url: str, schema: str) -> str:
    """``url`` with every connection's search_path set to ``schema``."""
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def postgres_schema(name: str) -> Iterator[str]:
    """A new PostgreSQL schema named after ``name``, as a URL; dropped afterwards."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        unavailable(f"PostgreSQL not configured (set {POSTGRES_ENV})")
    schema = f"t_{name}_{secrets.token_hex(4)}".lower()[:63]
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield with_search_path(base, schema)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
