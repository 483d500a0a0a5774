"""Manipulation Rummy rounds and the 150-point finish (MR-8…MR-16, DM-2…DM-8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import Token
from .errors import EntryError
from .hands import Limits, face_value, named_player, read_holdings
from .tiles import RoundOutcome

LIMITS = Limits("Manipulation Rummy", (2, 5), 2, 2, "DM-8", "MR-1")
KNOCK_LIMIT = 5  # MR-9
UNDERCUT = 10  # MR-12
WENT_OUT_BONUS = 25  # MR-14
TARGET = 150  # MR-16
TARGET_BONUS = 100  # MR-16
ROUND_WON_BONUS = 25  # MR-16


def worth(card: Token) -> int:
    """MR-8: joker 25; J, Q, K 10; 2–10 face value; ace 1."""
    return face_value(card, joker=25, high={11: 10, 12: 10, 13: 10})


def score_manipulation(doc: Mapping[str, Any], names: Sequence[str] | None = None) -> RoundOutcome:
    """Score one round: the lowest hand wins the differences, plus undercut and going out."""
    extra = sorted(set(doc) - {"game", "players", "knocked", "went_out", "options"})
    if extra:
        raise EntryError(
            f"the round has an unknown field {extra[0]!r}; the fields are game, "
            "players, knocked, went_out"
        )
    if doc.get("options"):
        raise EntryError(
            f"unknown option {next(iter(doc['options']))!r}: Manipulation Rummy "
            "has no house-rule switches"
        )
    raw = doc.get("players")
    two = isinstance(raw, list) and len(raw) == 2
    # DM-8: one deck for two players, two decks for three or more.
    hands = read_holdings(
        doc,
        game="manipulation",
        field="hand",
        limits=LIMITS,
        worth=worth,
        copies=1 if two else None,
        names=names,
    )
    knocked = named_player(doc.get("knocked"), hands, "knocked")
    went_out = named_player(doc.get("went_out"), hands, "went_out")
    by_name = {h.name: h for h in hands}
    if went_out is not None:
        if knocked not in (None, went_out):
            raise EntryError(
                f"{went_out} went out, which is their knock; {knocked} cannot have "
                "knocked too (DM-4)",
                player=knocked,
                rule="DM-4",
            )
        if by_name[went_out].cards:
            raise EntryError(
                f"{went_out} went out but still holds cards (MR-14)", player=went_out, rule="MR-14"
            )
        knocked = went_out  # DM-4: going out is a knock with an empty hand
    if knocked is not None and by_name[knocked].value > KNOCK_LIMIT:
        raise EntryError(
            f"{knocked} knocked with a hand worth {by_name[knocked].value}; a knock "
            f"needs {KNOCK_LIMIT} or less (MR-9, DM-6)",
            player=knocked,
            rule="DM-6",
        )
    lowest = min(h.value for h in hands)
    at_lowest = [h.name for h in hands if h.value == lowest]
    if knocked in at_lowest and len(at_lowest) > 1:
        at_lowest.remove(knocked)  # MR-13, DM-3: a knocker loses a tie
    winners = tuple(at_lowest)
    lines = []
    for h in hands:
        base = undercut = bonus = 0
        if h.name in winners:
            base = sum(o.value - h.value for o in hands)  # MR-11: co-winners differ by zero
            undercut = UNDERCUT if knocked is not None and h.name != knocked else 0  # DM-5
            bonus = WENT_OUT_BONUS if h.name == went_out else 0  # DM-4
        lines.append(
            {
                "name": h.name,
                "hand_value": h.value,
                "score": base + undercut + bonus,
                "undercut": undercut,
                "went_out_bonus": bonus,
            }
        )
    result = {"game": "manipulation", "winners": list(winners), "players": lines}
    return RoundOutcome(result, {line["name"]: line["score"] for line in lines}, winners)


def end_bonus(totals: Mapping[str, int], rounds_won: Mapping[str, int]) -> dict[str, int] | None:
    """MR-16, DM-7: once anyone has 150, +100 to them and +25 per round won to everyone."""
    if max(totals.values()) < TARGET:
        return None
    return {
        n: (TARGET_BONUS if totals[n] >= TARGET else 0) + ROUND_WON_BONUS * rounds_won[n]
        for n in totals
    }
