"""Melds of Rummikub (RK-4, RK-5, RK-12), Rummy-O (RO-4, RO-5, DO-2) and Manipulation Rummy
(MR-3, MR-4, MR-7): groups and runs where a joker may stand for any card.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from .cards import Card, Joker, Token, deck_of
from .errors import Problem, reason_fields
from .game import get_game
from .messages import N_, register

register(
    {
        "tiles-too-short": N_("a meld needs at least three cards, this one has {count}"),
        "tiles-too-many-jokers": N_("a meld holds at most {most} jokers"),
        "group-card-twice": N_("a group never holds two identical cards: {card} appears twice"),
        "group-too-long": N_("a group has at most four cards"),
        "group-joker-twice": N_(
            "the joker cannot stand for {stand}: this group already holds it, and a group never "
            "holds two identical cards"
        ),
        "group-joker-other-value": N_(
            "the joker cannot stand for {stand}: a group has one value, here {value}"
        ),
        "run-value-twice": N_("a run never holds the same value twice"),
        "run-too-long": N_("a run has at most {most} cards, one of each value"),
        "run-joker-other-colour": N_(
            "the joker cannot stand for {stand}: a run has one colour (or suit)"
        ),
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

SET = "set"
RUN = "run"


@dataclass(frozen=True)
class Style:
    """How one game builds melds, and the clause for each way a meld can fail."""

    group_rule: str
    run_rule: str
    wrap_rule: str
    ace_high: bool  # MR-4: Q-K-A is a run, K-A-2 never
    max_jokers: int
    joker_rule: str
    deck_rule: str  # how many jokers the game has (RK-1, RO-1, MR-1)
    meld_rule: str | None = None  # one clause for any meld's three cards (MR-3)


@dataclass(frozen=True)
class TurnRules:
    """The clauses one tile game cites for each check of a turn (contract ``turn``)."""

    left_table: str  # RK-9, RO-8, MR-6: nothing goes back to a rack or hand
    freed_joker: str  # RK-14, RO-9, MR-7
    nothing_played: str  # RK-8, RO-7, MR-6
    from_hand: str  # RK-8, RO-7, MR-5
    words: str  # "tile" (racks) or "card" (hands): which sentences the game's table reads
    #: The least an initial meld is worth (RK-6: 30, RO-6: 25); None: no initial meld.
    initial_least: int | None = None
    initial_rule: str = ""  # RK-6, RO-6: the worth
    initial_touch: str = ""  # RK-6, RO-8: the table is left alone
    initial_joker: str = ""  # RK-13, RO-8: no joker taken from the table
    #: DO-7: a freed joker ends the turn in a new combination (Rummy-O); None: any meld (DK-5).
    freed_joker_new: str | None = None
    #: DO-8: a joker is freed only by its tile played from the rack (Rummy-O); None: rearranging
    #: the table frees it too (RK-14).
    freed_by_tile: str | None = None
    #: DM-9: a joker keeps the card it stood for until that card takes its place (Manipulation).
    named_joker: str | None = None


def style_of(game: str) -> Style:
    """How the game with this id builds melds (``LeftoverGame.meld_style``)."""
    from .tiles import LeftoverGame  # the tile games import this module: asked at call time

    host = get_game(game)
    if not isinstance(host, LeftoverGame):
        raise TypeError(f"{game} melds are not tile melds")
    return host.meld_style


def meld_value(game: str, faces: Sequence[Card]) -> int:
    """The worth of a meld for an initial meld (RK-6 numbers; RO-6/DO-3 the RO-2 values)."""
    worth = get_game(game).opening_worth
    return sum(worth(c) for c in faces)


def _kind(faces: Sequence[Card], style: Style) -> tuple[str, bool] | None:
    """The kind of meld these cards make, and whether an ace counts high in it (MR-4)."""
    if len(faces) < 3:
        return None
    if len({c.value for c in faces}) == 1:
        colours = [c.colour for c in faces]
        return (SET, False) if len(faces) <= 4 and len(set(colours)) == len(colours) else None
    if len({c.colour for c in faces}) != 1:
        return None
    views = [False, True] if style.ace_high and any(c.value == 1 for c in faces) else [False]
    for high in views:
        ordered = sorted(14 if high and c.value == 1 else c.value for c in faces)
        if ordered == list(range(ordered[0], ordered[0] + len(ordered))):
            return RUN, high
    return None


def wraps_around(values: set[int], length: int, top: int) -> bool:
    """Would ``values`` make a run of ``length`` if the top value were followed by 1 again?

    Jokers fill the other places. Asked only once no straight reading exists, so a yes means
    the meld is refused for wrapping (RK-5, DO-2, MR-4's corner, R17-9).
    """
    if not values or length > top:
        return False
    return any(values <= {(start + i) % top + 1 for i in range(length)} for start in range(top))


def _stand_in(joker: Joker) -> Card:
    assert joker.stands_for is not None
    return joker.stands_for


def _problem(tokens: Sequence[Token], style: Style, game: str) -> Problem:
    """Why no reading of the meld is a group or a run, citing the game's clause.

    What the meld is meant to be comes from its numbered cards (from the stated stand-ins too
    when fewer than two are numbered); a joker that cannot be what it is said to stand for is
    named as the fault, not the meld's length.
    """
    deck = deck_of(game)
    numbers = [t for t in tokens if isinstance(t, Card)]
    stated = [t for t in tokens if isinstance(t, Joker) and t.stands_for is not None]
    faces = numbers + [_stand_in(j) for j in stated]
    basis = numbers if len(numbers) >= 2 else faces
    if len({c.value for c in basis}) <= 1:
        intent = SET
    elif len({c.colour for c in basis}) == 1:
        intent = RUN
    else:
        intent = ""
    n = len(tokens)
    if n < 3:
        rule = style.meld_rule or (style.run_rule if intent == RUN else style.group_rule)
        return Problem("tiles-too-short", {"count": n}, rule=rule)
    if intent == SET:
        return _group_problem(basis[0].value, numbers, stated, style, deck.value_text)
    if intent == RUN:
        return _run_problem(basis[0].colour, numbers, stated, n, style, deck.high - deck.low + 1)
    return Problem("tiles-mixed", rule=style.meld_rule or style.run_rule)


def _group_problem(
    value: int,
    numbers: list[Card],
    stated: list[Joker],
    style: Style,
    value_text: Callable[[int], str],
) -> Problem:
    """RK-4, RO-4, MR-3: one value, each colour (suit) once, three or four cards."""
    rule = style.group_rule
    for joker in stated:
        stand = _stand_in(joker)
        if stand.value != value:
            params = {"stand": stand.text, "value": value_text(value)}
            return Problem("group-joker-other-value", params, card=joker.text, rule=rule)
    colours = [c.colour for c in numbers]
    if len(set(colours)) < len(colours):
        twice = next(c for c in numbers if colours.count(c.colour) > 1)
        return Problem("group-card-twice", card=twice.text, rule=rule)
    seen = set(colours)
    for joker in stated:
        stand = _stand_in(joker)
        if stand.colour in seen:
            return Problem("group-joker-twice", {"stand": stand.text}, card=joker.text, rule=rule)
        seen.add(stand.colour)
    return Problem("group-too-long", rule=rule)


def _run_problem(
    colour: str, numbers: list[Card], stated: list[Joker], n: int, style: Style, span: int
) -> Problem:
    """RK-5, RO-5/DO-2, MR-4: one colour (suit), consecutive values, no wrap."""
    for joker in stated:
        stand = _stand_in(joker)
        if stand.colour != colour:
            return Problem(
                "run-joker-other-colour",
                {"stand": stand.text},
                card=joker.text,
                rule=style.run_rule,
            )
    values = [c.value for c in numbers] + [_stand_in(j).value for j in stated]
    if len(set(values)) < len(values):
        return Problem("run-value-twice", rule=style.run_rule)
    if n > span:  # RK-5: 3 to 13 tiles; one of each value in every game
        return Problem("run-too-long", {"most": span}, rule=style.run_rule)
    if wraps_around(set(values), n, span):
        code = "run-turns-corner" if style.ace_high else "run-wraps"
        return Problem(code, rule=style.wrap_rule)
    return Problem("run-not-consecutive", rule=style.run_rule)


def _ordered(cards: list[Token], kind: str, high: bool, colours: tuple[str, ...]) -> list[Token]:
    """Lay a meld out as on the table: a run by value (an ace after a king only where it
    counts high, MR-4; never 13-1, RK-5, DO-2), a group by colour."""

    def face(t: Token) -> Card:
        return t.stands_for if isinstance(t, Joker) and t.stands_for else t  # type: ignore[return-value]

    if kind == RUN:
        return sorted(cards, key=lambda t: 14 if high and face(t).value == 1 else face(t).value)
    return sorted(cards, key=lambda t: colours.index(face(t).colour))


Reading = tuple[tuple[str, ...], tuple[str, list[Card]]]


def _one_set_reading(readings: list[Reading]) -> list[Reading]:
    """The readings that differ at the table: every set reading of one meld is the same meld.

    Contract ("Games and cards"): a joker in a set stands for a colour (suit) the set lacks,
    and every such reading is the same meld of the same worth (RK-4, RO-4, MR-3 fix the value,
    never the colour), so ``K9 B9 *`` needs no stand-in; the first reading in the game's
    writing order speaks for them all. Runs keep every reading (RK-12, RO-9, MR-7).
    """
    sets = [r for r in readings if r[1][0] == SET]
    return sorted([r for r in readings if r[1][0] != SET] + sets[:1])


def check_tiles(
    game: str, tokens: Sequence[Token], used_up: Collection[str] = ()
) -> dict[str, Any]:
    """The verdict on one meld of a game whose jokers stand for any card.

    ``value`` (the worth towards the initial meld) comes only for a game that has one
    (RK-6, RO-6). When the jokers leave several readings, each reading in ``readings`` names
    its own ``kind``; the headline ``kind`` is the first reading's, the one the reason gives as
    its example (``like *K4``).

    ``used_up`` names the cards of which the same document gives every copy outside this meld
    (contract "Games and cards"): where a joker whose stand-in is not stated has other
    readings, it never reads as one of them. Only a choice is narrowed: a meld whose every
    reading needs such a card keeps them.
    """
    host = get_game(game)
    style = style_of(game)
    deck = host.deck
    numbers = [t for t in tokens if isinstance(t, Card)]
    jokers = [t for t in tokens if isinstance(t, Joker)]
    if len(jokers) > style.max_jokers:  # RK-1, RO-1, MR-1: the game has only two
        problem = Problem("tiles-too-many-jokers", {"most": style.max_jokers}, rule=style.deck_rule)
        return {"valid": False, "kind": None, "rule": problem.rule, **reason_fields(problem)}
    options = [
        [j.stands_for]
        if j.stands_for
        else [Card(c, v, game) for c in deck.colours for v in range(deck.low, deck.high + 1)]
        for j in jokers
    ]
    found: dict[tuple[str, ...], tuple[str, list[Card]]] = {}
    beyond: dict[tuple[str, ...], tuple[str, list[Card]]] = {}  # a copy too many
    for stand_ins in product(*options):
        faces = numbers + list(stand_ins)
        shape = _kind(faces, style)
        if shape is None:
            continue
        it = iter(stand_ins)
        cards = [t if isinstance(t, Card) else Joker(None, next(it), game) for t in tokens]
        key = tuple(c.text for c in _ordered(cards, *shape, deck.colours))
        inferred = [c for j, c in zip(jokers, stand_ins, strict=True) if j.stands_for is None]
        short = any(c.text in used_up for c in inferred)
        (beyond if short else found).setdefault(key, (shape[0], faces))
    found = found or beyond
    if not found:
        problem = _problem(tokens, style, game)
        return {"valid": False, "kind": None, "rule": problem.rule, **reason_fields(problem)}
    readings = _one_set_reading(sorted(found.items()))

    def worth(faces: list[Card]) -> dict[str, int]:
        if host.initial_meld is None:
            return {}
        return {"value": sum(host.opening_worth(c) for c in faces)}

    (first, (kind, faces)) = readings[0]
    out: dict[str, Any] = {"valid": True, "kind": kind}
    if len(readings) == 1:
        out.update(cards=list(first), **worth(faces))
        return out
    out["cards"] = [t.text for t in tokens]
    out["rule"] = style.joker_rule
    out["readings"] = [{"kind": k, "cards": list(texts), **worth(f)} for texts, (k, f) in readings]
    could = [[t[1:] for t in texts if t.startswith("*")] for texts, _ in readings]
    code = "tiles-joker-could-more" if len(could) > 4 else "tiles-joker-could"
    # RK-12, RO-9, MR-7: the joker stands for the card the player names; the reason cites
    # the same clause as ``rule``.
    problem = Problem(code, {"could": could[:4], "first": could[0][0]}, rule=style.joker_rule)
    out.update(reason_fields(problem))
    return out
