"""``turn`` for the tile games (contract ``turn``): Rummikub, Deluxe Rummy-O, Manipulation
Rummy. One test per check and clause, in every game."""

from __future__ import annotations

from typing import Any

import pytest

from companion.catalogues import translator
from companion.rules import EntryError, check_turn, localize


def turn(game: str, before: list, after: list, hand: list | None = None, **extra: Any) -> dict:
    doc: dict[str, Any] = {"game": game, "before": before, "after": after, **extra}
    if hand is not None:
        doc["hand"] = hand
    return check_turn(doc)


def rules(verdict: dict) -> list[str]:
    return [p["rule"] for p in verdict["problems"]]


CONTRACT_EXAMPLE = {
    "game": "rummikub",
    "opened": True,
    "before": [["R5", "R6", "R7"], ["K9", "B9", "O9"]],
    "after": [["R5", "R6", "R7", "R8"], ["K9", "B9", "O9"], ["B10", "B11", "B12"]],
    "hand": ["R8", "B10", "B11", "B12", "K1"],
}


def test_contract_example_is_legal():
    verdict = check_turn(CONTRACT_EXAMPLE)
    assert verdict["valid"] is True
    assert verdict["problems"] == []
    # Sorted as the game writes cards: colour order K R B O (DK-1), then value.
    assert verdict["played"] == ["R8", "B10", "B11", "B12"]
    assert verdict["value"] is None
    assert verdict["melds"][0] == {"cards": ["R5", "R6", "R7", "R8"], "valid": True, "kind": "run"}
    assert [m["kind"] for m in verdict["melds"]] == ["run", "set", "run"]


def test_contract_example_result_shape_rk9_k1_back_to_the_rack():
    doc = dict(CONTRACT_EXAMPLE, before=[*CONTRACT_EXAMPLE["before"], ["K1", "R1", "B1"]])
    doc["after"] = [*CONTRACT_EXAMPLE["after"], ["R1", "B1", "O1"]]
    doc["hand"] = ["R8", "B10", "B11", "B12", "O1"]
    verdict = check_turn(doc)
    assert verdict["valid"] is False
    assert verdict["problems"][0]["rule"] == "RK-9"
    assert verdict["problems"][0]["reason"] == (
        "K1 is no longer on the table: a tile never goes back to a rack"
    )


# --- 1. every meld in after is legal ------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "meld", "rule"),
    [
        ("rummikub", ["K12", "K13", "K1"], "RK-5"),
        ("rummikub", ["K7", "K7", "R7"], "RK-4"),
        ("rummy-o", ["G12", "G13", "G1"], "DO-2"),
        ("rummy-o", ["R4", "R4", "B4"], "RO-4"),
        ("manipulation", ["KH", "AH", "2H"], "MR-4"),
        ("manipulation", ["8S", "8S", "8H"], "MR-3"),
    ],
)
def test_rk4_rk5_ro4_mr3_mr4_every_meld_after_the_turn_is_legal(game, meld, rule):
    verdict = turn(game, [], [meld], opened=True)
    assert rules(verdict) == [rule]
    assert verdict["problems"][0]["meld"] == 1
    assert verdict["melds"][0]["valid"] is False
    assert verdict["melds"][0]["rule"] == rule


def test_mr4_an_ace_is_high_after_a_king():
    assert turn("manipulation", [], [["QH", "KH", "AH"]])["valid"] is True


# --- 2. nothing leaves the table ----------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rule", "word"),
    [("rummikub", "RK-9", "rack"), ("rummy-o", "RO-8", "rack"), ("manipulation", "MR-6", "hand")],
)
def test_rk9_ro8_mr6_a_card_never_goes_back_to_the_hand(game, rule, word):
    five = ["5H", "6H", "7H", "8H"] if game == "manipulation" else ["R5", "R6", "R7", "R8"]
    new = ["2S", "3S", "4S"] if game == "manipulation" else ["B2", "B3", "B4"]
    verdict = turn(game, [five], [five[:3], new])
    assert rules(verdict) == [rule]
    assert verdict["problems"][0]["card"] == five[3]
    assert word in verdict["problems"][0]["reason"]


