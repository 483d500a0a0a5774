"""``turn`` for Rummy 17 (contract ``turn``, checks 1–7: R17-9…R17-13)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules import EntryError, check_turn

CONTRACT_EXAMPLE = {
    "game": "rummy17",
    "player": "Anna",
    "opened": False,
    "before": {"Anna": [], "Béla": [["K10", "K11", "K12"]]},
    "after": {"Anna": [["R3", "R4", "R5", "*R"]], "Béla": [["K9", "K10", "K11", "K12"]]},
    "hand": ["R3", "R4", "R5", "K9", "G2"],
}


def turn(before: dict, after: dict, *, opened: bool = True, hand: list | None = None) -> dict:
    doc: dict[str, Any] = {
        "game": "rummy17",
        "player": "Anna",
        "opened": opened,
        "before": before,
        "after": after,
    }
    if hand is not None:
        doc["hand"] = hand
    return check_turn(doc)


def rules(verdict: dict) -> list[str]:
    return [p["rule"] for p in verdict["problems"]]


def test_contract_example_is_legal():
    verdict = check_turn(CONTRACT_EXAMPLE)
    assert verdict["valid"] is True
    assert verdict["problems"] == []
    assert verdict["value"] is None
    assert verdict["played"] == ["R3", "R4", "R5", "K9", "*R"]
    assert [m["player"] for m in verdict["melds"]] == ["Anna", "Béla"]
    assert verdict["melds"][1]["cards"] == ["K9", "K10", "K11", "K12"]
    assert verdict["melds"][0]["could"] == ["R2", "R6"]  # D17-6: either end, it does not matter


# --- 1. every meld legal (R17-9, R17-13) --------------------------------------------------


def test_r17_9_a_new_meld_must_be_a_set_or_run():
    verdict = turn({"Anna": [], "Béla": []}, {"Anna": [["R3", "R4", "B5"]], "Béla": []})
    assert rules(verdict) == ["R17-9"]
    assert verdict["problems"][0]["player"] == "Anna"
    assert verdict["problems"][0]["meld"] == 1
    assert verdict["melds"][0]["valid"] is False


def test_r17_9_runs_do_not_wrap():
    verdict = turn({"Anna": [], "Béla": []}, {"Anna": [["Y16", "Y17", "Y1"]], "Béla": []})
    assert verdict["valid"] is False
    assert verdict["melds"][0]["rule"] == "R17-9"


def test_r17_13_one_joker_per_meld():
    before = {"Anna": [], "Béla": [["R3", "R4", "*R5"]]}
    after = {"Anna": [], "Béla": [["R3", "R4", "*R5", "*R6"]]}
    with pytest.raises(EntryError):  # a second red joker does not exist (R17-1)
        turn(before, after)
    after = {"Anna": [["B7", "B8", "B9", "*B"]], "Béla": [["R3", "R4", "*R5", "R6"]]}
    assert turn(before, after)["valid"] is True


# --- 2. never regrouped (R17-10) ----------------------------------------------------------


def test_r17_10_melds_are_never_regrouped():
    before = {"Anna": [["R3", "R4", "R5", "R6"]], "Béla": []}
    after = {"Anna": [["R3", "R4", "R5"], ["R6", "B6", "G6"]], "Béla": []}
    verdict = turn(before, after, hand=["B6", "G6", "K1"])  # K1 kept to discard (D17-11)
    assert rules(verdict) == ["R17-10"]
    assert verdict["problems"][0]["card"] == "R6"


def test_r17_10_a_meld_stays_in_its_place():
    before = {"Anna": [], "Béla": [["R3", "R4", "R5"]]}
    after = {"Anna": [], "Béla": []}
    verdict = turn(before, after)
    assert rules(verdict) == ["R17-10"]
    assert verdict["problems"][0]["code"] == "turn17-meld-gone"


# --- 3. only the player lays new melds (R17-9) --------------------------------------------


def test_r17_9_melds_are_laid_in_front_of_the_player():
    before = {"Anna": [], "Béla": []}
    after = {"Anna": [], "Béla": [["R3", "R4", "R5"]]}
    verdict = turn(before, after)
    assert rules(verdict) == ["R17-9"]
    assert verdict["problems"][0]["player"] == "Béla"


# --- 4. adding (R17-10) -------------------------------------------------------------------


def test_r17_10_no_adding_before_ones_first_meld():
    before = {"Anna": [], "Béla": [["K10", "K11", "K12"]]}
    after = {"Anna": [], "Béla": [["K9", "K10", "K11", "K12"]]}
    verdict = turn(before, after, opened=False)
    assert rules(verdict) == ["R17-10"]
    assert verdict["problems"][0]["params"]["cards"] == ["K9"]
    assert turn(before, after, opened=True)["valid"] is True


def test_r17_10_adding_in_the_turn_of_the_first_meld():
    before = {"Anna": [], "Béla": [["K10", "K11", "K12"]]}
    after = {"Anna": [["G1", "G2", "G3"]], "Béla": [["K9", "K10", "K11", "K12"]]}
    assert turn(before, after, opened=False)["valid"] is True


# --- 5. taking a joker from beside the table (R17-11) -------------------------------------


def test_r17_11_a_joker_needs_a_new_run_of_four():
    before = {"Anna": [], "Béla": []}
    short = turn(before, {"Anna": [["R3", "R4", "*R5"]], "Béla": []})
    assert rules(short) == ["R17-11"]
    assert short["problems"][0]["card"] == "*R"
    a_set = turn(before, {"Anna": [["R3", "B3", "G3", "*K3"]], "Béla": []})
    assert rules(a_set) == ["R17-11"]
    four = turn(before, {"Anna": [["R3", "R4", "*R5", "R6"]], "Béla": []}, opened=False)
    assert four["valid"] is True


def test_r17_11_a_joker_from_beside_the_table_is_not_added_to_a_meld():
    before = {"Anna": [], "Béla": [["R3", "R4", "R5"]]}
    after = {"Anna": [], "Béla": [["R3", "R4", "R5", "*R6"]]}
    verdict = turn(before, after)
    assert rules(verdict) == ["R17-11"]
    assert verdict["problems"][0]["code"] == "turn17-joker-added"


# --- 6. swapping a joker (R17-12, R17-13) -------------------------------------------------


def test_r17_12_swapping_a_joker_into_a_new_run():
    before = {"Anna": [["B1", "B2", "B3"]], "Béla": [["R3", "*R4", "R5"]]}
    after = {
        "Anna": [["B1", "B2", "B3"], ["R7", "R8", "*R9"]],
        "Béla": [["R3", "R4", "R5"]],
    }
    verdict = turn(before, after, hand=["R4", "R7", "R8", "K1"])  # K1 kept to discard (D17-11)
    assert verdict["valid"] is True
    assert verdict["played"] == ["R4", "R7", "R8"]


def test_r17_12_only_after_having_melded():
    before = {"Anna": [], "Béla": [["R3", "*R4", "R5"]]}
    after = {"Anna": [["R7", "R8", "*R9"]], "Béla": [["R3", "R4", "R5"]]}
    verdict = turn(before, after, opened=False)
    assert rules(verdict) == ["R17-12"]


def test_r17_12_the_card_the_joker_stands_for_takes_its_place():
    before = {"Anna": [["B1", "B2", "B3"]], "Béla": [["R3", "*R4", "R5"]]}
    after = {"Anna": [["B1", "B2", "B3", "*B4"]], "Béla": [["R3", "R5", "R6"]]}
    verdict = turn(before, after)
    assert "R17-12" in rules(verdict)
    assert "R17-9" in rules(verdict)  # R3 R5 R6 is no run


def test_r17_12_an_end_joker_takes_either_card_it_could_stand_for():
    before = {"Anna": [["B1", "B2", "B3"]], "Béla": [["R3", "R4", "*R"]]}
    swapped = {"Anna": [["B1", "B2", "B3", "*R"]], "Béla": [["R2", "R3", "R4"]]}
    verdict = turn(before, swapped)
    assert "R17-12" not in rules(verdict)
    assert rules(verdict) == ["R17-13"]  # a red joker cannot stand in a blue run


def test_r17_13_a_swapped_joker_is_melded_in_the_same_turn():
    before = {"Anna": [["B1", "B2", "B3"]], "Béla": [["R3", "*R4", "R5"]]}
    after = {"Anna": [["B1", "B2", "B3"]], "Béla": [["R3", "R4", "R5"]]}
    verdict = turn(before, after)
    assert rules(verdict) == ["R17-13"]
    assert verdict["problems"][0]["card"] == "*R"


# --- 7. from the hand (R17-9) -------------------------------------------------------------


def test_r17_9_played_cards_come_from_the_hand():
    before = {"Anna": [], "Béla": []}
    after = {"Anna": [["R3", "R4", "R5"]], "Béla": []}
    verdict = turn(before, after, hand=["R3", "R4", "K1"])  # K1 kept to discard (D17-11)
    assert rules(verdict) == ["R17-9"]
    assert verdict["problems"][0]["card"] == "R5"


def test_d17_8_a_joker_in_the_hand_is_bad_input():
    with pytest.raises(EntryError) as err:
        turn({"Anna": [], "Béla": []}, {"Anna": [], "Béla": []}, hand=["*R"])
    assert err.value.rule == "D17-8"


# --- bad input ----------------------------------------------------------------------------


def test_r17_1_each_card_exists_once():
    with pytest.raises(EntryError) as err:
        turn({"Anna": [["R3", "R4", "R5"]], "Béla": []}, {"Anna": [], "Béla": []}, hand=["R5"])
    assert err.value.code == "turn-too-many-copies"
    assert err.value.rule == "R17-1"


def test_an_illegal_meld_before_the_turn_is_bad_input_naming_player_and_meld():
    with pytest.raises(EntryError) as err:
        turn({"Anna": [], "Béla": [["R3", "R5", "R7"]]}, {"Anna": [], "Béla": []})
    assert err.value.player == "Béla"
    assert err.value.meld == 1


@pytest.mark.parametrize(
    "change",
    [
        {"player": "Zoé"},
        {"player": ["Anna"]},
        {"hand": [None]},
        {"after": {"Anna": [["R3"]], "Béla": "K9"}},
        {"after": {"Béla": [], "Anna": []}},
        {"before": [["R3", "R4", "R5"]]},
        {"opened": 1},
    ],
)
def test_unreadable_documents_are_bad_input(change):
    doc = {**CONTRACT_EXAMPLE, **change}
    with pytest.raises(EntryError):
        check_turn(doc)
