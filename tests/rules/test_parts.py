"""One player's part checked on its own (contract "Own hands"): what the part itself
can tell is refused with its clause, naming the player, meld and card; what only the whole
round can tell (a card twice across players, who went out, a joker's reading that depends on
the rest of the table) waits for the round. Plus the invariant: every player's part of a legal
round passes on its own, and a part that passes changes nothing of it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from test_properties import tables

from companion.domain import EntryError, get_game, score_document

SEATS = ["Anna", "Béla", "Cili"]


def refused(game: str, part: object, name: str = "Béla") -> list[dict[str, Any]]:
    with pytest.raises(EntryError) as caught:
        get_game(game).check_part(part, name, SEATS)
    return [p.to_json() for p in caught.value.problems]


def test_r17_a_part_is_melds_and_a_hand_and_is_given_back_as_sent() -> None:
    part = {"melds": [["R1", "R2", "R3"], ["B5", "*B", "B7"]], "hand": ["K3", "Y12"]}
    assert get_game("rummy17").check_part(part, "Béla", SEATS) == part
    counted = {"melds": [], "hand": {"low": 2, "high": 1}}
    assert get_game("rummy17").check_part(counted, "Béla", SEATS) == counted


def test_r17_9_a_meld_of_two_cards_is_no_meld_and_says_which() -> None:
    (problem,) = refused("rummy17", {"melds": [["R1", "R3", "R2"], ["B5", "B6"]], "hand": []})
    assert problem["player"] == "Béla" and problem["meld"] == 2
    assert "R17-9" in problem["message"]


def test_r17_13_a_joker_in_the_hand_and_two_jokers_in_a_meld() -> None:
    problems = refused("rummy17", {"melds": [["R5", "*R", "*B"]], "hand": ["*K"]})
    assert {p["rule"] for p in problems} == {"R17-13"}
    assert {p.get("field") for p in problems} >= {"hand"}
    assert any(p.get("meld") == 1 for p in problems)


def test_d17_8_a_card_twice_within_the_part() -> None:
    (problem,) = refused("rummy17", {"melds": [["R1", "R2", "R3"]], "hand": ["R2"]})
    assert problem["card"] == "R2" and problem["rule"] == "D17-8"


def test_every_unreadable_card_at_once_with_its_meld_number() -> None:
    problems = refused("rummy17", {"melds": [["Q1", "R2", "R3"], ["R5", "R6"]], "hand": ["*K"]})
    assert [(p.get("meld"), p["code"]) for p in problems] == [
        (1, "not-a-card-coloured-joker"),
        (None, "joker-in-hand"),
        (2, "meld-too-short"),
    ]


def test_d17_6_a_joker_the_round_must_settle_is_no_problem_of_the_part() -> None:
    """R5 R6 *R could be R4 or R7: only the whole table can tell (or the table is asked)."""
    part = {"melds": [["R5", "R6", "*R"]], "hand": []}
    assert get_game("rummy17").check_part(part, "Béla", SEATS) == part


@pytest.mark.parametrize(
    ("part", "code"),
    [
        ([], "part-not-object"),
        ({"name": "Béla", "hand": []}, "part-unknown-field"),
        ({"rack": []}, "part-unknown-field"),
    ],
)
def test_r17_not_a_part_says_what_a_part_is(part: object, code: str) -> None:
    (problem,) = refused("rummy17", part)
    assert problem["code"] == code and "melds, hand" in problem["message"]


@pytest.mark.parametrize(
    ("game", "field", "rule"),
    [("rummikub", "rack", "DK-4"), ("rummy-o", "rack", "DO-6"), ("manipulation", "hand", "DM-8")],
)
def test_tile_games_a_rack_or_hand_within_the_box(game: str, field: str, rule: str) -> None:
    kind = get_game(game)
    card = kind.parse_card("R5" if field == "rack" else "5H").text
    assert kind.check_part({field: [card, "*"]}, "Béla", SEATS) == {field: [card, "*"]}
    assert kind.check_part({field: {"points": 30}}, "Béla", SEATS) == {field: {"points": 30}}
    copies = kind.limits({"players": [{"name": n} for n in SEATS]}).copies
    (problem,) = refused(game, {field: [card] * (copies + 1)})
    assert problem["rule"] == rule and problem["card"] == card and problem["player"] == "Béla"
    (missing,) = refused(game, {})
    assert missing["code"] == "holding-missing"
    (points,) = refused(game, {field: {"points": 5000}})
    assert points["code"] == "points-not-number"


def test_manipulation_two_players_have_one_deck_dm_8() -> None:
    kind = get_game("manipulation")
    assert kind.check_part({"hand": ["5H", "5H"]}, "Anna", SEATS) == {"hand": ["5H", "5H"]}
    with pytest.raises(EntryError):
        kind.check_part({"hand": ["5H", "5H"]}, "Anna", ["Anna", "Béla"])


def test_a_joker_left_over_names_no_card_in_the_tile_games() -> None:
    (problem,) = refused("rummikub", {"rack": ["*R5"]})
    assert problem["code"] == "joker-stands-in-holding"


@given(tables())
def test_every_part_of_a_legal_round_passes_on_its_own(doc: dict[str, Any]) -> None:
    """A legal round's parts each pass check_part unchanged, and the round put together again
    from the parts scores as the round did."""
    game = get_game("rummy17")
    names = [p["name"] for p in doc["players"]]
    parts = {}
    for player in doc["players"]:
        part = {k: v for k, v in player.items() if k != "name"}
        parts[player["name"]] = game.check_part(part, player["name"], names)
        assert parts[player["name"]] == part
    clean = {k: v for k, v in doc.items() if not k.startswith("_")}
    again = {**clean, "players": [{"name": n, **p} for n, p in parts.items()]}
    assert score_document(again) == score_document(clean)
