"""Rummy 17's cards: 85 cards 1–17 in five colours and one joker of each colour (R17-1)."""

from __future__ import annotations

from ..cards import Deck
from ..messages import N_

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
