"""Cards and tiles of the four games, and their notation (contract: "Games and cards").

Cards are read case-insensitively and written back in upper case. A joker may carry the card
it stands for (``*R6``: the red joker as R6 in Rummy 17; ``*O5`` and ``*QH`` elsewhere).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.domain.errors import EntryError
from companion.domain.messages import ENGLISH, N_, Translator, register, render

register(
    {
        "not-a-card": N_(
            "{text} is not a card: a card is a colour ({colours}) and a value {low}–{high}, "
            "like {example}, or * for a joker"
        ),
        "not-a-card-coloured-joker": N_(
            "{text} is not a card: a card is a colour ({colours}) and a value {low}–{high}, "
            "like {example}, or *R (a red joker) for a joker"
        ),
        "not-a-card-suit": N_(
            "{text} is not a card: a card is a rank A, 2–10, J, Q, K and a suit ({colours}), "
            "like 10H, or * for a joker"
        ),
        "value-out-of-range": N_("{card} is not a card: values run from {low} to {high}"),
        "joker-needs-colour": N_(
            "{card} is not a joker: a joker names its colour, like *R (the red joker) or *R6 "
            "(the red joker standing for R6)"
        ),
        "joker-other-colour": N_(
            "the {colour} joker cannot stand for {stand}: a joker only stands for a card of its "
            "own colour ({rule})"
        ),
        "joker-value-missing": N_(
            "{card} is not a joker: after *{letter} comes the value it stands for, {low}–{high}"
        ),
        "joker-bad-stand-in": N_(
            "{card} is not a joker: write * alone or * with the card it stands for"
        ),
        # A card or joker in words, as a page's chip names it to a screen reader:
        # the colour in the form the language gives an adjective before card/tile ("gelbe 8",
        # "жълта 8"), a suit as a card player says it ("Herz Dame", "дама купа").
        "card-name": N_("{colour} {value}"),
        "card-name-suit": N_("{value} of {colour}"),
        "joker-name": N_("joker"),
        "joker-name-coloured": N_("{colour} joker"),
        "joker-name-as": N_("joker as {card}"),
    }
)


@dataclass(frozen=True, eq=False)
class Deck:
    """What one game's cards look like. A game declares one deck (``Game.deck``) and every card
    of it carries it, so a deck is equal only to itself (and hashed as itself)."""

    game: str  # the id of the game whose deck this is
    colours: tuple[str, ...]
    low: int
    high: int
    coloured_jokers: bool  # Rummy 17: one joker per colour (R17-1)
    rank_names: dict[int, str]  # values written as letters (manipulation: A J Q K)
    colour_names: dict[str, str]
    suit_last: bool = False  # manipulation writes the rank first: 10H, QD
    #: How often each card is in the box (Rummy 17: once, R17-1); None: it depends on the
    #: table (Manipulation's decks). The walker's "all colours" key leaves out a card that
    #: already lies elsewhere this often.
    copies: int | None = None
    symbols: dict[str, str] = field(default_factory=dict)  # a suit's mark: ♥
    rank_words: dict[int, str] = field(default_factory=dict)  # a rank letter said: queen

    def value_text(self, value: int) -> str:
        """A value as the notation writes it."""
        return self.rank_names.get(value, str(value))

    def __copy__(self) -> Deck:
        return self  # one deck per game: a copied card is still a card of it

    def __deepcopy__(self, memo: dict[int, object]) -> Deck:
        return self

    def __repr__(self) -> str:
        return f"get_game({self.game!r}).deck"


@dataclass(frozen=True, order=True)
class Card:
    """A number card (or tile): a colour or suit and a value, of one game's deck."""

    colour: str
    value: int
    deck: Deck

    @property
    def game(self) -> str:
        """The id of the game whose card this is."""
        return self.deck.game

    @property
    def text(self) -> str:
        """The card as the notation writes it: ``R7``, ``10H``."""
        deck = self.deck
        rank = deck.value_text(self.value)
        return f"{rank}{self.colour}" if deck.suit_last else f"{self.colour}{rank}"

    def __str__(self) -> str:
        return self.text


#: The joker's mark in every game's notation.
JOKER = "*"


@dataclass(frozen=True)
class Joker:
    """A joker; in Rummy 17 it has a colour (R17-1) and can only stand for that colour (R17-13)."""

    colour: str | None
    stands_for: Card | None
    deck: Deck

    @property
    def game(self) -> str:
        """The id of the game whose joker this is."""
        return self.deck.game

    @property
    def text(self) -> str:
        """The joker with its stand-in if known: ``*R6``, ``*R``, ``*``, ``*QH``."""
        if self.stands_for is None:
            return self.bare
        return JOKER + self.stands_for.text

    @property
    def bare(self) -> str:
        """The joker alone, without its stand-in (what lies in the box): ``*R``, ``*``."""
        return JOKER + (self.colour or "")

    def standing_for(self, card: Card) -> Joker:
        """The same joker, standing for ``card``."""
        return Joker(self.colour, card, self.deck)

    def __str__(self) -> str:
        return self.text


Token = Card | Joker

_NUMBER = re.compile(r"^([A-Z])0?(\d{1,2})$")  # R07 is R7
_SUIT_LAST = re.compile(r"^(10|0?[2-9]|[AJQK])([A-Z])$")  # 07H is 7H
#: What may stand between cards typed in one string: spaces, commas, semicolons.
SEPARATORS = re.compile(r"[\s,;]+")


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
        return None  # R7 or R07, never R007 or R0
    return Card(colour, value, deck)