@pytest.mark.parametrize(
    ("game", "rule"), [("rummikub", "RK-14"), ("rummy-o", "RO-9"), ("manipulation", "MR-7")]
)
def test_rk14_ro9_mr7_a_freed_joker_must_be_used_in_the_same_turn(game, rule):
    if game == "manipulation":
        before, after = [["5H", "*6H", "7H"]], [["5H", "6H", "7H"]]
    else:
        before, after = [["R5", "*R6", "R7"]], [["R5", "R6", "R7"]]
    verdict = turn(game, before, after)
    assert rules(verdict) == [rule]
    assert verdict["problems"][0]["card"] == "*"


def test_rk14_a_freed_joker_used_in_a_new_set_is_legal():
    verdict = turn(
        "rummikub",
        [["R5", "*", "R7"]],
        [["R5", "R6", "R7"], ["K8", "B8", "*O8"]],
        hand=["R6", "K8", "B8"],
    )
    assert verdict["valid"] is True
    assert verdict["played"] == ["K8", "R6", "B8"]
    assert verdict["melds"][1]["cards"] == ["K8", "B8", "*O8"]


# --- 3. something was played --------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rule"), [("rummikub", "RK-8"), ("rummy-o", "RO-7"), ("manipulation", "MR-6")]
)
def test_rk8_ro7_mr6_a_turn_plays_at_least_one_card(game, rule):
    meld = ["5H", "6H", "7H"] if game == "manipulation" else ["R5", "R6", "R7"]
    verdict = turn(game, [meld], [list(reversed(meld))])
    assert rules(verdict) == [rule]
    assert verdict["played"] == []


def test_rk9_rearranging_the_table_with_one_tile_added_is_legal():
    before = [["R5", "R6", "R7", "R8"], ["K8", "B8", "O8"]]
    after = [["R5", "R6", "R7"], ["R8", "K8", "B8", "O8"], ["K9", "K10", "K11"]]
    verdict = turn("rummikub", before, after, hand=["K9", "K10", "K11"])
    assert verdict["valid"] is True


# --- 4. played cards come from the hand ---------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rule"), [("rummikub", "RK-8"), ("rummy-o", "RO-7"), ("manipulation", "MR-5")]
)
def test_rk8_ro7_mr5_every_played_card_was_in_the_hand(game, rule):
    meld = ["5H", "6H", "7H"] if game == "manipulation" else ["R5", "R6", "R7"]
    verdict = turn(game, [], [meld], hand=meld[:2])
    assert rules(verdict) == [rule]
    assert verdict["problems"][0]["card"] == meld[2]


# --- 5. the initial meld ------------------------------------------------------------------


def test_rk6_initial_meld_counts_face_values_and_needs_30():
    short = turn("rummikub", [], [["R9", "R10"], ["K1"]], opened=False)
    assert rules(short) == ["RK-5", "RK-4", "RK-6"]  # only legal melds count
    assert short["value"] == 0
    under = turn("rummikub", [], [["R8", "R9", "R10"], ["K1", "R1", "B1"]], opened=False)
    assert under["value"] == 30
    assert under["valid"] is True
    low = turn("rummikub", [], [["R8", "R9", "R10"]], opened=False)
    assert low["value"] == 27
    assert rules(low) == ["RK-6"]
    assert low["problems"][0]["reason"] == "the initial meld is worth 27; it needs at least 30"


def test_rk6_rk12_a_joker_counts_the_value_it_stands_for():
    verdict = turn("rummikub", [], [["R9", "*", "R11"]], opened=False)
    assert verdict["value"] == 30
    assert verdict["valid"] is True
    assert verdict["melds"][0]["cards"] == ["R9", "*R10", "R11"]


def test_rk6_an_initial_meld_leaves_the_table_alone():
    before = [["R5", "R6", "R7"]]
    after = [["R5", "R6", "R7", "R8"], ["K10", "K11", "K12"]]
    verdict = turn("rummikub", before, after, opened=False)
    assert rules(verdict) == ["RK-6"]
    assert verdict["value"] == 59  # the changed meld counts as new: it is not the table's


