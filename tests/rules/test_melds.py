"""R17-9 sets and runs, R17-13 jokers, D17-6 stand-ins: the meld analysis and `check`."""

import pytest

from companion.domain import Card, check_meld, parse_card
from companion.domain.games.rummy17 import analyse_meld
from companion.domain.games.rummy17.deck import RUMMY17
from companion.domain.games.rummy17.melds import MeldError


def meld(*cards: str):
    return analyse_meld([parse_card(c, RUMMY17) for c in cards])


def verdict(*cards: str) -> dict:
    return check_meld("rummy17", list(cards))


def test_R17_9_a_set_is_three_or_more_of_one_value():
    assert meld("Y8", "B8", "G8").kind == "set"
    assert meld("R12", "B12", "G12", "K12", "Y12").kind == "set"


def test_R17_9_a_run_is_three_or_more_consecutive_of_one_colour():
    assert meld("R3", "R4", "R5").kind == "run"
    assert meld("R5", "R3", "R4").kind == "run"  # entry order does not matter


def test_R17_9_two_cards_are_not_a_meld():
    v = verdict("R3", "R4")
    assert v == {
        "valid": False,
        "kind": None,
        "rule": "R17-9",
        "reason": "a meld needs at least three cards, this one has 2 (R17-9)",
        "code": "meld-too-short",
        "params": {"rule": "R17-9", "count": 2},
    }


def test_R17_9_a_run_has_no_gaps():
    v = verdict("R3", "R5", "R6")
    assert not v["valid"] and v["rule"] == "R17-9" and "R4 is missing" in v["reason"]


def test_R17_9_runs_do_not_wrap_from_17_to_1():
    v = verdict("R16", "R17", "R1")
    assert not v["valid"] and v["rule"] == "R17-9"


def test_R17_9_mixed_colours_and_values_are_no_meld():
    v = verdict("R5", "B6", "K7")
    assert not v["valid"] and "R5 and B6 cannot be in one meld" in v["reason"]


def test_R17_13_a_joker_stands_only_for_its_own_colour():
    v = verdict("B5", "B6", "*R")
    assert not v["valid"] and v["rule"] == "R17-13"
    assert "red joker cannot stand in a blue run" in v["reason"]


def test_R17_13_at_most_one_joker_per_meld():
    v = verdict("R5", "*R", "*B", "R6")
    assert not v["valid"] and v["rule"] == "R17-13" and "at most one joker" in v["reason"]


def test_R17_13_a_set_never_holds_two_identical_cards():
    v = verdict("R5", "B5", "*R")
    assert not v["valid"] and v["rule"] == "R17-13" and "already in this set" in v["reason"]


def test_R17_1_a_card_twice_in_one_meld_is_refused():
    with pytest.raises(MeldError) as err:
        meld("R5", "R5", "R6")
    assert (
        err.value.card == "R5"
        and err.value.reason == "R5 appears twice (R17-1: each card exists once)"
    )


def test_D17_6_a_set_joker_takes_the_sets_value_in_its_colour():
    v = verdict("K14", "Y14", "*G")
    assert v["valid"] and v["kind"] == "set" and "*G14" in v["cards"]
    assert "value" not in v  # Rummy 17 has no initial meld to count (RK-6, RO-6 only)


def test_D17_6_a_run_joker_fills_the_gap():
    v = verdict("R3", "*R", "R5")
    assert v["cards"] == ["R3", "*R4", "R5"]


def test_D17_6_a_run_joker_takes_the_only_open_end():
    assert verdict("R16", "R17", "*R")["cards"] == ["*R15", "R16", "R17"]
    assert verdict("R1", "R2", "*R")["cards"] == ["R1", "R2", "*R3"]


def test_D17_6_either_end_is_ambiguous_and_check_lists_every_reading():
    v = verdict("R5", "R6", "*R")
    assert v["valid"] and v["kind"] == "run" and v["rule"] == "D17-6"
    assert [r["cards"] for r in v["readings"]] == [["*R4", "R5", "R6"], ["R5", "R6", "*R7"]]
    assert [r["kind"] for r in v["readings"]] == ["run", "run"]


def test_D17_6_a_stated_stand_in_settles_the_reading():
    m = meld("R5", "R6", "*R7")
    assert not m.ambiguous and m.faces == (
        Card("R", 5, RUMMY17),
        Card("R", 6, RUMMY17),
        Card("R", 7, RUMMY17),
    )


def test_D17_6_a_stated_stand_in_must_fit_the_meld():
    v = verdict("R5", "R6", "*R9")
    assert not v["valid"] and v["rule"] == "D17-6" and "R4 or R7" in v["reason"]
    v = verdict("K14", "Y14", "*G13")
    assert not v["valid"] and "can only stand for G14" in v["reason"]


def test_check_refuses_an_unreadable_card_as_bad_input():
    from companion.domain import EntryError

    with pytest.raises(EntryError):
        check_meld("rummy17", ["R3", "R4", "Q5"])
