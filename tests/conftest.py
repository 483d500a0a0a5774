"""Puts tests/ on sys.path (pytest's prepend import mode) so tests can ``import support``.

Hypothesis runs without per-example deadlines: CI machines are shared and slow at times, and a
property either holds or not — speed is measured by the bench scripts, never by a test.
"""

from hypothesis import settings
from support import DATA, load, unavailable  # noqa: F401  (re-exported for convenience)

settings.register_profile("companion", deadline=None)
settings.load_profile("companion")
