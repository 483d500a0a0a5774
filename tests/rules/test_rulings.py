"""The rulings clause by clause: a card in a hand never narrows a joker's reading (D17-6), a
Rummy 17 turn keeps a card to discard (D17-11), a Rummy-O joker leaves its card only for that
tile from the rack (DO-8), ``check`` refuses more copies than the box has, and ``turn`` asks
for a stand-in only where the readings straddle the initial meld (contract "Games and cards").
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.catalogues import translator
from companion.rules import EntryError, check_meld, check_turn, localize, score_document

RK = "rummikub"
RO = "rummy-o"
EIGHTS = ["most-8-16", "most-cards", "most-sets", "most-runs", "longest-run"]
NO_FIGURE_CARES = ["most-cards", "most-sets", "most-runs", "longest-run", "most-red"]


def r17_round(
    anna: list, bela: list, bonus: list[str], *, anna_hand: Any = None, bela_hand: Any = None
) -> dict[str, Any]:
    """A Rummy 17 game that ended by the draw pile: Anna's and Béla's melds and hands."""
    return {
        "game": "rummy17",
        "bonus_cards": bonus,
        "went_out": None,
        "players": [
            {"name": "Anna", "melds": anna, "hand": ["G2"] if anna_hand is None else anna_hand},
            {"name": "Béla", "melds": bela, "hand": ["G3"] if bela_hand is None else bela_hand},
        ],
    }


def asked(doc: dict[str, Any]) -> EntryError:
    with pytest.raises(EntryError) as caught:
        score_document(doc)
    return caught.value


# --- D17-6: a card in a hand never rules a reading out ------------------------------------


def test_D17_6_a_card_in_a_hand_never_rules_a_reading_out() -> None:
    # K16 in Béla's hand: the joker may be K16, which Béla may swap in (R17-12). As K13 it gives
    # most-8-16 to Béla alone (B8), as K16 it makes a tie: the table must say which.
    doc = r17_round([["K14", "K15", "*K"]], [["B7", "B8", "B9"]], EIGHTS, bela_hand=["K16"])
    err = asked(doc)
    assert (err.code, err.player, err.meld) == ("meld-joker-ambiguous", "Anna", 1)
    assert err.rule == "D17-6"
    assert err.first.values()["could"] == ["K13", "K16"]
    assert err.message == (
        "Anna, meld 1: the joker *K could stand for K13 or K16; say which, like *K13 (D17-6)"
    )


@pytest.mark.parametrize(("stand", "winners"), [("*K13", ["Béla"]), ("*K16", ["Anna", "Béla"])])
def test_D17_6_the_stated_reading_decides_the_bonus_card(stand: str, winners: list[str]) -> None:
    doc = r17_round([["K14", "K15", stand]], [["B7", "B8", "B9"]], EIGHTS, bela_hand=["K16"])
    award = next(a for a in score_document(doc)["awards"] if a["card"] == "most-8-16")
    assert award["winners"] == winners


def test_D17_6_the_holders_own_hand_counts_no_more_than_anyone_elses() -> None:
    doc = r17_round([["K14", "K15", "*K"]], [], EIGHTS, anna_hand=["K16", "G2"])
    assert asked(doc).first.values()["could"] == ["K13", "K16"]


def test_D17_6_a_card_in_a_hand_leaves_both_readings_listed_where_nothing_depends_on_them() -> None:
    doc = r17_round([["K14", "K15", "*K"]], [], NO_FIGURE_CARES, bela_hand=["K16", "G3"])
    (meld,) = score_document(doc)["players"][0]["melds"]
    assert meld["could"] == ["K13", "K16"]


def test_D17_6_a_card_in_another_meld_still_narrows_while_the_hand_does_not() -> None:
    # K13 in Béla's meld, K16 in Béla's hand: the joker is K16, unasked, and counts for Anna.
    doc = r17_round(
        [["K14", "K15", "*K"]], [["K11", "K12", "K13"]], EIGHTS, bela_hand=["K16", "G3"]
    )
    result = score_document(doc)
    (meld,) = result["players"][0]["melds"]
    assert meld["cards"] == ["K14", "K15", "*K16"] and "could" not in meld
    award = next(a for a in result["awards"] if a["card"] == "most-8-16")
    assert award["figures"] == {"Anna": 1, "Béla": 0} and award["winners"] == ["Anna"]


def test_D17_6_a_reading_the_meld_forces_stands_with_its_card_in_another_meld() -> None:
    doc = r17_round([["K9", "*K", "K11"]], [["R10", "B10", "K10"]], NO_FIGURE_CARES)
    (meld,) = score_document(doc)["players"][0]["melds"]
    assert meld["cards"] == ["K9", "*K10", "K11"] and "could" not in meld


def test_D17_6_a_reading_the_meld_forces_stands_with_its_card_in_a_hand() -> None:
    doc = r17_round([["K9", "*K", "K11"]], [], EIGHTS, bela_hand=["K10", "G3"])
    (meld,) = score_document(doc)["players"][0]["melds"]
    assert meld["cards"] == ["K9", "*K10", "K11"]


def test_D17_6_a_set_joker_is_never_asked_whatever_the_hands_hold() -> None:
    doc = r17_round([["R8", "B8", "*K"]], [], EIGHTS, bela_hand=["K8", "G3"])
    (meld,) = score_document(doc)["players"][0]["melds"]
    assert meld["cards"] == ["R8", "B8", "*K8"] and meld["kind"] == "set"


def test_D17_6_hands_in_the_short_form_narrow_nothing_either() -> None:
    doc = r17_round([["K14", "K15", "*K"]], [], EIGHTS, bela_hand={"low": 1, "high": 2})
    assert asked(doc).first.values()["could"] == ["K13", "K16"]


def test_D17_6_the_last_discard_narrows_as_a_melded_card_does() -> None:
    # R17-1: each card exists once; K16 lies on the discard pile, where nobody can swap it in
    # (R17-12 is about a card in a hand), so the joker can only be K13.
    doc = r17_round([["K14", "K15", "*K"]], [["R1", "R2", "R3"]], EIGHTS, anna_hand=[])
    doc.update(went_out="Anna", last_discard="K16")
    (meld,) = score_document(doc)["players"][0]["melds"]
    assert meld["cards"] == ["K14", "K15", "*K13"]


def test_D17_6_several_jokers_each_asked_only_where_its_own_reading_matters() -> None:
    # Anna's red joker: R1 lies in Béla's meld, so R4 only. Béla's black joker: K16 is in
    # Anna's hand, which narrows nothing: K13 or K16, and most-8-16 depends on it.
    doc = r17_round(
        [["R2", "R3", "*R"]],
        [["K14", "K15", "*K"], ["R1", "B1", "G1"]],
        ["most-1-2-3", *EIGHTS[:4]],
        anna_hand=["K16", "G2"],
    )
    err = asked(doc)
    assert [(p.player, p.meld, p.params["could"]) for p in err.problems] == [
        ("Béla", 1, ["K13", "K16"])
    ]


def test_D17_6_a_part_on_its_own_is_read_with_its_hand_narrowing_nothing() -> None:
    from companion.rules import get_game

    part = {"melds": [["K14", "K15", "*K"]], "hand": ["K13", "G2"]}
    assert get_game("rummy17").check_part(part, "Anna", ["Anna", "Béla"]) == part


def _round_answer(doc: dict[str, Any]) -> tuple:
    """What a round's jokers come to: the melds asked about with their readings, or the melds
    scored (stand-ins and readings left open) and every bonus card's figures."""
    try:
        result = score_document(copy.deepcopy(doc))
    except EntryError as err:
        return ("asked", sorted((p.player, p.meld, tuple(p.params["could"])) for p in err.problems))
    melds = [[(m["cards"], m.get("could")) for m in p["melds"]] for p in result["players"]]
    awards = [(a["card"], a["winners"], a["figures"]) for a in result["awards"]]
    return ("scored", melds, awards)


