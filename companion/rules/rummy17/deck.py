"""Rummy 17's cards: 85 cards 1–17 in five colours and one joker of each colour (R17-1)."""

from __future__ import annotations

from ..cards import Deck
from ..holdings import Limits
from ..messages import F_, N_

RUMMY17 = Deck(
    "rummy17",
    ("R", "B", "G", "Y", "K"),
    1,
    17,
    True,
    {},
    # D17-1: the letters; only red and blue matter for scoring.
    {"R": N_("red"), "B": N_("blue"), "G": N_("green"), "Y": N_("yellow"), "K": N_("black")},
    copies=1,  # R17-1: each card exists exactly once
)
#: R17-1: every card and every joker exists once (the referee's copy checks).
ONCE = Limits("Rummy 17", (2, 6), 1, 1, "R17-1", "R17-1")

#: Each joker has a colour (R17-1), and the referee names it: "der rote Joker", "червеният
#: жокер", "a piros joker". Each language lists the forms of the colour names it needs in its
#: catalogue (context ``forms``, ``messages.inflect``); a sentence asks for one as ``{colour}[en]``.
FORMS = (
    F_("forms", "red"),
    F_("forms", "blue"),
    F_("forms", "green"),
    F_("forms", "yellow"),
    F_("forms", "black"),
)
