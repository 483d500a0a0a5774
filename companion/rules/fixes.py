"""What would make an illegal turn legal, where the fix is obvious (the referee's second pass).

A refusal names the player, meld, card and clause; where one change settles it (the tile that
went back to a rack, the joker that must be placed, the meld that is one card short), the
problem also says that change. A fix is a message code of its own (``fix-`` + the problem's
code, or its variant for the clause the problem cites, ``BY_RULE``) rendered from the
problem's own parameters, so every shell says it in the table's language
(``messages.localize``). An extension of the contract's ``turn`` problems: ``fix`` and
``fix_code`` beside ``reason``.
"""

from __future__ import annotations

from typing import Any

from .errors import Problem
from .messages import MESSAGES, N_, NN_, register, render

register(
    {
        # the tile games (RK-4…RK-14, RO-4…RO-9, MR-3…MR-7)
        "fix-turn-left-table-tile": N_("Put {card} back into a meld on the table."),
        "fix-turn-left-table-card": N_("Put {card} back into a meld on the table."),
        # RK-14, DK-5: Rummikub's box asks for any meld; RO-9, DO-7: Rummy-O's for a new one
        "fix-turn-joker-left-tile": N_(
            "Use the freed joker in a meld on the table this turn: any meld will do, one that "
            "was there before included."
        ),
        "fix-turn-joker-left-tile-new": N_(
            "Use the freed joker in a new combination this turn, not in one that was on the "
            "table before with tiles only added."
        ),
        "fix-turn-joker-left-card": N_("Use the freed joker in a meld on the table this turn."),
        "fix-turn-nothing-played-tile": N_("Play a tile from the rack, or draw a tile instead."),
        "fix-turn-nothing-played-card": N_("Play a card from the hand, or draw instead."),
        "fix-turn-not-in-hand-tile": N_("Take {card} off the table: it was never on the rack."),
        "fix-turn-not-in-hand-card": N_("Take {card} off the table: it was never in the hand."),
        "fix-turn-initial-touched": N_(
            "Leave meld {number} as it was: before the initial meld only the rack's own tiles "
            "are laid."
        ),
        "fix-turn-initial-joker": N_("Leave the joker where it was until after the initial meld."),
        "fix-turn-initial-value": NN_(
            "Lay {short} point more from the rack, or take the tiles back and draw.",
            "Lay {short} points more from the rack, or take the tiles back and draw.",
            "short",
        ),
        "fix-turn-freed-joker-old-meld": N_(
            "Take the freed joker out of meld {number} and use it in a new combination this turn."
        ),
        "fix-turn-joker-renamed": N_(
            "Let the joker stand for {card} again, or put a {card} in its place."
        ),
        "fix-turn-joker-renamed-rank": N_(
            "Let the joker stand for a {rank} again, or put a {rank} in its place."
        ),
        # RO-9, DO-8: Rummy-O frees a joker only with its tile from the rack
        "fix-turn-joker-freed-unplayed": N_(
            "Let the joker stand for {card} again, or put a {card} from the rack in its place."
        ),
        "fix-turn-joker-freed-unplayed-rank": N_(
            "Let the joker stand for a {rank} again, or put a {rank} from the rack in its place."
        ),
        "fix-tiles-too-short": NN_(
            "Add {short} more card to this meld, or take it apart.",
            "Add {short} more cards to this meld, or take it apart.",
            "short",
        ),
        # Rummy 17 (R17-9…R17-13)
        "fix-meld-too-short": NN_(
            "Add {short} more card to this meld, or take it back.",
            "Add {short} more cards to this meld, or take it back.",
            "short",
        ),
        "fix-turn17-card-moved": N_("Put {card} back into {owner}'s meld {number}."),
        "fix-turn17-new-meld-other": N_(
            "Lay the new meld in front of {current}, after their own melds."
        ),
        "fix-turn17-add-before-meld": N_(
            "Lay a meld of {current}'s own this turn first, or take {cards} back."
        ),
        "fix-turn17-joker-added": N_(
            "Leave the {colour} joker beside the table, or lay it in a new run of four or more "
            "{colour} cards."
        ),
        "fix-turn17-joker-set": N_(
            "Leave the {colour} joker beside the table, or lay it in a new run of four or more "
            "{colour} cards."
        ),
        "fix-turn17-joker-short": NN_(
            "Add {short} more {colour} card to the run, or leave the joker beside the table.",
            "Add {short} more {colour} cards to the run, or leave the joker beside the table.",
            "short",
        ),
        "fix-turn17-swap-card-missing": N_(
            "Put {stand} where the {colour} joker was in {owner}'s meld {number}."
        ),
        "fix-turn17-joker-not-melded": N_("Meld the {colour} joker this turn."),
        "fix-turn17-swap-not-opened": N_(
            "Put the {colour} joker back: a joker is swapped only after one's first meld."
        ),
        "fix-turn17-not-in-hand": N_("Take {card} off the table: it was not in {player}'s hand."),
        "fix-turn17-no-discard": N_(
            "Keep one card of {player}'s hand back from the table to discard it."
        ),
    }
)


#: A fix that differs with the clause its problem cites: each box as printed (DK-5, DO-7).
BY_RULE = {
    ("fix-turn-joker-left-tile", rule): "fix-turn-joker-left-tile-new" for rule in ("RO-9", "DO-7")
}

#: Melds that are short of three cards (RK-4/5, R17-9): the fix counts up to three.
SHORT_OF_THREE = frozenset({"fix-tiles-too-short", "fix-meld-too-short"})


def fix_fields(problem: Problem, params: dict[str, Any]) -> dict[str, Any]:
    """``fix`` in English and ``fix_code`` for ``localize``, where a fix is obvious, else {}.

    ``params`` are the problem's parameters as the turn's answer gives them; a fix that needs
    a figure the problem lacks (how many cards short) works it out here.
    """
    code = f"fix-{problem.code}"
    code = BY_RULE.get((code, problem.rule or ""), code)
    if code not in MESSAGES:
        return {}
    values = dict(params)
    if "count" in values and ("least" in values or code in SHORT_OF_THREE):
        values.setdefault("short", max(int(values.get("least", 3)) - int(values["count"]), 1))
    if "value" in values and "least" in values:
        values.setdefault("short", max(int(values["least"]) - int(values["value"]), 1))
    try:
        text = render(code, values)
    except (KeyError, IndexError, ValueError):  # the problem lacks what its fix would say
        return {}
    return {"fix": text, "fix_code": code, "fix_params": values}
