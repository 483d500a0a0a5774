"""Manipulation Rummy (MR-1…MR-16, DM-1…DM-8): knocks, undercuts and the 150-point finish."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.domain.bounds import MAX_POINTS
from companion.domain.cards import Deck, Token
from companion.domain.errors import Collector, EntryError
from companion.domain.game import Choice, Column, Count, Decision, RoundOutcome
from companion.domain.holdings import Holding, Limits, face_value, named_player
from companion.domain.messages import N_, P_, register
from companion.domain.tile_melds import Style, TurnRules
from companion.domain.tiles import LeftoverGame

#: Playing cards: ranks A, 2–10, J, Q, K in four suits, written rank first (10H, QD); MR-1.
MANIPULATION = Deck(
    "manipulation",
    ("S", "H", "D", "C"),
    1,
    13,
    False,
    {1: "A", 11: "J", 12: "Q", 13: "K"},
    {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")},
    suit_last=True,
    symbols={"S": "♠", "H": "♥", "D": "♦", "C": "♣"},
    rank_words={1: N_("ace"), 11: N_("jack"), 12: N_("queen"), 13: N_("king")},
)
JOKER = 25  # MR-8
FACE = 10  # MR-8: J, Q, K
KNOCK_LIMIT = 5  # MR-9
UNDERCUT = 10  # MR-12
WENT_OUT_BONUS = 25  # MR-14
TARGET = 150  # MR-16
TARGET_BONUS = 100  # MR-16
ROUND_WON_BONUS = 25  # MR-16

register(
    {
        "went-out-not-knocker": N_(
            "{winner} went out, which is their knock; {player} cannot have knocked too (DM-4)"
        ),
        "went-out-holds-cards": N_("{player} went out, so nothing is left in hand (MR-14)"),
        "knock-too-high": N_(
            "{player} knocked with a hand worth {value}; a knock needs {limit} or less (MR-9, DM-6)"
        ),
        "hand-empty-not-out": N_(
            "it is empty, so {player} went out; only the player who went out holds no cards (DM-8)"
        ),
        "series-target-only": N_(
            "Manipulation Rummy ends when someone reaches 150 (MR-16); it has no number of "
            "rounds to set"
        ),
    }
)


def worth(card: Token) -> int:
    """MR-8: joker 25; J, Q, K 10; 2–10 face value; ace 1."""
    return face_value(card, joker=JOKER, high=dict.fromkeys((11, 12, 13), FACE))


# The rescue page was written for tiles; Manipulation's pieces are cards.
P_(
    "manipulation",
    "Type every tile now on the table; the referee lays them out in legal melds, or says which "
    "tiles have no place (RK-11).",
)
P_("manipulation", "Every tile has a place")
P_("manipulation", "Not every tile can be placed")
P_("manipulation", "The most tiles that fit, in legal melds:")
P_("manipulation", "A joker shows the tile it stands for, like *R8.")
P_("manipulation", "The tiles on the table")
P_("manipulation", "Tap the colour, then the value of this tile.")


class Manipulation(LeftoverGame):
    """Manipulation Rummy: 2–5 players, one deck (two players) or two decks with jokers."""

    id = "manipulation"
    order = 4
    name = N_("Manipulation Rummy")
    seats = (2, 5)
    seats_rule = "MR-1"
    clause_prefixes = ("MR", "DM")
    deck = MANIPULATION
    holding = "hand"
    counts = (Count("points", N_("Points in hand"), MAX_POINTS),)
    endings = (
        Choice("knocked", N_("Who knocked?"), N_("Nobody knocked"), "MR-9"),
        Choice("went_out", N_("Who played all their cards?"), N_("Nobody went out"), "MR-14"),
    )
    first_seat = "dealer"
    first_seat_rule = "MR-1"
    first_question = N_("Who deals first?")
    rounds_per_player = False
    series_rule = "MR-16"
    columns = (
        Column("hand_value", N_("Hand"), "="),  # MR-11: counted, never taken off (DM-2)
        Column("undercut", N_("Undercut"), "+"),
        Column("went_out_bonus", N_("Going out"), "+"),
        Column("score", N_("Score")),
    )
    round_keys = frozenset({"game", "players", "knocked", "went_out", "options"})
    # MR-5, MR-6, MR-7; no initial meld.
    numbers = {  # MR-8, MR-9, MR-12, MR-14, MR-16: what the explanations and sheets quote
        "joker": JOKER,
        "face": FACE,
        "knock": KNOCK_LIMIT,
        "undercut": UNDERCUT,
        "went_out": WENT_OUT_BONUS,
        "target": TARGET,
        "target_bonus": TARGET_BONUS,
        "round_won": ROUND_WON_BONUS,
    }
    meld_style = Style("MR-3", "MR-4", "MR-4", True, 2, "MR-7", "MR-1", "MR-3")
    turn_rules = TurnRules(
        left_table="MR-6",
        freed_joker="MR-7",
        nothing_played="MR-6",
        from_hand="MR-5",
        words="card",
        named_joker="DM-9",
    )
    decisions = (
        Decision("DM-1", N_("Ranks A 2–10 J Q K, suits S spades, H hearts, D diamonds, C clubs.")),
        Decision("DM-2", N_("Only the winners of a round score; everyone else scores 0.")),
        Decision(
            "DM-3",
            N_(
                "Players tied for the lowest hand all win, but a knocker tied with anyone "
                "loses the tie."
            ),
        ),
        Decision(
            "DM-4",
            N_(
                "Going out is a knock with an empty hand; its 25 points go to that player only "
                "if they win the round."
            ),
        ),
        Decision("DM-5", N_("Without a knock there is no undercut bonus.")),
        Decision("DM-6", N_("A knock with a hand worth more than 5 is an entry error.")),
        Decision(
            "DM-7",
            N_(
                "Every winner of a round counts it as won; the 150 check is made on the totals "
                "after each round, before the end bonuses."
            ),
        ),
        Decision(
            "DM-8",
            N_(
                "Entry checks: one deck for two players, two decks for more; only the player "
                "who went out may hold no cards."
            ),
        ),
        Decision(
            "DM-9",
            N_(
                "A joker keeps its card anywhere on the table until that real card is there to "
                "replace it."
            ),
        ),
    )

    def worth(self, card: Token) -> int:
        return worth(card)

    def limits(self, doc: Mapping[str, Any]) -> Limits:
        raw = doc.get("players")
        decks = 1 if isinstance(raw, list) and len(raw) == 2 else 2  # DM-8
        return Limits(self.name, self.seats, decks, decks, "DM-8", self.seats_rule)

    def check_length(self, games: int | None) -> None:
        if games is not None:
            raise EntryError("series-target-only", field="games", rule="MR-16")

    def score_round(self, doc: object, names: Sequence[str] | None = None) -> RoundOutcome:
        """The lowest hand wins the differences, plus undercut and going out."""
        doc, hands, problems = self.read_leftovers(doc, names)
        knocked, went_out = self._ending(doc, hands, problems)
        return self._score(hands, knocked, went_out)

    def _ending(
        self, doc: Mapping[str, Any], hands: Sequence[Holding], problems: Collector
    ) -> tuple[str | None, str | None]:
        """Who knocked and who went out (MR-9, MR-14, DM-4, DM-6, DM-8); raises every problem."""
        knocked = went_out = None
        found = len(problems.problems)
        with problems.check(field="knocked"):
            knocked = named_player(doc.get("knocked"), hands, "knocked")
        with problems.check(field="went_out"):
            went_out = named_player(doc.get("went_out"), hands, "went_out")
        if len(problems.problems) > found:
            problems.raise_any()  # the checks below need to know who knocked and went out
        by_name = {h.name: h for h in hands}
        if went_out is None and knocked is not None and by_name[knocked].empty:
            went_out = knocked  # DM-4: a knock with an empty hand is going out
        if went_out is not None:
            if knocked not in (None, went_out):
                problems.add(
                    EntryError(
                        "went-out-not-knocker",
                        player=knocked,
                        field="knocked",
                        rule="DM-4",
                        winner=went_out,
                    )
                )
            if by_name[went_out].complete and not by_name[went_out].empty:
                problems.add(
                    EntryError(
                        "went-out-holds-cards", player=went_out, field="went_out", rule="MR-14"
                    )
                )
            knocked = went_out  # DM-4: going out is a knock with an empty hand
        elif (
            knocked is not None
            and by_name[knocked].complete
            and by_name[knocked].value > KNOCK_LIMIT
        ):
            problems.add(
                EntryError(
                    "knock-too-high",
                    player=knocked,
                    field="knocked",
                    rule="DM-6",
                    value=by_name[knocked].value,
                    limit=KNOCK_LIMIT,
                )
            )
        for h in hands:  # DM-8: only who went out may hold no cards
            if h.empty and h.name != went_out:
                problems.add(
                    EntryError("hand-empty-not-out", player=h.name, field="hand", rule="DM-8")
                )
        problems.raise_any()
        return knocked, went_out

    def _score(
        self, hands: Sequence[Holding], knocked: str | None, went_out: str | None
    ) -> RoundOutcome:
        lowest = min(h.value for h in hands)
        at_lowest = [h.name for h in hands if h.value == lowest]
        if knocked in at_lowest and len(at_lowest) > 1:
            at_lowest.remove(knocked)  # MR-13, DM-3: a knocker loses a tie
        winners = tuple(at_lowest)
        lines = []
        scores: dict[str, int] = {}
        for h in hands:
            base = undercut = bonus = 0
            if h.name in winners:
                base = sum(o.value - h.value for o in hands)  # MR-11: co-winners differ by 0
                undercut = UNDERCUT if knocked is not None and h.name != knocked else 0  # DM-5
                bonus = WENT_OUT_BONUS if h.name == went_out else 0  # DM-4
            scores[h.name] = base + undercut + bonus
            lines.append(
                {
                    "name": h.name,
                    "hand_value": h.value,
                    "score": scores[h.name],
                    "undercut": undercut,
                    "went_out_bonus": bonus,
                }
            )
        result = {"game": self.id, "winners": list(winners), "players": lines}
        return RoundOutcome(result, scores, winners)

    def end_bonus(
        self, totals: Mapping[str, int], outcomes: Sequence[RoundOutcome]
    ) -> dict[str, int] | None:
        """MR-16, DM-7: once anyone has 150, +100 to them and +25 per round won to everyone."""
        if max(totals.values()) < TARGET:
            return None
        won = {n: sum(n in o.winners for o in outcomes) for n in totals}
        return {
            n: (TARGET_BONUS if totals[n] >= TARGET else 0) + ROUND_WON_BONUS * won[n]
            for n in totals
        }

    def example_round(self) -> dict[str, Any]:
        """Béla knocks with 4 and is undercut by Anna's 3 (MR-12)."""
        return {
            "game": self.id,
            "knocked": "Béla",
            "went_out": None,
            "players": [
                {"name": "Anna", "hand": ["AH", "2C"]},
                {"name": "Béla", "hand": ["4D"]},
                {"name": "Cili", "hand": ["QS", "3H"]},
            ],
        }


GAME = Manipulation()
