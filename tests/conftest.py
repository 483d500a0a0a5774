"""Puts tests/ on sys.path (pytest's prepend import mode) so tests can ``import support``."""

from support import DATA, load, unavailable  # noqa: F401  (re-exported for convenience)
