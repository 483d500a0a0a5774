"""Rummikub (RK-20…23, DK-2, DK-4) and Deluxe Rummy-O (RO-11, RO-12, DO-4, DO-6) rounds.

Both are scored from the tiles left on the racks when a round ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Token
from .errors import EntryError
from .hands import Holding, Limits, face_value, named_player, read_holdings

RUMMIKUB_LIMITS = Limits("Rummikub", (2, 4), 2, 2, "DK-4", "RK-1")
RUMMY_O_LIMITS = Limits("Rummy-O", (2, 4), 2, 2, "DO-6", "RO-1")


def rummikub_worth(tile: Token) -> int:
    """RK-21: a tile counts its number, a joker on a rack 30."""
    return face_value(tile, joker=30)


def rummy_o_worth(tile: Token) -> int:
    """RO-2: 1, 11, 12 and 13 are worth 10 each, a joker 25, the rest their number."""
    return face_value(tile, joker=25, high={1: 10, 11: 10, 12: 10, 13: 10})


@dataclass(frozen=True)
class RoundOutcome:
    """A scored round of any game: the contract result, each score and the round's winners."""

    result: dict[str, Any]
    scores: dict[str, int]
    winners: tuple[str, ...]


def _racks(
    doc: Mapping[str, Any], game: str, names: Sequence[str] | None
) -> tuple[list[Holding], str | None]:
    limits = RUMMIKUB_LIMITS if game == "rummikub" else RUMMY_O_LIMITS
    worth = rummikub_worth if game == "rummikub" else rummy_o_worth
    extra = sorted(set(doc) - {"game", "players", "went_out", "options"})
    if extra:
        raise EntryError(
            f"the round has an unknown field {extra[0]!r}; the fields are game, players, went_out"
        )
    if doc.get("options"):
        raise EntryError(
            f"unknown option {next(iter(doc['options']))!r}: {limits.label} has "
            "no house-rule switches"
        )
    racks = read_holdings(doc, game=game, field="rack", limits=limits, worth=worth, names=names)
    if "went_out" not in doc:
        raise EntryError(
            "went_out is missing: the player who emptied their rack, or null when the pool ran out"
        )
    went_out = named_player(doc["went_out"], racks, "went_out")
    if went_out is not None:
        rack = next(h for h in racks if h.name == went_out)
        if rack.cards:
            rule = "RK-20" if game == "rummikub" else "RO-11"
            raise EntryError(
                f"{went_out} went out but still has {len(rack.cards)} tile"
                f"{'s' if len(rack.cards) != 1 else ''} on the rack ({rule})",
                player=went_out,
                rule=rule,
            )
    return racks, went_out


def score_tiles(
    doc: Mapping[str, Any], game: str, names: Sequence[str] | None = None
) -> RoundOutcome:
    """Score one round of Rummikub or Rummy-O from the racks."""
    racks, went_out = _racks(doc, game, names)
    lowest = min(h.value for h in racks)
    winners = (went_out,) if went_out else tuple(h.name for h in racks if h.value == lowest)
    scores: dict[str, int] = {}
    for h in racks:
        if game == "rummikub":
            # RK-21 / RK-22: losers pay their rack (or its excess over the winner's); DK-2: tied
            # winners each collect as if they had won alone.
            base = 0 if went_out else lowest
            if h.name in winners:
                scores[h.name] = sum(o.value - base for o in racks if o.name not in winners)
            else:
                scores[h.name] = -(h.value - base)
        else:
            # RO-12 / DO-4: the winner scores the others' rack values, the others nothing.
            scores[h.name] = (
                sum(o.value for o in racks if o.name != h.name) if h.name in winners else 0
            )
    result = {
        "game": game,
        "winners": list(winners),
        "players": [
            {"name": h.name, "rack_value": h.value, "score": scores[h.name]} for h in racks
        ],
    }
    return RoundOutcome(result, scores, winners)
