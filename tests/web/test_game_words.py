"""Every table reads the words of its own box (issue 16): Rummy 17 calls a deal a *game*
(hu *játék*, de *Spiel*, bg *игра*) on the scoreboard, round form, breakdown, history and
sheet, through the message context ``rummy17``; the tile games keep *round*."""

from __future__ import annotations

import html
import io

import pytest
from pypdf import PdfReader
from support import load
from test_pages import NAMES, ROUNDS, form_data, start

from companion.catalogues import translator
from companion.rules.messages import IN_CONTEXT, say

GAME_WORD = {"hu": "1. játék", "de": "Spiel 1", "bg": "Игра 1"}
ROUND_WORD = {"hu": "1. forduló", "de": "Runde 1", "bg": "Рунд 1"}


def played(client, game: str) -> str:
    edit = start(client, NAMES, first=1, game=game)
    answer = client.post(f"/m/{edit}/rounds/new", data=form_data(ROUNDS[game]))
    assert answer.status_code == 302, answer.get_data(as_text=True)[:500]
    return edit


@pytest.mark.parametrize("lang", ["hu", "de", "bg"])
def test_rummy17_says_game_where_rummikub_says_round(client, lang: str) -> None:
    r17 = played(client, "rummy17")
    rk = played(client, "rummikub")
    breakdown = html.unescape(client.get(f"/m/{r17}/rounds/1?lang={lang}").get_data(as_text=True))
    assert GAME_WORD[lang] in breakdown and ROUND_WORD[lang] not in breakdown
    other = html.unescape(client.get(f"/m/{rk}/rounds/1?lang={lang}").get_data(as_text=True))
    assert ROUND_WORD[lang] in other and GAME_WORD[lang] not in other
    board = html.unescape(client.get(f"/m/{r17}?lang={lang}").get_data(as_text=True))
    assert {"hu": "1. játék hozzáadva", "de": "Spiel 1 hinzugefügt", "bg": "Игра 1 е добавена"}[
        lang
    ] in board
    form = html.unescape(client.get(f"/m/{r17}/rounds/new?lang={lang}").get_data(as_text=True))
    assert {"hu": "2. játék", "de": "Spiel 2", "bg": "Игра 2"}[lang] in form


def test_the_rummy17_sheet_says_game_in_hungarian(client) -> None:
    edit = played(client, "rummy17")
    pdf = client.get(f"/m/{edit}/sheet.pdf?lang=hu").data
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Játék" in text


def test_every_round_text_of_rummy17_has_its_own_translation() -> None:
    # A deal is a game in Rummy 17 and a round elsewhere: the words differ in every language.
    # (Set and run may share a word between editions: German Folge, Bulgarian група.)
    for lang in ("hu", "de", "bg"):
        tr = translator(lang)
        for context, text in IN_CONTEXT:
            if "round" not in text.lower():
                continue
            own = say(tr, context, text)
            assert own != tr.gettext(text), (lang, context, text)


def test_english_keeps_one_text() -> None:
    assert say(translator("en"), "rummy17", "Round %(n)s") == "Round %(n)s"
    assert load("rummy17-round.json")["game"] == "rummy17"
