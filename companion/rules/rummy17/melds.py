"""Rummy 17 melds: set or run, the joker's stand-in, and why a meld is not legal.

R17-9 (sets and runs), R17-13 (jokers: own colour, at most one per meld, no two identical
cards) and D17-6 (the stand-in follows from the meld, or must be stated when ambiguous).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import RUMMY17, Card, Joker, Token, card_sort_key
from ..errors import EntryError

SET = "set"
RUN = "run"


class MeldError(EntryError):
    """A meld that is not a legal set or run; ``message`` is the bare reason."""


@dataclass(frozen=True)
class Meld:
    """A legal meld: its cards as entered (a joker carrying its stand-in when it is known)."""

    cards: tuple[Token, ...]
    kind: str
    readings: tuple[Card, ...] = ()  # D17-6: the cards an ambiguous joker could stand for

    @property
    def joker(self) -> Joker | None:
        return next((c for c in self.cards if isinstance(c, Joker)), None)

    @property
    def ambiguous(self) -> bool:
        return len(self.readings) > 1

    @property
    def faces(self) -> tuple[Card, ...]:
        """The cards the meld shows, each joker replaced by its stand-in (D17-3)."""
        out = []
        for c in self.cards:
            if isinstance(c, Joker):
                if c.stands_for is None:
                    raise ValueError("an ambiguous joker has no face")
                out.append(c.stands_for)
            else:
                out.append(c)
        return tuple(out)

    @property
    def value(self) -> int:
        """The sum of the values, a joker counting as the card it stands for."""
        return sum(c.value for c in self.faces)

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.cards)

    def ordered(self) -> Meld:
        """The same meld laid out as on the table: runs by value, sets by colour."""
        if self.kind == RUN:
            key = lambda c: c.stands_for.value if isinstance(c, Joker) else c.value  # noqa: E731
            try:
                cards = tuple(sorted(self.cards, key=key))
            except AttributeError:  # an ambiguous joker: keep it last
                cards = tuple(sorted(self.cards, key=card_sort_key))
        else:
            cards = tuple(sorted(self.cards, key=card_sort_key))
        return Meld(cards, self.kind, self.readings)


def _name(colour: str) -> str:
    return RUMMY17.colour_names[colour]


def analyse_meld(tokens: Sequence[Token]) -> Meld:
    """Classify a Rummy 17 meld and fill in its joker's stand-in; raise ``MeldError`` if illegal."""
    if len(tokens) < 3:
        raise MeldError(
            f"a meld needs at least three cards, this one has {len(tokens)} (R17-9)",
            rule="R17-9",
        )
    jokers = [t for t in tokens if isinstance(t, Joker)]
    numbers = [t for t in tokens if isinstance(t, Card)]
    if len(jokers) > 1:
        raise MeldError(
            f"a meld holds at most one joker, this one has {len(jokers)} "
            f"({', '.join(j.text for j in jokers)}) (R17-13)",
            card=jokers[1].text,
            rule="R17-13",
        )
    seen: set[Card] = set()
    for card in numbers:
        if card in seen:
            raise MeldError(
                f"{card.text} appears twice (R17-1: each card exists once)",
                card=card.text,
                rule="R17-1",
            )
        seen.add(card)
    joker = jokers[0] if jokers else None
    values = {c.value for c in numbers}
    colours = {c.colour for c in numbers}
    if len(values) == 1:
        return _as_set(tokens, numbers, joker)
    if len(colours) == 1:
        return _as_run(tokens, numbers, joker)
    a, b = _mismatch(numbers)
    raise MeldError(
        f"{a.text} and {b.text} cannot be in one meld: a set has one value, "
        f"a run one colour (R17-9)",
        card=b.text,
        rule="R17-9",
    )


def _mismatch(numbers: list[Card]) -> tuple[Card, Card]:
    first = numbers[0]
    for other in numbers[1:]:
        if other.value != first.value and other.colour != first.colour:
            return first, other
    # every card shares value or colour with the first, but not all the same way
    for i, x in enumerate(numbers):
        for y in numbers[i + 1 :]:
            if x.value != y.value and x.colour != y.colour:
                return x, y
    return numbers[0], numbers[1]


