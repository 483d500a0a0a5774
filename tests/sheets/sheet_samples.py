"""Valid match documents of any size for the sheet tests and the benchmark (made, not stored)."""

from __future__ import annotations

from typing import Any

from companion.rules import BONUS_CARDS

# Hungarian (ő ű), German (ß ä ö ü) and Cyrillic names: they must print right (issue 4).
NAMES = ("Zsófi Őri", "Márk Űrös", "Jörg Weiß", "Дмитрий", "Käthe", "Béla")
COLOURS = "RBGYK"
CARDS = tuple(BONUS_CARDS)


def sample_round(names: tuple[str, ...] | list[str], number: int) -> dict[str, Any]:
    """Game ``number`` (1-based): runs of 1–9, one set of 12–15, RUMMY 17 every fifth game."""
    i = number - 1
    players = []
    out = names[i % len(names)]
    for k, name in enumerate(names):
        if k < 5:
            colour = COLOURS[(k + i) % 5]
            start = 1 + (i + k) % 5
            length = 3 + (i + k) % 3
            melds = [[f"{colour}{v}" for v in range(start, start + length)]]
        else:
            value = 12 + i % 4
            melds = [[f"{c}{value}" for c in "RBG"]]
        hand: Any = [] if name == out else {"low": (i + k) % 3, "high": (i * k) % 2}
        players.append({"name": name, "melds": melds, "hand": hand})
    doc: dict[str, Any] = {
        "bonus_cards": [CARDS[(i * 5 + j) % 12] for j in range(5)],
        "players": players,
    }
    if number % 7 == 0:  # the draw pile ran out (R17-15b): nobody went out
        doc["went_out"] = None
        players[i % len(names)]["hand"] = {"low": 1, "high": 0}
    else:
        doc["went_out"] = out
        doc["last_discard"] = "K17" if number % 5 == 0 else "Y16"  # R17-15a every fifth game
    return doc


def sample_match(players: int = 6, games: int = 12, *, planned: int | None = None) -> dict:
    """A valid match document of ``players`` × ``games``, optionally planned for more games."""
    names = list(NAMES[:players])
    doc: dict[str, Any] = {
        "game": "rummy17",
        "title": "Klubabend — Пятница",
        "players": names,
        "first_dealer": names[1],
        "rounds": [sample_round(names, n) for n in range(1, games + 1)],
    }
    if planned is not None:
        doc["games"] = planned
    return doc
