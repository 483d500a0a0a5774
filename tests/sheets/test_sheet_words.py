"""A sheet's words in the table's language: the document says its language, so a narrow head
is hyphenated by it ("Разда-ващ", never "Разда|ващ"); German abbreviates penalty and bonus
points as the Rummy 17 box does (SP, BP); and before the first round the standings are the
standings, never "after round 0"."""

from __future__ import annotations

import re

import pytest
from pdfcheck import text
from sheet_samples import sample_match

from companion.catalogues import LANGUAGES, translator
from companion.rules import games, get_game
from companion.rules.messages import game_words
from companion.sheets import match_sheet
from companion.sheets.render import column_heads

HYPHEN = "[\u2010\u00ad-]"  # WeasyPrint's hyphen, as the PDF's text gives it back


def test_a_bulgarian_head_breaks_where_bulgarian_does_with_a_hyphen() -> None:
    sheet = text(match_sheet(sample_match(6, 12, planned=12), tr=translator("bg")))
    # The dense grid's dealer column: "Раздаващ" is hyphenated by the Bulgarian patterns.
    assert re.search(f"Разда{HYPHEN}\\s*ващ", sheet), sheet[:600]


def test_german_abbreviates_penalty_and_bonus_points_as_the_box_does() -> None:
    # rummy17-de.txt: "je 1 SP", "3 BP"; the other languages keep the shortest prefixes.
    shorts = {
        lang: [h["short"] for h in column_heads(get_game("rummy17").columns, translator(lang))]
        for lang in LANGUAGES
    }
    assert shorts == {
        "en": ["P", "B", "S"],
        "hu": ["Bü", "Bó", "P"],
        "de": ["SP", "BP", "P"],
        "bg": ["Н", "Б", "Т"],
    }
    sheet = text(match_sheet(sample_match(6, 12, planned=12), tr=translator("de")))
    assert "SP Strafpunkte:" in sheet and "BP Bonus:" in sheet  # the legend
    assert re.search(r"\bSP BP P Σ\b", sheet)  # the heads
    assert not re.search(r"\bS B P Σ\b", sheet)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", [g.id for g in games()])
def test_before_the_first_round_the_standings_are_headed_standings(lang: str, game: str) -> None:
    tr = translator(lang)
    names = ["Anna", "Béla", "Cili"]
    doc = {"game": game, "players": names, "first_dealer": names[0], "rounds": []}
    sheet = text(match_sheet(doc, tr=tr))
    after_zero = game_words(tr)(game, "Standings after round %(n)d", n=0)
    assert after_zero not in sheet
    assert re.search(f"(^| ){re.escape(tr.gettext('Standings'))} 1\\. ", sheet), sheet
