"""Penalties (R17-16), RUMMY 17 (R17-15), the game score (R17-18), and the public examples."""

import pytest
from helpers import FIVE, game, scored
from support import load, subset

from companion.domain import EntryError, score_document


@pytest.mark.parametrize("name", ["rummy17-round", "rummy17-doubled"])
def test_public_examples_reproduce_their_expected_results(name):
    assert subset(load(f"{name}.expected.json"), score_document(load(f"{name}.json")))


def test_R17_16_penalty_is_one_point_for_1_to_9_and_two_for_10_to_17():
    doc = game(
        {"Anna": ([["R3", "R4", "R5"]], []), "Béla": ([], ["B1", "B9", "B10", "B17"])},
        went_out="Anna",
        last="K2",
    )
    assert scored(doc).players[1].penalty == 1 + 1 + 2 + 2


def test_R17_16_the_short_hand_form_counts_low_and_high_cards():
    doc = game(
        {"Anna": ([["R3", "R4", "R5"]], []), "Béla": ([], {"low": 3, "high": 4})},
        went_out="Anna",
        last="K2",
    )
    assert scored(doc).players[1].penalty == 3 + 8


def test_R17_15a_a_last_card_17_doubles_every_penalty_and_bonus_point():
    doc = game(
        {"Anna": ([["R3", "R4", "R5"]], []), "Béla": ([], ["B1", "B10"])},
        went_out="Anna",
        last="K17",
    )
    result = scored(doc)
    assert result.rummy17 and result.multiplier == 2
    assert result.players[1].penalty == 6
    assert all(a.points == 6 for a in result.awards)


def test_R17_15a_a_last_card_other_than_17_does_not_double():
    doc = game(
        {"Anna": ([["R3", "R4", "R5"]], []), "Béla": ([], ["B1"])}, went_out="Anna", last="K16"
    )
    assert scored(doc).multiplier == 1


def test_R17_15b_the_draw_pile_running_out_never_doubles():
    doc = game({"Anna": ([["R3", "R4", "R5"]], ["K17"]), "Béla": ([], ["B1"])})
    result = scored(doc)
    assert not result.rummy17 and result.multiplier == 1


def test_R17_18_a_game_score_is_bonus_minus_penalty():
    doc = game(
        {"Anna": ([["R3", "R4", "R5"]], []), "Béla": ([["B10", "B11", "B12"]], ["B1", "K13"])},
        bonus=FIVE,
        went_out="Anna",
        last="K2",
    )
    for p in scored(doc).players:
        assert p.score == p.bonus - p.penalty
    bela = scored(doc).players[1]
    # most-cards, most-runs and longest-run are tied (3 each), most-sets nobody.
    assert (bela.bonus, bela.penalty, bela.score) == (9, 3, 6)


def test_R17_17_awards_keep_the_order_the_bonus_cards_were_given():
    doc = game(
        {"Anna": ([["R3", "R4", "R5"]], []), "Béla": ([], ["B1"])},
        bonus=list(reversed(FIVE)),
        went_out="Anna",
        last="K2",
    )
    assert [a.card for a in scored(doc).awards] == list(reversed(FIVE))


def test_d17_6_an_open_end_joker_is_scored_when_no_drawn_card_depends_on_it():
    doc = game(
        {"Anna": ([["R5", "R6", "*R"]], []), "Béla": ([], ["B1"])}, went_out="Anna", last="K2"
    )
    assert "most-8-16" not in doc["bonus_cards"] and "most-1-2-3" not in doc["bonus_cards"]
    result = score_document(doc)
    (meld,) = result["players"][0]["melds"]
    assert meld["could"] == ["R4", "R7"]


def test_d17_6_an_open_end_joker_must_be_stated_where_a_drawn_card_depends_on_it():
    doc = game(
        {"Anna": ([["R2", "R3", "*R"]], []), "Béla": ([], ["B1"])},
        bonus=["most-1-2-3", *FIVE[1:]],  # R1 counts, R4 does not
        went_out="Anna",
        last="K2",
    )
    with pytest.raises(EntryError) as err:
        score_document(doc)
    assert err.value.message == (
        "Anna, meld 1: the joker *R could stand for R1 or R4; say which, like *R1 (D17-6)"
    )
    assert (err.value.player, err.value.meld, err.value.rule) == ("Anna", 1, "D17-6")
