"""A set's joker needs no stand-in (contract "Games and cards"; RK-4, RO-4, MR-3).

A joker in a set stands for a colour (suit) the set lacks; every such reading is the same meld
of the same worth, so ``K9 B9 *`` is legal in ``check``, ``turn`` and ``rescue`` whatever colour
the table had in mind. A joker at either open end of a run still has to be named (RK-12).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules import EntryError, check_turn, get_game

TILE_GAMES = ("rummikub", "rummy-o", "manipulation")


def card(game: str, colour: str, value: int) -> str:
    return (
        get_game(game)
        .parse_card(f"{colour}{value}" if game != "manipulation" else _manipulation(colour, value))
        .text
    )


def _manipulation(suit: str, value: int) -> str:
    rank = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(value, str(value))
    return f"{rank}{suit}"


@pytest.mark.parametrize("game", TILE_GAMES)
def test_a_set_of_two_and_a_bare_joker_is_legal_in_check(game):
    colours = get_game(game).deck.colours
    meld = [card(game, colours[0], 9), card(game, colours[1], 9), "*"]
    verdict = get_game(game).check_meld(meld)
    assert verdict["valid"] is True and verdict["kind"] == "set"
    assert "readings" not in verdict
    assert sum(1 for c in verdict["cards"] if c.startswith("*")) == 1


def test_contract_example_k9_b9_joker_is_a_legal_group_in_a_turn():
    verdict = check_turn(
        {"game": "rummikub", "opened": True, "before": [], "after": [["K9", "B9", "*"]]}
    )
    assert verdict["valid"] is True, verdict["problems"]
    assert verdict["played"] == ["K9", "B9", "*"]  # colour order K R B O, jokers last
    assert verdict["melds"][0]["kind"] == "set"


def test_rk6_an_initial_set_with_a_bare_joker_counts_the_sets_value():
    verdict = check_turn(
        {
            "game": "rummikub",
            "opened": False,
            "before": [],
            "after": [["K11", "B11", "*"]],
        }
    )
    assert verdict["valid"] is True
    assert verdict["value"] == 33


def test_a_run_joker_at_either_open_end_is_named_where_the_initial_meld_depends_on_it():
    # RK-6: R8 R9 R10 is 27, R9 R10 R11 is 30: one reading reaches 30, the other does not.
    doc = {"game": "rummikub", "opened": False, "before": [], "after": [["R9", "R10", "*"]]}
    with pytest.raises(EntryError) as caught:
        check_turn(doc)
    assert caught.value.first.rule == "RK-12"


def test_a_run_joker_whose_readings_all_fall_short_of_the_initial_meld_is_judged():
    # RK-6: R4 R5 R6 (15) and R5 R6 R7 (18) are both under 30: the answer is the same.
    doc = {"game": "rummikub", "opened": False, "before": [], "after": [["R5", "R6", "*"]]}
    verdict = check_turn(doc)
    assert [p["rule"] for p in verdict["problems"]] == ["RK-6"]
    assert verdict["value"] == 15 and verdict["melds"][0]["could"] == ["R4", "R7"]


def test_a_run_joker_at_either_open_end_is_judged_once_opened():
    # Contract "Games and cards": asked only where the answer depends on it.
    verdict = check_turn({"game": "rummikub", "before": [], "after": [["R5", "R6", "*"]]})
    assert verdict["valid"] is True
    assert verdict["melds"][0]["could"] == ["R4", "R7"]


def test_a_joker_that_is_a_set_or_a_run_is_named_where_the_initial_meld_depends_on_it():
    with pytest.raises(EntryError):
        check_turn({"game": "rummikub", "opened": False, "before": [], "after": [["K9", "*", "*"]]})


def test_the_rescue_places_a_bare_set_joker():
    result = get_game("rummikub").rescue(["K9", "B9", "*"])
    assert result["solved"] is True


@given(game=st.sampled_from(TILE_GAMES), data=st.data())
def test_any_stand_in_for_a_sets_joker_gives_the_same_verdict_and_worth(game, data):
    deck = get_game(game).deck
    value = data.draw(st.integers(deck.low, deck.high))
    present = data.draw(
        st.lists(st.sampled_from(deck.colours), min_size=2, max_size=3, unique=True)
    )
    missing = [c for c in deck.colours if c not in present]
    meld = [card(game, c, value) for c in present]
    bare = get_game(game).check_meld([*meld, "*"])
    named = [get_game(game).check_meld([*meld, "*" + card(game, c, value)]) for c in missing]
    assert bare["valid"] and all(v["valid"] for v in named)
    assert {v["kind"] for v in [bare, *named]} == {"set"}
    assert len({v.get("value") for v in [bare, *named]}) == 1
    opened = data.draw(st.booleans())
    verdicts = [
        check_turn({"game": game, "opened": opened, "before": [], "after": [m]})
        for m in [[*meld, "*"], *[[*meld, "*" + card(game, c, value)] for c in missing]]
    ]
    assert (
        len({(v["valid"], v["value"], tuple(p["rule"] for p in v["problems"])) for v in verdicts})
        == 1
    )
