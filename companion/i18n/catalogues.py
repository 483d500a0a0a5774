"""The translation catalogues, for every shell: the command line, the API, pages and sheets.

Plain ``gettext`` over ``companion/i18n/translations/<lang>/LC_MESSAGES/messages.mo`` (compiled
from the ``.po`` files by the build hook), so the command line needs no Flask; the web app
reads the same files through Flask-Babel. English, the source language, has a catalogue of
the texts said in a game's own words only (``msgctxt``: Rummy 17's *game* for *round*).
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from companion.domain import ENGLISH, Translator

#: The languages the app speaks (contract: ``--lang``), English first.
LANGUAGES = ("en", "hu", "de", "bg")
DEFAULT = "en"
FOLDER = Path(__file__).resolve().parent / "translations"


class Catalogue:
    """One language's words (gettext and ngettext) and its way of writing numbers."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        # English is the source language: its catalogue holds only the texts a game says in
        # words of its own (Rummy 17's "Game 3"); every other text is its own message id.
        self._words: gettext.NullTranslations = gettext.translation(
            "messages", localedir=FOLDER, languages=[lang], fallback=True
        )
        from companion.i18n.resources import folders

        for folder in folders("translations"):  # the words an installed game brings
            self._words.add_fallback(
                gettext.translation("messages", folder, languages=[lang], fallback=True)
            )

    def gettext(self, message: str, /) -> str:
        return self._words.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return self._words.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str, /) -> str:
        return self._words.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str:
        return self._words.npgettext(context, singular, plural, n)

    def __repr__(self) -> str:
        return f"translator({self.lang!r})"


@cache
def translator(lang: str) -> Catalogue:
    """The catalogue for ``lang``; English (the message ids) for an unknown one."""
    return Catalogue(lang if lang in LANGUAGES else DEFAULT)


def lang_of(tr: Translator) -> str:
    """The language a translator speaks (English for the rules core's own ``ENGLISH``)."""
    return tr.lang if isinstance(tr, Catalogue) else DEFAULT


def number(n: int, tr: Translator = ENGLISH) -> str:
    """A figure or total as the language writes it (Babel): ``1 234``, ``-5``."""
    from babel.numbers import format_decimal  # Babel's locale data: only when a page asks

    return str(format_decimal(n, locale=lang_of(tr)))


def signed(n: int, tr: Translator = ENGLISH) -> str:
    """A score with its sign, as the language writes it: ``+12``, ``-3``, ``0``."""
    if not n:
        return number(0, tr)
    if -1000 < n < 1000:  # no grouping: the pattern below writes ASCII digits and signs
        return f"{n:+d}"
    from babel.numbers import format_decimal

    return str(format_decimal(n, format="+#,##0;-#,##0", locale=lang_of(tr)))


def figure(sign: str, n: int, tr: Translator = ENGLISH) -> str:
    """A figure of a game's column (``Column.sign``) as every page and sheet writes it: a
    score with its sign (``+4``, ``-2``); a penalty, a bonus, a rack or a hand as the count
    the rulebook gives, never negative (R17-16: 8 penalty points, taken off the bonus by
    R17-18; RK-21: a rack of 23, scored -23). The CSV holds the same numbers."""
    return number(n, tr) if sign else signed(n, tr)


def best(accepted: list[tuple[str, float]]) -> str:
    """The best language of an ``Accept-Language`` list (``[("hu-HU", 1.0), …]``)."""
    for value, _quality in sorted(accepted, key=lambda pair: -pair[1]):
        lang = value.split("-")[0].split("_")[0].lower()
        if lang in LANGUAGES:
            return lang
    return DEFAULT
