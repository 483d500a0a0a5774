"""A sheet renderer made ready before its first sheet: every sheet's template compiled, the
fonts and stylesheets parsed, every language's words loaded (``adapters.renderer`` asks for it
as a renderer starts). It fills the templates of ``blank``, ``filled`` and ``event``'s table
cards; those modules import ``render``, never this one, so the sheets import no cycle."""

from __future__ import annotations

from companion.adapters.sheets.blank import blank_view
from companion.adapters.sheets.filled import match_sheet, match_view
from companion.adapters.sheets.render import filled_html, merge_pdfs, qr_data_uri
from companion.domain import ENGLISH, all_games
from companion.domain.messages import game_words
from companion.i18n.catalogues import LANGUAGES, translator


def warm_up() -> None:
    """Get a renderer ready for any sheet (it does this as it starts): WeasyPrint imported,
    one tiny sheet drawn (the fonts found, the stylesheets parsed, the layout's caches
    filled), every game's sheet, the blank sheet and the table cards filled in (their
    templates compiled) and every language's words loaded. The first sheets of a fresh
    server took 2 s instead of 0.3 s. Drawing every game's sheet too would take a
    renderer twice as long to start and save its first sheet of each game 40 ms."""
    for n, kind in enumerate(all_games()):
        names = [chr(65 + n) for n in range(max(2, kind.seats[0]))]
        doc = {"game": kind.id, "players": names, "first_dealer": names[0], "rounds": []}
        if n == 0:
            match_sheet(doc)
        else:
            filled_html("sheets/match.html", "a4", ENGLISH, match_view(doc))
        filled_html("sheets/blank.html", "a4", ENGLISH, blank_view(len(names), 1, game=kind.id))
    card = {
        "number": 1,
        "players": ["A", "B"],
        "first": "A",
        "qr": qr_data_uri("http://localhost/"),
    }
    filled_html(
        "sheets/event_cards.html",
        "a4",
        ENGLISH,
        {
            "title": "",
            "game_name": kind.name,
            "game": kind.describe(),
            "session": 1,
            "cards": [card],
        },
    )
    for lang in LANGUAGES:
        game_words(translator(lang))
    merge_pdfs([])  # pypdf imported
