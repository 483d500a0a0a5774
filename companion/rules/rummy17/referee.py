"""``check`` for Rummy 17: is this a legal meld? The referee's verdict, citing the rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import parse_card
from .melds import MeldError, analyse_meld, resolve


def check_rummy17_meld(cards: Sequence[object]) -> dict[str, Any]:
    """The verdict on one meld: legal with its kind and stand-ins, or illegal with the rule.

    Raises ``EntryError`` when a card cannot be read (exit 2), which is not a verdict.
    """
    tokens = [parse_card(c, "rummy17") for c in cards]
    try:
        meld = analyse_meld(tokens)
    except MeldError as err:
        return {"valid": False, "kind": None, "reason": err.message, "rule": err.rule}
    verdict: dict[str, Any] = {"valid": True, "kind": meld.kind}
    readings = [r.ordered() for r in resolve(meld)]
    if meld.ambiguous:
        # D17-6: legal, but the table must say which card the joker stands for.
        verdict["cards"] = [c.text for c in meld.ordered().cards]
        verdict["readings"] = [
            {"cards": [c.text for c in r.cards], "value": r.value} for r in readings
        ]
        verdict["reason"] = (
            f"the joker could stand for {' or '.join(c.text for c in meld.readings)}; "
            "when scoring, say which (D17-6)"
        )
        verdict["rule"] = "D17-6"
    else:
        verdict["cards"] = [c.text for c in readings[0].cards]
        verdict["value"] = readings[0].value
    return verdict
