"""The card picker drawn once: the round form and the turn page show the
same dialog (one macro), its words on the dialog itself, and the scripts read the game's
notation from the descriptor, whose card text is the rules core's."""

from __future__ import annotations

import html
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.adapters import store
from companion.adapters.db import get_session
from companion.domain import all_games, get_game
from companion.domain.cards import SEPARATORS
from companion.web.pages.common import example_cards, example_run

GAME_IDS = [g.id for g in all_games()]
TABS = re.compile(r'<div class="tabs" id="picker-tabs">.*?</div>\s*', re.S)


def picker(page: str) -> str:
    """The picker dialog of a page, its opening tag included."""
    return '<dialog class="picker" id="picker"' + page.split('id="picker"')[1].split("</dialog>")[0]


def round_form(app: Flask, client: FlaskClient, game: str) -> str:
    with app.app_context():
        match = store.create_match(
            get_session(), game=game, players=["Anna", "Béla"], first_dealer="Anna", games=None
        )
        edit = match.edit_token
    return client.get(f"/m/{edit}/rounds/new").get_data(as_text=True)


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_round_form_and_the_turn_page_draw_the_same_picker(
    app: Flask, client: FlaskClient, game: str
) -> None:
    on_form = picker(round_form(app, client, game))
    on_turn = picker(client.get(f"/referee/turn?game={game}").get_data(as_text=True))
    # The turn page always picks melds (its tabs); the round form only where melds are entered.
    assert ('id="picker-tabs"' in on_form) == get_game(game).descriptor()["melds"]
    assert 'id="picker-tabs"' in on_turn
    assert TABS.sub("", on_form) == TABS.sub("", on_turn)
    words = json.loads(html.unescape(on_turn.split("data-i18n='")[1].split("'")[0]))
    assert set(words) == {"run", "set", "cards", "last", "one"}  # one: a tile read off a photo
    assert words["set"] == "Tap the value, then the colours. Joker: tap ★, then its colour."


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_scripts_read_the_notation_from_the_descriptor(client: FlaskClient, game: str) -> None:
    page = client.get(f"/referee/turn?game={game}").get_data(as_text=True)
    shown = json.loads(html.unescape(page.split("data-game='")[1].split("'")[0]))["cards"]
    assert shown["joker"] == "*" and shown["separators"] == SEPARATORS.pattern
    raw = get_game(game).descriptor()["cards"]
    assert [c["code"] for c in shown["colours"]] == [c["code"] for c in raw["colours"]]
    # Colour names are translated on pages; everything else is the descriptor as it is.
    assert {k: v for k, v in shown.items() if k != "colours"} == {
        k: v for k, v in raw.items() if k != "colours"
    }


@pytest.mark.parametrize(
    ("game", "held", "run"),
    [
        ("rummy17", "R3 B12", "R3 R4 R5"),
        ("rummikub", "K3 R12", "K3 K4 K5"),
        ("rummy-o", "R3 B12", "R3 R4 R5"),
        ("manipulation", "3S QH", "3S 4S 5S"),  # rank first, a queen as Q
    ],
)
def test_the_placeholders_are_written_by_the_rules_core(game: str, held: str, run: str) -> None:
    desc = get_game(game).describe()
    assert example_cards(desc, 3, 12) == held
    assert example_run(desc) == run