def test_rk6_table_melds_kept_in_any_order_are_untouched():
    before = [["R5", "R6", "R7"], ["K9", "B9", "O9"]]
    after = [["O9", "B9", "K9"], ["R7", "R6", "R5"], ["K10", "K11", "K12"]]
    verdict = turn("rummikub", before, after, opened=False)
    assert verdict["valid"] is True
    assert verdict["value"] == 33


def test_rk6_the_meld_that_stayed_is_the_one_with_the_same_stand_in():
    before = [["*K6", "K7", "K8"]]
    after = [["*K6", "K7", "K8"], ["K7", "K8", "*K9"]]  # the same tiles, the joker as K9
    for table in (after, list(reversed(after))):
        verdict = turn("rummikub", before, table, opened=False)
        assert verdict["value"] == 24  # K7 K8 K9 is the new meld, whatever the order
        assert rules(verdict) == ["RK-6"]


def test_rk13_no_joker_is_taken_from_the_table_before_the_initial_meld():
    before = [["R5", "*", "R7"]]
    after = [["R5", "R6", "R7"], ["K10", "K11", "K12", "*K13"]]
    verdict = turn("rummikub", before, after, opened=False)
    assert rules(verdict) == ["RK-6", "RK-13"]


def test_ro6_do3_initial_meld_counts_ro2_point_values_and_needs_25():
    tens = turn("rummy-o", [], [["R11", "R12", "R13"]], opened=False)
    assert tens["value"] == 30  # 10 each (RO-2), not 36
    assert tens["valid"] is True
    ones = turn("rummy-o", [], [["R1", "B1", "K1"]], opened=False)
    assert ones["value"] == 30
    low = turn("rummy-o", [], [["R2", "R3", "R4"], ["K1", "K2", "K3"]], opened=False)
    assert low["value"] == 24
    assert rules(low) == ["RO-6"]


def test_do3_a_joker_counts_as_the_tile_it_stands_for_not_25():
    verdict = turn("rummy-o", [], [["R2", "R3", "*R4"]], opened=False)
    assert verdict["value"] == 9
    assert rules(verdict) == ["RO-6"]
    high = turn("rummy-o", [], [["R12", "R13", "*"]], opened=False)
    assert high["value"] == 30


def test_ro8_an_initial_meld_leaves_the_table_alone():
    verdict = turn(
        "rummy-o",
        [["R5", "R6", "R7"]],
        [["R5", "R6", "R7", "R8"], ["K12", "K13", "K11"]],
        opened=False,
    )
    assert "RO-8" in rules(verdict)


def test_ro8_no_joker_is_taken_from_the_table_before_the_initial_meld():
    before = [["G5", "*", "G7"]]
    after = [["G5", "G6", "G7"], ["K10", "K11", "K12", "*K13"]]
    verdict = turn("rummy-o", before, after, opened=False)
    assert rules(verdict) == ["RO-8", "RO-8"]
    assert [p["code"] for p in verdict["problems"]] == [
        "turn-initial-touched",
        "turn-initial-joker",
    ]


def test_manipulation_has_no_initial_meld():
    verdict = turn("manipulation", [], [["2S", "3S", "4S"]], opened=False)
    assert verdict["valid"] is True
    assert verdict["value"] is None


def test_value_is_null_once_opened():
    assert turn("rummikub", [], [["R8", "R9", "R10"]])["value"] is None


# --- every problem at once ----------------------------------------------------------------


def test_every_problem_is_listed_not_only_the_first():
    before = [["R5", "R6", "R7", "R8"], ["K1", "R1", "B1", "*"]]
    after = [["R5", "R6"], ["K1", "R1", "B1"], ["O3", "O4", "O5"]]
    verdict = turn("rummikub", before, after, hand=["O3"])
    assert rules(verdict) == ["RK-5", "RK-9", "RK-9", "RK-14", "RK-8", "RK-8"]
    assert verdict["valid"] is False


def test_reasons_follow_the_language():
    verdict = turn("rummikub", [["R5", "R6", "R7", "R8"]], [["R5", "R6", "R7"]])
    hu = localize(verdict, translator("hu"))
    assert hu["problems"][0]["rule"] == "RK-9"
    assert hu["problems"][0]["reason"] != verdict["problems"][0]["reason"]
    assert "R8" in hu["problems"][0]["reason"]


