"""The twelve Rummy 17 bonus cards (R17-B1…B12) and how each is awarded (R17-17, D17-2…5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card, Joker
from .melds import RUN, SET, Meld
from .table import Seat, Table

POINTS = 3  # R17-17


@dataclass(frozen=True)
class BonusCard:
    """One bonus card: its id, clause, name, condition and how to read a player's figure."""

    id: str
    rule: str
    name: str
    condition: str
    best: str  # "most" (highest figure, above zero: D17-4), "fewest" (lowest, zero counts)
    phrase: str  # "the most runs": completes "Márk has …"
    nobody: str  # "nobody has a run": the D17-4 reason when the best figure is zero
    figure: Callable[[Seat, Table], int]


def _cards(seat: Seat) -> list[Card | Joker]:
    return [c for m in seat.melds for c in m.cards]


def _faces(seat: Seat) -> list[Card]:
    """D17-3: a joker counts as the value it stands for."""
    return [c for m in seat.melds for c in m.faces]


def _colour(card: Card | Joker) -> str | None:
    return card.colour  # D17-3: a joker counts in its own colour


def _longest(seat: Seat, kind: str) -> int:
    return max((len(m.cards) for m in seat.melds if m.kind == kind), default=0)


def _highest_triple(seat: Seat) -> int:
    return max((m.value for m in seat.melds if len(m.cards) == 3), default=0)


def _count(melds: tuple[Meld, ...], kind: str) -> int:
    return sum(1 for m in melds if m.kind == kind)


CARDS: tuple[BonusCard, ...] = (
    BonusCard(
        "most-cards",
        "R17-B1",
        "Most cards",
        "most cards in front",
        "most",
        "the most cards in front",
        "nobody has a card in front",
        lambda s, t: len(_cards(s)),
    ),
    BonusCard(
        "most-sets",
        "R17-B2",
        "Most sets",
        "most sets in front",
        "most",
        "the most sets",
        "nobody has a set",
        lambda s, t: _count(s.melds, SET),
    ),
    BonusCard(
        "most-runs",
        "R17-B3",
        "Most runs",
        "most runs in front",
        "most",
        "the most runs",
        "nobody has a run",
        lambda s, t: _count(s.melds, RUN),
    ),
    BonusCard(
        "longest-set",
        "R17-B4",
        "Longest set",
        "the set with the most cards",
        "most",
        "the longest set",
        "nobody has a set",
        lambda s, t: _longest(s, SET),
    ),
    BonusCard(
        "longest-run",
        "R17-B5",
        "Longest run",
        "the run with the most cards",
        "most",
        "the longest run",
        "nobody has a run",
        lambda s, t: _longest(s, RUN),
    ),
    BonusCard(
        "most-1-2-3",
        "R17-B6",
        "Most 1-2-3",
        "most cards of value 1, 2 or 3",
        "most",
        "the most cards of value 1, 2 or 3",
        "nobody has a 1, 2 or 3 in front",
        lambda s, t: sum(1 for c in _faces(s) if c.value in (1, 2, 3)),
    ),
    BonusCard(
        "most-8-16",
        "R17-B7",
        "Most 8 and 16",
        "most cards of value 8 or 16",
        "most",
        "the most cards of value 8 or 16",
        "nobody has an 8 or a 16 in front",
        lambda s, t: sum(1 for c in _faces(s) if c.value in (8, 16)),
    ),
    BonusCard(
        "most-red",
        "R17-B8",
        "Most red",
        "most red cards",
        "most",
        "the most red cards",
        "nobody has a red card in front",
        lambda s, t: sum(1 for c in _cards(s) if _colour(c) == "R"),
    ),
    BonusCard(
        "fewest-blue",
        "R17-B9",
        "Fewest blue",
        "fewest blue cards",
        "fewest",
        "the fewest blue cards",
        "",
        lambda s, t: sum(1 for c in _cards(s) if _colour(c) == "B"),
    ),
    BonusCard(
        "fewest-jokers",
        "R17-B10",
        "Fewest jokers",
        "fewest jokers",
        "fewest",
        "the fewest jokers",
        "",
        lambda s, t: sum(1 for c in _cards(s) if isinstance(c, Joker)),
    ),
    BonusCard(
        "highest-triple",
        "R17-B11",
        "Highest triple",
        "a set or run of exactly three cards with the highest sum of values",
        "most",
        "the highest three-card meld",
        "nobody has a meld of exactly three cards",
        lambda s, t: _highest_triple(s),
    ),
    BonusCard(
        "went-out",
        "R17-B12",
        "Went out",
        "ended the game by discarding their last card",
        "most",
        "",
        "the draw pile ran out",
        lambda s, t: int(t.went_out == s.name),
    ),
)
BONUS_CARDS: dict[str, BonusCard] = {c.id: c for c in CARDS}


@dataclass(frozen=True)
class Award:
    """What one drawn bonus card gives: who wins it, the points each, every figure, why."""

    card: str
    winners: tuple[str, ...]
    points: int
    figures: dict[str, int]
    rule: str
    reason: str
    decision: str | None = None  # the house interpretation the award relies on, if any


def join_names(names: list[str] | tuple[str, ...]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def award(card_id: str, table: Table) -> Award:
    """Award one bonus card for this table (R17-17: ties each get the points)."""
    card = BONUS_CARDS[card_id]
    figures = {s.name: card.figure(s, table) for s in table.seats}
    points = POINTS * table.multiplier
    if card.id == "went-out":
        return _went_out(card, table, figures, points)
    best = max(figures.values()) if card.best == "most" else min(figures.values())
    if card.best == "most" and best <= 0:
        # D17-4: "most", "longest" and "highest" need a figure above zero.
        return Award(
            card.id,
            (),
            points,
            figures,
            card.rule,
            f"{card.nobody}, so nobody earns {card.name} (D17-4)",
            "D17-4",
        )
    winners = tuple(n for n, f in figures.items() if f == best)
    others = [f"{n} {f}" for n, f in figures.items() if n not in winners]
    tail = f" ({', '.join(others)})" if others else ""
    if len(winners) == 1:
        reason = f"{winners[0]} has {card.phrase}: {best}{tail}"
    else:
        share = "both have" if len(winners) == 2 else "all have"
        reason = f"{join_names(winners)} {share} {card.phrase}: {best} each{tail}"
        reason += ", so each earns it (R17-17)"
    decision = "D17-4" if card.best == "fewest" and best == 0 else None
    decision = decision or _joker_decision(card, table)
    return Award(card.id, winners, points, figures, card.rule, reason, decision)


def _joker_decision(card: BonusCard, table: Table) -> str | None:
    """D17-3 matters to an award only when a joker lies on the table."""
    has_joker = any(m.joker is not None for s in table.seats for m in s.melds)
    return "D17-3" if has_joker and card.id != "went-out" else None


def _went_out(card: BonusCard, table: Table, figures: dict[str, int], points: int) -> Award:
    if table.went_out is None:
        return Award(
            card.id,
            (),
            points,
            figures,
            card.rule,
            "the draw pile ran out, so nobody earns Went out (D17-5)",
            "D17-5",
        )
    last = table.last_discard.text if table.last_discard else "?"
    return Award(
        card.id,
        (table.went_out,),
        points,
        figures,
        card.rule,
        f"{table.went_out} went out, discarding {last} as their last card (R17-15a)",
    )