@st.composite
def open_end_rounds(draw: st.DrawFn) -> tuple[dict[str, Any], list[str]]:
    """A Rummy 17 round with runs whose joker may stand at either open end, and the cards
    still in the box."""
    free = [f"{c}{v}" for c in "RBGYK" for v in range(1, 18)]
    players = []
    for name, colours in (("Anna", "RB"), ("Béla", "GY"), ("Cili", "K")):
        melds = []
        for colour in colours:
            if draw(st.booleans()):
                start = draw(st.integers(1, 16))
                meld = [f"{colour}{start}", f"{colour}{start + 1}"]
                if draw(st.booleans()) and start + 2 <= 17:  # a third card: still one joker
                    meld.append(f"{colour}{start + 2}")
                free = [c for c in free if c not in meld]
                melds.append([*meld, f"*{colour}"])
        players.append({"name": name, "melds": melds, "hand": []})
    for player in players:  # every meld is laid first: a hand holds none of their cards
        player["hand"].append(free.pop(draw(st.integers(0, len(free) - 1))))
    bonus = draw(
        st.lists(
            st.sampled_from(
                ["most-1-2-3", "most-8-16", "highest-triple", "most-cards", "longest-run"]
                + ["most-runs", "most-red", "fewest-blue"]
            ),
            min_size=5,
            max_size=5,
            unique=True,
        )
    )
    doc = {"game": "rummy17", "bonus_cards": bonus, "went_out": None, "players": players}
    return doc, free


