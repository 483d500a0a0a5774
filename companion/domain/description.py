"""What a game tells the shells about itself, typed: ``Game.describe()``.

Pages, forms, the score sheets and the referee read these objects; the JSON API sends
``Description.to_json()`` (``/api/v1/games``), and the page scripts get the same JSON. The
words in a description are the message ids the game marked with ``N_``; ``translated`` gives
the description in a page's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

Words = Callable[[str], str]


@dataclass(frozen=True)
class Choice:
    """One way a round can end, as the entry form asks it (``went_out``: who, or nobody)."""

    key: str  # the round document's field
    question: str  # "Who went out?"
    nobody: str | None  # the answer for null ("The draw pile ran out"), None: must name someone
    rule: str


@dataclass(frozen=True)
class Count:
    """A short form for leftover cards: the counts a table can give instead of the cards."""

    key: str  # "low", "high", "points"
    label: str
    limit: int


@dataclass(frozen=True)
class Column:
    """One figure a game shows per player and round (breakdown, preview, sheet)."""

    key: str  # the key in the round result's player entry
    label: str
    #: What the figure does to the score: "-" taken off (a penalty: R17-16, R17-18, RK-21),
    #: "+" added (a bonus), "=" counted without being taken off (a rack that is no penalty:
    #: RO-12, MR-11), "" the score itself. Every figure but the score is written as the
    #: count the rulebook gives, never negative, on every page, sheet and CSV
    #: (``catalogues.figure``); the column's label says what it does.
    sign: str = ""


@dataclass(frozen=True)
class Decision:
    """A house decision in force, written for the table (rules files' D… clauses)."""

    rule: str
    text: str


@dataclass(frozen=True)
class Colour:
    """A colour or suit: its letter in the notation, its name, and a suit's mark (♥)."""

    code: str
    name: str
    symbol: str = ""


@dataclass(frozen=True)
class Value:
    """A value as the notation writes it (``7``, ``Q``)."""

    value: int
    text: str


@dataclass(frozen=True)
class Cards:
    """The game's cards and how they are written."""

    colours: tuple[Colour, ...]
    values: tuple[Value, ...]
    coloured_jokers: bool  # Rummy 17: one joker per colour (R17-1)
    suit_last: bool  # Manipulation Rummy writes the rank first: 10H
    jokers_held: bool  # can a joker be left in a hand or rack at the end?
    joker: str  # the joker's mark
    separators: str  # what may stand between cards typed in one string (a regex)
    copies: int | None = None  # each card in the box this often (R17-1: once); None: it varies

    def text(self, colour: str, value: int) -> str:
        """A card in the notation: ``R7``, ``10H``."""
        rank = next(v.text for v in self.values if v.value == value)
        return f"{rank}{colour}" if self.suit_last else f"{colour}{rank}"


@dataclass(frozen=True)
class LastCardDoubles:
    """R17-15a: the last card the player going out discarded, and the ones that double."""

    cards: tuple[str, ...]  # offered as one tap each
    hint: str
    rule: str
    not_seventeen: str  # the short form {"seventeen": false}, one tap
    notice: str  # what the form says once the round doubles


@dataclass(frozen=True)
class BonusCardText:
    """One bonus card as the form and the sheets name it."""

    id: str
    name: str
    condition: str
    rule: str


@dataclass(frozen=True)
class BonusCards:
    """The bonus cards a round draws from (R17-3)."""

    draw: int
    rule: str
    cards: tuple[BonusCardText, ...]


@dataclass(frozen=True)
class Description:
    """Everything a page, a sheet or a script needs to draw one game's entry."""

    id: str
    name: str
    seats: tuple[int, int]
    seats_rule: str
    cards: Cards
    holding: str  # the field of a player's entry that holds the leftovers: hand, rack
    counts: tuple[Count, ...]
    melds: bool  # are players' melds entered? (Rummy 17)
    endings: tuple[Choice, ...]
    first_seat: str  # "dealer" or "starter"
    first_seat_rule: str
    first_question: str
    rounds_per_player: bool
    turn_seconds: int | None
    turn_rule: str | None
    turn_penalty: Decision | None
    opened_rule: str | None
    knock_rule: str | None
    columns: tuple[Column, ...]
    numbers: Mapping[str, int] = field(default_factory=dict)
    last_card_doubles: LastCardDoubles | None = None  # R17-15a; None: the last card is not asked
    bonus_cards: BonusCards | None = None
    #: Can each player enter their own part on their own phone? (``Game.check_part``)
    own_parts: bool = False
    #: Can the pieces be read off a photo? (``Game.photo_inks``; contract "Photos")
    photos: bool = False

    @property
    def last_card(self) -> bool:
        """Does the round form ask for the last card (R17-15a)?"""
        return self.last_card_doubles is not None

    def to_json(self) -> dict[str, Any]:
        """The contract's game descriptor (``/api/v1/games``), as plain JSON."""
        cards = self.cards
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "seats": list(self.seats),
            "seats_rule": self.seats_rule,
            "cards": {
                "colours": [
                    {"code": c.code, "name": c.name, "symbol": c.symbol} for c in cards.colours
                ],
                "values": [{"value": v.value, "text": v.text} for v in cards.values],
                "coloured_jokers": cards.coloured_jokers,
                "suit_last": cards.suit_last,
                "jokers_held": cards.jokers_held,
                "joker": cards.joker,
                "separators": cards.separators,
                "copies": cards.copies,
            },
            "holding": self.holding,
            "counts": [{"key": c.key, "label": c.label, "limit": c.limit} for c in self.counts],
            "melds": self.melds,
            "endings": [
                {"key": e.key, "question": e.question, "nobody": e.nobody, "rule": e.rule}
                for e in self.endings
            ],
            "first_seat": self.first_seat,
            "first_seat_rule": self.first_seat_rule,
            "first_question": self.first_question,
            "rounds_per_player": self.rounds_per_player,
            "turn_seconds": self.turn_seconds,
            "turn_rule": self.turn_rule,
            "turn_penalty": (
                {"rule": self.turn_penalty.rule, "text": self.turn_penalty.text}
                if self.turn_penalty
                else None
            ),
            "opened_rule": self.opened_rule,
            "knock_rule": self.knock_rule,
            "columns": [{"key": c.key, "label": c.label, "sign": c.sign} for c in self.columns],
            "numbers": dict(self.numbers),
        }
        if self.last_card_doubles is not None:
            last = self.last_card_doubles
            out["last_card"] = True
            out["last_card_doubles"] = {
                "cards": list(last.cards),
                "hint": last.hint,
                "rule": last.rule,
                "not_seventeen": last.not_seventeen,
                "notice": last.notice,
            }
        if self.bonus_cards is not None:
            bonus = self.bonus_cards
            out["bonus_cards"] = {
                "draw": bonus.draw,
                "rule": bonus.rule,
                "cards": [
                    {"id": c.id, "name": c.name, "condition": c.condition, "rule": c.rule}
                    for c in bonus.cards
                ],
            }
        return out

    def translated(self, words: Words) -> Description:
        """The same description with every word of the game in ``words``' language."""

        def maybe(text: str | None) -> str | None:
            return words(text) if text else text

        cards = replace(
            self.cards,
            colours=tuple(replace(c, name=words(c.name)) for c in self.cards.colours),
        )
        last = self.last_card_doubles
        bonus = self.bonus_cards
        return replace(
            self,
            name=words(self.name),
            first_question=words(self.first_question),
            cards=cards,
            counts=tuple(replace(c, label=words(c.label)) for c in self.counts),
            columns=tuple(replace(c, label=words(c.label)) for c in self.columns),
            endings=tuple(
                replace(e, question=words(e.question), nobody=maybe(e.nobody)) for e in self.endings
            ),
            turn_penalty=(
                replace(self.turn_penalty, text=words(self.turn_penalty.text))
                if self.turn_penalty
                else None
            ),
            last_card_doubles=(
                replace(
                    last,
                    hint=words(last.hint),
                    not_seventeen=words(last.not_seventeen),
                    notice=words(last.notice),
                )
                if last
                else None
            ),
            bonus_cards=(
                replace(
                    bonus,
                    cards=tuple(
                        replace(c, name=words(c.name), condition=words(c.condition))
                        for c in bonus.cards
                    ),
                )
                if bonus
                else None
            ),
        )
