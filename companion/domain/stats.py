"""Figures across matches, per game and player, read from the rules core's own results.

Nothing is scored twice by hand here: each match document goes through ``match_document``
(the contract's match result: round scores, totals, standings, round winners) and each round
through its game's ``score_round`` (the round result, whose ``awards`` say who won which
bonus card, R17-17). The figures only count and add what those results say.

A player is the same person across matches when theirs is the same name (``names.name_key``,
as ``check_names`` compares them within one match); the spelling shown is the first one met,
so with matches given newest first it is the latest.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.domain.game import get_game
from companion.domain.names import name_key
from companion.domain.scoring import match_document


@dataclass(frozen=True)
class BestRound:
    """A player's highest round score: in which match (the caller's key) and round."""

    match: str
    number: int
    score: int


@dataclass(frozen=True)
class PlayerFigures:
    """One player's figures in one game, across the matches given."""

    name: str
    #: Matches with at least one round played.
    matches: int
    #: Finished matches (D17-7, DK-3, DO-5, MR-16) in which they ranked first (a shared
    #: first place counts for each, D17-7).
    won: int
    #: Rounds (games of a series) played.
    rounds: int
    #: Rounds won, counted only in games whose rounds have winners (the one who went out, RK-22,
    #: DO-4, MR-9); None when none of their rounds has them (Rummy 17 scores every player).
    round_wins: int | None
    #: The sum of their round scores.
    points: int
    #: The sum of their match totals: ``points`` plus any end bonus (MR-16).
    total: int
    #: Bonus cards won (R17-17, card id and times), most first; equal counts in the order met.
    bonus_cards: tuple[tuple[str, int], ...]
    best: BestRound | None

    @property
    def average(self) -> float | None:
        """Points per round played, None before the first round."""
        return self.points / self.rounds if self.rounds else None


@dataclass(frozen=True)
class GameFigures:
    """The figures of one game: how many matches were counted, and each player's."""

    game: str
    matches: int
    players: tuple[PlayerFigures, ...]


@dataclass
class _Tally:
    name: str
    matches: int = 0
    won: int = 0
    rounds: int = 0
    with_winners: int = 0
    round_wins: int = 0
    points: int = 0
    total: int = 0
    cards: dict[str, int] = field(default_factory=dict)
    best: BestRound | None = None

    def figures(self) -> PlayerFigures:
        cards = sorted(self.cards.items(), key=lambda kv: -kv[1])  # stable: order met
        return PlayerFigures(
            name=self.name,
            matches=self.matches,
            won=self.won,
            rounds=self.rounds,
            round_wins=self.round_wins if self.with_winners else None,
            points=self.points,
            total=self.total,
            bonus_cards=tuple(cards),
            best=self.best,
        )


def same_player(name: str) -> str:
    """The key under which a name is the same person: the same name (``names.name_key``:
    case, spaces, invisible characters and compatibility forms ignored)."""
    return name_key(name)


def across_matches(matches: Iterable[tuple[str, Mapping[str, Any]]]) -> tuple[GameFigures, ...]:
    """Each game's player figures over ``(key, match document)`` pairs.

    Matches without a round are left out. Games come in the order first met, players by
    matches won, then rounds won, then rounds played, then name.
    :raises EntryError: a match document the rules core refuses.
    """
    tallies: dict[str, dict[str, _Tally]] = {}
    counted: dict[str, int] = {}
    for key, doc in matches:
        result = match_document(doc)
        if not result["rounds"]:
            continue
        game = get_game(result["game"])
        seats = list(result["totals"])  # seat order, names as the rules core read them
        counted[game.id] = counted.get(game.id, 0) + 1
        players = tallies.setdefault(game.id, {})
        mine = {n: players.setdefault(same_player(n), _Tally(n)) for n in seats}
        first = {s["name"] for s in result["standings"] if s["rank"] == 1}
        for name, tally in mine.items():
            tally.matches += 1
            tally.total += result["totals"][name]
            if result["finished"] and name in first:
                tally.won += 1
        for line, raw in zip(result["rounds"], doc["rounds"], strict=True):
            awards = game.score_round(raw, seats).result.get("awards", ())
            for name, tally in mine.items():
                _count_round(tally, name, key, line, awards)
    return tuple(
        GameFigures(game_id, counted[game_id], _ordered(players))
        for game_id, players in tallies.items()
    )


def _count_round(
    tally: _Tally, name: str, key: str, line: Mapping[str, Any], awards: Iterable[Any]
) -> None:
    score = line["scores"][name]
    tally.rounds += 1
    tally.points += score
    if "winners" in line:  # the game names who won the round
        tally.with_winners += 1
        if name in line["winners"]:
            tally.round_wins += 1
    for award in awards:  # R17-17: each winner of a bonus card earns it
        if name in award["winners"]:
            tally.cards[award["card"]] = tally.cards.get(award["card"], 0) + 1
    if tally.best is None or score > tally.best.score:
        tally.best = BestRound(key, line["number"], score)


def _ordered(players: Mapping[str, _Tally]) -> tuple[PlayerFigures, ...]:
    figures = [t.figures() for t in players.values()]
    figures.sort(
        key=lambda f: (-f.won, -(f.round_wins or 0), -f.rounds, same_player(f.name), f.name)
    )
    return tuple(figures)