@settings(max_examples=120, deadline=None)
@given(open_end_rounds(), st.data())
def test_D17_6_adding_cards_to_hands_never_changes_a_rounds_readings_or_verdict(case, data):
    doc, free = case
    more = copy.deepcopy(doc)
    extra = data.draw(st.lists(st.sampled_from(free), max_size=6, unique=True))
    for card in extra:
        seat = data.draw(st.integers(0, len(more["players"]) - 1))
        more["players"][seat]["hand"].append(card)
    assert _round_answer(more) == _round_answer(doc)


# --- D17-11: a turn keeps a card for the discard ------------------------------------------


def r17_turn(hand: list[str] | None, after_anna: list, opened: bool = True) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "game": "rummy17",
        "player": "Anna",
        "opened": opened,
        "before": {"Anna": [], "Béla": [["K10", "K11", "K12"]]},
        "after": {"Anna": after_anna, "Béla": [["K10", "K11", "K12"]]},
    }
    if hand is not None:
        doc["hand"] = hand
    return doc


def test_D17_11_a_turn_that_melds_every_card_of_the_hand_is_illegal() -> None:
    verdict = check_turn(r17_turn(["R3", "R4", "R5"], [["R3", "R4", "R5"]], opened=False))
    assert verdict["valid"] is False
    (problem,) = verdict["problems"]
    assert (problem["rule"], problem["code"]) == ("D17-11", "turn17-no-discard")
    assert problem["reason"] == (
        "Anna melded every card of their hand and has none left to discard: a turn ends with "
        "a discard"
    )
    assert problem["fix"] == "Keep one card of Anna's hand back from the table to discard it."


def test_D17_11_going_out_melds_all_but_one_card() -> None:
    verdict = check_turn(r17_turn(["R3", "R4", "R5", "G17"], [["R3", "R4", "R5"]], opened=False))
    assert verdict["valid"] is True and verdict["problems"] == []


def test_D17_11_cards_added_to_others_melds_count_as_melded() -> None:
    verdict = check_turn(
        {
            "game": "rummy17",
            "player": "Anna",
            "opened": True,
            "before": {"Anna": [["R3", "R4", "R5"]], "Béla": [["K10", "K11", "K12"]]},
            "after": {"Anna": [["R3", "R4", "R5", "R6"]], "Béla": [["K9", "K10", "K11", "K12"]]},
            "hand": ["R6", "K9"],
        }
    )
    assert [p["rule"] for p in verdict["problems"]] == ["D17-11"]


def test_D17_11_a_swapped_in_card_is_melded_too() -> None:
    # R17-12: Anna swaps her R4 for Béla's joker and melds it with R7 R8: her hand is empty.
    doc = {
        "game": "rummy17",
        "player": "Anna",
        "opened": True,
        "before": {"Anna": [["B1", "B2", "B3"]], "Béla": [["R3", "*R4", "R5"]]},
        "after": {"Anna": [["B1", "B2", "B3"], ["R7", "R8", "*R9"]], "Béla": [["R3", "R4", "R5"]]},
    }
    assert [p["rule"] for p in check_turn({**doc, "hand": ["R4", "R7", "R8"]})["problems"]] == [
        "D17-11"
    ]
    assert check_turn({**doc, "hand": ["R4", "R7", "R8", "G1"]})["valid"] is True


