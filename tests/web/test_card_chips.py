"""Cards are drawn as cards: a chip in the card's colour with its value, the
colour letter or the suit's mark always in sight, named for a screen reader in the reader's
language and grammar; the round form names the notation's letters."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from flask import Flask, get_template_attribute
from flask.testing import FlaskClient

from companion.domain import get_game
from companion.web.pages.chips import card_names
from companion.web.pages.common import descriptor

ROUND = {
    "game": "rummy17",
    "bonus_cards": ["most-runs", "longest-set", "most-8-16", "fewest-blue", "went-out"],
    "went_out": "Zsófi",
    "last_discard": "B11",
    "players": [
        {"name": "Zsófi", "melds": [["G7", "G8", "G9", "G10"], ["R16", "B16", "Y16"]], "hand": []},
        {"name": "Márk", "melds": [["Y4", "Y5", "Y6", "*Y7"]], "hand": ["Y8", "K13"]},
        {"name": "Lili", "melds": [], "hand": ["R1"]},
    ],
}
MANIPULATION = {
    "game": "manipulation",
    "knocked": "Márk",
    "went_out": None,
    "players": [
        {"name": "Zsófi", "hand": ["QH", "10S"]},
        {"name": "Márk", "hand": ["4D"]},
        {"name": "Lili", "hand": ["AC", "3H"]},
    ],
}


def match(client: FlaskClient, doc: dict[str, Any]) -> str:
    """A match of the round's game with that round; its edit token."""
    names = [p["name"] for p in doc["players"]]
    body: dict[str, Any] = {"game": doc["game"], "players": names, "first_dealer": names[0]}
    if doc["game"] == "manipulation":
        body["games"] = None  # MR-16: played to 150
    created = client.post("/api/v1/matches", json=body)
    assert created.status_code == 201, created.get_data(as_text=True)
    edit = created.get_json()["edit"]
    added = client.post(f"/api/v1/matches/{edit}/games", json=doc, headers={"If-Match": '"1"'})
    assert added.status_code == 201, added.get_data(as_text=True)
    return str(edit)


def chips(page: str) -> dict[str, tuple[str, str, str]]:
    """Each chip on the page by its card: (classes, name, what it shows)."""
    chip = r'<span class="(card[^"]*)" role="img" aria-label="([^"]*)" data-card="([^"]*)">'
    found = re.findall(chip + r"(.*?)</span>", page)
    return {card: (cls, name, re.sub(r"<[^>]+>", "", face)) for cls, name, card, face in found}


@pytest.mark.parametrize(
    ("lang", "yellow_8", "black_13", "joker", "blue_11"),
    [
        ("en", "yellow 8", "black 13", "joker as yellow 7", "blue 11"),
        ("hu", "sárga 8", "fekete 13", "joker, sárga 7 helyett", "kék 11"),
        ("de", "gelbe 8", "schwarze 13", "Joker als gelbe 7", "blaue 11"),
        ("bg", "жълта 8", "черна 13", "жокер като жълта 7", "синя 11"),
    ],
)
def test_a_rummy17_card_is_a_chip_of_its_colour_named_in_the_readers_grammar(
    client: FlaskClient,
    lang: str,
    yellow_8: str,
    black_13: str,
    joker: str,
    blue_11: str,
) -> None:
    edit = match(client, ROUND)
    page = client.get(f"/m/{edit}/rounds/1?lang={lang}").get_data(as_text=True)
    drawn = chips(page)
    assert drawn["Y8"] == ("card c-Y", yellow_8, "Y8")  # the letter stays in sight
    assert drawn["K13"] == ("card c-K", black_13, "K13")
    assert drawn["*Y7"] == ("card c-Y joker", joker, "Y7★")  # a joker shows its card and ★
    assert drawn["B11"][:2] == ("card c-B", blue_11)  # the last card, in the went-out line
    assert {cls.split()[1] for cls, _, _ in drawn.values()} == {"c-R", "c-B", "c-G", "c-Y", "c-K"}


@pytest.mark.parametrize(
    ("lang", "queen", "ten", "ace"),
    [
        ("en", "queen of hearts", "10 of spades", "ace of clubs"),
        ("hu", "kőr dáma", "pikk 10", "treff ász"),
        ("de", "Herz Dame", "Pik 10", "Kreuz Ass"),
        ("bg", "дама купа", "10 пика", "асо спатия"),
    ],
)
def test_a_playing_card_shows_its_suit_and_is_named_as_players_say_it(
    client: FlaskClient, lang: str, queen: str, ten: str, ace: str
) -> None:
    edit = match(client, MANIPULATION)
    page = client.get(f"/m/{edit}/rounds/1?lang={lang}").get_data(as_text=True)
    drawn = chips(page)
    assert drawn["QH"] == ("card c-H", queen, "Q♥")
    assert drawn["10S"] == ("card c-S", ten, "10♠")
    assert drawn["AC"] == ("card c-C", ace, "A♣")
    assert drawn["4D"][0] == "card c-D"


