"""Valid match documents of any size for the sheet tests and the benchmark (made, not stored)."""

from __future__ import annotations

from typing import Any

from companion.domain.games.rummy17 import BONUS_CARDS

# Hungarian (ő ű), German (ß ä ö ü) and Cyrillic names: they must print right.
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
        low, high = (i + k) % 3, (i * k) % 2
        # D17-8: everyone but the player who went out holds a card.
        hand: Any = [] if name == out else {"low": low or 1 - high, "high": high}
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


def sample_rack_match(
    game: str, players: int = 4, rounds: int = 4, *, planned: int | None = None
) -> dict[str, Any]:
    """A Rummikub or Rummy-O match: racks as tiles and as counted points, pool-outs with ties.

    Every third round the pool runs out with the first two players tied for the lowest rack
    (DK-2, DO-4); the others are won by emptying a rack, in turn.
    """
    names = list(NAMES[:players])
    docs = []
    for i in range(rounds):
        pool_out = i % 3 == 2
        out = None if pool_out else names[i % players]
        racks: list[Any] = []
        for k, name in enumerate(names):
            if name == out:
                racks.append({"points": 0})
            elif pool_out:
                racks.append({"points": 4 if k < 2 else 9 + 5 * k + i})
            elif k == 0:
                racks.append(["R5", "K13", "*"])  # tiles, counted by the game's own values
            else:
                racks.append({"points": 3 + (7 * i + 5 * k) % 31})
        players_ = [{"name": n, "rack": r} for n, r in zip(names, racks, strict=True)]
        docs.append({"went_out": out, "players": players_})
    doc: dict[str, Any] = {
        "game": game,
        "title": f"{game} — Пятница",
        "players": names,
        "first_dealer": names[0],
        "rounds": docs,
    }
    if planned is not None:
        doc["games"] = planned
    return doc


def _hands(names: list[str], points: list[int | list[str]]) -> list[dict[str, Any]]:
    return [
        {"name": n, "hand": p if isinstance(p, list) else {"points": p}}
        for n, p in zip(names, points, strict=True)
    ]


def manipulation_to_150() -> dict[str, Any]:
    """Four players to 150 (MR-16): a knock, an undercut, going out, no knock, a lost tie."""
    names = list(NAMES[:4])
    a, b, c, d = names
    rounds = [
        {"knocked": a, "went_out": None, "players": _hands(names, [4, 12, 25, 9])},
        {"knocked": b, "went_out": None, "players": _hands(names, [15, 5, 3, 20])},  # undercut
        {"knocked": None, "went_out": c, "players": _hands(names, [10, 22, [], 15])},
        {"knocked": None, "went_out": None, "players": _hands(names, [8, 8, 30, 12])},  # MR-15
        {"knocked": d, "went_out": None, "players": _hands(names, [14, 6, 18, ["2S"]])},
        {"knocked": a, "went_out": a, "players": _hands(names, [[], 9, 11, 16])},
        {"knocked": c, "went_out": None, "players": _hands(names, [5, 20, 5, 13])},  # MR-13
    ]
    return {
        "game": "manipulation",
        "title": "Carousel — Пятница",
        "players": names,
        "first_dealer": b,
        "rounds": rounds,
    }


def manipulation_long(players: int = 5, rounds: int = 12) -> dict[str, Any]:
    """A Manipulation series of small rounds, still short of 150: the densest grid it prints."""
    names = list(NAMES[:players])
    docs = []
    for i in range(rounds):
        knocker = i % players
        low = 1 + i % 5
        hands = [low + 1 + (i + k) % 3 for k in range(players)]
        hands[knocker] = low
        undercut = i % 4 == 3  # someone else holds less than the knocker: an undercut
        if undercut:
            hands[(knocker + 1) % players] = low - 1 if low > 1 else 0
            if hands[(knocker + 1) % players] == 0:
                hands[(knocker + 1) % players] = 1
                hands[knocker] = 2
        docs.append({"knocked": names[knocker], "went_out": None, "players": _hands(names, hands)})
    return {
        "game": "manipulation",
        "title": "Carousel",
        "players": names,
        "first_dealer": names[0],
        "rounds": docs,
    }
