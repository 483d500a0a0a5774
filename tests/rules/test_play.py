"""Rulings during play: R17-3…R17-14 (setup, knocking, taking and swapping jokers, adding)."""

import pytest

from companion.rules import Card, analyse_meld, parse_card
from companion.rules.rummy17.melds import MeldError
from companion.rules.rummy17.play import (
    BONUS_DRAWN,
    BONUS_TOTAL,
    HAND_SIZE,
    add_to_meld,
    draw_pile_size,
    jokers,
    knock,
    swap_joker,
    take_joker,
    turn_order,
)

SEATS = ["Anna", "Béla", "Cili", "Dani"]


def cards(*texts: str):
    return [parse_card(t) for t in texts]


def test_R17_3_five_of_the_twelve_bonus_cards_are_laid_out():
    assert (BONUS_DRAWN, BONUS_TOTAL) == (5, 12)


def test_R17_4_the_five_jokers_lie_beside_the_table_one_per_colour():
    assert len({j.colour for j in jokers()}) == 5


def test_R17_5_ten_cards_each_one_face_up_the_rest_is_the_draw_pile():
    assert HAND_SIZE == 10
    assert draw_pile_size(2) == 64 and draw_pile_size(6) == 24
    with pytest.raises(ValueError):
        draw_pile_size(7)


def test_R17_6_play_starts_left_of_the_dealer_and_goes_clockwise():
    assert turn_order(SEATS, "Cili") == ["Dani", "Anna", "Béla", "Cili"]


def test_R17_7_taking_the_face_up_card_closes_knocking():
    r = knock(SEATS, "Béla", "Anna", ["Cili"], current_took_face_up=True)
    assert not r.allowed and r.rule == "R17-8"


def test_R17_8_the_first_knocker_clockwise_after_the_current_player_wins_not_the_first():
    # Dani knocked first, but Cili sits first clockwise after Béla.
    r = knock(SEATS, "Béla", "Anna", ["Dani", "Cili"])
    assert r.allowed and r.player == "Cili"


def test_R17_8_the_player_who_discarded_may_not_knock():
    r = knock(SEATS, "Béla", "Anna", ["Anna"])
    assert not r.allowed and "Anna discarded it" in r.reason
    assert knock(SEATS, "Béla", "Anna", ["Anna", "Dani"]).player == "Dani"


def test_R17_8_knocking_ends_once_the_current_player_melded_or_discarded():
    r = knock(SEATS, "Béla", "Anna", ["Cili"], current_has_melded_or_discarded=True)
    assert not r.allowed


def test_R17_10_adding_to_a_meld_needs_a_first_meld_and_keeps_it_legal():
    run = analyse_meld(cards("R3", "R4", "R5"))
    assert add_to_meld(run, Card("R", 6), has_melded=True).kind == "run"
    with pytest.raises(MeldError):
        add_to_meld(run, Card("R", 6), has_melded=False)
    with pytest.raises(MeldError):
        add_to_meld(run, Card("B", 6), has_melded=True)


def test_R17_11_a_run_of_four_with_the_joker_may_take_it():
    assert take_joker(cards("R3", "R4", "R5", "*R")).allowed is True
    assert not take_joker(cards("R3", "R4", "*R5")).allowed
    assert not take_joker(cards("R3", "B3", "G3", "*K")).allowed


def test_R17_12_swapping_a_joker_needs_its_card_and_a_first_meld():
    m = analyse_meld(cards("R3", "*R4", "R5"))
    assert swap_joker(m, Card("R", 4), has_melded=True).allowed
    assert not swap_joker(m, Card("R", 4), has_melded=False).allowed
    assert not swap_joker(m, Card("R", 6), has_melded=True).allowed


def test_R17_13_a_taken_joker_never_goes_to_the_hand():
    m = analyse_meld(cards("R3", "*R4", "R5"))
    assert "never goes into the hand" in swap_joker(m, Card("R", 4), has_melded=True).reason
