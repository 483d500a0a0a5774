"""Printable score sheets of every game: a match's filled sheet and blank sheets for paper.

A shell over the rules core: every number on a sheet comes from ``companion.domain``; this
package only arranges them for paper (Jinja2 templates in ``templates/sheets/``, WeasyPrint).
Words are drawn through a ``Translator`` (``companion.domain.ENGLISH`` unless one is given).
"""

from companion.adapters.sheets.blank import (
    MAX_BLANK_GAMES,
    blank_sheet,
    blank_view,
    default_players,
)
from companion.adapters.sheets.filled import match_sheet, match_sheet_from_document, match_view
from companion.adapters.sheets.render import PAPERS, check_paper, short_labels

__all__ = [
    "MAX_BLANK_GAMES",
    "PAPERS",
    "blank_sheet",
    "blank_view",
    "check_paper",
    "default_players",
    "match_sheet",
    "match_sheet_from_document",
    "match_view",
    "short_labels",
]
