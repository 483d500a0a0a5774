"""Gin Rummy, the test game: a fifth game that lives only under tests/.

It proves that a game is one module: it joins the app through the ``companion.games`` entry
point of the distribution beside it (``companion_gin_rummy-1.0.dist-info``), and brings its
own deck, melds, words, numbers, rules reference, a template and a Hungarian catalogue in
this folder. Nothing outside ``tests/games/`` names it. Installed only by the tests that ask
for it (the ``gin`` fixture of ``tests/conftest.py``).

The rules, shortened for two players (GR-1…GR-6 in ``reference/en/gin.md``): whoever knocks
with the lower deadwood scores the difference, plus 25 for gin (no deadwood); a knocker
undercut by the other player's deadwood gives them the difference plus 25.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.domain.bounds import MAX_POINTS
from companion.domain.cards import Token
from companion.domain.errors import EntryError
from companion.domain.game import Choice, Column, Count, Decision, Game, RoundOutcome
from companion.domain.games.manipulation import MANIPULATION
from companion.domain.holdings import Limits, face_value, named_player
from companion.domain.messages import N_, register
from companion.domain.tile_melds import Style
from companion.domain.tiles import LeftoverGame

GIN_BONUS = 25  # GR-5
UNDERCUT_BONUS = 25  # GR-6
KNOCK_LIMIT = 10  # GR-4

register(
    {
        "gin-knocker-missing": N_("say who knocked: the round ends with a knock (GR-4)"),
        "gin-knock-too-high": N_(
            "{player} knocked with {value} deadwood; a knock needs {limit} or less (GR-4)"
        ),
    }
)

# The playing cards Manipulation Rummy uses (MR-1), under this game's id.
DECK = replace(MANIPULATION, game="gin")


class GinRummy(LeftoverGame):
    """Gin Rummy: two players, one deck without jokers; knock, gin and undercut."""

    id = "gin"
    order = 50
    name = N_("Gin Rummy")
    folder = Path(__file__).resolve().parent
    seats = (2, 2)
    seats_rule = "GR-1"
    clause_prefixes = ("GR",)
    deck = DECK
    holding = "hand"
    counts = (Count("points", N_("Deadwood"), MAX_POINTS),)
    endings = (Choice("went_out", N_("Who knocked?"), None, "GR-4"),)
    first_seat_rule = "GR-2"
    first_question = N_("Who deals first?")
    series_rule = "GR-2"
    columns = (Column("deadwood", N_("Deadwood"), "-"), Column("score", N_("Score")))
    round_keys = frozenset({"game", "players", "went_out", "options"})
    meld_style = Style("GR-3", "GR-3", "GR-3", False, 0, "GR-3", "GR-1")
    rescues = False
    numbers = {"gin": GIN_BONUS, "undercut": UNDERCUT_BONUS, "knock": KNOCK_LIMIT}
    decisions = (Decision("GR-1", N_("Ranks A 2–10 J Q K, suits S, H, D, C; no jokers.")),)

    def worth(self, card: Token) -> int:
        """GR-3: face cards 10, an ace 1, the others their number."""
        return face_value(card, joker=0, high={11: 10, 12: 10, 13: 10})

    def limits(self, doc: Mapping[str, Any]) -> Limits:
        return Limits(self.name, self.seats, 1, 0, "GR-1", self.seats_rule)

    check_turn = Game.check_turn  # no shared table: nothing to referee during a turn

    def score_round(self, doc: object, names: Sequence[str] | None = None) -> RoundOutcome:
        """GR-4…GR-6: the lower deadwood scores the difference, gin and undercut add 25."""
        doc, hands, problems = self.read_leftovers(doc, names)
        knocker = None
        with problems.check(field="went_out"):
            if doc.get("went_out") is None:
                raise EntryError("gin-knocker-missing", rule="GR-4")
            knocker = named_player(doc.get("went_out"), hands, "went_out")
        problems.raise_any()
        by_name = {h.name: h for h in hands}
        assert knocker is not None
        mine = by_name[knocker].value
        if mine > KNOCK_LIMIT:
            problems.add(
                EntryError(
                    "gin-knock-too-high",
                    player=knocker,
                    field="went_out",
                    rule="GR-4",
                    value=mine,
                    limit=KNOCK_LIMIT,
                )
            )
            problems.raise_any()
        other = next(h for h in hands if h.name != knocker)
        if mine < other.value or mine == 0:  # GR-5: the knocker wins; gin adds its bonus
            winner = knocker
            points = other.value - mine + (GIN_BONUS if mine == 0 else 0)
        else:  # GR-6: undercut
            winner = other.name
            points = mine - other.value + UNDERCUT_BONUS
        scores = {h.name: points if h.name == winner else 0 for h in hands}
        result = {
            "game": self.id,
            "winners": [winner],
            "players": [
                {"name": h.name, "deadwood": h.value, "score": scores[h.name]} for h in hands
            ],
        }
        return RoundOutcome(result, scores, (winner,))

    def example_round(self) -> dict[str, Any]:
        """Anna knocks with 7 deadwood against Béla's 22 and scores the difference (GR-5)."""
        return {
            "game": self.id,
            "went_out": "Anna",
            "players": [
                {"name": "Anna", "hand": ["5S", "2H"]},
                {"name": "Béla", "hand": ["KD", "9C", "3C"]},
            ],
        }


GAME = GinRummy()
