"""A series of games: seats, the dealer passing clockwise, running totals and standings.

R17-2 (the dealer passes clockwise), R17-6 (the player left of the dealer starts),
R17-19 (totals; the highest wins), D17-7 (equal totals share a rank).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.domain.errors import EntryError
from companion.domain.messages import N_, register
from companion.domain.names import clash, spelled, twin

NAME_LIMIT = 40  # contract

register(
    {
        "player-count": N_("{game_name} is for {low} to {high} players, not {count} ({rule})"),
        "name-missing": N_("player {number} has no name"),
        "name-too-long": N_("player {number}'s name is longer than {limit} characters"),
        "name-twice": N_("the name {name} is used twice; each player needs their own name"),
        "name-alike": N_(
            "“{other}” and “{name}” are the same name; each player needs their own name"
        ),
        "seats-differ": N_(
            "the round's players must be the match's players in the same seat order: {names}"
        ),
    }
)


def check_names(
    names: Sequence[object],
    *,
    players: tuple[int, int] = (2, 6),
    rule: str = "R17-1",
    game: str = N_("Rummy 17"),
) -> tuple[str, ...]:
    """Unique, non-empty names of at most 40 characters, as many as the game allows.

    Each name as ``names.spelled`` keeps it; two that only look different are one name
    (``names.name_key``), refused in words that show both spellings. ``game`` is the game's
    name, translated when the problem is rendered.
    """
    low, high = players
    if not low <= len(names) <= high:
        raise EntryError(
            "player-count", rule=rule, game_name=game, low=low, high=high, count=len(names)
        )
    typed: list[str] = []
    out: list[str] = []
    for i, raw in enumerate(names, start=1):
        name = spelled(raw) if isinstance(raw, str) else ""
        if not name:
            raise EntryError("name-missing", number=i)
        if len(name) > NAME_LIMIT:
            raise EntryError("name-too-long", player=name, number=i, limit=NAME_LIMIT)
        assert isinstance(raw, str)
        other = twin(raw, typed)
        if other is not None:
            kind, params = clash(raw, other)
            raise EntryError(f"name-{kind}", player=raw.strip(), **params)
        typed.append(raw)
        out.append(name)
    return tuple(out)


def check_seats(seats: Sequence[str], names: Sequence[str] | None) -> None:
    """A round of a match seats the match's players, in the match's order (R17-2, R17-6)."""
    if names is not None and tuple(seats) != tuple(names):
        raise EntryError("seats-differ", field="players", names=", ".join(names))


def dealer_of(seats: Sequence[str], first_dealer: str, number: int) -> str:
    """The dealer of game ``number`` (1-based): the deal passes clockwise each game (R17-2)."""
    start = seats.index(first_dealer)
    return seats[(start + number - 1) % len(seats)]


def left_of(seats: Sequence[str], name: str) -> str:
    """The next player clockwise: seats are listed in clockwise order (R17-6)."""
    return seats[(seats.index(name) + 1) % len(seats)]


@dataclass(frozen=True)
class Standing:
    """One line of the standings: rank, name and total (D17-7)."""

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
