"""Rummy 17 rules that settle disputes during play, not scoring (R17-1…R17-14).

Each function answers one question a player asks the referee, citing the clause.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import RUMMY17, Card, Joker, Token
from .melds import RUN, Meld, MeldError, analyse_meld

HAND_SIZE = 10  # R17-5
BONUS_DRAWN = 5  # R17-3
BONUS_TOTAL = 12  # R17-1
JOKER_RUN_MIN = 4  # R17-11


def full_deck() -> tuple[Card, ...]:
    """R17-1: 85 number cards, every colour × value exactly once."""
    return tuple(Card(c, v) for c in RUMMY17.colours for v in range(1, 18))


def jokers() -> tuple[Joker, ...]:
    """R17-1, R17-4: five jokers, one of each colour, beside the bonus cards."""
    return tuple(Joker(c) for c in RUMMY17.colours)


def draw_pile_size(players: int) -> int:
    """R17-5: after ten cards each and one face up, the rest is the draw pile."""
    if not 2 <= players <= 6:
        raise ValueError("Rummy 17 is for 2 to 6 players (R17-1)")
    return len(full_deck()) - HAND_SIZE * players - 1


def turn_order(seats: Sequence[str], dealer: str) -> list[str]:
    """R17-6: the player left of the dealer starts; play goes clockwise (seat order)."""
    i = seats.index(dealer)
    return [seats[(i + k) % len(seats)] for k in range(1, len(seats) + 1)]


@dataclass(frozen=True)
class Ruling:
    """A referee's answer: yes or no, who, and why with the clause."""

    allowed: bool
    reason: str
    rule: str
    player: str | None = None


def knock(
    seats: Sequence[str],
    current: str,
    discarded_by: str,
    knockers: Iterable[str],
    *,
    current_took_face_up: bool = False,
    current_has_melded_or_discarded: bool = False,
) -> Ruling:
    """R17-8: who gets the face-up card when players knock for it."""
    if current_took_face_up:
        return Ruling(
            False, f"{current} took the face-up card, so nobody may knock (R17-8)", "R17-8"
        )
    if current_has_melded_or_discarded:
        return Ruling(
            False, f"{current} has already melded or discarded: knocking is over (R17-8)", "R17-8"
        )
    valid = [k for k in knockers if k != discarded_by and k != current]
    if not valid:
        return Ruling(
            False,
            f"nobody may take it: {discarded_by} discarded it and may not knock (R17-8)"
            if discarded_by in knockers
            else "nobody knocked (R17-8)",
            "R17-8",
        )
    # Not the first to knock: the first knocker clockwise after the current player.
    order = turn_order(seats, current)
    winner = next(p for p in order if p in valid)
    return Ruling(
        True,
        f"{winner} gets the card: the first knocker clockwise after {current} (R17-8)",
        "R17-8",
        winner,
    )


def take_joker(run: Sequence[Token]) -> Ruling:
    """R17-11: a run of four or more cards may take the joker of its colour from the side."""
    try:
        meld = analyse_meld(list(run))
    except MeldError as err:
        return Ruling(False, err.message, err.rule or "R17-9")
    if meld.kind != RUN:
        return Ruling(
            False, "only a run can take a joker from beside the table, not a set (R17-11)", "R17-11"
        )
    if len(meld.cards) < JOKER_RUN_MIN:
        return Ruling(
            False,
            f"the run has {len(meld.cards)} cards with the joker; taking a "
            f"joker needs a run of at least {JOKER_RUN_MIN} (R17-11)",
            "R17-11",
        )
    return Ruling(
        True,
        "a run of four or more cards takes the joker of its colour, even at a first meld (R17-11)",
        "R17-11",
    )


def swap_joker(meld: Meld, card: Card, *, has_melded: bool) -> Ruling:
    """R17-12: put the card a joker stands for in its place and take the joker."""
    joker = meld.joker
    if joker is None:
        return Ruling(False, "this meld holds no joker (R17-12)", "R17-12")
    if not has_melded:
        return Ruling(
            False, "only a player who has already melded may swap a joker (R17-12)", "R17-12"
        )
    if joker.stands_for != card:
        stand = joker.stands_for.text if joker.stands_for else "a card not yet fixed"
        return Ruling(False, f"the joker stands for {stand}, not {card.text} (R17-12)", "R17-12")
    return Ruling(
        True,
        f"{card.text} takes the joker's place; the joker must be melded this "
        "turn and never goes into the hand (R17-12, R17-13)",
        "R17-12",
    )


def add_to_meld(meld: Meld, card: Token, *, has_melded: bool) -> Meld:
    """R17-10: after a first meld, a card from hand may be added to any meld if it stays legal."""
    if not has_melded:
        raise MeldError(
            "a player adds to melds only after their own first meld (R17-10)", rule="R17-10"
        )
    return analyse_meld([*meld.cards, card])
