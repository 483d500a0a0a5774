"""Rummy 17 rules that settle disputes during play, not scoring (R17-1…R17-14).

Each function answers one question a player asks the referee, citing the clause.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.domain.cards import Card, Joker, Token
from companion.domain.games.rummy17.deck import RUMMY17
from companion.domain.games.rummy17.melds import RUN, Meld, MeldError, analyse_meld
from companion.domain.messages import ENGLISH, N_, NN_, Translator, register, render

register(
    {
        "knock-took-face-up": N_("{current} took the face-up card, so nobody may knock ({rule})"),
        "knock-over": N_("{current} has already melded or discarded: knocking is over ({rule})"),
        "knock-discarder": N_(
            "nobody may take it: {discarder} discarded it and may not knock ({rule})"
        ),
        "knock-nobody": N_("nobody knocked ({rule})"),
        "knock-gets": N_(
            "{winner} gets the card: the first knocker clockwise after {current} ({rule})"
        ),
        "take-joker-set": N_(
            "only a run can take a joker from beside the table, not a set ({rule})"
        ),
        "take-joker-short": NN_(
            "the run has {count} card with the joker; taking a joker needs a run of at least "
            "{least} ({rule})",
            "the run has {count} cards with the joker; taking a joker needs a run of at least "
            "{least} ({rule})",
            "count",
        ),
        "take-joker-ok": N_(
            "a run of four or more cards takes the joker of its colour, even at a first meld "
            "({rule})"
        ),
        "swap-no-joker": N_("this meld holds no joker ({rule})"),
        "swap-not-melded": N_("only a player who has already melded may swap a joker ({rule})"),
        "swap-not-fixed": N_("the joker stands for a card not yet fixed, not {card} ({rule})"),
        "swap-other-card": N_("the joker stands for {stand}, not {card} ({rule})"),
        "swap-ok": N_(
            "{card} takes the joker's place; the joker must be melded this turn and never goes "
            "into the hand (R17-12, R17-13)"
        ),
    }
)

HAND_SIZE = 10  # R17-5
BONUS_DRAWN = 5  # R17-3
BONUS_TOTAL = 12  # R17-1
JOKER_RUN_MIN = 4  # R17-11


def full_deck() -> tuple[Card, ...]:
    """R17-1: 85 number cards, every colour × value exactly once."""
    return tuple(Card(c, v, RUMMY17) for c in RUMMY17.colours for v in range(1, 18))


def jokers() -> tuple[Joker, ...]:
    """R17-1, R17-4: five jokers, one of each colour, beside the bonus cards."""
    return tuple(Joker(c, None, RUMMY17) for c in RUMMY17.colours)


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
    """A referee's answer: yes or no, who, and why (a code with parameters) with the clause."""

    allowed: bool
    rule: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    player: str | None = None

    @property
    def reason(self) -> str:
        """Why, in English."""
        return self.explain()

    def explain(self, tr: Translator = ENGLISH) -> str:
        """Why, through the translation catalogue ``tr``."""
        return render(self.code, {"rule": self.rule, **self.params}, tr)


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
        return Ruling(False, "R17-8", "knock-took-face-up", {"current": current})
    if current_has_melded_or_discarded:
        return Ruling(False, "R17-8", "knock-over", {"current": current})
    knockers = list(knockers)
    valid = [k for k in knockers if k != discarded_by and k != current]
    if not valid:
        if discarded_by in knockers:
            return Ruling(False, "R17-8", "knock-discarder", {"discarder": discarded_by})
        return Ruling(False, "R17-8", "knock-nobody")
    # Not the first to knock: the first knocker clockwise after the current player.
    order = turn_order(seats, current)
    winner = next(p for p in order if p in valid)
    return Ruling(True, "R17-8", "knock-gets", {"winner": winner, "current": current}, winner)


def take_joker(run: Sequence[Token]) -> Ruling:
    """R17-11: a run of four or more cards may take the joker of its colour from the side."""
    try:
        meld = analyse_meld(list(run))
    except MeldError as err:
        problem = err.first
        return Ruling(False, problem.rule or "R17-9", problem.code, problem.values())
    if meld.kind != RUN:
        return Ruling(False, "R17-11", "take-joker-set")
    if len(meld.cards) < JOKER_RUN_MIN:
        params = {"count": len(meld.cards), "least": JOKER_RUN_MIN}
        return Ruling(False, "R17-11", "take-joker-short", params)
    return Ruling(True, "R17-11", "take-joker-ok")


def swap_joker(meld: Meld, card: Card, *, has_melded: bool) -> Ruling:
    """R17-12: put the card a joker stands for in its place and take the joker."""
    joker = meld.joker
    if joker is None:
        return Ruling(False, "R17-12", "swap-no-joker")
    if not has_melded:
        return Ruling(False, "R17-12", "swap-not-melded")
    if joker.stands_for is None:
        return Ruling(False, "R17-12", "swap-not-fixed", {"card": card.text})
    if joker.stands_for != card:
        params = {"stand": joker.stands_for.text, "card": card.text}
        return Ruling(False, "R17-12", "swap-other-card", params)
    return Ruling(True, "R17-12", "swap-ok", {"card": card.text})


def add_to_meld(meld: Meld, card: Token, *, has_melded: bool) -> Meld:
    """R17-10: after a first meld, a card from hand may be added to any meld if it stays legal."""
    if not has_melded:
        raise MeldError("add-before-meld", rule="R17-10")
    return analyse_meld([*meld.cards, card])