def test_D17_11_is_checked_only_with_the_hand() -> None:
    assert check_turn(r17_turn(None, [["R3", "R4", "R5"]], opened=False))["valid"] is True


def test_D17_11_comes_last_after_the_other_problems() -> None:
    # R5 was never in the hand (check 7), and nothing of the hand is left (check 8).
    verdict = check_turn(r17_turn(["R3", "R4"], [["R3", "R4", "R5"]], opened=False))
    assert [p["rule"] for p in verdict["problems"]] == ["R17-9", "D17-11"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("hu", "Anna az összes lapját bemondta"),
        ("de", "Anna hat alle Karten"),
        ("bg", "Anna свали"),
    ],
)
def test_D17_11_is_said_in_the_tables_language(lang: str, words: str) -> None:
    verdict = check_turn(r17_turn(["R3", "R4", "R5"], [["R3", "R4", "R5"]], opened=False))
    problem = localize(verdict, translator(lang), "rummy17")["problems"][0]
    assert problem["reason"].startswith(words) and problem["fix"] != problem["fix"].lower()


# --- DO-8: Rummy-O frees a joker only with its tile from the rack -------------------------


def tiles(game: str, before: list, after: list, hand: list | None = None, opened: bool = True):
    doc: dict[str, Any] = {"game": game, "opened": opened, "before": before, "after": after}
    if hand is not None:
        doc["hand"] = hand
    return doc


REARRANGED = (
    [["R3", "R4", "R5"], ["R6", "R7", "*R8"]],
    [["R3", "R4", "R5", "R6", "R7"], ["B10", "B11", "*B12"]],
)


def test_DO_8_a_joker_freed_by_rearranging_the_table_alone_is_illegal() -> None:
    verdict = check_turn(tiles(RO, *REARRANGED))
    assert verdict["valid"] is False
    (problem,) = verdict["problems"]
    assert (problem["rule"], problem["code"], problem["card"]) == (
        "DO-8",
        "turn-joker-freed-unplayed",
        "R8",
    )
    assert problem["fix"] == (
        "Let the joker stand for R8 again, or put a R8 from the rack in its place."
    )


def test_DO_8_the_same_turn_is_legal_in_rummikub_where_rearranging_frees_a_joker() -> None:
    assert check_turn(tiles(RK, *REARRANGED))["valid"] is True  # RK-14, DK-5


def test_DO_8_with_its_tile_from_the_rack_the_joker_is_freed() -> None:
    before, after = REARRANGED
    after = [*after, ["R8", "B8", "K8"]]
    assert check_turn(tiles(RO, before, after, ["R8", "B8", "K8", "B10", "B11"]))["valid"]


def test_DO_8_the_tile_moved_from_another_combination_frees_nothing() -> None:
    verdict = check_turn(
        tiles(
            RO,
            [["R6", "R7", "*R8"], ["R8", "B8", "K8", "G8"]],
            [["R6", "R7", "R8"], ["B8", "K8", "G8"], ["B10", "B11", "*B12"]],
            ["B10", "B11", "G1"],
        )
    )
    assert [p["rule"] for p in verdict["problems"]] == ["DO-8"]


def test_DO_8_a_group_joker_whose_colour_was_unsaid_needs_a_tile_of_its_value() -> None:
    before = [["K9", "B9", "*"], ["R9", "R10", "R11", "R12"]]
    moved = [["K9", "B9", "R9"], ["R10", "R11", "R12"], ["G4", "G5", "*"]]
    verdict = check_turn(tiles(RO, before, moved, ["G4", "G5"]))
    (problem,) = verdict["problems"]
    assert (problem["rule"], problem["code"]) == ("DO-8", "turn-joker-freed-unplayed-rank")
    assert problem["params"]["rank"] == "9"
    played = [["K9", "B9", "G9"], ["R9", "R10", "R11", "R12"], ["G4", "G5", "*"]]
    assert check_turn(tiles(RO, before, played, ["G9", "G4", "G5"]))["valid"] is True


