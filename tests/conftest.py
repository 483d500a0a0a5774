"""Puts tests/ on sys.path (pytest's prepend import mode) so tests can ``import support``.

Hypothesis runs without per-example deadlines: CI machines are shared and slow at times, and a
property either holds or not — speed is measured by the bench scripts, never by a test.
"""

from collections.abc import Iterator

import pytest
from hypothesis import settings
from support import DATA, gin_installed, load, unavailable  # noqa: F401  (re-exported)

settings.register_profile("companion", deadline=None)
settings.load_profile("companion")


@pytest.fixture
def gin() -> Iterator[None]:
    """Gin Rummy (tests/games/) installed for one test, the way any game is."""
    with gin_installed():
        yield
