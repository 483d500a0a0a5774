"""Fixtures for the service layer's tests: a real SQLite database, migrated, of each test's own,
and a session on it as a view gets one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlmodel import Session
from support import on_own_database, sqlite_copy

from companion.adapters.db import get_session


@pytest.fixture
def app(one_app: Flask, tmp_path: Path, sqlite_template: Path) -> Iterator[Flask]:
    """The app on a SQLite copy of the migrated template (its engine and sessions)."""
    url = sqlite_copy(sqlite_template, tmp_path / "companion.sqlite3")
    with on_own_database(one_app, tmp_path, url) as app:
        yield app


@pytest.fixture
def session(app: Flask) -> Iterator[Session]:
    """The request's session, as ``handle`` is given it by a view."""
    with app.app_context():
        yield get_session()