# --- bad input ----------------------------------------------------------------------------


def test_dk4_a_third_copy_is_bad_input():
    with pytest.raises(EntryError) as err:
        turn("rummikub", [["R5", "R6", "R7"], ["R5", "B5", "K5"]], [], hand=["R5"])
    assert err.value.code == "turn-too-many-copies"
    assert err.value.card == "R5"
    assert err.value.rule == "DK-4"


def test_a_third_joker_is_bad_input():
    with pytest.raises(EntryError) as err:
        turn("rummy-o", [], [["R5", "*", "*"], ["K1", "K2", "*"]])
    assert err.value.code == "turn-too-many-jokers"
    assert err.value.rule == "DO-6"


def test_rk12_an_ambiguous_joker_is_bad_input_naming_the_meld_where_the_worth_depends_on_it():
    # 6 + R6 R7 R8 (21) is 27, under RK-6's 30; 6 + R7 R8 R9 (24) is 30: the readings straddle.
    with pytest.raises(EntryError) as err:
        turn("rummikub", [], [["K1", "K2", "K3"], ["R7", "R8", "*"]], opened=False)
    assert err.value.meld == 2
    assert err.value.field == "after"
    assert err.value.rule == "RK-12"
    assert err.value.message.startswith("the table after the turn, meld 2: ")


def test_a_stated_stand_in_settles_the_joker():
    assert turn("rummikub", [], [["R5", "R6", "*R7"]])["melds"][0]["cards"] == ["R5", "R6", "*R7"]


def test_an_illegal_table_before_the_turn_is_bad_input():
    with pytest.raises(EntryError) as err:
        turn("rummikub", [["R5", "R7", "R9"]], [["R5", "R7", "R9", "R6"]])
    assert err.value.field == "before"
    assert err.value.meld == 1


@pytest.mark.parametrize(
    "doc",
    [
        [],
        {"game": "rummikub", "before": "R5", "after": []},
        {"game": "rummikub", "before": [], "after": [], "opened": "yes"},
        {"game": "rummikub", "before": [], "after": [], "extra": 1},
        {"game": "rummikub", "before": [], "after": [["R5", "X9"]]},
        {"game": "chess", "before": [], "after": []},
    ],
)
def test_unreadable_documents_are_bad_input(doc):
    with pytest.raises(EntryError):
        check_turn(doc)


def test_an_unreadable_card_names_its_meld():
    with pytest.raises(EntryError) as err:
        turn("rummikub", [], [["R5", "R6", "R7"], ["K5", "X9", "B5"]])
    assert err.value.meld == 2
    assert err.value.card == "X9"


# --- RK-3: redeal -------------------------------------------------------------------------

FOURTEEN = ["R1", "R1", "K2", "K2", "B3", "B3", "O1", "O2", "O3", "O4", "O5", "O6", "O7", "*"]


def test_rk3_three_pairs_allow_a_redeal():
    from companion.rules import check_redeal

    verdict = check_redeal("rummikub", FOURTEEN)
    assert verdict["redeal"] is True
    assert verdict["pairs"] == ["K2", "R1", "B3"]
    assert verdict["rule"] == "RK-3"


def test_rk3_two_pairs_do_not():
    from companion.rules import check_redeal

    tiles = [*FOURTEEN[:4], "B3", "B4", *FOURTEEN[6:]]
    verdict = check_redeal("rummikub", tiles)
    assert verdict["redeal"] is False
    assert verdict["pairs"] == ["K2", "R1"]
    assert "3" in verdict["reason"]


def test_rk3_the_first_fourteen_tiles_only():
    from companion.rules import check_redeal

    with pytest.raises(EntryError) as err:
        check_redeal("rummikub", FOURTEEN[:13])
    assert err.value.rule == "RK-3"


def test_only_rummikub_has_a_redeal():
    from companion.rules import check_redeal

    with pytest.raises(EntryError) as err:
        check_redeal("rummy-o", FOURTEEN)
    assert err.value.code == "redeal-none"
