"""Rummy 17 melds: set or run, the joker's stand-in, and why a meld is not legal.

R17-9 (sets and runs), R17-13 (jokers: own colour, at most one per meld, no two identical
cards) and D17-6 (the stand-in follows from the meld, or must be stated when ambiguous).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..cards import Card, Joker, Token, card_sort_key
from ..errors import EntryError
from ..messages import N_, NN_, register
from ..tile_melds import wraps_around
from .deck import RUMMY17

SET = "set"
RUN = "run"
MELD_LEAST = 3  # R17-9: a set or a run has at least three cards

register(
    {
        "meld-too-short": N_("a meld needs at least three cards, this one has {count} ({rule})"),
        "meld-jokers": N_(
            "a meld holds at most one joker, this one has {count} ({jokers}) ({rule})"
        ),
        "meld-card-twice": N_("{card} appears twice ({rule}: each card exists once)"),
        "meld-mixed": N_(
            "{other} and {card} cannot be in one meld: a set has one value, a run one colour "
            "({rule})"
        ),
        "set-joker-duplicate": N_(
            "the {colour} joker would stand for {stand}, which is already in this set: a set "
            "never holds two identical cards ({rule})"
        ),
        "set-joker-stand-in": N_(
            "in a set of {value}s the {colour} joker can only stand for {stand}, not {stated} "
            "({rule})"
        ),
        "run-gap": NN_(
            "{cards} is missing between {low} and {high}: a run has consecutive values ({rule})",
            "{cards} are missing between {low} and {high}: a run has consecutive values ({rule})",
            "count",
        ),
        "run-gaps-joker": NN_(
            "{cards} is missing between {low} and {high}, and one joker fills only one gap "
            "(R17-9, R17-13)",
            "{cards} are missing between {low} and {high}, and one joker fills only one gap "
            "(R17-9, R17-13)",
            "count",
        ),
        "run-no-wrap": N_("1 cannot follow 17 in a run: values run 1–17 with no wrap ({rule})"),
        "run-joker-colour": N_(
            "the {colour} joker cannot stand in a {colour2} run: a joker only stands for a card "
            "of its own colour ({rule})"
        ),
        "run-joker-stand-in": N_(
            "the {colour} joker cannot stand for {stated} in this run; it can stand for {could} "
            "({rule})"
        ),
        "add-before-meld": N_("a player adds to melds only after their own first meld ({rule})"),
        "run-no-room": N_(
            "the {colour} joker has no card to stand for: this run already holds every value "
            "from 1 to 17 ({rule})"
        ),
    }
)


class MeldError(EntryError):
    """A meld that is not a legal set or run: a code like any ``EntryError``, with no place yet.

    ``reason`` is the bare sentence (``first.reason()``), what ``check`` answers.
    """

    @property
    def reason(self) -> str:
        """The reason in English, without a place (a meld on its own has none)."""
        return self.first.reason()


@dataclass(frozen=True)
class Meld:
    """A legal meld: its cards as entered (a joker carrying its stand-in when it is known)."""

    cards: tuple[Token, ...]
    kind: str
    readings: tuple[Card, ...] = ()  # D17-6: the cards an ambiguous joker could stand for

    @property
    def joker(self) -> Joker | None:
        """The meld's joker, if it holds one (R17-13: at most one)."""
        return next((c for c in self.cards if isinstance(c, Joker)), None)

    @property
    def ambiguous(self) -> bool:
        """D17-6: the joker could stand for more than one card."""
        return len(self.readings) > 1

    @property
    def faces(self) -> tuple[Card, ...]:
        """The cards the meld shows, each joker replaced by its stand-in (D17-3)."""
        return tuple(_face(c) for c in self.cards)

    @property
    def value(self) -> int:
        """The sum of the values, a joker counting as the card it stands for."""
        return sum(c.value for c in self.faces)

    @property
    def text(self) -> str:
        """The cards as entered, separated by spaces."""
        return " ".join(c.text for c in self.cards)

    def ordered(self) -> Meld:
        """The same meld laid out as on the table: runs by value, sets by colour."""
        placed = all(not isinstance(c, Joker) or c.stands_for is not None for c in self.cards)
        if self.kind == RUN and placed:
            cards = tuple(sorted(self.cards, key=lambda c: _face(c).value))
        else:  # a set by colour; an ambiguous joker has no place yet: last
            cards = tuple(sorted(self.cards, key=card_sort_key))
        return Meld(cards, self.kind, self.readings)


def _face(token: Token) -> Card:
    """The card a token shows: itself, or the card its joker stands for (D17-3)."""
    if isinstance(token, Joker):
        if token.stands_for is None:
            raise ValueError("an ambiguous joker has no face")
        return token.stands_for
    return token


def _name(colour: str) -> str:
    return RUMMY17.colour_names[colour]


