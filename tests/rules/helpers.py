"""Small builders for Rummy 17 round documents in tests."""

from __future__ import annotations

from typing import Any

from companion.domain.games.rummy17 import read_table, score_game
from companion.domain.games.rummy17.bonus import Award
from companion.domain.games.rummy17.scoring import GameResult

FIVE = ["most-cards", "most-sets", "most-runs", "longest-run", "went-out"]


def game(
    players: dict[str, tuple[list[list[str]], Any]],
    *,
    bonus: list[str] | None = None,
    went_out: str | None = None,
    last: str | None = None,
) -> dict[str, Any]:
    """A round document from ``{name: (melds, hand)}`` in seat order."""
    doc: dict[str, Any] = {
        "game": "rummy17",
        "bonus_cards": bonus or FIVE,
        "went_out": went_out,
        "players": [{"name": n, "melds": m, "hand": h} for n, (m, h) in players.items()],
    }
    if last is not None:
        doc["last_discard"] = last
    return doc


def scored(doc: dict[str, Any]) -> GameResult:
    return score_game(read_table(doc))


def award_of(doc: dict[str, Any], card: str) -> Award:
    return next(a for a in scored(doc).awards if a.card == card)


def with_card(card: str, others: list[str]) -> list[str]:
    """Five bonus cards: ``card`` plus four others not equal to it."""
    rest = [c for c in others if c != card]
    return [card, *rest][:5]


FILLER = ["most-cards", "most-sets", "most-runs", "longest-set", "longest-run", "most-red"]


class Catalogue:
    """A translation catalogue for tests: the texts it knows, the rest left in English."""

    def __init__(self, texts: dict[str, str | tuple[str, str]]) -> None:
        self.texts = texts

    def gettext(self, message: str) -> str:
        text = self.texts.get(message, message)
        assert isinstance(text, str)
        return text

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.texts.get(singular, (singular, plural))
        assert isinstance(forms, tuple)
        return forms[0] if n == 1 else forms[1]

    def pgettext(self, context: str, message: str) -> str:
        """A text in a context is known as ``"context\\x04message"``, else left in English."""
        text = self.texts.get(f"{context}\x04{message}", message)
        assert isinstance(text, str)
        return text

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        forms = self.texts.get(f"{context}\x04{singular}", (singular, plural))
        assert isinstance(forms, tuple)
        return forms[0] if n == 1 else forms[1]
