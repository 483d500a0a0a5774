"""Table rescue (RK-11, RK-9, MR-5): every card laid out in legal melds, or the rest named."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rescue_tables import cards_of, full_table, impossible_table, legal_table

from companion.domain import Card, EntryError, get_game

TILE_GAMES = ["rummikub", "rummy-o", "manipulation"]


def bare(texts: list[str]) -> Counter[str]:
    """The cards as a multiset, a joker counted as ``*`` whatever it stands for."""
    return Counter("*" if t.startswith("*") else t for t in texts)


def laid(answer: dict) -> list[str]:
    return [t for m in answer["melds"] for t in m]


def assert_legal(game: str, answer: dict) -> None:
    for meld in answer["melds"]:
        verdict = get_game(game).check_meld(meld)
        assert verdict["valid"], (meld, verdict)
        assert "readings" not in verdict  # every joker names its stand-in


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(TILE_GAMES), seed=st.integers(0, 10**6))
def test_rk9_any_table_built_from_legal_melds_is_put_back_with_exactly_its_cards(game, seed):
    rng = random.Random(seed)
    melds = legal_table(game, rng, tries=rng.randint(1, 12))
    cards = cards_of(melds, rng)
    answer = get_game(game).rescue(cards)
    assert answer["solved"] is True
    assert "unplaceable" not in answer
    assert bare(laid(answer)) == bare(cards)
    assert_legal(game, answer)


@settings(max_examples=20, deadline=None)
@given(game=st.sampled_from(TILE_GAMES), seed=st.integers(0, 10**6))
def test_rk11_a_table_with_one_impossible_card_is_refused_naming_it(game, seed):
    rng = random.Random(seed)
    parse = get_game(game).parse_card
    lone = parse({"rummikub": "K1", "rummy-o": "R1", "manipulation": "AS"}[game])
    near = {lone.value + 1, lone.value + 12}  # its run neighbours (an ace also follows a K)

    def far(meld: list[str]) -> bool:  # no joker, no other 1 and no neighbour of its colour
        cards = [parse(t) for t in meld]
        return all(
            isinstance(c, Card)
            and c.value != lone.value
            and not (c.colour == lone.colour and c.value in near)
            for c in cards
        )

    melds = [m for m in legal_table(game, rng, tries=8) if far(m)]
    lone_text = lone.text
    cards = cards_of(melds, rng) + [lone_text]
    answer = get_game(game).rescue(cards)
    assert answer["solved"] is False
    assert answer["unplaceable"] == [lone_text]
    assert bare(laid(answer)) + Counter([lone_text]) == bare(cards)
    assert_legal(game, answer)


@pytest.mark.parametrize("game", TILE_GAMES)
def test_rk11_a_full_table_of_every_card_and_both_jokers_is_put_back(game):
    cards, _ = full_table(game)
    assert len(cards) == 106
    answer = get_game(game).rescue(cards)
    assert answer["solved"] is True
    assert bare(laid(answer)) == bare(cards)
    assert_legal(game, answer)


@pytest.mark.parametrize("game", TILE_GAMES)
def test_rk11_the_most_cards_are_placed_when_not_all_can_be(game):
    heap, lone = impossible_table(game)
    answer = get_game(game).rescue(heap)
    assert answer["unplaceable"] == [lone]
    assert len(laid(answer)) == len(heap) - 1


def test_contract_example_is_put_back_whole():
    answer = get_game("rummikub").rescue(["R5", "R6", "R7", "K9", "B9", "O9", "*"])
    assert answer["solved"] is True
    assert sorted(len(m) for m in answer["melds"]) == [3, 4]
    assert any(t in ("*R4", "*R8", "*K9", "*R9", "*B9", "*O9") for m in answer["melds"] for t in m)


def test_rk12_a_joker_fills_the_gap_of_a_run():
    answer = get_game("rummikub").rescue(["B3", "B5", "*", "B4", "B7"])
    assert answer == {"solved": True, "melds": [["B3", "B4", "B5", "*B6", "B7"]]}


def test_rk12_two_jokers_make_a_meld_with_one_tile():
    answer = get_game("rummikub").rescue(["O13", "*", "*"])
    assert answer["solved"] is True
    assert bare(laid(answer)) == Counter({"O13": 1, "*": 2})


def test_rk5_13_is_never_followed_by_1():
    answer = get_game("rummikub").rescue(["K12", "K13", "K1"])
    assert answer == {"solved": False, "melds": [], "unplaceable": ["K1", "K12", "K13"]}


def test_do2_rummy_o_13_is_never_followed_by_1_even_with_a_joker():
    answer = get_game("rummy-o").rescue(["G13", "*", "G2"])
    assert answer["solved"] is False


def test_rk5_a_run_of_all_thirteen_is_laid_in_order():
    cards = [f"B{v}" for v in range(13, 0, -1)]
    answer = get_game("rummikub").rescue(cards)
    assert answer == {"solved": True, "melds": [[f"B{v}" for v in range(1, 14)]]}


def test_rk4_a_group_never_holds_one_colour_twice():
    answer = get_game("rummikub").rescue(["R7", "R7", "B7"])
    assert answer["solved"] is False
    assert answer["unplaceable"] == ["R7", "R7", "B7"]


def test_rk4_two_identical_groups_share_nothing():
    cards = ["R7", "B7", "O7"] * 2
    answer = get_game("rummikub").rescue(cards)
    assert answer == {"solved": True, "melds": [["R7", "B7", "O7"], ["R7", "B7", "O7"]]}


def test_mr4_an_ace_is_high_after_the_king():
    answer = get_game("manipulation").rescue(["AH", "QH", "KH"])
    assert answer == {"solved": True, "melds": [["QH", "KH", "AH"]]}


def test_mr4_an_ace_is_low_before_the_two():
    answer = get_game("manipulation").rescue(["3C", "AC", "2C"])
    assert answer == {"solved": True, "melds": [["AC", "2C", "3C"]]}


def test_mr4_a_sequence_never_turns_the_corner():
    answer = get_game("manipulation").rescue(["KD", "AD", "2D"])
    assert answer["solved"] is False
    assert sorted(answer["unplaceable"]) == ["2D", "AD", "KD"]


def test_mr3_a_group_of_aces_in_four_suits():
    answer = get_game("manipulation").rescue(["AS", "AH", "AD", "AC"])
    assert answer == {"solved": True, "melds": [["AS", "AH", "AD", "AC"]]}


def test_mr7_a_joker_keeps_the_card_it_stands_for():
    answer = get_game("manipulation").rescue(["5H", "*6H", "7H"])
    assert answer == {"solved": True, "melds": [["5H", "*6H", "7H"]]}
    refused = get_game("manipulation").rescue(["5H", "*9C", "7H"])
    assert refused["solved"] is False


@pytest.mark.parametrize(
    ("game", "cards", "card", "rule"),
    [
        ("rummikub", ["R5", "R5", "r5"], "R5", "DK-4"),
        ("rummy-o", ["*", "*", "*", "G1"], "*", "DO-6"),
        ("manipulation", ["QD", "QD", "QD"], "QD", "DM-8"),
    ],
)
def test_dk4_do6_dm8_copies_beyond_the_game_are_bad_input(game, cards, card, rule):
    with pytest.raises(EntryError) as err:
        get_game(game).rescue(cards)
    assert err.value.card == card
    assert err.value.rule == rule
    assert (card if card != "*" else "joker") in err.value.first.message()


def test_an_unreadable_card_is_bad_input_naming_it():
    with pytest.raises(EntryError) as err:
        get_game("rummikub").rescue(["R5", "X9"])
    assert err.value.card == "X9"


def test_r17_9_rummy_17_has_no_table_rescue():
    with pytest.raises(EntryError) as err:
        get_game("rummy17").rescue(["R5", "R6", "R7"])
    assert err.value.code == "rescue-not-in-game"
    assert "Rummy 17" in err.value.first.message()
    assert not get_game("rummy17").rescues
    assert all(get_game(g).rescues for g in TILE_GAMES)


def test_an_empty_table_is_already_in_order():
    assert get_game("rummikub").rescue([]) == {"solved": True, "melds": []}


def most_placed(game: str, cards: list[str]) -> int:
    """By brute force: the most cards of ``cards`` that legal melds can hold."""
    check = get_game(game).check_meld
    best = 0

    def search(left: list[str], placed: int) -> None:
        nonlocal best
        best = max(best, placed)
        if not left or placed + len(left) <= best:
            return
        first, rest = left[0], left[1:]
        search(rest, placed)  # the first card stays out
        for size in range(2, len(rest) + 1):
            for others in itertools.combinations(range(len(rest)), size):
                meld = [first, *(rest[i] for i in others)]
                if check(meld)["valid"]:
                    search([c for i, c in enumerate(rest) if i not in others], placed + len(meld))

    search(cards, 0)
    return best


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(TILE_GAMES),
    picks=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=3, max_size=8),
    jokers=st.integers(0, 2),
)
def test_rk11_no_arrangement_places_more_cards_than_the_rescue(game, picks, jokers):
    deck = get_game(game).deck
    values = [1, 2, 3, 12, 13]  # the ends, where 13-1 and the ace matter
    cards = [Card(deck.colours[c], values[v], deck).text for c, v in picks]
    cards = [c for c in cards if cards.count(c) <= 2] + ["*"] * jokers
    answer = get_game(game).rescue(cards)
    assert len(laid(answer)) == most_placed(game, cards)
    assert bare(laid(answer)) + bare(answer.get("unplaceable", [])) == bare(cards)
    assert_legal(game, answer)
