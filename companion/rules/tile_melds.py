"""Melds of Rummikub (RK-4, RK-5, RK-12), Rummy-O (RO-4, RO-5, DO-2) and Manipulation Rummy
(MR-3, MR-4, MR-7): groups and runs where a joker may stand for any card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from .cards import DECKS, Card, Joker, Token
from .errors import Problem, reason_fields
from .holdings import face_value
from .messages import N_, register

register(
    {
        "tiles-too-short": N_("a meld needs at least three cards, this one has {count}"),
        "tiles-too-many-jokers": N_("a meld holds at most {most} jokers"),
        "group-card-twice": N_("a group never holds two identical cards: {card} appears twice"),
        "group-too-long": N_("a group has at most four cards"),
        "run-value-twice": N_("a run never holds the same value twice"),
        "run-wraps": N_("1 cannot follow 13 in a run"),
        "run-turns-corner": N_("a run never turns the corner from K through A to 2"),
        "run-not-consecutive": N_(
            "a run has consecutive values, and the jokers cannot fill the gaps"
        ),
        "tiles-mixed": N_("a group has one value and a run one colour (or suit)"),
        "tiles-joker-could": N_(
            "the joker could stand for {could}; say which, like *{first} ({rule})"
        ),
        "tiles-joker-could-more": N_(
            "the joker could stand for {could} or others; say which, like *{first} ({rule})"
        ),
    }
)


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


def _problem(numbers: list[Card], n: int, style: Style) -> Problem:
    """Why no reading of the meld is a group or a run, citing the game's clause."""
    if n < 3:
        return Problem("tiles-too-short", {"count": n}, rule=style.run_rule)
    values = {c.value for c in numbers}
    colours = [c.colour for c in numbers]
    if len(values) == 1:
        if len(set(colours)) < len(colours):
            twice = next(c for c in numbers if colours.count(c.colour) > 1)
            return Problem("group-card-twice", card=twice.text, rule=style.group_rule)
        return Problem("group-too-long", rule=style.group_rule)
    if len(set(colours)) == 1:
        ordered = sorted(values)
        if len(ordered) < len(numbers):
            return Problem("run-value-twice", rule=style.run_rule)
        if not style.ace_high and 1 in values and 13 in values:
            return Problem("run-wraps", rule=style.wrap_rule)
        if style.ace_high and 1 in values and 2 in values and 13 in values:
            return Problem("run-turns-corner", rule=style.wrap_rule)
        return Problem("run-not-consecutive", rule=style.run_rule)
    return Problem("tiles-mixed", rule=style.run_rule)


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
        problem = Problem("tiles-too-many-jokers", {"most": style.max_jokers}, rule=style.run_rule)
        return {"valid": False, "kind": None, "rule": problem.rule, **reason_fields(problem)}
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
        problem = _problem(numbers, len(tokens), style)
        return {"valid": False, "kind": None, "rule": problem.rule, **reason_fields(problem)}
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
        could = [[t[1:] for t in texts if t.startswith("*")] for texts in readings]
        code = "tiles-joker-could-more" if len(could) > 4 else "tiles-joker-could"
        # RK-12, RO-9, MR-7: the joker stands for the card the player names.
        problem = Problem(code, {"could": could[:4], "first": could[0][0]}, rule=style.joker_rule)
        out.update(reason_fields(problem))
    return out