def _not_a_card(text: str, deck: Deck, card: str) -> EntryError:
    """``text`` is no card of ``deck``: say what a card of this game looks like."""
    if deck.suit_last:
        return EntryError("not-a-card-suit", card=card, text=text, colours=dict(deck.colour_names))
    code = "not-a-card-coloured-joker" if deck.coloured_jokers else "not-a-card"
    return EntryError(
        code,
        card=card,
        text=text,
        colours=dict(deck.colour_names),
        low=deck.low,
        high=deck.high,
        example=f"{deck.colours[0]}7",
    )


def parse_card(raw: object, deck: Deck) -> Token:
    """Read one card or joker of ``deck``, case-insensitively; raise ``EntryError`` naming it
    otherwise.

    The caller says where the card lies (``about(player=..., meld=...)``).

    >>> from companion.domain import get_game
    >>> rummy17 = get_game("rummy17").deck
    >>> parse_card("r7", rummy17).text
    'R7'
    >>> parse_card("R18", rummy17)
    Traceback (most recent call last):
    companion.domain.errors.EntryError: R18 is not a card: values run from 1 to 17
    """
    if not isinstance(raw, str) or not raw.strip():
        raise _not_a_card(repr(raw), deck, str(raw))
    text = raw.strip().upper()
    if text.startswith(JOKER):
        return _parse_joker(text, deck)
    card = _card_or_none(text, deck)
    if card is None:
        m = _NUMBER.match(text)
        if m and not deck.suit_last and m.group(1) in deck.colours:
            raise EntryError("value-out-of-range", card=text, low=deck.low, high=deck.high)
        raise _not_a_card(text, deck, text)
    return card


def notation() -> dict[str, str]:
    """How every game writes what is not a colour or a value, for scripts that write and read
    cards: the joker's mark and what may stand between cards (a regular expression).

    >>> notation()["joker"]
    '*'
    >>> re.split(notation()["separators"], "R1 R2,R3")
    ['R1', 'R2', 'R3']
    """
    return {"joker": JOKER, "separators": SEPARATORS.pattern}


def split_cards(raw: Sequence[object]) -> list[object]:
    """Cards as given, a string holding several (``"R1,R2 R3"``) split into one per card.

    A string with nothing but separators is kept, so that it is refused by name.

    >>> split_cards(["R1,R2", "r3"])
    ['R1', 'R2', 'r3']
    """
    out: list[object] = []
    for item in raw:
        parts = [p for p in SEPARATORS.split(item) if p] if isinstance(item, str) else []
        out.extend(parts or [item])
    return out


def _parse_joker(text: str, deck: Deck) -> Joker:
    rest = text[1:]
    if deck.coloured_jokers:
        if not rest or rest[0] not in deck.colours:
            raise EntryError("joker-needs-colour", card=text)
        colour, stand = rest[0], rest[1:]
        if not stand:
            return Joker(colour, None, deck)
        stand_card = _card_or_none(colour + stand, deck) if stand.isdigit() else None
        if stand_card is None:
            stand_card = _card_or_none(stand, deck)
            if stand_card is not None and stand_card.colour != colour:
                raise EntryError(
                    "joker-other-colour",
                    card=text,
                    rule="R17-13",
                    colour=deck.colour_names[colour],
                    stand=stand_card.text,
                )
        if stand_card is None:
            raise EntryError(
                "joker-value-missing",
                card=text,
                letter=colour,
                low=deck.low,
                high=deck.high,
            )
        return Joker(colour, stand_card, deck)
    if not rest:
        return Joker(None, None, deck)
    stand_card = _card_or_none(rest, deck)
    if stand_card is None:
        raise EntryError("joker-bad-stand-in", card=text)
    return Joker(None, stand_card, deck)


def spoken(token: Token, tr: Translator = ENGLISH) -> str:
    """A card or joker in words, in the language of ``tr``: what a screen reader says for it.

    >>> from companion.domain import get_game
    >>> rummy17, manipulation = get_game("rummy17"), get_game("manipulation")
    >>> spoken(rummy17.parse_card("Y8"))
    'yellow 8'
    >>> spoken(manipulation.parse_card("QH")), spoken(rummy17.parse_card("*R6"))
    ('queen of hearts', 'joker as red 6')
    """
    deck = token.deck
    if isinstance(token, Joker):
        if token.stands_for is not None:
            return render("joker-name-as", {"card": spoken(token.stands_for, tr)}, tr)
        if token.colour is not None:
            return render("joker-name-coloured", {"colour": deck.colour_names[token.colour]}, tr)
        return render("joker-name", {}, tr)
    word = deck.rank_words.get(token.value)
    value = tr.gettext(word) if word else deck.value_text(token.value)
    code = "card-name-suit" if deck.suit_last else "card-name"
    return render(code, {"colour": deck.colour_names[token.colour], "value": value}, tr)


def card_sort_key(token: Token) -> tuple[int, str, int]:
    """Sort number cards by colour then value, jokers last."""
    if isinstance(token, Joker):
        return (1, token.colour or "", token.stands_for.value if token.stands_for else 0)
    return (0, str(token.deck.colours.index(token.colour)), token.value)
