"""A Rummy 17 game's score: penalties (R17-16), bonus cards (R17-17), RUMMY 17 (R17-15a), R17-18."""

from __future__ import annotations

from dataclasses import dataclass

from companion.domain.games.rummy17.bonus import Award, award
from companion.domain.games.rummy17.table import Table


@dataclass(frozen=True)
class PlayerScore:
    """One player's line on the sheet for one game, after doubling."""

    name: str
    penalty: int
    bonus: int
    bonus_cards: tuple[str, ...]

    @property
    def score(self) -> int:
        """R17-18: bonus points minus penalty points."""
        return self.bonus - self.penalty


@dataclass(frozen=True)
class GameResult:
    """The scored game: every player's line and every drawn bonus card's award."""

    rummy17: bool
    multiplier: int
    players: tuple[PlayerScore, ...]
    awards: tuple[Award, ...]

    @property
    def scores(self) -> dict[str, int]:
        """Each player's score for the game (R17-18)."""
        return {p.name: p.score for p in self.players}


def score_game(table: Table) -> GameResult:
    """Score one finished game of Rummy 17."""
    awards = tuple(award(card, table) for card in table.bonus_cards)
    lines = []
    for seat in table.seats:
        won = tuple(a.card for a in awards if seat.name in a.winners)
        bonus = sum(a.points for a in awards if seat.name in a.winners)
        # R17-15a: under RUMMY 17 every penalty point is doubled too.
        lines.append(PlayerScore(seat.name, seat.hand.penalty * table.multiplier, bonus, won))
    return GameResult(table.rummy17, table.multiplier, tuple(lines), awards)
