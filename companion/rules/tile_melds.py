"""Melds of Rummikub (RK-4, RK-5, RK-12), Rummy-O (RO-4, RO-5, DO-2) and Manipulation Rummy
(MR-3, MR-4, MR-7): groups and runs where a joker may stand for any card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from .cards import DECKS, Card, Joker, Token
from .holdings import face_value


@dataclass(frozen=True)
class Style:
    """How one game builds melds and values them."""

    group_rule: str
    run_rule: str
    wrap_rule: str
    ace_high: bool  # MR-4: Q-K-A is a run, K-A-2 never
    max_jokers: int
    joker_rule: str


STYLES = {
    "rummikub": Style("RK-4", "RK-5", "RK-5", False, 2, "RK-12"),
    "rummy-o": Style("RO-4", "RO-5", "DO-2", False, 2, "RO-9"),
    "manipulation": Style("MR-3", "MR-4", "MR-4", True, 2, "MR-7"),
}


def meld_value(game: str, faces: Sequence[Card]) -> int:
    """The worth of a meld for an initial meld: RK-6 numbers; RO-6/DO-3 the RO-2 values."""
    if game == "rummy-o":
        return sum(face_value(c, 25, {1: 10, 11: 10, 12: 10, 13: 10}) for c in faces)
    if game == "manipulation":
        return sum(face_value(c, 25, {11: 10, 12: 10, 13: 10}) for c in faces)
    return sum(c.value for c in faces)


def _kind(faces: Sequence[Card], style: Style) -> str | None:
    if len(faces) < 3:
        return None
    if len({c.value for c in faces}) == 1:
        colours = [c.colour for c in faces]
        return "set" if len(faces) <= 4 and len(set(colours)) == len(colours) else None
    if len({c.colour for c in faces}) != 1:
        return None
    for values in _value_views(faces, style):
        ordered = sorted(values)
        if ordered == list(range(ordered[0], ordered[0] + len(ordered))):
            return "run"
    return None


def _value_views(faces: Sequence[Card], style: Style) -> list[list[int]]:
    values = [c.value for c in faces]
    if style.ace_high and 1 in values:
        return [values, [14 if v == 1 else v for v in values]]
    return [values]


def _reason(numbers: list[Card], n: int, style: Style) -> tuple[str, str]:
    if n < 3:
        return f"a meld needs at least three cards, this one has {n}", style.run_rule
    values = {c.value for c in numbers}
    colours = [c.colour for c in numbers]
    if len(values) == 1:
        if len(set(colours)) < len(colours):
            twice = next(c for c in numbers if colours.count(c.colour) > 1)
            return (
                f"a group never holds two identical cards: {twice.text} appears twice",
                style.group_rule,
            )
        return "a group has at most four cards", style.group_rule
    if len(set(colours)) == 1:
        ordered = sorted(values)
        if len(ordered) < len(numbers):
            return "a run never holds the same value twice", style.run_rule
        if not style.ace_high and 1 in values and 13 in values:
            return "1 cannot follow 13 in a run", style.wrap_rule
        if style.ace_high and 1 in values and 2 in values and 13 in values:
            return "a run never turns the corner from K through A to 2", style.wrap_rule
        return "a run has consecutive values, and the jokers cannot fill the gaps", style.run_rule
    return "a group has one value and a run one colour (or suit)", style.run_rule


def _ordered(cards: list[Token], kind: str, colours: tuple[str, ...]) -> list[Token]:
    """Lay a meld out as on the table: a run by value (an ace after a king), a group by colour."""

    def face(t: Token) -> Card:
        return t.stands_for if isinstance(t, Joker) and t.stands_for else t  # type: ignore[return-value]

    if kind == "run":
        high = any(face(t).value == 13 for t in cards)
        return sorted(cards, key=lambda t: 14 if high and face(t).value == 1 else face(t).value)
    return sorted(cards, key=lambda t: colours.index(face(t).colour))


def check_tiles(game: str, tokens: Sequence[Token]) -> dict[str, Any]:
    """The verdict on one meld of a game whose jokers stand for any card."""
    style = STYLES[game]
    deck = DECKS[game]
    numbers = [t for t in tokens if isinstance(t, Card)]
    jokers = [t for t in tokens if isinstance(t, Joker)]
    if len(jokers) > style.max_jokers:
        return {
            "valid": False,
            "kind": None,
            "rule": style.run_rule,
            "reason": f"a meld holds at most {style.max_jokers} jokers",
        }
    options = [
        [j.stands_for]
        if j.stands_for
        else [Card(c, v, game) for c in deck.colours for v in range(deck.low, deck.high + 1)]
        for j in jokers
    ]
    readings: dict[tuple[str, ...], tuple[str, list[Card]]] = {}
    for stand_ins in product(*options):
        faces = numbers + list(stand_ins)
        kind = _kind(faces, style)
        if kind is None:
            continue
        it = iter(stand_ins)
        cards = [t if isinstance(t, Card) else Joker(None, next(it), game) for t in tokens]
        key = tuple(c.text for c in _ordered(cards, kind, deck.colours))
        readings.setdefault(key, (kind, faces))
    if not readings:
        reason, rule = _reason(numbers, len(tokens), style)
        return {"valid": False, "kind": None, "reason": reason, "rule": rule}
    # Mostly jokers (R5 * *) can read as a group or a run: each reading names its own kind,
    # and the headline kind stays one of the contract's two values.
    kinds = {k for k, _ in readings.values()}
    out: dict[str, Any] = {"valid": True, "kind": kinds.pop() if len(kinds) == 1 else "set"}
    if len(readings) == 1:
        ((texts, (kind, faces)),) = readings.items()
        out.update(kind=kind, cards=list(texts), value=meld_value(game, faces))
    else:
        out["cards"] = [t.text for t in tokens]
        out["rule"] = style.joker_rule
        out["readings"] = [
            {"kind": k, "cards": list(texts), "value": meld_value(game, f)}
            for texts, (k, f) in sorted(readings.items())
        ]
        options = [" and ".join(t[1:] for t in texts if t.startswith("*")) for texts in readings]
        out["reason"] = (
            f"the joker could stand for {' or '.join(options[:4])}"
            f"{' or others' if len(options) > 4 else ''}; say which, "
            f"like *{options[0].split(' and ')[0]} ({style.run_rule})"
        )
    return out
