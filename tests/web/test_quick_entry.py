"""On the server side: what the walking picker and the one-tap last card draw
comes from the game (its descriptor), and the rules behind it stay in Python."""

from __future__ import annotations

import html

from flask.testing import FlaskClient
from test_pages import NAMES, start

from companion.domain import all_games, get_game


def test_r17_15a_every_one_tap_last_card_doubles_and_nothing_else_is_offered() -> None:
    game = get_game("rummy17")
    offered = game.descriptor()["last_card_doubles"]
    assert offered["rule"] == "R17-15a"
    assert len(offered["cards"]) == len(game.deck.colours)
    for card in offered["cards"]:
        assert game.multiplier({"went_out": "Anna", "last_discard": card}) == 2
    for colour in game.deck.colours:  # a 16 is picked or typed, and does not double
        assert game.multiplier({"went_out": "Anna", "last_discard": f"{colour}16"}) == 1


def test_only_a_game_with_a_last_card_offers_one_tap_last_cards() -> None:
    for game in all_games():
        desc = game.descriptor()
        assert bool(desc.get("last_card_doubles")) <= bool(desc.get("last_card")), game.id


def test_r17_15a_the_one_tap_last_cards_and_the_walker_are_translated(
    client: FlaskClient,
) -> None:
    edit = start(client, NAMES)
    page = html.unescape(client.get(f"/m/{edit}/rounds/new?lang=hu").get_data(as_text=True))
    for card in ("R17", "B17", "G17", "Y17", "K17"):
        assert f'data-last="{card}"' in page
    assert "17-es lappal minden pont megduplázódik" in page
    assert "Lapkombinációk és kézben maradt lapok bevitele koppintással, játékosonként" in page
    walker = page.split('id="walker"')[1].split("</dialog>")[0]
    assert walker.count('data-n="12"') == 2  # a chip row per count (low, high): 0–12 …
    assert walker.count("data-more") == 2  # … and "13+", which turns them into 13–25
    assert "Kombináció kész" in walker
