"""The page's language: chosen once per request, the same for pages, API answers and sheets.

Order: ``?lang=`` (a tap on the language switcher, then kept on the device in a cookie), the
cookie, then the browser's ``Accept-Language``; English when none of them names a language
the app speaks. Numbers and dates go through Babel's formatting for that language.

Words differ by game where the publishers' editions differ: ``gw(game, text)`` and
``ngw(game, singular, plural, n)`` say a text in the game's message context, for pages and
views alike. English has a catalogue too, of those texts alone (Rummy 17's "Game 3"), read by
the app's ``Catalogue`` and, like every language's, by Flask-Babel from the same folder.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import Flask, Response, g, has_request_context, request
from flask_babel import Babel, format_datetime

from companion.domain import Translator
from companion.domain.messages import context_of, game_plurals, game_words
from companion.i18n import catalogues as numbers
from companion.i18n.catalogues import DEFAULT, LANGUAGES, best
from companion.i18n.catalogues import translator as catalogue
from companion.i18n.resources import folders

COOKIE = "companion_lang"
COOKIE_AGE = 60 * 60 * 24 * 400

#: Each language's own name, for the switcher (never translated).
NATIVE = {"en": "English", "hu": "Magyar", "de": "Deutsch", "bg": "Български"}


def chosen(value: object) -> str | None:
    """A language the app speaks, or None."""
    return value if isinstance(value, str) and value in LANGUAGES else None


def select_locale() -> str:
    """The request's language (see the module docstring)."""
    if not has_request_context():  # CLI commands and `companion serve` messages
        return DEFAULT
    if "lang" not in g:
        g.lang = (
            chosen(request.args.get("lang"))
            or chosen(request.cookies.get(COOKIE))
            or best(list(request.accept_languages))
        )
    return str(g.lang)


def translator() -> Translator:
    """The request's catalogue, for the rules core's, the store's and the sheets' messages."""
    return catalogue(select_locale())


def gw(game: Any, text: str, **values: Any) -> str:
    """``text`` in the words of ``game``'s box (a game, its descriptor or its id), in the
    page's language; filled in with ``values`` (``%(n)s``) when there are any."""
    return game_words(translator())(game, text, **values)


def ngw(game: Any, singular: str, plural: str, n: int, **values: Any) -> str:
    """``gw`` for a text with a plural form, chosen by ``n``."""
    return game_plurals(translator())(game, singular, plural, n, **values)


def gw_each(games: Any, text: str, **values: Any) -> dict[str, str]:
    """``text`` in the words of each of ``games``, by game id: for a page where the game is
    chosen on the page itself (``static/js/game-words.js`` shows the chosen one's)."""
    said = game_words(translator())
    return {str(context_of(g)): said(g, text, **values) for g in games}


def signed(n: int) -> str:
    """A score with its sign in the page's language: ``+12``, ``-3``, ``0``."""
    return numbers.signed(n, translator())


def number(n: int) -> str:
    """A figure or total in the page's language."""
    return numbers.number(n, translator())


def lang_url(lang: str) -> str:
    """This page again in ``lang`` (the switcher's links), other query parameters kept."""
    args = request.args.to_dict(flat=False)
    args["lang"] = [lang]
    return request.path + "?" + urlencode(args, doseq=True)


def _remember(response: Response) -> Response:
    """A language picked with ``?lang=`` stays the device's choice."""
    lang = chosen(request.args.get("lang")) if has_request_context() else None
    if lang and request.cookies.get(COOKIE) != lang:
        response.set_cookie(COOKIE, lang, max_age=COOKIE_AGE, samesite="Lax", httponly=True)
    if has_request_context():
        response.headers.add("Vary", "Accept-Language")
        response.headers.setdefault("Content-Language", select_locale())
    return response


def init_app(app: Flask) -> None:
    """Set up Flask-Babel over companion/i18n/translations and the language choice."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", "UTC")
    app.config.setdefault("LANGUAGES", list(LANGUAGES))
    # The app's catalogue first, then the words each installed game brings (its folder).
    app.config.setdefault(
        "BABEL_TRANSLATION_DIRECTORIES",
        ";".join(["i18n/translations", *(str(p) for p in folders("translations"))]),
    )
    Babel(app, locale_selector=select_locale)
    app.after_request(_remember)
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["figure"] = lambda n, column: numbers.figure(column.sign, n, translator())
    app.jinja_env.filters["when"] = lambda value: format_datetime(value, "short")
    app.jinja_env.globals["languages"] = NATIVE
    app.jinja_env.globals["lang_url"] = lang_url
    # gw(game, text, **values), ngw(game, singular, plural, n, **values): the words of the
    # game's own box (msgctxt per game).
    app.jinja_env.globals["gw"] = gw
    app.jinja_env.globals["ngw"] = ngw
    app.jinja_env.globals["gw_each"] = gw_each
    app.context_processor(lambda: {"html_lang": select_locale()})
