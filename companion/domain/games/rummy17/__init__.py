"""Rummy 17 (Reiner Knizia, Piatnik): melds in front of each player, bonus cards, RUMMY 17.

The game's modules: ``melds`` (R17-9, R17-13, D17-6), ``bonus`` (R17-B1…B12, R17-17),
``table`` and ``scoring`` (R17-15…R17-18), ``document`` (the contract's round document and
D17-8) and ``play`` (rulings during play, R17-8…R17-12).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.domain.bounds import MAX_HAND_CARDS
from companion.domain.description import BonusCards, BonusCardText, Description, LastCardDoubles
from companion.domain.game import Choice, Column, Count, Decision, Game, RoundOutcome
from companion.domain.games.rummy17.bonus import BONUS_CARDS, Award, BonusCard
from companion.domain.games.rummy17.deck import RUMMY17
from companion.domain.games.rummy17.document import (
    check_parts,
    doubles,
    read_meld,
    read_part,
    read_table,
    result_json,
)
from companion.domain.games.rummy17.melds import MELD_LEAST, RUN, SET, Meld, analyse_meld
from companion.domain.games.rummy17.play import BONUS_DRAWN
from companion.domain.games.rummy17.scoring import GameResult, PlayerScore, score_game
from companion.domain.games.rummy17.table import Hand, Seat, Table
from companion.domain.games.rummy17.words import WORDS  # noqa: F401  (its own words: a deal is a game)
from companion.domain.messages import ENGLISH, N_, Translator


class Rummy17(Game):
    """Rummy 17: 2–6 players, 85 cards 1–17 in five colours, five jokers, twelve bonus cards."""

    id = "rummy17"
    order = 1
    name = N_("Rummy 17")
    seats = (2, 6)
    seats_rule = "R17-1"
    clause_prefixes = ("R17", "D17")
    deck = RUMMY17
    holding = "hand"
    jokers_held = False  # D17-8: no joker in a hand (R17-13)
    counts = (
        Count("low", N_("Cards 1–9"), MAX_HAND_CARDS),
        Count("high", N_("Cards 10–17"), MAX_HAND_CARDS),
    )
    melds_entered = True
    numbers = {"meld_least": MELD_LEAST}  # R17-9: the walker adds a run once it is this long
    opened_rule = "R17-10"
    knock_rule = "R17-8"
    endings = (Choice("went_out", N_("Who went out?"), N_("The draw pile ran out"), "R17-15"),)
    first_seat = "dealer"
    first_seat_rule = "R17-2"
    first_question = N_("Who deals first?")
    series_rule = "D17-7"
    columns = (
        Column("penalty", N_("Penalty"), "-"),
        Column("bonus", N_("Bonus"), "+"),
        Column("score", N_("Score")),
    )
    round_keys = frozenset(
        {"game", "bonus_cards", "went_out", "last_discard", "players", "options"}
    )
    decisions = (
        Decision(
            "D17-2",
            N_("Cards anyone adds to a meld count for the player who laid that meld down."),
        ),
        Decision(
            "D17-3",
            N_(
                "A joker on the table counts as a card, in its own colour, as the value it "
                "stands for, and as a joker."
            ),
        ),
        Decision(
            "D17-4",
            N_(
                "“Most”, “longest” and “highest” cards need a figure above zero; “fewest” "
                "cards go to everyone at the lowest figure, zero included."
            ),
        ),
        Decision(
            "D17-5",
            N_("When the draw pile runs out, nobody earns Went out and RUMMY 17 cannot apply."),
        ),
        Decision(
            "D17-6",
            N_(
                "A joker stands for a card its meld needs that exists; where it could go at "
                "either end of a run, the entry says which only if a bonus card in play "
                "depends on it."
            ),
        ),
        Decision(
            "D17-7",
            N_(
                "A match is one game per player unless the table agrees otherwise; after its "
                "last game it is finished. Equal totals share a rank."
            ),
        ),
        Decision(
            "D17-8",
            N_(
                "Entry checks: each card at most once, no joker left in a hand, whoever went "
                "out has an empty hand and a meld of their own, everyone else holds a card, "
                "every meld legal."
            ),
        ),
        Decision(
            "D17-9",
            N_(
                "Jokers are swapped only out of melds laid before the turn, even right after a "
                "first meld."
            ),
        ),
        Decision(
            "D17-10",
            N_(
                "The joker from beside the table is one of the four of a run laid that turn; "
                "never a set."
            ),
        ),
        Decision(
            "D17-11",
            N_("A turn never melds every card in the hand: one is kept for the discard."),
        ),
    )

    # The referee's answers load when asked (``companion score`` needs none of them).

    def check_meld(self, cards: Sequence[object]) -> dict[str, Any]:
        from companion.domain.games.rummy17.referee import check_rummy17_meld

        return check_rummy17_meld(cards)

    def check_turn(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        from companion.domain.games.rummy17.turn import check_rummy17_turn

        return check_rummy17_turn(self, doc)

    def knock(self, doc: Mapping[str, Any], tr: Translator = ENGLISH) -> dict[str, Any]:
        from companion.domain.games.rummy17.knock import knock_document

        return knock_document(doc, tr)

    def check_part(self, part: object, name: str, seats: Sequence[str]) -> dict[str, Any]:
        return read_part(part, name)

    def check_parts(self, parts: Mapping[str, Mapping[str, Any]], seats: Sequence[str]) -> None:
        check_parts(parts)

    def score_round(self, doc: object, names: Sequence[str] | None = None) -> RoundOutcome:
        table = read_table(doc, names=names)
        result = score_game(table)
        return RoundOutcome(result_json(table, result), result.scores, ())

    def multiplier(self, doc: Mapping[str, Any]) -> int:
        """R17-15a: going out on a 17 doubles everything (asked while the form is filled)."""
        went_out, last = doc.get("went_out"), doc.get("last_discard")
        named = went_out if isinstance(went_out, str) else None
        return 2 if doubles(named, last) else 1

    def round_line(self, outcome: RoundOutcome) -> dict[str, Any]:
        return {"rummy17": outcome.result["rummy17"]}

    def example_round(self) -> dict[str, Any]:
        """Anna goes out on B11 (no 17: nothing doubles, R17-15a); Béla's run holds a joker
        for Y7 (R17-13); five bonus cards are out (R17-3)."""
        return {
            "game": self.id,
            "bonus_cards": ["most-runs", "longest-set", "most-8-16", "fewest-blue", "went-out"],
            "went_out": "Anna",
            "last_discard": "B11",
            "players": [
                {
                    "name": "Anna",
                    "melds": [["G7", "G8", "G9", "G10"], ["R16", "B16", "Y16"]],
                    "hand": [],
                },
                {
                    "name": "Béla",
                    "melds": [["K2", "K3", "K4"], ["Y5", "Y6", "*Y7", "Y8"]],
                    "hand": ["R1", "G13"],
                },
                {"name": "Cili", "melds": [["R12", "B12", "G12", "K12"]], "hand": ["B5", "K17"]},
            ],
        }

    def describe(self) -> Description:
        high = self.deck.high
        return replace(
            super().describe(),
            # R17-15a: the card the player going out discarded; the last cards that double
            # the round, offered as one tap each (a 17 of each colour); any other card is
            # picked or typed, or given as "not a 17" ({"seventeen": false}).
            last_card_doubles=LastCardDoubles(
                cards=tuple(f"{c}{high}" for c in self.deck.colours),
                hint=N_("A 17 doubles every point: tap it. Any other card: type it or pick it."),
                rule="R17-15a",
                not_seventeen=N_("Not a 17"),
                notice=N_("RUMMY 17 — everything doubles (R17-15a)"),
            ),
            bonus_cards=BonusCards(
                draw=BONUS_DRAWN,
                rule="R17-3",
                cards=tuple(
                    BonusCardText(c.id, c.name, c.condition, c.rule) for c in BONUS_CARDS.values()
                ),
            ),
        )


GAME = Rummy17()

__all__ = [
    "BONUS_CARDS",
    "GAME",
    "RUMMY17",
    "RUN",
    "SET",
    "Award",
    "BonusCard",
    "GameResult",
    "Hand",
    "Meld",
    "PlayerScore",
    "Rummy17",
    "Seat",
    "Table",
    "analyse_meld",
    "doubles",
    "read_meld",
    "read_table",
    "result_json",
    "score_game",
]
