"""What the games scored from leftovers share: melds where a joker stands for any card, and
the hands or racks counted when a round ends (Rummikub, Rummy-O, Manipulation Rummy).

``LeftoverGame`` checks melds and reads every player's leftovers; ``RackGame`` adds the tile
games' ending (who emptied their rack, or the pool ran out) and leaves the scoring to each
game (RK-21/RK-22/DK-2, RO-12/DO-4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.domain import turn_document
from companion.domain.bounds import MAX_POINTS
from companion.domain.cards import Joker, Token
from companion.domain.errors import Collector, EntryError, about
from companion.domain.game import (
    Choice,
    Column,
    Count,
    Game,
    RoundOutcome,
    check_round_keys,
    part_object,
    round_object,
)
from companion.domain.holdings import (
    Holding,
    Limits,
    check_copies,
    named_player,
    read_holdings,
    read_one,
)
from companion.domain.messages import N_, register
from companion.domain.tile_melds import Style, TurnRules, check_tiles

register(
    {
        "went-out-missing": N_(
            "went_out is missing: the player who emptied their rack, or null when the pool ran out"
        ),
        "went-out-rack-not-empty": N_("{player} went out, so nothing is left on it ({rule})"),
        "rack-empty-not-out": N_(
            "it is empty, but {winner} went out: every other rack holds a tile ({rule})"
        ),
        "rack-empty-pool-out": N_(
            "it is empty, so {player} went out and the pool did not run out ({rule})"
        ),
        "part-copies-taken": N_(
            "the box has only {most} of {card}, and {others} sent it too ({rule})"
        ),
    }
)


class LeftoverGame(Game):
    """A game scored from what is left in hands or racks, whose jokers stand for any card."""

    def worth(self, card: Token) -> int:
        """What one card or tile left over counts."""
        raise NotImplementedError

    def limits(self, doc: Mapping[str, Any]) -> Limits:
        """How many copies of a card and jokers the round may hold (DK-4, DO-6, DM-8)."""
        raise NotImplementedError

    #: The clauses a turn's checks cite (contract ``turn``).
    turn_rules: ClassVar[TurnRules]
    #: How melds are built, and the clause for each way one fails (RK-4/5, RO-4/5, MR-3/4).
    meld_style: ClassVar[Style]

    def check_meld(self, cards: Sequence[object]) -> dict[str, Any]:
        tokens = [self.parse_card(c) for c in cards]
        # DK-4, DO-6, DM-8: more copies than the box has is bad input, as in turn and rescue.
        turn_document.check_copies({"cards": tokens}, self.limits({}))
        return check_tiles(self, tokens)

    def check_turn(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        from companion.domain.turns import check_tile_turn  # the referee's checks load when asked

        return check_tile_turn(self, self.turn_rules, doc)

    rescues = True

    def rescue(self, cards: Sequence[object]) -> dict[str, Any]:
        from companion.domain.rescue import (  # the solver (and OR-Tools) load when asked
            read_table,
            rescue,
        )

        limits = self.limits({})  # DK-4, DO-6, DM-8: two of each card, two jokers
        table = read_table(self.deck, cards, limits.copies, limits.jokers, limits.rule)
        return rescue(self, table).to_json()

    def check_part(self, part: object, name: str, seats: Sequence[str]) -> dict[str, Any]:
        """The player's rack or hand on its own: every tile readable, no joker standing for
        a tile, no more copies than the box holds (DK-4, DO-6, DM-8)."""
        problems = Collector()
        with about(player=name):
            raw = part_object(part, (self.holding,))
            with problems.check(player=name, field=self.holding):
                holding = read_one(name, raw, self.holding, self.deck, self.worth, problems)
                limits = self.limits({"players": [{"name": seat} for seat in seats]})
                if not problems:
                    check_copies([holding], limits)
        problems.raise_any()
        return dict(raw)

    def check_parts(self, parts: Mapping[str, Mapping[str, Any]], seats: Sequence[str]) -> None:
        """DK-4, DO-6, DM-8 across the parts that came so far, in the order they came: a tile
        or card beyond the box's copies (or a joker beyond its jokers) is placed at the part
        that brought it, naming the parts that hold the others."""
        limits = self.limits({"players": [{"name": n} for n in seats]})
        holders: dict[str, list[str]] = {}  # a card (a joker: "*") → whose parts hold it
        problems = Collector()
        for name, part in parts.items():
            found = Collector()
            holding = read_one(name, part, self.holding, self.deck, self.worth, found)
            if found:
                continue  # its own problems are the part's, said when it was sent
            for t in holding.cards or ():
                joker = isinstance(t, Joker)
                key, most = ("*", limits.jokers) if joker else (t.text, limits.copies)
                before = holders.setdefault(key, [])
                others = ", ".join(n for n in dict.fromkeys(before) if n != name)
                if len(before) >= most and others:  # within one part: its own check said it
                    problems.add(
                        EntryError(
                            "part-copies-taken",
                            player=name,
                            field=self.holding,
                            card=key,
                            most=most,
                            others=others,
                            rule=limits.rule,
                        )
                    )
                before.append(name)
        problems.raise_any()

    def read_leftovers(
        self, doc: object, names: Sequence[str] | None
    ) -> tuple[Mapping[str, Any], list[Holding], Collector]:
        """The round, every player's leftovers, and the problems found so far (not raised)."""
        doc = round_object(doc)
        check_round_keys(self, doc)
        problems = Collector()
        held = read_holdings(
            doc,
            deck=self.deck,
            field=self.holding,
            limits=self.limits(doc),
            worth=self.worth,
            names=names,
            problems=problems,
        )
        return doc, held, problems


