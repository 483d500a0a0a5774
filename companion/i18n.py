"""Translations: every user-visible text goes through gettext (Flask-Babel); English for now."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app, has_request_context, request
from flask_babel import Babel

DEFAULT_LOCALE = "en"


def available_locales(app: Flask) -> list[str]:
    """English plus every language with a compiled catalogue in companion/translations."""
    found = {DEFAULT_LOCALE}
    folder = Path(app.root_path) / "translations"
    if folder.is_dir():
        found.update(p.name for p in folder.iterdir() if (p / "LC_MESSAGES").is_dir())
    return sorted(found)


def select_locale() -> str | None:
    """The best of the available languages for the browser's Accept-Language."""
    if not has_request_context():  # CLI commands and `companion serve` messages
        return DEFAULT_LOCALE
    return request.accept_languages.best_match(current_app.config["LANGUAGES"], DEFAULT_LOCALE)


def init_app(app: Flask) -> None:
    """Set up Flask-Babel with the languages the app has catalogues for."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LOCALE)
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", "UTC")
    app.config.setdefault("LANGUAGES", available_locales(app))
    Babel(app, locale_selector=select_locale)
