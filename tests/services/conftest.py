"""Fixtures for the service layer's tests: a real SQLite database, migrated, of each test's own,
and a session on it as a view gets one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlmodel import Session
from support import sqlite_copy

from companion.adapters.db import get_session
from companion.web.app import create_app


@pytest.fixture
def app(tmp_path: Path, sqlite_template: Path) -> Iterator[Flask]:
    """The app on a SQLite copy of the migrated template (its engine and sessions)."""
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "DATABASE_URL": sqlite_copy(sqlite_template, tmp_path / "companion.sqlite3"),
            "SECRET_KEY": "test secret key",
        }
    )
    yield app
    app.extensions["companion_db"].dispose()


@pytest.fixture
def session(app: Flask) -> Iterator[Session]:
    """The request's session, as ``handle`` is given it by a view."""
    with app.app_context():
        yield get_session()