class RackGame(LeftoverGame):
    """A tile game scored from the racks: Rummikub and Deluxe Rummy-O."""

    seats = (2, 4)
    holding = "rack"
    counts = (Count("points", N_("Points on the rack"), MAX_POINTS),)
    round_keys = frozenset({"game", "players", "went_out", "options"})
    first_seat = "starter"
    columns = (Column("rack_value", N_("Rack"), "-"), Column("score", N_("Score")))
    #: The clause that makes emptying the rack win the round (RK-20, RO-11).
    went_out_rule: ClassVar[str]
    #: The clause for the entry checks (DK-4, DO-6).
    limits_rule: ClassVar[str]

    def scores(
        self, racks: Sequence[Holding], winners: Sequence[str], pool_out: bool
    ) -> dict[str, int]:
        """Each player's score for the round, from the racks and who won."""
        raise NotImplementedError

    def limits(self, doc: Mapping[str, Any]) -> Limits:
        return Limits(self.name, self.seats, 2, 2, self.limits_rule, self.seats_rule)

    def score_round(self, doc: object, names: Sequence[str] | None = None) -> RoundOutcome:
        doc, racks, problems = self.read_leftovers(doc, names)
        went_out: str | None = None
        found = len(problems.problems)
        with problems.check(field="went_out"):
            if "went_out" not in doc:
                raise EntryError("went-out-missing")
            went_out = named_player(doc["went_out"], racks, "went_out")
        if len(problems.problems) > found:
            problems.raise_any()  # which racks may be empty depends on who went out
        for rack in racks:  # DK-4, DO-6: only the winner's rack is empty
            if not rack.complete:
                continue  # its own problem is reported; what is left is not known yet
            if rack.name == went_out and not rack.empty:
                code, rule = "went-out-rack-not-empty", self.went_out_rule
            elif rack.name != went_out and rack.empty:
                code = "rack-empty-not-out" if went_out else "rack-empty-pool-out"
                rule = self.limits_rule
            else:
                continue
            problems.add(
                EntryError(code, player=rack.name, field="rack", rule=rule, winner=went_out)
            )
        problems.raise_any()
        lowest = min(h.value for h in racks)
        winners = (went_out,) if went_out else tuple(h.name for h in racks if h.value == lowest)
        scores = self.scores(racks, winners, went_out is None)
        result = {
            "game": self.id,
            "winners": list(winners),
            "players": [
                {"name": h.name, "rack_value": h.value, "score": scores[h.name]} for h in racks
            ],
        }
        return RoundOutcome(result, scores, winners)


__all__ = ["Choice", "LeftoverGame", "RackGame"]
