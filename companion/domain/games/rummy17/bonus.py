"""The twelve Rummy 17 bonus cards (R17-B1…B12) and how each is awarded (R17-17, D17-2…5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.domain.cards import Card, Joker
from companion.domain.games.rummy17.melds import RUN, SET, Meld
from companion.domain.games.rummy17.table import Seat, Table
from companion.domain.messages import ENGLISH, N_, Translator, register, render

POINTS = 3  # R17-17

register(
    {
        # "Márk has the most runs: 2 (Zsófi 1, Lili 0)": the winner's figure, then the others'.
        "award-won": N_("{winners} has {phrase}: {best} ({others})"),
        "award-won-alone": N_("{winners} has {phrase}: {best}"),
        "award-tie-two": N_("{winners} both have {phrase}: {best} each, so each earns it (R17-17)"),
        "award-tie-two-others": N_(
            "{winners} both have {phrase}: {best} each ({others}), so each earns it (R17-17)"
        ),
        "award-tie": N_("{winners} all have {phrase}: {best} each, so each earns it (R17-17)"),
        "award-tie-others": N_(
            "{winners} all have {phrase}: {best} each ({others}), so each earns it (R17-17)"
        ),
        "award-nobody": N_("{nobody}, so nobody earns {bonus_name} (D17-4)"),
        "award-pile-out": N_("the draw pile ran out, so nobody earns {bonus_name} (D17-5)"),
        "award-went-out": N_("{winners} went out, discarding {last} as their last card (R17-15a)"),
        "award-went-out-17": N_("{winners} went out, discarding a 17 as their last card (R17-15a)"),
        "award-went-out-not-17": N_("{winners} went out; their last card was not a 17 (R17-15a)"),
    }
)


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
        N_("Most cards"),
        N_("most cards in front"),
        "most",
        N_("the most cards in front"),
        N_("nobody has a card in front"),
        lambda s, t: len(_cards(s)),
    ),
    BonusCard(
        "most-sets",
        "R17-B2",
        N_("Most sets"),
        N_("most sets in front"),
        "most",
        N_("the most sets"),
        N_("nobody has a set"),
        lambda s, t: _count(s.melds, SET),
    ),
    BonusCard(
        "most-runs",
        "R17-B3",
        N_("Most runs"),
        N_("most runs in front"),
        "most",
        N_("the most runs"),
        N_("nobody has a run"),
        lambda s, t: _count(s.melds, RUN),
    ),
    BonusCard(
        "longest-set",
        "R17-B4",
        N_("Longest set"),
        N_("the set with the most cards"),
        "most",
        N_("the longest set"),
        N_("nobody has a set"),
        lambda s, t: _longest(s, SET),
    ),
    BonusCard(
        "longest-run",
        "R17-B5",
        N_("Longest run"),
        N_("the run with the most cards"),
        "most",
        N_("the longest run"),
        N_("nobody has a run"),
        lambda s, t: _longest(s, RUN),
    ),
    BonusCard(
        "most-1-2-3",
        "R17-B6",
        N_("Most 1-2-3"),
        N_("most cards of value 1, 2 or 3"),
        "most",
        N_("the most cards of value 1, 2 or 3"),
        N_("nobody has a 1, 2 or 3 in front"),
        lambda s, t: sum(1 for c in _faces(s) if c.value in (1, 2, 3)),
    ),
    BonusCard(
        "most-8-16",
        "R17-B7",
        N_("Most 8 and 16"),
        N_("most cards of value 8 or 16"),
        "most",
        N_("the most cards of value 8 or 16"),
        N_("nobody has an 8 or a 16 in front"),
        lambda s, t: sum(1 for c in _faces(s) if c.value in (8, 16)),
    ),
    BonusCard(
        "most-red",
        "R17-B8",
        N_("Most red"),
        N_("most red cards"),
        "most",
        N_("the most red cards"),
        N_("nobody has a red card in front"),
        lambda s, t: sum(1 for c in _cards(s) if _colour(c) == "R"),
    ),
    BonusCard(
        "fewest-blue",
        "R17-B9",
        N_("Fewest blue"),
        N_("fewest blue cards"),
        "fewest",
        N_("the fewest blue cards"),
        "",
        lambda s, t: sum(1 for c in _cards(s) if _colour(c) == "B"),
    ),
    BonusCard(
        "fewest-jokers",
        "R17-B10",
        N_("Fewest jokers"),
        N_("fewest jokers"),
        "fewest",
        N_("the fewest jokers"),
        "",
        lambda s, t: sum(1 for c in _cards(s) if isinstance(c, Joker)),
    ),
    BonusCard(
        "highest-triple",
        "R17-B11",
        N_("Highest triple"),
        N_("a set or run of exactly three cards with the highest sum of values"),
        "most",
        N_("the highest three-card meld"),
        N_("nobody has a meld of exactly three cards"),
        lambda s, t: _highest_triple(s),
    ),
    BonusCard(
        "went-out",
        "R17-B12",
        N_("Went out"),
        N_("ended the game by discarding their last card"),
        "most",
        "",
        N_("the draw pile ran out"),
        lambda s, t: int(t.went_out == s.name),
    ),
)
BONUS_CARDS: dict[str, BonusCard] = {c.id: c for c in CARDS}


@dataclass(frozen=True)
class Award:
    """What one drawn bonus card gives: who wins it, the points each, every figure, why.

    The reason is a code with parameters (``reason_code``, ``reason_params``); ``reason`` says
    it in English, ``explain(tr)`` in the table's language.
    """

    card: str
    winners: tuple[str, ...]
    points: int
    figures: dict[str, int]
    rule: str
    reason_code: str
    reason_params: dict[str, Any]
    decision: str | None = None  # the house interpretation the award relies on, if any

    @property
    def reason(self) -> str:
        """Why, in English: ``"Márk has the most runs: 2 (Zsófi 1, Lili 0)"``."""
        return self.explain()

    def explain(self, tr: Translator = ENGLISH) -> str:
        """Why, through the translation catalogue ``tr``."""
        return render(self.reason_code, self.reason_params, tr)


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
        params: dict[str, Any] = {"nobody": card.nobody, "bonus_name": card.name}
        return Award(card.id, (), points, figures, card.rule, "award-nobody", params, "D17-4")
    winners = tuple(n for n, f in figures.items() if f == best)
    others = {n: f for n, f in figures.items() if n not in winners}
    params = {"winners": list(winners), "phrase": card.phrase, "best": best, "others": others}
    if not others:
        del params["others"]
    if len(winners) == 1:
        code = "award-won" if others else "award-won-alone"
    else:
        # R17-17: several meet it equally, each of them earns it.
        code = "award-tie-two" if len(winners) == 2 else "award-tie"
        code += "-others" if others else ""
    decision = "D17-4" if card.best == "fewest" and best == 0 else None
    decision = decision or _joker_decision(card, table)
    return Award(card.id, winners, points, figures, card.rule, code, params, decision)


def _joker_decision(card: BonusCard, table: Table) -> str | None:
    """D17-3 matters to an award only when a joker lies on the table."""
    has_joker = any(m.joker is not None for s in table.seats for m in s.melds)
    return "D17-3" if has_joker and card.id != "went-out" else None


def _went_out(card: BonusCard, table: Table, figures: dict[str, int], points: int) -> Award:
    if table.went_out is None:
        params: dict[str, Any] = {"bonus_name": card.name}
        return Award(card.id, (), points, figures, card.rule, "award-pile-out", params, "D17-5")
    last = table.last_discard
    said: dict[str, Any] = {"winners": [table.went_out]}
    if isinstance(last, Card):
        said["last"] = last.text
        code = "award-went-out"
    else:  # the short form (R17-15a): only whether it was a 17 was recorded
        code = "award-went-out-17" if table.rummy17 else "award-went-out-not-17"
    return Award(card.id, (table.went_out,), points, figures, card.rule, code, said)