def _with_stand_in(tokens: Sequence[Token], joker: Joker, card: Card) -> tuple[Token, ...]:
    return tuple(joker.standing_for(card) if t is joker else t for t in tokens)


def _as_set(tokens: Sequence[Token], numbers: list[Card], joker: Joker | None) -> Meld:
    value = numbers[0].value
    if joker is None:
        return Meld(tuple(tokens), SET)
    assert joker.colour is not None
    stand = Card(joker.colour, value)
    if stand in numbers:
        raise MeldError(
            f"the {_name(joker.colour)} joker would stand for {stand.text}, which is already "
            f"in this set: a set never holds two identical cards (R17-13)",
            card=joker.text,
            rule="R17-13",
        )
    if joker.stands_for is not None and joker.stands_for != stand:
        raise MeldError(
            f"in a set of {value}s the {_name(joker.colour)} joker can only stand for "
            f"{stand.text}, not {joker.stands_for.text} (D17-6)",
            card=joker.text,
            rule="D17-6",
        )
    return Meld(_with_stand_in(tokens, joker, stand), SET, (stand,))


def _as_run(tokens: Sequence[Token], numbers: list[Card], joker: Joker | None) -> Meld:
    colour = numbers[0].colour
    values = sorted(c.value for c in numbers)
    missing = [v for v in range(values[0], values[-1] + 1) if v not in values]
    if joker is None:
        if missing:
            raise MeldError(
                f"{_gap_text(colour, missing)} missing between {colour}{values[0]} and "
                f"{colour}{values[-1]}: a run has consecutive values (R17-9)",
                card=f"{colour}{missing[0]}",
                rule="R17-9",
            )
        return Meld(tuple(tokens), RUN)
    assert joker.colour is not None
    if joker.colour != colour:
        raise MeldError(
            f"the {_name(joker.colour)} joker cannot stand in a {_name(colour)} run: "
            f"a joker only stands for a card of its own colour (R17-13)",
            card=joker.text,
            rule="R17-13",
        )
    if len(missing) > 1:
        raise MeldError(
            f"{_gap_text(colour, missing)} missing between {colour}{values[0]} and "
            f"{colour}{values[-1]}, and one joker fills only one gap (R17-9, R17-13)",
            card=f"{colour}{missing[0]}",
            rule="R17-9",
        )
    if missing:
        candidates = [missing[0]]
    else:
        # D17-6: no wrap, so a run reaching 1 or 17 leaves the joker one end only.
        candidates = [
            v for v in (values[0] - 1, values[-1] + 1) if RUMMY17.low <= v <= RUMMY17.high
        ]
    readings = tuple(Card(colour, v) for v in candidates)
    if joker.stands_for is not None:
        if joker.stands_for not in readings:
            could = " or ".join(c.text for c in readings)
            raise MeldError(
                f"the {_name(colour)} joker cannot stand for {joker.stands_for.text} in this "
                f"run; it can stand for {could} (D17-6)",
                card=joker.text,
                rule="D17-6",
            )
        return Meld(tuple(tokens), RUN, (joker.stands_for,))
    if len(readings) == 1:
        return Meld(_with_stand_in(tokens, joker, readings[0]), RUN, readings)
    return Meld(tuple(tokens), RUN, readings)


def _gap_text(colour: str, missing: list[int]) -> str:
    cards = [f"{colour}{v}" for v in missing]
    if len(cards) == 1:
        return f"{cards[0]} is"
    return ", ".join(cards[:-1]) + f" and {cards[-1]} are"


def resolve(meld: Meld) -> list[Meld]:
    """Every reading of a meld: itself, or one per stand-in of an ambiguous joker (D17-6)."""
    joker = meld.joker
    if joker is None or not meld.ambiguous:
        return [meld]
    return [Meld(_with_stand_in(meld.cards, joker, r), meld.kind, (r,)) for r in meld.readings]
