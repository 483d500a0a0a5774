"""Card notation in one place (issue 15, item 7): the scripts read the game's notation from
the descriptor, and the pages' card text is the rules core's."""

from __future__ import annotations

import html
import json

import pytest
from flask.testing import FlaskClient

from companion.rules import games, get_game
from companion.rules.cards import SEPARATORS
from companion.web.common import example_cards, example_run

GAME_IDS = [g.id for g in games()]


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