def test_DO_8_a_joker_from_the_rack_joins_any_meld() -> None:
    verdict = check_turn(tiles(RO, [["R5", "R6", "R7"]], [["R5", "R6", "R7", "*R8"]], ["*"]))
    assert verdict["valid"] is True


def test_DO_8_a_joker_that_keeps_its_card_in_a_split_run_is_not_freed() -> None:
    before = [["R5", "R6", "R7", "R8", "*R9", "R10"]]
    after = [["R5", "R6", "R7"], ["R8", "*R9", "R10", "R11"]]
    assert check_turn(tiles(RO, before, after, ["R11"]))["valid"] is True


def test_DO_8_before_the_initial_meld_check_5_names_the_joker_taken() -> None:
    before, after = REARRANGED
    verdict = check_turn(tiles(RO, before, after, opened=False))
    assert "DO-8" not in [p["rule"] for p in verdict["problems"]]
    assert "turn-initial-joker" in [p["code"] for p in verdict["problems"]]


def test_DO_8_a_joker_gone_from_the_table_is_check_2s_alone() -> None:
    before = [["R5", "R6", "R7", "*R8"], ["B1", "B2", "B3"]]
    after = [["R5", "R6", "R7"], ["B1", "B2", "B3", "B4"]]
    verdict = check_turn(tiles(RO, before, after, ["B4"]))
    assert [p["code"] for p in verdict["problems"]] == ["turn-joker-left-tile"]


# --- check: more copies than the box has is bad input -------------------------------------


@pytest.mark.parametrize(
    ("game", "cards", "rule", "card"),
    [
        ("rummikub", ["*", "*", "*"], "DK-4", "*"),
        ("rummy-o", ["*", "*", "*"], "DO-6", "*"),
        ("manipulation", ["*", "*", "*"], "DM-8", "*"),
        ("rummikub", ["R5", "R5", "R5"], "DK-4", "R5"),
        ("rummikub", ["*R5", "*R6", "*R7"], "DK-4", "*"),
        ("rummy17", ["K9", "K9", "K10"], "R17-1", "K9"),
        ("rummy17", ["*K", "K9", "*K10"], "R17-1", "*K"),
    ],
)
def test_check_more_copies_than_the_box_has_is_bad_input(
    game: str, cards: list[str], rule: str, card: str
) -> None:
    with pytest.raises(EntryError) as caught:
        check_meld(game, cards)
    assert (caught.value.rule, caught.value.card) == (rule, card)
    assert caught.value.code in ("turn-too-many-copies", "turn-too-many-jokers")


def test_check_as_many_copies_as_the_box_has_still_gets_a_verdict() -> None:
    assert check_meld("rummikub", ["R5", "R5", "R6"])["rule"] == "RK-5"  # a run, not a copy
    assert check_meld("rummikub", ["R5", "*", "*"])["valid"] is True
    assert check_meld("rummy17", ["R5", "*R", "*B", "R6"])["rule"] == "R17-13"


# --- turn: a stand-in is asked for only where the initial meld depends on it --------------


def not_opened(game: str, *melds: list[str]) -> dict[str, Any]:
    return tiles(game, [], list(melds), opened=False)


def test_RK_6_R11_R12_and_a_joker_reach_30_either_way_so_it_is_judged_at_the_least() -> None:
    verdict = check_turn(not_opened(RK, ["R11", "R12", "*"]))  # 33 or 36
    assert (verdict["valid"], verdict["value"], verdict["problems"]) == (True, 33, [])
    assert verdict["melds"][0]["could"] == ["R10", "R13"]


def test_RK_6_readings_on_both_sides_of_30_are_asked() -> None:
    with pytest.raises(EntryError) as caught:
        check_turn(not_opened(RK, ["R9", "R10", "*"]))  # 27 or 30
    assert (caught.value.field, caught.value.meld, caught.value.rule) == ("after", 1, "RK-12")
    assert caught.value.first.params["could"] == [["R8"], ["R11"]]


