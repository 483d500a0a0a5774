"""What the parts that came already tell of the whole round (``Game.check_parts``): a card
given more often than the box holds it, placed at the part that came later and naming the
other (D17-8, DK-4, DO-6, DM-8). Pure rules, no app."""

from __future__ import annotations

from typing import Any

import pytest

from companion.domain import EntryError, get_game


def problems(game: str, parts: dict[str, dict[str, Any]], seats: int = 3) -> list[str]:
    """The problems of the parts, at a table of ``seats`` (the first of them those who sent)."""
    names = [*parts, *(f"Seat {n}" for n in range(len(parts) + 1, seats + 1))]
    try:
        get_game(game).check_parts(parts, names)
    except EntryError as err:
        return err.messages()
    return []


def test_d17_8_a_card_in_two_parts_is_placed_at_the_later_naming_the_earlier() -> None:
    anna = {"melds": [["R5", "R6", "R7"]], "hand": ["B3"]}
    bela = {"melds": [["Y9", "G9", "K9"], ["R5", "G5", "Y5"]], "hand": ["B3", "K1"]}
    assert problems("rummy17", {"Anna": anna, "Béla": bela}) == [
        "Béla, meld 2: R5 appears twice (also in Anna's meld 1); each card exists once (D17-8)",
        "Béla's hand: B3 appears twice (also in Anna's hand); each card exists once (D17-8)",
    ]
    # Came the other way round: the other part is the later one.
    assert problems("rummy17", {"Béla": bela, "Anna": anna})[0].startswith("Anna, meld 1: R5")


def test_d17_8_a_joker_is_one_card_by_its_colour_whatever_it_stands_for() -> None:
    parts = {"Anna": {"melds": [["R1", "R2", "*R3"]]}, "Béla": {"melds": [["*R6", "R7", "R8"]]}}
    assert problems("rummy17", parts) == [
        "Béla, meld 1: *R appears twice (also in Anna's meld 1); each card exists once (D17-8)"
    ]
    other = {"Anna": {"melds": [["R1", "R2", "*R3"]]}, "Béla": {"melds": [["*B6", "B7", "B8"]]}}
    assert problems("rummy17", other) == []


def test_counted_hands_and_parts_without_clashes_say_nothing() -> None:
    parts = {"Anna": {"hand": {"low": 3, "high": 1}}, "Béla": {"hand": {"low": 3, "high": 1}}}
    assert problems("rummy17", parts) == []
    assert problems("rummikub", {"Anna": {"rack": {"points": 9}}, "Béla": {"rack": ["K1"]}}) == []


@pytest.mark.parametrize(
    ("game", "field", "rule"), [("rummikub", "rack", "DK-4"), ("rummy-o", "rack", "DO-6")]
)
def test_a_tile_beyond_its_two_copies_is_placed_at_the_part_that_brought_it(
    game: str, field: str, rule: str
) -> None:
    parts = {"Anna": {field: ["K1", "*"]}, "Béla": {field: ["K1", "*"]}, "Cili": {field: ["K1"]}}
    assert problems(game, parts) == [
        f"Cili's {field}: the box has only 2 of K1, and Anna, Béla sent it too ({rule})"
    ]
    jokers = {"Anna": {field: ["*", "*"]}, "Béla": {field: ["R3", "*"]}}
    assert problems(game, jokers) == [
        f"Béla's {field}: the box has only 2 of *, and Anna sent it too ({rule})"
    ]


def test_dm_8_two_decks_hold_each_card_twice_one_deck_once() -> None:
    parts = {"Anna": {"hand": ["AS", "AS"]}, "Béla": {"hand": ["AS", "KD"]}}
    assert problems("manipulation", parts) == [
        "Béla's hand: the box has only 2 of AS, and Anna sent it too (DM-8)"
    ]
    two = {"Anna": {"hand": ["AS", "3C"]}, "Béla": {"hand": ["AS", "KD"]}}  # two players
    assert problems("manipulation", two, seats=2) == [
        "Béla's hand: the box has only 1 of AS, and Anna sent it too (DM-8)"
    ]
