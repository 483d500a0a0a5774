"""Companion: score-keeper and referee for rummy games played at a real table."""

__version__ = "0.1.0"
