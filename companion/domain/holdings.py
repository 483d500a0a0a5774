"""Reading the racks and hands of the games scored by what is left over (RK, RO, MR).

Shared by Rummikub, Rummy-O and Manipulation Rummy: a list of players each holding cards (or
the short form ``{"points": N}``), the per-game limits on copies (DK-4, DO-6, DM-8), and who
went out. Every problem of a document is reported at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.domain.bounds import MAX_POINTS
from companion.domain.cards import Card, Deck, Joker, Token, parse_card
from companion.domain.errors import Collector, EntryError
from companion.domain.messages import N_, NN_, register
from companion.domain.names import spelled
from companion.domain.seating import check_names, check_seats

register(
    {
        "players-not-list": N_("players must be a list, in seat order (clockwise)"),
        "players-not-objects": N_("players must be a list of objects with name and {key}"),
        "player-unknown-field": N_(
            "player {number} has an unknown field {key!r}; the fields are name, {key2}"
        ),
        "holding-missing": N_(
            'nothing entered; give the cards left, or {{"points": N}} for their value'
        ),
        "holding-not-list": N_('a list of cards, or {{"points": N}} for the counted value'),
        "points-not-number": N_("points must be a whole number from 0 to {max}"),
        "joker-stands-in-holding": N_("a joker left over stands for nothing yet; write it as *"),
        "too-many-jokers": NN_(
            "more than {most} joker in the round ({rule})",
            "more than {most} jokers in the round ({rule})",
            "most",
        ),
        "too-many-copies": NN_(
            "{card} appears more than once in the round ({rule})",
            "{card} appears more than {most} times in the round ({rule})",
            "most",
        ),
        "not-a-player": N_(
            "{key} names {name!r}, who is not a player here; the players are {names}"
        ),
    }
)


@dataclass(frozen=True)
class Holding:
    """One player's leftover cards (``None`` when only their value was given) and worth."""

    name: str
    cards: tuple[Token, ...] | None
    value: int
    #: False when a card could not be read: checks on what is left wait until it is fixed.
    complete: bool = True

    @property
    def empty(self) -> bool:
        """Nothing left: every card counts at least 1, so a value of 0 is an empty hand."""
        return self.complete and self.value == 0


@dataclass(frozen=True)
class Limits:
    """How a game limits the table: players, copies of each card, jokers, and the clause."""

    label: str
    players: tuple[int, int]
    copies: int
    jokers: int
    rule: str
    player_rule: str


def read_holdings(
    doc: Mapping[str, Any],
    *,
    deck: Deck,
    field: str,
    limits: Limits,
    worth: Callable[[Token], int],
    names: Sequence[str] | None = None,
    problems: Collector,
) -> list[Holding]:
    """Players in seat order with their cards, read as far as they can be.

    A document that cannot be read as players raises at once; a bad card, a missing entry or
    a copy too many goes to ``problems``, so the game can check the ending too and report
    every problem together.
    """
    raw = doc.get("players")
    if not isinstance(raw, list):
        raise EntryError("players-not-list")
    if not all(isinstance(p, Mapping) for p in raw):
        raise EntryError("players-not-objects", key=field)
    for i, p in enumerate(raw, start=1):
        extra = sorted(set(p) - {"name", field})
        if extra:
            raise EntryError("player-unknown-field", number=i, key=extra[0], key2=field)
    seat_names = check_names(
        [p.get("name") for p in raw],
        players=limits.players,
        rule=limits.player_rule,
        game=limits.label,
    )
    check_seats(seat_names, names)
    out = []
    for name, p in zip(seat_names, raw, strict=True):
        found = len(problems.problems)
        holding = Holding(name, (), 0, complete=False)
        with problems.check(player=name, field=field):
            holding = read_one(name, p, field, deck, worth, problems)
        if len(problems.problems) > found:
            holding = Holding(name, holding.cards, holding.value, complete=False)
        out.append(holding)
    with problems.check(field=field):
        check_copies(out, limits)
    return out


def read_one(
    name: str,
    p: Mapping[str, Any],
    field: str,
    deck: Deck,
    worth: Callable[[Token], int],
    problems: Collector,
) -> Holding:
    """One player's leftovers; an unreadable card goes to ``problems`` and the rest is kept,
    so the copy check (DK-4, DO-6, DM-8) still sees every readable card."""
    if field not in p:
        # Contract: a forgotten player is an entry error, never a silent 0.
        raise EntryError("holding-missing", key=field)
    cards = p[field]
    if isinstance(cards, Mapping):
        if set(cards) != {"points"}:
            raise EntryError("holding-not-list")
        points = cards["points"]
        if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= MAX_POINTS:
            raise EntryError("points-not-number", max=MAX_POINTS)
        return Holding(name, None, points)
    if not isinstance(cards, list):
        raise EntryError("holding-not-list")
    tokens: list[Token] = []
    for c in cards:
        with problems.check(player=name, field=field):
            token = parse_card(c, deck)
            if isinstance(token, Joker) and token.stands_for is not None:
                raise EntryError("joker-stands-in-holding", card=token.text)
            tokens.append(token)
    return Holding(name, tuple(tokens), sum(worth(t) for t in tokens))


def check_copies(holdings: Sequence[Holding], limits: Limits) -> None:
    """DK-4, DO-6, DM-8: no more copies of a card, nor jokers, than the game has."""
    problems = Collector()
    counts: Counter[str] = Counter()
    jokers = 0
    for h in holdings:
        for t in h.cards or ():
            if isinstance(t, Joker):
                jokers += 1
                if jokers == limits.jokers + 1:
                    problems.add(
                        EntryError(
                            "too-many-jokers",
                            player=h.name,
                            card="*",
                            rule=limits.rule,
                            most=limits.jokers,
                        )
                    )
                continue
            counts[t.text] += 1
            if counts[t.text] == limits.copies + 1:
                problems.add(
                    EntryError(
                        "too-many-copies",
                        player=h.name,
                        card=t.text,
                        rule=limits.rule,
                        most=limits.copies,
                    )
                )
    problems.raise_any()


def named_player(value: object, holdings: Sequence[Holding], what: str) -> str | None:
    """``went_out`` or ``knocked``: a player's name or null."""
    if value is None:
        return None
    names = [h.name for h in holdings]
    if not isinstance(value, str) or spelled(value) not in names:
        raise EntryError("not-a-player", field=what, key=what, name=value, names=", ".join(names))
    return spelled(value)


def face_value(token: Token, joker: int, high: dict[int, int] | None = None) -> int:
    """A card's worth: jokers fixed, some ranks remapped, the rest their number."""
    if isinstance(token, Joker):
        return joker
    assert isinstance(token, Card)
    return (high or {}).get(token.value, token.value)
