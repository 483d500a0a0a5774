"""Cards and tiles of the four games, and their notation (contract: "Games and cards").

Cards are read case-insensitively and written back in upper case. A joker may carry the card
it stands for (``*R6``: the red joker as R6 in Rummy 17; ``*O5`` and ``*QH`` elsewhere).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import EntryError


@dataclass(frozen=True)
class Deck:
    """What one game's cards look like."""

    game: str
    colours: tuple[str, ...]
    low: int
    high: int
    coloured_jokers: bool  # Rummy 17: one joker per colour (R17-1)
    rank_names: dict[int, str]  # values written as letters (manipulation: A J Q K)
    colour_names: dict[str, str]
    suit_last: bool = False  # manipulation writes the rank first: 10H, QD

    def value_text(self, value: int) -> str:
        """A value as the notation writes it."""
        return self.rank_names.get(value, str(value))


RUMMY17 = Deck(
    "rummy17",
    ("R", "B", "G", "Y", "K"),
    1,
    17,
    True,
    {},
    # D17-1: the letters; only red and blue matter for scoring.
    {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "K": "black"},
)
RUMMIKUB = Deck(
    "rummikub",
    ("K", "R", "B", "O"),
    1,
    13,
    False,
    {},
    {"K": "black", "R": "red", "B": "blue", "O": "orange"},  # DK-1
)
RUMMY_O = Deck(
    "rummy-o",
    ("R", "B", "K", "G"),
    1,
    13,
    False,
    {},
    {"R": "red", "B": "blue", "K": "black", "G": "green"},  # DO-1
)
MANIPULATION = Deck(
    "manipulation",
    ("S", "H", "D", "C"),
    1,
    13,
    False,
    {1: "A", 11: "J", 12: "Q", 13: "K"},
    {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    suit_last=True,
)
DECKS: dict[str, Deck] = {d.game: d for d in (RUMMY17, RUMMIKUB, RUMMY_O, MANIPULATION)}


@dataclass(frozen=True, order=True)
class Card:
    """A number card (or tile): a colour or suit and a value."""

    colour: str
    value: int
    game: str = "rummy17"

    @property
    def text(self) -> str:
        deck = DECKS[self.game]
        rank = deck.value_text(self.value)
        return f"{rank}{self.colour}" if deck.suit_last else f"{self.colour}{rank}"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Joker:
    """A joker; in Rummy 17 it has a colour (R17-1) and can only stand for that colour (R17-13)."""

    colour: str | None
    stands_for: Card | None = None
    game: str = "rummy17"

    @property
    def text(self) -> str:
        """The joker with its stand-in if known: ``*R6``, ``*R``, ``*``, ``*QH``."""
        if self.stands_for is None:
            return self.bare
        return "*" + self.stands_for.text

    @property
    def bare(self) -> str:
        """The joker alone, without its stand-in (what lies in the box): ``*R``, ``*``."""
        return "*" + (self.colour or "")

    def standing_for(self, card: Card) -> Joker:
        return Joker(self.colour, card, self.game)

    def __str__(self) -> str:
        return self.text


Token = Card | Joker

_NUMBER = re.compile(r"^([A-Z])(\d{1,2})$")
_SUIT_LAST = re.compile(r"^(10|[2-9AJQK])([A-Z])$")


def _card_or_none(text: str, deck: Deck) -> Card | None:
    if deck.suit_last:
        m = _SUIT_LAST.match(text)
        if not m:
            return None
        rank, colour = m.groups()
        names = {v: k for k, v in deck.rank_names.items()}
        value = names[rank] if rank in names else int(rank)
    else:
        m = _NUMBER.match(text)
        if not m:
            return None
        colour, digits = m.group(1), m.group(2)
        value = int(digits)
    if colour not in deck.colours:
        return None
    if not deck.low <= value <= deck.high or (not deck.suit_last and str(value) != digits):
        return None
    return Card(colour, value, deck.game)


def describe_deck(deck: Deck) -> str:
    """One line saying what a card of this game looks like, for error messages."""
    colours = ", ".join(f"{c} {n}" for c, n in deck.colour_names.items())
    if deck.suit_last:
        return f"a rank A, 2–10, J, Q, K and a suit ({colours}), like 10H, or * for a joker"
    joker = "*R (a red joker)" if deck.coloured_jokers else "*"
    return (
        f"a colour ({colours}) and a value {deck.low}–{deck.high}, like "
        f"{deck.colours[0]}7, or {joker} for a joker"
    )


def parse_card(raw: object, game: str = "rummy17", *, prefix: str = "") -> Token:
    """Read one card or joker, case-insensitively; raise ``EntryError`` naming it otherwise."""
    deck = DECKS[game]
    if not isinstance(raw, str) or not raw.strip():
        raise EntryError(
            f"{prefix}{raw!r} is not a card: a card is {describe_deck(deck)}", card=str(raw)
        )
    text = raw.strip().upper()
    if text.startswith("*"):
        return _parse_joker(text, raw, deck, prefix)
    card = _card_or_none(text, deck)
    if card is None:
        raise EntryError(_unknown(text, deck, prefix), card=text)
    return card


def _unknown(text: str, deck: Deck, prefix: str) -> str:
    m = _NUMBER.match(text)
    if m and not deck.suit_last and m.group(1) in deck.colours:
        return f"{prefix}{text} is not a card: values run from {deck.low} to {deck.high}"
    return f"{prefix}{text} is not a card: a card is {describe_deck(deck)}"


def _parse_joker(text: str, raw: str, deck: Deck, prefix: str) -> Joker:
    rest = text[1:]
    if deck.coloured_jokers:
        if not rest or rest[0] not in deck.colours:
            raise EntryError(
                f"{prefix}{text} is not a joker: a joker names its colour, like *R "
                f"(the red joker) or *R6 (the red joker standing for R6)",
                card=text,
            )
        colour, stand = rest[0], rest[1:]
        if not stand:
            return Joker(colour, None, deck.game)
        stand_card = _card_or_none(colour + stand, deck) if stand.isdigit() else None
        if stand_card is None:
            stand_card = _card_or_none(stand, deck)
            if stand_card is not None and stand_card.colour != colour:
                raise EntryError(
                    f"{prefix}the {deck.colour_names[colour]} joker cannot stand for "
                    f"{stand_card.text}: a joker only stands for a card of its own colour (R17-13)",
                    card=text,
                    rule="R17-13",
                )
        if stand_card is None:
            raise EntryError(
                f"{prefix}{text} is not a joker: after *{colour} comes the value it stands for, "
                f"{deck.low}–{deck.high}",
                card=text,
            )
        return Joker(colour, stand_card, deck.game)
    if not rest:
        return Joker(None, None, deck.game)
    stand_card = _card_or_none(rest, deck)
    if stand_card is None:
        raise EntryError(
            f"{prefix}{text} is not a joker: write * alone or * with the card it stands for",
            card=text,
        )
    return Joker(None, stand_card, deck.game)


def card_sort_key(token: Token) -> tuple[int, str, int]:
    """Sort number cards by colour then value, jokers last."""
    if isinstance(token, Joker):
        return (1, token.colour or "", token.stands_for.value if token.stands_for else 0)
    deck = DECKS[token.game]
    return (0, str(deck.colours.index(token.colour)), token.value)
