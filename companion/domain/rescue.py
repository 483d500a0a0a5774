"""Table rescue (RK-11, RK-9, MR-5): arrange the cards on the table into legal melds, every
card if that can be done, else as many as can be, naming the rest.

The model is exact. A candidate meld is a *shape*: a group (one value, three or four distinct
colours) or a run of three to five consecutive values of one colour. Longer runs are never
needed: a run of six or more splits into runs of three to five, so a table that can be laid
out at all can be laid out with these shapes; adjacent pieces are joined again afterwards.
Every slot of a shape is filled by a tile of that face or by a joker (RK-12, RO-9, MR-7), and
OR-Tools CP-SAT maximises the cards placed. Which shapes exist is asked of the game's meld
check (``tile_melds``), so the rules of groups, runs, 13-1 and aces live there alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from companion.domain.cards import Card, Deck, Joker, Token, card_sort_key, parse_card
from companion.domain.errors import EntryError
from companion.domain.messages import NN_, register
from companion.domain.tile_melds import TileGame, check_tiles

register(
    {
        "rescue-too-many-copies": NN_(
            "{card} is on the table more than once; the game has {most} ({rule})",
            "{card} is on the table more than {most} times; the game has {most} ({rule})",
            "most",
        ),
        "rescue-too-many-jokers": NN_(
            "more than {most} joker on the table; the game has {most} ({rule})",
            "more than {most} jokers on the table; the game has {most} ({rule})",
            "most",
        ),
    }
)

#: Runs longer than this are laid as pieces and joined afterwards (see the module docstring).
LONGEST_PIECE = 5
#: The longest run the tiles allow (RK-5: 3 to 13; MR-4 never turns the corner).
LONGEST_RUN = 13
#: Seconds the solver may take; a full 106-tile table takes well under one.
TIME_LIMIT = 20.0


@dataclass(frozen=True)
class Shape:
    """A candidate meld: its kind and the faces of its slots, in table order."""

    kind: str  # "group" or "run"
    faces: tuple[Card, ...]
    start: int  # runs: the position of the first slot (an ace high is 14); groups: the value


@dataclass(frozen=True)
class Rescue:
    """The answer: whether every card is placed, the melds, and the cards left over."""

    solved: bool
    melds: tuple[tuple[str, ...], ...]
    unplaceable: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The contract's ``rescue`` answer."""
        out: dict[str, Any] = {"solved": self.solved, "melds": [list(m) for m in self.melds]}
        if not self.solved:
            out["unplaceable"] = list(self.unplaceable)
        return out


@cache
def shapes(game: TileGame) -> tuple[Shape, ...]:
    """Every group and every run of three to five slots that the game's meld check accepts."""
    deck, style = game.deck, game.meld_style
    found: list[Shape] = []
    for value in range(deck.low, deck.high + 1):
        for size in (3, 4):
            for colours in combinations(deck.colours, size):
                faces = tuple(Card(c, value, deck) for c in colours)
                found.append(Shape("group", faces, value))
    top = deck.high + 1 if style.ace_high else deck.high  # MR-4: Q-K-A, the ace as 14
    for colour in deck.colours:
        for length in range(3, LONGEST_PIECE + 1):
            for start in range(deck.low, top - length + 2):
                faces = tuple(
                    Card(colour, deck.low if p > deck.high else p, deck)
                    for p in range(start, start + length)
                )
                found.append(Shape("run", faces, start))
    return tuple(s for s in found if check_tiles(game, list(s.faces))["valid"])


def read_table(
    deck: Deck, raw: Sequence[object], copies: int, jokers: int, rule: str
) -> list[Token]:
    """The cards on the table; ``EntryError`` for an unreadable card or too many copies."""
    tokens = [parse_card(c, deck) for c in raw]
    counts = Counter(t.text for t in tokens if isinstance(t, Card))
    for text, n in counts.items():
        if n > copies:
            raise EntryError("rescue-too-many-copies", card=text, rule=rule, most=copies)
    if sum(isinstance(t, Joker) for t in tokens) > jokers:
        raise EntryError("rescue-too-many-jokers", card="*", rule=rule, most=jokers)
    return tokens


def rescue(game: TileGame, tokens: Sequence[Token]) -> Rescue:
    """Lay ``tokens`` out in legal melds, as many as possible (every one when it can be done)."""
    real = Counter(t for t in tokens if isinstance(t, Card))
    # A joker that names its stand-in keeps it (MR-7): it fills that face like the real card.
    fixed = Counter(t.stands_for for t in tokens if isinstance(t, Joker) and t.stands_for)
    free = sum(1 for t in tokens if isinstance(t, Joker) and t.stands_for is None)
    have = real + fixed
    usable = _variants(game, have, free)
    counts = _solve(usable, have, free)
    return _lay_out(game, usable, counts, tokens)


@dataclass(frozen=True)
class Variant:
    """A shape with some slots given to free jokers: what a laid meld takes from the table."""

    shape: Shape
    jokers: frozenset[int]  # the slots a free joker fills

    def tiles(self) -> Counter[Card]:
        """The faces this meld takes from the tiles (and fixed jokers) on the table."""
        return Counter(f for i, f in enumerate(self.shape.faces) if i not in self.jokers)


