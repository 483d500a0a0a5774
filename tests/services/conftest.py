"""Fixtures for the service layer's tests: a real SQLite database, migrated, of each test's own,
and a session on it as a view gets one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from sqlmodel import Session

from companion.adapters.db import get_session


@pytest.fixture
def session(app: Flask) -> Iterator[Session]:
    """The request's session, as ``handle`` is given it by a view."""
    with app.app_context():
        yield get_session()