def analyse_meld(tokens: Sequence[Token], elsewhere: Collection[str] = ()) -> Meld:
    """Classify a Rummy 17 meld and fill in its joker's stand-in; raise ``MeldError`` if illegal.

    ``elsewhere``: the cards lying in the other melds of the same document (never those in a
    hand, which their holder may swap in, R17-12). Each card exists once (R17-1), so none of
    them is one of a joker's readings where it has others (D17-6).
    """
    if len(tokens) < MELD_LEAST:
        raise MeldError("meld-too-short", rule="R17-9", count=len(tokens))
    jokers = [t for t in tokens if isinstance(t, Joker)]
    numbers = [t for t in tokens if isinstance(t, Card)]
    if len(jokers) > 1:
        raise MeldError(
            "meld-jokers",
            card=jokers[1].text,
            rule="R17-13",
            count=len(jokers),
            jokers=[j.text for j in jokers],
        )
    seen: set[Card] = set()
    for card in numbers:
        if card in seen:
            raise MeldError("meld-card-twice", card=card.text, rule="R17-1")
        seen.add(card)
    joker = jokers[0] if jokers else None
    values = {c.value for c in numbers}
    colours = {c.colour for c in numbers}
    if len(values) == 1:
        return _as_set(tokens, numbers, joker, elsewhere)
    if len(colours) == 1:
        return _as_run(tokens, numbers, joker, elsewhere)
    a, b = _mismatch(numbers)
    raise MeldError("meld-mixed", card=b.text, rule="R17-9", other=a.text)


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


def _as_set(
    tokens: Sequence[Token], numbers: list[Card], joker: Joker | None, elsewhere: Collection[str]
) -> Meld:
    value = numbers[0].value
    if joker is None:
        return Meld(tuple(tokens), SET)
    assert joker.colour is not None
    stand = Card(joker.colour, value)
    if stand in numbers:
        raise MeldError(
            "set-joker-duplicate",
            card=joker.text,
            rule="R17-13",
            colour=_name(joker.colour),
            stand=stand.text,
        )
    if joker.stands_for is not None and joker.stands_for != stand:
        raise MeldError(
            "set-joker-stand-in",
            card=joker.text,
            rule="D17-6",
            value=value,
            colour=_name(joker.colour),
            stand=stand.text,
            stated=joker.stands_for.text,
        )
    return Meld(_with_stand_in(tokens, joker, stand), SET, (stand,))


def _as_run(
    tokens: Sequence[Token], numbers: list[Card], joker: Joker | None, elsewhere: Collection[str]
) -> Meld:
    colour = numbers[0].colour
    values = sorted(c.value for c in numbers)
    missing = [v for v in range(values[0], values[-1] + 1) if v not in values]
    if joker is None:
        if missing:
            _refuse_wrap(tokens, set(values))
            raise _gap("run-gap", colour, values, missing)
        return Meld(tuple(tokens), RUN)
    assert joker.colour is not None
    if joker.colour != colour:
        raise MeldError(
            "run-joker-colour",
            card=joker.text,
            rule="R17-13",
            colour=_name(joker.colour),
            colour2=_name(colour),
        )
    if len(missing) > 1:
        _refuse_wrap(tokens, set(values))
        raise _gap("run-gaps-joker", colour, values, missing)
    if missing:
        candidates = [missing[0]]
    else:
        # D17-6: no wrap, so a run reaching 1 or 17 leaves the joker one end only.
        candidates = [
            v for v in (values[0] - 1, values[-1] + 1) if RUMMY17.low <= v <= RUMMY17.high
        ]
    if not candidates:  # D17-6: R1…R17 and a joker is no meld: no run goes past 17
        raise MeldError("run-no-room", card=joker.text, rule="D17-6", colour=_name(colour))
    readings = tuple(Card(colour, v) for v in candidates)
    # D17-6: of the cards the joker could stand for, one that lies in another meld is no
    # reading (each card exists once, R17-1): K8 in another meld makes K9 K10 and a joker K11.
    # Only a choice is narrowed: a joker whose every card lies elsewhere keeps them, as a
    # joker forced by its meld does (K9 *K K11 is K10 wherever K10 lies).
    if joker.stands_for is None:
        readings = tuple(c for c in readings if c.text not in elsewhere) or readings
    if joker.stands_for is not None:
        if joker.stands_for not in readings:
            _refuse_wrap(tokens, {*values, joker.stands_for.value})
            raise MeldError(
                "run-joker-stand-in",
                card=joker.text,
                rule="D17-6",
                colour=_name(colour),
                stated=joker.stands_for.text,
                could=[c.text for c in readings],
            )
        return Meld(tuple(tokens), RUN, (joker.stands_for,))
    if len(readings) == 1:
        return Meld(_with_stand_in(tokens, joker, readings[0]), RUN, readings)
    return Meld(tuple(tokens), RUN, readings)


def _refuse_wrap(tokens: Sequence[Token], values: set[int]) -> None:
    """R17-9: no wrap. Raise when the run would be one only if 1 followed 17, naming the 1
    (or the joker that would have to be it)."""
    if wraps_around(values, len(tokens), RUMMY17.high):
        one = next((t for t in tokens if isinstance(t, Card) and t.value == 1), None)
        joker = next((t for t in tokens if isinstance(t, Joker)), None)
        raise MeldError("run-no-wrap", card=(one or joker or tokens[0]).text, rule="R17-9")


def _gap(code: str, colour: str, values: list[int], missing: list[int]) -> MeldError:
    """R17-9: the cards missing from a run, named between its lowest and highest card."""
    return MeldError(
        code,
        card=f"{colour}{missing[0]}",
        rule="R17-9",
        cards=[f"{colour}{v}" for v in missing],
        count=len(missing),
        low=f"{colour}{values[0]}",
        high=f"{colour}{values[-1]}",
    )


def resolve(meld: Meld) -> list[Meld]:
    """Every reading of a meld: itself, or one per stand-in of an ambiguous joker (D17-6)."""
    joker = meld.joker
    if joker is None or not meld.ambiguous:
        return [meld]
    return [Meld(_with_stand_in(meld.cards, joker, r), meld.kind, (r,)) for r in meld.readings]
