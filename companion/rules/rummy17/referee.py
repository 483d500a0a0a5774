"""``check`` for Rummy 17: is this a legal meld? The referee's verdict, citing the rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import parse_card
from ..errors import Problem, note_fields, reason_fields
from ..messages import N_, register
from ..turn_document import check_copies
from .deck import ONCE
from .melds import RUN, MeldError, analyse_meld, resolve

register(
    {
        "check-joker-could": N_(
            "the joker could stand for {could}; when scoring, say which ({rule})"
        ),
        "check-joker-beside-table": N_(
            "legal on the table, but a joker from beside the table is taken only to lay a run "
            "of at least four cards of its colour ({rule})"
        ),
    }
)


def check_rummy17_meld(cards: Sequence[object]) -> dict[str, Any]:
    """The verdict on one meld: legal with its kind and stand-ins, or illegal with the rule.

    ``reason`` is in English; ``code`` and ``params`` let a shell say it in another language
    (``messages.render``). Raises ``EntryError`` when a card cannot be read, or a card or a
    joker is given twice (R17-1: each exists once) (exit 2), which is not a verdict.
    """
    tokens = [parse_card(c, "rummy17") for c in cards]
    check_copies({"cards": tokens}, ONCE)  # R17-1: bad input, as in ``turn`` and ``rescue``
    try:
        meld = analyse_meld(tokens)
    except MeldError as err:
        return {"valid": False, "kind": None, "rule": err.rule, **reason_fields(err.first)}
    # No ``value``: Rummy 17 has no initial meld to count (the contract's value is RK-6, RO-6).
    verdict: dict[str, Any] = {"valid": True, "kind": meld.kind}
    readings = [r.ordered() for r in resolve(meld)]
    if meld.ambiguous:
        # D17-6: legal, but the table must say which card the joker stands for.
        verdict["cards"] = [c.text for c in meld.ordered().cards]
        verdict["readings"] = [
            {"kind": r.kind, "cards": [c.text for c in r.cards]} for r in readings
        ]
        problem = Problem(
            "check-joker-could", {"could": [c.text for c in meld.readings]}, rule="D17-6"
        )
        verdict.update(reason_fields(problem))
        verdict["rule"] = "D17-6"
    else:
        verdict["cards"] = [c.text for c in readings[0].cards]
    if meld.joker is not None and not (meld.kind == RUN and len(meld.cards) >= 4):
        # R17-11: a joker comes from beside the table only with a run of four of its colour;
        # in this meld it must be one swapped from the table (R17-12). An extension: a note.
        verdict.update(note_fields(Problem("check-joker-beside-table", rule="R17-11")))
    return verdict