def test_RK_6_readings_all_short_of_30_are_judged_with_the_least_worth() -> None:
    verdict = check_turn(not_opened(RK, ["R5", "R6", "*"], ["K1", "K2", "K3"]))  # 21 or 24
    assert verdict["value"] == 21
    (problem,) = verdict["problems"]
    assert (problem["rule"], problem["params"]["value"]) == ("RK-6", 21)
    assert problem["fix"] == "Lay 9 points more from the rack, or take the tiles back and draw."


@pytest.mark.parametrize(
    ("melds", "value"),
    [
        ([["K1", "K2", "K3"], ["R8", "R9", "*"]], 30),  # 30 or 33: judged
        ([["K1", "K2", "K3"], ["R7", "R8", "*"]], None),  # 27 or 30: asked
        ([["K1", "K2", "K3"], ["R7", "R8", "*"], ["B2", "B3", "*"]], 33),  # 33 to 39: judged
        ([["K1", "K2", "K3"], ["R5", "R6", "*"], ["B2", "B3", "*"]], None),  # 27 to 33: asked
    ],
)
def test_RK_6_several_new_melds_are_asked_about_only_where_their_total_straddles_30(
    melds: list, value: int | None
) -> None:
    doc = not_opened(RK, *melds)
    if value is None:
        with pytest.raises(EntryError) as caught:
            check_turn(doc)
        # Each joker alone takes the least total (27) to 30: both melds are named.
        assert [p.meld for p in caught.value.problems] == list(range(2, len(melds) + 1))
    else:
        assert check_turn(doc)["value"] == value


def test_RK_6_two_jokers_in_one_meld_are_judged_at_the_least_worth() -> None:
    verdict = check_turn(not_opened(RK, ["R5", "*", "*"]))  # R3 R4 R5 (12) … R5 R6 R7 (18)
    assert verdict["value"] == 12 and [p["rule"] for p in verdict["problems"]] == ["RK-6"]


@pytest.mark.parametrize(
    ("meld", "valid", "value"),
    [
        (["R10", "R11", "*"], True, 29),  # RO-2: R9 R10 R11 is 29, R10 R11 R12 is 30
        (["R7", "R8", "*"], False, 21),  # 21 or 24: short of 25 either way
        (["R8", "R9", "*"], None, None),  # 24 or 27: asked
    ],
)
def test_RO_6_rummy_o_counts_its_point_values_against_25(
    meld: list[str], valid: bool | None, value: int | None
) -> None:
    doc = not_opened(RO, meld)
    if valid is None:
        with pytest.raises(EntryError):
            check_turn(doc)
        return
    verdict = check_turn(doc)
    assert (verdict["valid"], verdict["value"]) == (valid, value)


def test_RK_6_an_opened_player_is_never_asked_about_the_worth() -> None:
    verdict = check_turn(tiles(RK, [], [["R9", "R10", "*"]], ["R9", "R10", "*"]))
    assert verdict["valid"] is True and verdict["value"] is None


TOGETHER = [
    (  # B11 never on the rack (RO-7), R8 never played (DO-8)
        tiles(RO, *REARRANGED, ["B10"]),
        ["RO-7", "DO-8"],
    ),
    (  # G5 never on the rack (RO-7), no 9 played for the group's joker (DO-8)
        tiles(
            RO,
            [["K9", "B9", "*"], ["R9", "R10", "R11", "R12"]],
            [["K9", "B9", "R9"], ["R10", "R11", "R12"], ["G4", "G5", "*"]],
            ["G4"],
        ),
        ["RO-7", "DO-8"],
    ),
    (  # nothing played (RO-7), the joker into an old run (DO-7) and without its R8 (DO-8)
        tiles(
            RO,
            [["B5", "B6", "B7"], ["R6", "R7", "*R8"], ["R3", "R4", "R5"]],
            [["B5", "B6", "B7", "*B8"], ["R3", "R4", "R5", "R6", "R7"]],
        ),
        ["RO-7", "DO-7", "DO-8"],
    ),
]


@pytest.mark.parametrize(("doc", "rules"), TOGETHER)
def test_DO_8_is_reported_beside_the_turns_other_problems(doc: dict, rules: list[str]) -> None:
    assert [p["rule"] for p in check_turn(doc)["problems"]] == rules
