"""Reading the racks and hands of the games scored by what is left over (RK, RO, MR).

Shared by Rummikub, Rummy-O and Manipulation Rummy: a list of players each holding cards, the
per-game limits on copies (DK-4, DO-6, DM-8), and who went out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, Joker, Token, parse_card
from .errors import EntryError
from .match import check_names, check_seats


@dataclass(frozen=True)
class Holding:
    """One player's leftover cards or tiles and what they are worth."""

    name: str
    cards: tuple[Token, ...]
    value: int


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
    game: str,
    field: str,
    limits: Limits,
    worth: Callable[[Token], int],
    copies: int | None = None,
    names: Sequence[str] | None = None,
) -> list[Holding]:
    """Players in seat order with their cards; every card readable and within the limits."""
    raw = doc.get("players")
    if not isinstance(raw, list):
        raise EntryError("players must be a list, in seat order (clockwise)")
    if not all(isinstance(p, Mapping) for p in raw):
        raise EntryError(f"players must be a list of objects with name and {field}")
    for i, p in enumerate(raw, start=1):
        extra = sorted(set(p) - {"name", field})
        if extra:
            raise EntryError(
                f"player {i} has an unknown field {extra[0]!r}; the fields are name, {field}"
            )
    seat_names = check_names(
        [p.get("name") for p in raw],
        players=limits.players,
        rule=limits.player_rule,
        game=limits.label,
    )
    check_seats(seat_names, names)
    out = []
    for name, p in zip(seat_names, raw, strict=True):
        cards = p.get(field, [])
        if not isinstance(cards, list):
            raise EntryError(f"{name}'s {field}: a list of cards", player=name)
        tokens = []
        for c in cards:
            token = parse_card(c, game, prefix=f"{name}'s {field}: ")
            if isinstance(token, Joker) and token.stands_for is not None:
                raise EntryError(
                    f"{name}'s {field}: a joker in the {field} stands for nothing "
                    f"yet; write it as *",
                    player=name,
                    card=token.text,
                )
            tokens.append(token)
        out.append(Holding(name, tuple(tokens), sum(worth(t) for t in tokens)))
    _check_copies(out, limits, field, copies)
    return out


def _check_copies(
    holdings: Sequence[Holding], limits: Limits, field: str, copies: int | None
) -> None:
    most = limits.copies if copies is None else copies
    jokers_allowed = limits.jokers if copies is None else copies
    counts: Counter[str] = Counter()
    jokers = 0
    for h in holdings:
        for t in h.cards:
            if isinstance(t, Joker):
                jokers += 1
                if jokers > jokers_allowed:
                    raise EntryError(
                        f"{h.name}'s {field}: more than {jokers_allowed} "
                        f"joker{'s' if jokers_allowed > 1 else ''} in the round "
                        f"({limits.rule})",
                        player=h.name,
                        card="*",
                        rule=limits.rule,
                    )
                continue
            counts[t.text] += 1
            if counts[t.text] > most:
                times = "once" if most == 1 else f"{most} times"
                raise EntryError(
                    f"{h.name}'s {field}: {t.text} appears more than {times} "
                    f"in the round ({limits.rule})",
                    player=h.name,
                    card=t.text,
                    rule=limits.rule,
                )


def named_player(value: object, holdings: Sequence[Holding], what: str) -> str | None:
    """``went_out`` or ``knocked``: a player's name or null."""
    if value is None:
        return None
    names = [h.name for h in holdings]
    if not isinstance(value, str) or value.strip() not in names:
        raise EntryError(
            f"{what} names {value!r}, who is not a player here; the players are {', '.join(names)}"
        )
    return value.strip()


def face_value(token: Token, joker: int, high: dict[int, int] | None = None) -> int:
    """A card's worth: jokers fixed, some ranks remapped, the rest their number."""
    if isinstance(token, Joker):
        return joker
    assert isinstance(token, Card)
    return (high or {}).get(token.value, token.value)
