"""The one exception the rules core raises for input a player must correct."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class EntryError(Exception):
    """Bad input: a document, card or meld that breaks an entry check (D17-8).

    ``message`` is written for the people at the table and names the player, meld and
    card concerned; the other fields repeat them for programs.
    """

    message: str
    player: str | None = None
    meld: int | None = None
    card: str | None = None
    rule: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, Any]:
        """The contract's error object: ``{"error": {"message": ..., ...}}``."""
        body: dict[str, Any] = {"message": self.message}
        for key in ("player", "meld", "card", "rule"):
            value = getattr(self, key)
            if value is not None:
                body[key] = value
        body.update(self.extra)
        return {"error": body}


def where(player: str | None = None, meld: int | None = None) -> str:
    """The prefix that tells the table where a problem is: ``"Béla, meld 2: "``."""
    parts = []
    if player is not None:
        parts.append(player)
    if meld is not None:
        parts.append(f"meld {meld}")
    return ", ".join(parts) + ": " if parts else ""