def _variants(game: TileGame, have: Counter[Card], free: int) -> list[Variant]:
    """Every shape with up to ``free`` slots left to jokers whose other faces are on the table.

    Variants taking the same cards are one variable (``R5 R6 *`` is a run either way): the
    model then has no symmetry between stand-ins for the solver to wade through.
    """
    found: dict[tuple[tuple[Card, int], ...], Variant] = {}
    for shape in shapes(game):
        n = len(shape.faces)
        for k in range(min(free, n - 1) + 1):
            for slots in combinations(range(n), k):
                variant = Variant(shape, frozenset(slots))
                taken = variant.tiles()
                if all(have[f] >= c for f, c in taken.items()):
                    key = (*sorted(taken.items()), (Card("*", k, game.deck), k))
                    found.setdefault(key, variant)
    return list(found.values())


def _solve(usable: Sequence[Variant], have: Counter[Card], free: int) -> list[int]:
    """How often each variant is laid so that the most cards are placed (CP-SAT, exact)."""
    # OR-Tools (and the pandas it pulls in) loads only when a rescue is asked for: the other
    # commands answer in a blink (bench/startup.py).
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    laid = [
        model.new_int_var(0, min(have[f] // n for f, n in v.tiles().items()), f"x{i}")
        for i, v in enumerate(usable)
    ]
    by_face: dict[Card, list[Any]] = {}
    jokers = []
    for x, variant in zip(laid, usable, strict=True):
        for face, n in variant.tiles().items():
            by_face.setdefault(face, []).append(n * x)
        if variant.jokers:
            jokers.append(len(variant.jokers) * x)
    for face, uses in by_face.items():
        model.add(sum(uses) <= have[face])
    model.add(sum(jokers) <= free)
    model.maximize(sum(len(v.shape.faces) * x for v, x in zip(usable, laid, strict=True)))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # the same answer every time, and fair to a shared CPU
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = TIME_LIMIT
    # Measured (bench/rescue_bench.py): on this small model presolve, probing and symmetry
    # detection cost far more than the search they save; the fuller LP bound pays off.
    solver.parameters.cp_model_presolve = False
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.symmetry_level = 0
    solver.parameters.linearization_level = 2
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [0] * len(usable)  # the time ran out: nothing is claimed
    return [solver.value(x) for x in laid]


def _lay_out(
    game: TileGame, usable: Sequence[Variant], counts: Sequence[int], tokens: Sequence[Token]
) -> Rescue:
    """Turn the solver's counts into melds of the given cards, and name what is left."""
    pool: dict[Card, list[Token]] = {}
    for t in sorted(tokens, key=lambda t: isinstance(t, Joker)):  # real tiles first
        face = t if isinstance(t, Card) else t.stands_for
        if face is not None:
            pool.setdefault(face, []).append(t)
    free = [t for t in tokens if isinstance(t, Joker) and t.stands_for is None]
    pieces: list[tuple[Shape, list[Token]]] = []
    for variant, times in zip(usable, counts, strict=True):
        for _ in range(times):
            meld: list[Token] = []
            for i, face in enumerate(variant.shape.faces):
                if i in variant.jokers:
                    free.pop()
                    meld.append(Joker(None, face, game.deck))
                else:
                    token = pool[face].pop(0)
                    meld.append(token if isinstance(token, Card) else Joker(None, face, game.deck))
            pieces.append((variant.shape, meld))
    melds = _joined(game, pieces)
    left = [t for ts in pool.values() for t in ts] + free
    texts = tuple(tuple(t.text for t in m) for m in melds)
    for meld in melds:  # the game's own meld check has the last word
        verdict = check_tiles(game, meld)
        if not verdict["valid"]:
            raise AssertionError(f"rescue laid an illegal meld {texts}: {verdict}")
    return Rescue(
        solved=not left,
        melds=texts,
        unplaceable=tuple(t.text for t in sorted(left, key=card_sort_key)),
    )


def _joined(game: TileGame, pieces: list[tuple[Shape, list[Token]]]) -> list[list[Token]]:
    """Join runs of one colour that follow each other, up to the longest run; groups as laid."""
    deck = game.deck
    most_jokers = game.meld_style.max_jokers
    runs = sorted(
        ((s.faces[0].colour, s.start, m) for s, m in pieces if s.kind == "run"),
        key=lambda r: (deck.colours.index(r[0]), r[1]),
    )
    joined: list[tuple[str, int, list[Token]]] = []
    for colour, start, meld in runs:
        for i, (c, s, laid) in enumerate(joined):
            jokers = sum(isinstance(t, Joker) for t in laid + meld)
            if (
                c == colour
                and s + len(laid) == start
                and len(laid) + len(meld) <= LONGEST_RUN
                and jokers <= most_jokers
            ):
                joined[i] = (c, s, laid + meld)
                break
        else:
            joined.append((colour, start, meld))
    groups = sorted(((s.start, m) for s, m in pieces if s.kind == "group"), key=lambda g: g[0])
    return [r[2] for r in joined] + [m for _, m in groups]