def test_tiles_and_the_colourless_joker_in_the_rescue_and_the_meld_check(
    client: FlaskClient,
) -> None:
    page = client.get("/rescue?game=rummikub&cards=O1+O2+O3+*+K9&lang=bg").get_data(as_text=True)
    drawn = chips(page)
    assert drawn["O1"] == ("card c-O", "оранжева 1", "O1")  # orange has its forms too
    assert drawn["K9"] == ("card c-K", "черна 9", "K9")
    jokers = [card for card in drawn if card.startswith("*")]
    assert jokers and all(drawn[j][0] == "card c-O joker" for j in jokers)  # *O4: as orange 4
    assert drawn[jokers[0]][1].startswith("жокер като оранжева ")
    page = client.get("/check?game=rummy17&cards=R5+R6+*R&lang=de").get_data(as_text=True)
    assert "Joker als rote " in page
    rack = {
        "game": "rummikub",
        "went_out": "Lili",
        "players": [
            {"name": "Zsófi", "rack": ["K1", "*"]},
            {"name": "Márk", "rack": ["O12"]},
            {"name": "Lili", "rack": []},
        ],
    }
    page = client.get(f"/m/{match(client, rack)}/rounds/1?lang=de").get_data(as_text=True)
    assert chips(page)["*"] == ("card joker", "Joker", "★")  # Rummikub's joker has no colour


def test_a_text_that_is_no_card_is_shown_as_it_is(app: Flask) -> None:
    with app.test_request_context("/?lang=hu"):
        card = get_template_attribute("_macros.html", "card")
        desc = descriptor(get_game("rummy17"))
        assert str(card("X9", desc)) == '<span class="card" data-card="X9">X9</span>'
        assert 'aria-label="piros joker"' in str(card("*r", desc))  # read as the rules read it


def test_the_history_draws_a_changed_hand_as_cards(client: FlaskClient) -> None:
    edit = match(client, ROUND)
    changed = {**ROUND, "players": [dict(p) for p in ROUND["players"]]}
    changed["players"][2] = {"name": "Lili", "melds": [], "hand": ["R1", "G2"]}
    saved = client.put(f"/api/v1/matches/{edit}/games/1", json=changed, headers={"If-Match": '"2"'})
    assert saved.status_code == 200, saved.get_data(as_text=True)
    page = client.get(f"/m/{edit}?lang=de").get_data(as_text=True)
    history = page[page.index('id="history"') :]
    drawn = chips(history)
    assert drawn["G2"] == ("card c-G", "grüne 2", "G2")
    assert "R1 → R1 G2" in re.sub(r"<[^>]+>", "", history)  # the letters read as typed


@pytest.mark.parametrize(
    ("lang", "game", "legend"),
    [
        ("hu", "rummy17", ["R piros", "B kék", "G zöld", "Y sárga", "K fekete"]),
        ("de", "rummikub", ["K schwarz", "R rot", "B blau", "O orange"]),
        ("bg", "manipulation", ["S♠ пика", "H♥ купа", "D♦ каро", "C♣ спатия"]),
    ],
)
def test_the_round_form_names_the_notations_letters(
    client: FlaskClient, lang: str, game: str, legend: list[str]
) -> None:
    doc = {"rummy17": ROUND, "manipulation": MANIPULATION}.get(game)
    if doc is None:
        names = ["Zsófi", "Márk", "Lili"]
        made = client.post(
            "/api/v1/matches", json={"game": game, "players": names, "first_dealer": names[0]}
        )
        edit = made.get_json()["edit"]
    else:
        edit = match(client, doc)
    page = client.get(f"/m/{edit}/rounds/new?lang={lang}").get_data(as_text=True)
    found = re.search(r'<p class="hint legend" id="colour-legend">(.*?)</p>', page, re.S)
    assert found is not None
    text = re.sub(r"<[^>]+>", "", found.group(1))
    assert [k.strip() for k in text.split("·")] == legend
    assert page.count('id="colour-legend"') == 1  # once, by the first player's fields


def test_the_one_tap_last_cards_and_the_picker_know_each_cards_name(client: FlaskClient) -> None:
    edit = match(client, ROUND)
    page = client.get(f"/m/{edit}/rounds/new?lang=de").get_data(as_text=True)
    last = re.search(r'data-last="R17">(.*?)</button>', page)
    assert last is not None and 'aria-label="rote 17"' in last.group(1)
    names = re.search(r"data-card-names='([^']*)'", page)
    assert names is not None
    known = json.loads(html.unescape(names.group(1)))
    assert known["cards"]["Y8"] == "gelbe 8" and known["cards"]["*R"] == "roter Joker"
    assert known["as"] == "Joker als {card}"


@pytest.mark.parametrize(
    ("lang", "red_1", "black_17"),
    [
        ("en", "red 1", "black 17"),
        ("hu", "piros 1", "fekete 17"),
        ("de", "rote 1", "schwarze 17"),
        ("bg", "червена 1", "черна 17"),
    ],
)
def test_the_card_grids_keys_are_named_as_the_chips_are(
    client: FlaskClient, lang: str, red_1: str, black_17: str
) -> None:
    # The walker's card grid names each key as a chip of that card is named: the colour
    # agrees with the card ("rote 1" beside "rote 17"), never "rot 1".
    edit = match(client, ROUND)
    page = client.get(f"/m/{edit}/rounds/new?lang={lang}").get_data(as_text=True)
    grid = page[page.index('class="cardgrid') :]
    key = r'data-card data-c="(\w)" data-v="(\d+)" aria-label="([^"]*)"'
    keys = {c + v: name for c, v, name in re.findall(key, grid)}
    assert len(keys) == 5 * 17
    assert keys["R1"] == red_1 and keys["K17"] == black_17
    with client.application.test_request_context(f"/?lang={lang}"):
        named = card_names(descriptor(get_game("rummy17")))["cards"]
    assert keys == {card: named[card] for card in keys}  # every key as its chip is named
