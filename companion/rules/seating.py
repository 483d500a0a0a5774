"""A series of games: seats, the dealer passing clockwise, running totals and standings.

R17-2 (the dealer passes clockwise), R17-6 (the player left of the dealer starts),
R17-19 (totals; the highest wins), D17-7 (equal totals share a rank).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import EntryError

NAME_LIMIT = 40  # contract


def check_names(
    names: Sequence[object],
    *,
    players: tuple[int, int] = (2, 6),
    rule: str = "R17-1",
    game: str = "Rummy 17",
) -> tuple[str, ...]:
    """Unique, non-empty names of at most 40 characters, as many as the game allows."""
    low, high = players
    if not low <= len(names) <= high:
        raise EntryError(
            f"{game} is for {low} to {high} players, not {len(names)} ({rule})", rule=rule
        )
    seen: set[str] = set()
    out = []
    for i, name in enumerate(names, start=1):
        if not isinstance(name, str) or not name.strip():
            raise EntryError(f"player {i} has no name")
        name = name.strip()
        if len(name) > NAME_LIMIT:
            raise EntryError(
                f"player {i}'s name is longer than {NAME_LIMIT} characters", player=name
            )
        if name.casefold() in seen:
            raise EntryError(
                f"the name {name} is used twice; each player needs their own name", player=name
            )
        seen.add(name.casefold())
        out.append(name)
    return tuple(out)


def check_seats(seats: Sequence[str], names: Sequence[str] | None) -> None:
    """A round of a match seats the match's players, in the match's order (R17-2, R17-6)."""
    if names is not None and tuple(seats) != tuple(names):
        raise EntryError(
            "the round's players must be the match's players in the same seat "
            f"order: {', '.join(names)}"
        )


def dealer_of(seats: Sequence[str], first_dealer: str, number: int) -> str:
    """The dealer of game ``number`` (1-based): the deal passes clockwise each game (R17-2)."""
    start = seats.index(first_dealer)
    return seats[(start + number - 1) % len(seats)]


def left_of(seats: Sequence[str], name: str) -> str:
    """The next player clockwise: seats are listed in clockwise order (R17-6)."""
    return seats[(seats.index(name) + 1) % len(seats)]


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    total: int


def standings(totals: Mapping[str, int], seats: Sequence[str]) -> tuple[Standing, ...]:
    """Players by total, highest first (R17-19); equal totals share a rank (D17-7: 1, 1, 3)."""
    order = sorted(seats, key=lambda n: (-totals[n], seats.index(n)))
    out: list[Standing] = []
    for i, name in enumerate(order):
        if out and out[-1].total == totals[name]:
            rank = out[-1].rank
        else:
            rank = i + 1
        out.append(Standing(rank, name, totals[name]))
    return tuple(out)


@dataclass(frozen=True)
class RoundLine:
    """One game of a series on the score sheet."""

    number: int
    dealer: str
    starts: str
    scores: dict[str, int]
    totals: dict[str, int]


def running(
    seats: Sequence[str], first_dealer: str, scores: Sequence[Mapping[str, int]]
) -> tuple[tuple[RoundLine, ...], dict[str, int]]:
    """Dealer, starter and running totals for each game's scores, and the final totals."""
    totals = {n: 0 for n in seats}
    lines = []
    for number, game in enumerate(scores, start=1):
        dealer = dealer_of(seats, first_dealer, number)
        for name in seats:
            totals[name] += game[name]
        lines.append(
            RoundLine(
                number, dealer, left_of(seats, dealer), {n: game[n] for n in seats}, dict(totals)
            )
        )
    return tuple(lines), totals
