"""Round documents for every game, for the store and matches API tests (``from samples import``)."""

from __future__ import annotations

from typing import Any

from companion.domain import all_games

PLAYERS = ["Anna", "Béla", "Cili"]
GAMES = [game.id for game in all_games()]
BONUS_CARDS = ["most-cards", "most-sets", "longest-run", "most-red", "highest-triple"]


def sample_round(game: str, points: int = 1, players: list[str] | None = None) -> dict[str, Any]:
    """A valid round of ``game`` where player i is left with ``points + i`` (short forms)."""
    names = players or PLAYERS
    kind = next(g for g in all_games() if g.id == game)
    if kind.melds_entered:  # Rummy 17: melds, hands as counts, five bonus cards (R17-3)
        return {
            "game": game,
            "bonus_cards": list(BONUS_CARDS),
            "went_out": None,
            "players": [
                {"name": n, "melds": [], "hand": {"low": points + i, "high": 0}}
                for i, n in enumerate(names)
            ],
        }
    doc: dict[str, Any] = {"game": game}
    for ending in kind.endings:
        doc[ending.key] = None
    doc["players"] = [
        {"name": n, kind.holding: {"points": points + i}} for i, n in enumerate(names)
    ]
    return doc


def holding(doc: dict[str, Any], seat: int) -> tuple[str, Any]:
    """The field and value of a player's leftover cards in a sample round."""
    player = doc["players"][seat]
    key = next(k for k in player if k not in ("name", "melds"))
    return key, player[key]
