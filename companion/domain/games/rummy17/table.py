"""A Rummy 17 game as it lies at its end: each player's melds and hand (R17-15, D17-2)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.domain.cards import Card
from companion.domain.games.rummy17.melds import Meld


@dataclass(frozen=True)
class Hand:
    """The cards left in a player's hand, or just how many are low (1–9) and high (10–17)."""

    low: int
    high: int
    cards: tuple[Card, ...] | None = None

    @classmethod
    def of(cls, cards: tuple[Card, ...]) -> Hand:
        """A hand of these cards, counted low (1–9) and high (10–17)."""
        low = sum(1 for c in cards if c.value <= 9)
        return cls(low, len(cards) - low, cards)

    @property
    def size(self) -> int:
        """How many cards are left in the hand."""
        return self.low + self.high

    @property
    def penalty(self) -> int:
        """R17-16: 1 point for each card of value 1–9, 2 points for each of 10–17."""
        return self.low + 2 * self.high


@dataclass(frozen=True)
class Seat:
    """One player at the end of a game: the melds in front of them (D17-2) and their hand."""

    name: str
    melds: tuple[Meld, ...]
    hand: Hand


@dataclass(frozen=True)
class Seventeen:
    """The last discard given only as whether it was a 17 (contract short form, R17-15a).

    Its colour was not recorded, so it takes part in no copy check (D17-8).
    """

    seventeen: bool

    def json(self) -> dict[str, bool]:
        """The contract's short form: ``{"seventeen": false}``."""
        return {"seventeen": self.seventeen}


#: The last discard as a table records it: the card, or only whether it was a 17.
LastDiscard = Card | Seventeen


@dataclass(frozen=True)
class Table:
    """One finished game of Rummy 17."""

    seats: tuple[Seat, ...]
    bonus_cards: tuple[str, ...]
    went_out: str | None  # None: the draw pile ran out (R17-15b)
    last_discard: LastDiscard | None

    @property
    def names(self) -> tuple[str, ...]:
        """The players in seat order."""
        return tuple(s.name for s in self.seats)

    @property
    def rummy17(self) -> bool:
        """R17-15a: the last card discarded by the player going out is a 17."""
        last = self.last_discard
        if self.went_out is None or last is None:
            return False
        return last.seventeen if isinstance(last, Seventeen) else last.value == 17

    @property
    def multiplier(self) -> int:
        """R17-15a: 2 under RUMMY 17, else 1."""
        return 2 if self.rummy17 else 1
