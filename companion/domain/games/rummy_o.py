"""Deluxe Rummy-O (RO-1…RO-12, DO-1…DO-8): the winner scores what the others hold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.domain.cards import Card, Deck, Token
from companion.domain.game import Choice, Column, Decision
from companion.domain.holdings import Holding, face_value
from companion.domain.messages import N_, NP_, P_
from companion.domain.tile_melds import Style, TurnRules
from companion.domain.tiles import RackGame

#: 106 tiles: 1–13 in four colours, twice, and two jokers (RO-1); DO-1: the letters.
RUMMY_O = Deck(
    "rummy-o",
    ("R", "B", "K", "G"),
    1,
    13,
    False,
    {},
    {"R": N_("red"), "B": N_("blue"), "K": N_("black"), "G": N_("green")},
    copies=2,  # RO-1: every tile twice
)
#: Rummy-O's pieces are tiles too (bg плочки, rummy-o-bg.txt l.7): the texts it shares with the
#: card games say so in the context ``rummy-o``.
WORDS = (
    # the picker's "Cards" tab and name, the turn page, the meld check, the round form
    P_("rummy-o", "Cards"),
    P_("rummy-o", "Card picker"),
    P_("rummy-o", "The player's cards before the turn (optional)"),
    P_("rummy-o", "Cards separated by spaces."),
    P_("rummy-o", "Worth %(n)s, each joker counting as the card it stands for."),
    P_("rummy-o", "Give the cards or the count, not both."),
    # the referee's words on melds, cards and fixes (tile_melds.py, cards.py, fixes.py)
    P_("rummy-o", "a meld needs at least three cards, this one has {count}"),
    P_("rummy-o", "a group never holds two identical cards: {card} appears twice"),
    P_("rummy-o", "a group has at most four cards"),
    P_(
        "rummy-o",
        "the joker cannot stand for {stand}: this group already holds it, and a group never "
        "holds two identical cards",
    ),
    P_("rummy-o", "a run has at most {most} cards, one of each value"),
    P_(
        "rummy-o",
        "{text} is not a card: a card is a colour ({colours}) and a value {low}–{high}, like "
        "{example}, or * for a joker",
    ),
    P_("rummy-o", "{card} is not a card: values run from {low} to {high}"),
    NP_(
        "rummy-o",
        "{text} is not a card: a card is at most {max} character",
        "{text} is not a card: a card is at most {max} characters",
    ),
    P_("rummy-o", "{card} is not a joker: write * alone or * with the card it stands for"),
    NP_(
        "rummy-o",
        "Add {short} more card to this meld, or take it apart.",
        "Add {short} more cards to this meld, or take it apart.",
    ),
    # the documents' and the API's words (holdings.py, turn_document.py, api, documents)
    P_("rummy-o", 'nothing entered; give the cards left, or {{"points": N}} for their value'),
    P_("rummy-o", 'a list of cards, or {{"points": N}} for the counted value'),
    P_("rummy-o", "{field} must be a list of melds, each a list of cards"),
    P_("rummy-o", "{field} must be a list of cards"),
    P_("rummy-o", '{field} must be a list of cards, e.g. ["R3", "R4", "*R"]'),
    P_(
        "rummy-o",
        '{field} must be a list of cards, or the counts as an object (like {{"points": 12}})',
    ),
    NP_("rummy-o", "a meld line holds at most {max} card", "a meld line holds at most {max} cards"),
    NP_("rummy-o", "a player holds at most {max} card", "a player holds at most {max} cards"),
)
JOKER = 25  # RO-2
HIGH_TILE = 10  # RO-2: what 1, 11, 12 and 13 are worth
TENS = dict.fromkeys((1, 11, 12, 13), HIGH_TILE)  # RO-2


def point_value(tile: Token) -> int:
    """RO-2: 1, 11, 12 and 13 are worth 10 each, a joker 25, the rest their number."""
    return face_value(tile, joker=JOKER, high=TENS)


class RummyO(RackGame):
    """Deluxe Rummy-O: 2–4 players, 106 tiles 1–13 in four colours and two jokers."""

    id = "rummy-o"
    order = 3
    name = N_("Deluxe Rummy-O")
    seats_rule = "RO-1"
    clause_prefixes = ("RO", "DO")
    deck = RUMMY_O
    #: RO-1: Rummikub's tiles with green where Rummikub has orange; the reader's fourth ink is
    #: read as green.
    photo_inks = {"black": "K", "red": "R", "blue": "B", "orange": "G"}
    endings = (
        Choice("went_out", N_("Who played all their tiles?"), N_("The pool ran out"), "RO-11"),
    )
    first_seat_rule = "RO-3"
    first_question = N_("Who drew the highest tile?")
    series_rule = "DO-5"
    initial_meld = 25  # RO-6, DO-3: the point values of RO-2
    turn_seconds = 180  # RO-10; the rulebook sets no penalty for running over (no turn_penalty)
    turn_rule = "RO-10"
    went_out_rule = "RO-11"
    limits_rule = "DO-6"
    opened_rule = "RO-6"
    numbers = {"joker": JOKER, "high_tile": HIGH_TILE}  # RO-2
    # RO-12: a rack is what the winner collects, never taken off its holder (0, not -48).
    columns = (Column("rack_value", N_("Rack"), "="), Column("score", N_("Score")))
    meld_style = Style("RO-4", "RO-5", "DO-2", False, 2, "RO-9", "RO-1")
    turn_rules = TurnRules(
        left_table="RO-8",
        freed_joker="RO-9",
        nothing_played="RO-7",
        from_hand="RO-7",
        words="tile",
        initial_least=25,  # RO-6, DO-3: the point values of RO-2, a joker its stand-in's
        initial_rule="RO-6",
        initial_touch="RO-8",
        initial_joker="RO-8",
        freed_joker_new="DO-7",
        freed_by_tile="DO-8",
    )
    decisions = (
        Decision("DO-1", N_("Colour letters: R red, B blue, K black, G green.")),
        Decision("DO-2", N_("1 is low only: 13-1 never follows in a run.")),
        Decision(
            "DO-3",
            N_(
                "The initial meld counts the point values of RO-2; a joker counts as the tile "
                "it stands for."
            ),
        ),
        Decision(
            "DO-4",
            N_(
                "When the pool runs out, the lowest rack wins the sum of every other rack; "
                "players tied for lowest each score that sum."
            ),
        ),
        Decision("DO-5", N_("A match is one round per player unless the table agrees otherwise.")),
        Decision(
            "DO-6",
            N_(
                "Entry checks: at most two of each tile and two jokers; only the winner's rack "
                "is empty, and none is when the pool ran out."
            ),
        ),
        Decision(
            "DO-7",
            N_(
                "A freed joker must end the turn in a new combination, not in an old one with "
                "tiles only added, its own included; a joker from the rack may join any "
                "combination."
            ),
        ),
        Decision(
            "DO-8",
            N_(
                "A joker leaves a combination only for its tile played from the rack that turn; "
                "rearranging the table alone frees no joker."
            ),
        ),
    )

    def worth(self, tile: Token) -> int:
        return point_value(tile)

    def opening_worth(self, card: Card) -> int:
        # DO-3: the initial meld counts RO-2's point values, a joker as its stand-in.
        return point_value(card)

    def scores(
        self, racks: Sequence[Holding], winners: Sequence[str], pool_out: bool
    ) -> dict[str, int]:
        # RO-12 / DO-4: each winner scores every other rack (a co-winner's included), the
        # others nothing.
        return {
            h.name: sum(o.value for o in racks if o.name != h.name) if h.name in winners else 0
            for h in racks
        }

    def example_round(self) -> dict[str, Any]:
        """Anna plays all her tiles and scores both racks: R1 and G13 count 10, a joker 25
        (RO-2, RO-12)."""
        return {
            "game": self.id,
            "went_out": "Anna",
            "players": [
                {"name": "Anna", "rack": []},
                {"name": "Béla", "rack": ["R1", "K2"]},
                {"name": "Cili", "rack": ["G13", "*"]},
            ],
        }


GAME = RummyO()
