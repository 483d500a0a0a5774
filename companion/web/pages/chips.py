"""Cards and tiles drawn as chips: what the ``card`` macro (templates/_macros.html)
needs to draw one, from the game's description and the rules core's reading of the card.

A chip is the card's colour (the CSS class ``c-<code>``) with its value, the colour's letter
before it (``R7``) or the suit's mark after it (``10♥``), so that it reads without colour too;
a joker is ★ (in its colour in Rummy 17), and a joker that stands for a card shows that card
with ★ beside it. Its name is what a screen reader says, in the page's language and grammar
("sárga 8", "gelbe 8", "жълта 8"; rules/cards.py ``spoken``). Nothing here knows a game: the
letters, values and marks are the description's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.domain import Card, EntryError, Joker, get_game
from companion.domain.cards import spoken
from companion.domain.description import Description
from companion.domain.messages import render
from companion.web.language import translator

STAR = "★"  # the joker's face, as the pickers show it


@dataclass(frozen=True)
class Face:
    """One card as a chip shows it."""

    text: str  # the card as written (R7, *R6, 10H): a text that is no card is shown as it is
    colour: str = ""  # the colour's or suit's code, the chip's class; "" for the one joker
    letter: str = ""  # the colour letter before the value (R7); "" where a suit comes last
    value: str = ""  # the value as written (7, Q), or ★ for a joker alone
    symbol: str = ""  # the suit's mark after the rank (10♥)
    joker: bool = False
    stands_in: bool = False  # a joker standing for the card shown: ★ beside it
    name: str = ""  # its name in the page's language; "" when the text is no card


def card_face(game: Description, text: Any) -> Face:
    """How the chip of ``text``, a card of ``game`` in its notation, looks and is named."""
    raw = str(text)
    try:
        token = get_game(game.id).parse_card(raw)
    except EntryError:
        return Face(raw)
    shown: Card | None = token.stands_for if isinstance(token, Joker) else token
    colour = shown.colour if shown is not None else (token.colour or "")
    found = {c.code: c for c in game.cards.colours}.get(colour)
    suit_last = game.cards.suit_last
    value = STAR
    if shown is not None:
        value = next((v.text for v in game.cards.values if v.value == shown.value), "")
    return Face(
        raw,
        colour=colour,
        letter="" if suit_last or found is None else found.code,
        value=value,
        symbol=found.symbol if found is not None and suit_last else "",
        joker=isinstance(token, Joker),
        stands_in=isinstance(token, Joker) and shown is not None,
        name=spoken(token, translator()),
    )


# --- Cards inside a history entry (store.describe) -------------------------------------

_MARK = re.compile("\ue000(\\d+)\ue001")
_MELD = re.compile(r"\[([^\]]*)\]")


@dataclass(frozen=True)
class Cards:
    """A value of cards inside a history text: one group of cards, or melds (each a group)."""

    groups: tuple[tuple[str, ...], ...]
    melds: bool


def marked(describe: Callable[[Callable[[str], str]], str]) -> list[str | Cards]:
    """A history text cut into words and values of cards, for the page to draw the cards.

    ``describe(cards)`` writes the text, passing every value of cards through ``cards``; the
    value comes back as a mark that no translation contains, and is cut out here.
    """
    values: list[str] = []

    def mark(value: str) -> str:
        values.append(value)
        return f"\ue000{len(values) - 1}\ue001"

    text = describe(mark)
    out: list[str | Cards] = []
    at = 0
    for m in _MARK.finditer(text):
        n = int(m.group(1))
        if n >= len(values):  # the mark's characters typed in a name: left as they are
            continue
        if m.start() > at:
            out.append(text[at : m.start()])
        out.append(_cards(values[n]))
        at = m.end()
    if at < len(text):
        out.append(text[at:])
    return out


def _cards(value: str) -> Cards:
    melds = _MELD.findall(value)
    if melds:
        return Cards(tuple(tuple(m.split()) for m in melds), melds=True)
    return Cards((tuple(value.split()),), melds=False)


def history_parts(
    entry: Mapping[str, Any], describe: Callable[..., str], game: str
) -> list[str | Cards]:
    """``store.describe``'s text of ``entry`` in the page's language, with its cards marked."""
    return marked(lambda cards: describe(entry, translator(), game, cards=cards))


def card_name(game: Description, colour: str, value: int) -> str:
    """The name of the card of ``colour`` and ``value`` in the page's language and grammar
    ("rote 1", "червена 1", "Herz Dame"): a key of the card grid (templates/_macros.html)."""
    return spoken(get_game(game.id).parse_card(game.cards.text(colour, value)), translator())


def card_names(game: Description) -> dict[str, Any]:
    """Every card's and joker's name in the page's language, by its text (``{"R7": "rote 7"}``),
    and how a joker standing for a card is named (``"Joker als {card}"``): for the scripts that
    draw the cards a picker builds (static/js/game.js ``chip``)."""
    tr = translator()
    cards = game.cards
    texts = [cards.text(c.code, v.value) for c in cards.colours for v in cards.values]
    jokers = [cards.joker + c.code for c in cards.colours] if cards.coloured_jokers else []
    kind = get_game(game.id)
    names = {t: spoken(kind.parse_card(t), tr) for t in [*texts, *(jokers or [cards.joker])]}
    return {"cards": names, "as": render("joker-name-as", {"card": "{card}"}, tr)}
