"""Rummikub, the original (RK-1…RK-23, DK-1…DK-4): racks counted at the end of a round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.domain.cards import Deck, Token
from companion.domain.game import Choice, Decision
from companion.domain.holdings import Holding, face_value
from companion.domain.messages import F_, N_, NP_, P_
from companion.domain.tile_melds import Style, TurnRules
from companion.domain.tiles import RackGame

#: 106 tiles: 1–13 in four colours, twice, and two jokers (RK-1); DK-1: the letters.
RUMMIKUB = Deck(
    "rummikub",
    ("K", "R", "B", "O"),
    1,
    13,
    False,
    {},
    {"K": N_("black"), "R": N_("red"), "B": N_("blue"), "O": N_("orange")},
    copies=2,  # RK-1: every tile twice
)
#: Orange's forms, for a tile named with its colour ("orange 5", "оранжева 5"); the other three
#: colours list theirs with Rummy 17's (rummy17/deck.py).
FORMS = (F_("forms", "orange"),)
#: Rummikub's pieces are tiles (hu játéklap, de Stein, bg плочка), where a text shared with the
#: card games says cards: each says its own word in the context ``rummikub``.
WORDS = (
    # the picker's "Cards" tab and name, the turn page, the meld check, the round form
    P_("rummikub", "Cards"),
    P_("rummikub", "Card picker"),
    P_("rummikub", "The player's cards before the turn (optional)"),
    P_("rummikub", "Cards separated by spaces."),
    P_("rummikub", "Worth %(n)s, each joker counting as the card it stands for."),
    P_("rummikub", "Give the cards or the count, not both."),
    # the referee's words on melds, cards and fixes (tile_melds.py, cards.py, fixes.py)
    P_("rummikub", "a meld needs at least three cards, this one has {count}"),
    P_("rummikub", "a group never holds two identical cards: {card} appears twice"),
    P_("rummikub", "a group has at most four cards"),
    P_(
        "rummikub",
        "the joker cannot stand for {stand}: this group already holds it, and a group never "
        "holds two identical cards",
    ),
    P_("rummikub", "a run has at most {most} cards, one of each value"),
    P_(
        "rummikub",
        "{text} is not a card: a card is a colour ({colours}) and a value {low}–{high}, like "
        "{example}, or * for a joker",
    ),
    P_("rummikub", "{card} is not a card: values run from {low} to {high}"),
    NP_(
        "rummikub",
        "{text} is not a card: a card is at most {max} character",
        "{text} is not a card: a card is at most {max} characters",
    ),
    P_("rummikub", "{card} is not a joker: write * alone or * with the card it stands for"),
    NP_(
        "rummikub",
        "Add {short} more card to this meld, or take it apart.",
        "Add {short} more cards to this meld, or take it apart.",
    ),
    # the documents' and the API's words (holdings.py, turn_document.py, api, documents)
    P_("rummikub", 'nothing entered; give the cards left, or {{"points": N}} for their value'),
    P_("rummikub", 'a list of cards, or {{"points": N}} for the counted value'),
    P_("rummikub", "{field} must be a list of melds, each a list of cards"),
    P_("rummikub", "{field} must be a list of cards"),
    P_("rummikub", '{field} must be a list of cards, e.g. ["R3", "R4", "*R"]'),
    P_(
        "rummikub",
        '{field} must be a list of cards, or the counts as an object (like {{"points": 12}})',
    ),
    NP_(
        "rummikub", "a meld line holds at most {max} card", "a meld line holds at most {max} cards"
    ),
    NP_("rummikub", "a player holds at most {max} card", "a player holds at most {max} cards"),
)
RACK_JOKER = 30  # RK-21
FIRST_TILES = 14  # RK-2
REDEAL_PAIRS = 3  # RK-3


class Rummikub(RackGame):
    """Rummikub: 2–4 players, 106 tiles 1–13 in four colours and two jokers."""

    id = "rummikub"
    order = 2
    name = N_("Rummikub")
    seats_rule = "RK-1"
    clause_prefixes = ("RK", "DK")
    deck = RUMMIKUB
    #: RK-1: the tiles the photo reader learnt on, each ink its own letter.
    photo_inks = {"black": "K", "red": "R", "blue": "B", "orange": "O"}
    endings = (Choice("went_out", N_("Who emptied their rack?"), N_("The pool ran out"), "RK-20"),)
    first_seat_rule = "RK-2"
    first_question = N_("Who starts?")
    series_rule = "DK-3"
    initial_meld = 30  # RK-6: face values, a joker the value of its stand-in
    turn_seconds = 60  # RK-10
    turn_rule = "RK-10"
    turn_penalty = Decision(
        "RK-11",
        N_(
            "Put every tile back where it was and draw 3 penalty tiles; each tile that cannot "
            "be put back is shuffled into the pool and costs one more penalty tile."
        ),
    )
    went_out_rule = "RK-20"
    limits_rule = "DK-4"
    opened_rule = "RK-6"
    numbers = {"rack_joker": RACK_JOKER}  # RK-21
    meld_style = Style("RK-4", "RK-5", "RK-5", False, 2, "RK-12", "RK-1")
    turn_rules = TurnRules(
        left_table="RK-9",
        freed_joker="RK-14",
        nothing_played="RK-8",
        from_hand="RK-8",
        words="tile",
        initial_least=30,  # RK-6: face values, a joker the value it stands for
        initial_rule="RK-6",
        initial_touch="RK-6",
        initial_joker="RK-13",
    )
    decisions = (
        Decision("DK-1", N_("Colour letters: K black, R red, B blue, O orange.")),
        Decision(
            "DK-2",
            N_(
                "When the pool runs out and several players tie for the lowest rack, each of "
                "them scores as if they had won alone."
            ),
        ),
        Decision(
            "DK-3",
            N_("A match is one round per player unless the table agrees otherwise."),
        ),
        Decision(
            "DK-4",
            N_(
                "Entry checks: at most two of each tile and two jokers; only the winner's rack "
                "is empty, and none is when the pool ran out."
            ),
        ),
        Decision(
            "DK-5",
            N_(
                "A freed joker may end the turn in any meld, an old one with tiles added "
                "included: the Rummikub box asks for no new meld, unlike Rummy-O's."
            ),
        ),
    )

    def worth(self, tile: Token) -> int:
        """RK-21: a tile counts its number, a joker on a rack 30."""
        return face_value(tile, joker=RACK_JOKER)

    redeals = True  # RK-3

    def check_redeal(self, tiles: Sequence[object]) -> dict[str, Any]:
        from companion.domain.turns import check_redeal  # the referee's checks load when asked

        return check_redeal(self, tiles, count=FIRST_TILES, least=REDEAL_PAIRS, rule="RK-3")

    def scores(
        self, racks: Sequence[Holding], winners: Sequence[str], pool_out: bool
    ) -> dict[str, int]:
        # RK-21 / RK-22: losers pay their rack (or its excess over the winner's); DK-2: tied
        # winners each collect as if they had won alone.
        base = min(h.value for h in racks) if pool_out else 0
        losers = [h for h in racks if h.name not in winners]
        return {
            h.name: sum(o.value - base for o in losers) if h.name in winners else base - h.value
            for h in racks
        }

    def example_round(self) -> dict[str, Any]:
        """Cili empties her rack; Anna pays 30 for the joker on hers (RK-21)."""
        return {
            "game": self.id,
            "went_out": "Cili",
            "players": [
                {"name": "Anna", "rack": ["K1", "K2", "*"]},
                {"name": "Béla", "rack": ["O12", "B7"]},
                {"name": "Cili", "rack": []},
            ],
        }


GAME = Rummikub()
