"""Rulings during play: R17-3…R17-14 (setup, knocking, taking and swapping jokers, adding)."""

import pytest
from helpers import game

from companion.domain import Card, EntryError, Joker, parse_card
from companion.domain import score_document as score
from companion.domain.games.rummy17 import BONUS_CARDS, analyse_meld
from companion.domain.games.rummy17.deck import RUMMY17
from companion.domain.games.rummy17.melds import MeldError
from companion.domain.games.rummy17.play import (
    add_to_meld,
    draw_pile_size,
    full_deck,
    jokers,
    knock,
    swap_joker,
    take_joker,
    turn_order,
)

SEATS = ["Anna", "Béla", "Cili", "Dani"]


def cards(*texts: str):
    return [parse_card(t, RUMMY17) for t in texts]


def _round_with_bonus_cards(cards: list[str]) -> dict:
    return game(
        {"Anna": ([["R3", "R4", "R5"]], []), "Béla": ([], ["B1"])},
        bonus=cards,
        went_out="Anna",
        last="K2",
    )


@pytest.mark.parametrize("count", [4, 6])
def test_R17_3_a_round_has_five_bonus_cards_no_more_no_fewer(count):
    ids = list(BONUS_CARDS)
    assert len(ids) == 12 and len({c.rule for c in BONUS_CARDS.values()}) == 12
    assert len(score(_round_with_bonus_cards(ids[:5]))["awards"]) == 5
    with pytest.raises(EntryError) as err:
        score(_round_with_bonus_cards(ids[:count]))
    assert (err.value.code, err.value.rule, err.value.field) == (
        "bonus-count",
        "R17-3",
        "bonus_cards",
    )


def test_R17_4_the_five_jokers_lie_beside_the_table_one_per_colour():
    box = jokers()
    assert all(isinstance(j, Joker) and j.stands_for is None for j in box)
    assert sorted(j.colour or "" for j in box) == sorted(RUMMY17.colours)


def test_R17_5_ten_cards_each_one_face_up_the_rest_is_the_draw_pile():
    for players in range(2, 7):
        assert draw_pile_size(players) == len(full_deck()) - 10 * players - 1
    assert draw_pile_size(2) == 64 and draw_pile_size(6) == 24
    with pytest.raises(ValueError):
        draw_pile_size(7)
    with pytest.raises(ValueError):
        draw_pile_size(1)


def test_R17_6_play_starts_left_of_the_dealer_and_goes_clockwise():
    assert turn_order(SEATS, "Cili") == ["Dani", "Anna", "Béla", "Cili"]


def test_R17_7_taking_the_face_up_card_closes_knocking():
    r = knock(SEATS, "Béla", "Anna", ["Cili"], current_took_face_up=True)
    assert not r.allowed and r.rule == "R17-8"


def test_R17_8_the_first_knocker_clockwise_after_the_current_player_wins_not_the_first():
    # Dani knocked first, but Cili sits first clockwise after Béla.
    r = knock(SEATS, "Béla", "Anna", ["Dani", "Cili"])
    assert r.allowed and r.player == "Cili"
    assert r.reason == "Cili gets the card: the first knocker clockwise after Béla (R17-8)"
    assert (r.code, r.params) == ("knock-gets", {"winner": "Cili", "current": "Béla"})


def test_R17_8_knocks_may_come_as_any_iterable():
    # The knocks are read twice (who may knock, and whether the discarder did).
    r = knock(SEATS, "Béla", "Anna", iter(["Anna"]))
    assert r.code == "knock-discarder"


def test_R17_8_the_player_who_discarded_may_not_knock():
    r = knock(SEATS, "Béla", "Anna", ["Anna"])
    assert not r.allowed and r.player is None
    assert r.reason == "nobody may take it: Anna discarded it and may not knock (R17-8)"
    assert knock(SEATS, "Béla", "Anna", ["Anna", "Dani"]).player == "Dani"


def test_R17_8_knocking_ends_once_the_current_player_melded_or_discarded():
    r = knock(SEATS, "Béla", "Anna", ["Cili"], current_has_melded_or_discarded=True)
    assert not r.allowed


def test_R17_10_adding_to_a_meld_needs_a_first_meld_and_keeps_it_legal():
    run = analyse_meld(cards("R3", "R4", "R5"))
    assert add_to_meld(run, Card("R", 6, RUMMY17), has_melded=True).kind == "run"
    with pytest.raises(MeldError) as err:
        add_to_meld(run, Card("R", 6, RUMMY17), has_melded=False)
    assert (err.value.code, err.value.rule) == ("add-before-meld", "R17-10")
    with pytest.raises(MeldError):
        add_to_meld(run, Card("B", 6, RUMMY17), has_melded=True)


def test_R17_11_a_run_of_four_with_the_joker_may_take_it():
    assert take_joker(cards("R3", "R4", "R5", "*R")).allowed is True
    assert not take_joker(cards("R3", "R4", "*R5")).allowed
    assert not take_joker(cards("R3", "B3", "G3", "*K")).allowed


def test_R17_12_swapping_a_joker_needs_its_card_and_a_first_meld():
    m = analyse_meld(cards("R3", "*R4", "R5"))
    assert swap_joker(m, Card("R", 4, RUMMY17), has_melded=True).allowed
    assert not swap_joker(m, Card("R", 4, RUMMY17), has_melded=False).allowed
    assert not swap_joker(m, Card("R", 6, RUMMY17), has_melded=True).allowed


def test_R17_13_a_taken_joker_never_goes_to_the_hand():
    m = analyse_meld(cards("R3", "*R4", "R5"))
    assert (
        "never goes into the hand" in swap_joker(m, Card("R", 4, RUMMY17), has_melded=True).reason
    )
