"""A series: R17-2 (dealer passes clockwise), R17-6 (left of the dealer starts), R17-19, D17-7."""

import pytest
from helpers import game
from support import load, subset

from companion.domain import EntryError, dealer_of, left_of, match_document, standings


def test_public_match_example_reproduces_its_expected_result():
    assert subset(load("rummy17-match.expected.json"), match_document(load("rummy17-match.json")))


def test_R17_2_the_dealer_passes_clockwise_each_game():
    seats = ["Anna", "Béla", "Cili"]
    assert [dealer_of(seats, "Béla", n) for n in range(1, 5)] == ["Béla", "Cili", "Anna", "Béla"]


def test_R17_6_the_player_left_of_the_dealer_starts():
    assert left_of(["Anna", "Béla", "Cili"], "Cili") == "Anna"
    result = match_document(load("rummy17-match.json"))
    assert [(r["dealer"], r["starts"]) for r in result["rounds"]] == [
        ("Márk", "Zsófi"),
        ("Zsófi", "Márk"),
    ]


def test_R17_19_totals_add_up_game_after_game():
    result = match_document(load("rummy17-match.json"))
    for name in ("Zsófi", "Márk"):
        assert result["totals"][name] == sum(r["scores"][name] for r in result["rounds"])
        assert result["rounds"][-1]["totals"][name] == result["totals"][name]


def test_D17_7_equal_totals_share_a_rank():
    ranks = standings({"Anna": 31, "Béla": 12, "Cili": 31}, ["Anna", "Béla", "Cili"])
    assert [(s.rank, s.name) for s in ranks] == [(1, "Anna"), (1, "Cili"), (3, "Béla")]


def _round() -> dict:
    doc = game(
        {"Anna": ([["R3", "R4", "R5"]], []), "Béla": ([], ["B1"])}, went_out="Anna", last="K2"
    )
    doc.pop("game")  # game may be left out inside rounds
    return doc


def test_D17_7_a_series_of_a_set_length_is_finished_when_it_is_reached():
    doc = {
        "game": "rummy17",
        "players": ["Anna", "Béla"],
        "first_dealer": "Anna",
        "games": 2,
        "rounds": [_round()],
    }
    first = match_document(doc)
    assert not first["finished"] and first["next"] == {
        "number": 2,
        "dealer": "Béla",
        "starts": "Anna",
    }
    doc["rounds"].append(_round())
    assert match_document(doc)["finished"]
    doc["rounds"].append(_round())
    with pytest.raises(EntryError, match="set to 2 rounds"):
        match_document(doc)


def test_a_round_with_other_players_or_seats_is_refused_and_the_round_named():
    doc = {
        "game": "rummy17",
        "players": ["Béla", "Anna"],
        "first_dealer": "Anna",
        "rounds": [_round()],
    }
    with pytest.raises(EntryError) as err:
        match_document(doc)
    assert err.value.message.startswith("round 1: the round's players must be")
    assert (err.value.code, err.value.round) == ("seats-differ", 1)


def test_an_error_inside_a_round_names_the_round():
    bad = _round()
    bad["players"][1]["hand"] = ["B1", "B1"]
    doc = {
        "game": "rummy17",
        "players": ["Anna", "Béla"],
        "first_dealer": "Anna",
        "rounds": [_round(), bad],
    }
    with pytest.raises(EntryError) as err:
        match_document(doc)
    assert err.value.message.startswith("round 2: Béla's hand: B1 appears twice")
    assert (err.value.round, err.value.field, err.value.player) == (2, "hand", "Béla")
