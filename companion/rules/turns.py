"""Is this turn legal? The referee's answer for the tile games (contract ``turn``).

Rummikub (RK-4…RK-14), Deluxe Rummy-O (RO-4…RO-9, DO-3) and Manipulation Rummy
(MR-3…MR-7): the table before and after one turn, compared as multisets (a joker is a joker
whatever it stands for). Each check is one function of ``TILE_CLAUSES``, run in the
contract's order; every problem is reported with its clause, not only the first:

1. ``_every_meld_is_legal``: every meld after the turn is a legal group or run
   (RK-4/5, RO-4/5, MR-3/4);
2. ``_nothing_leaves_the_table``: no tile goes back to a rack (no card to a hand), a freed
   joker included (RK-9, RK-14, RO-8, RO-9, MR-6, MR-7);
3. ``_something_was_played``: at least one card was played (RK-8, RO-7, MR-6);
4. ``_played_cards_come_from_the_hand``: with the hand, every played card was in it
   (RK-8, RO-7, MR-5);
5. before the initial meld (Rummikub, Rummy-O):
   ``_initial_meld_leaves_the_table_alone`` (RK-6, RO-8),
   ``_no_joker_taken_before_the_initial_meld`` (RK-13, RO-8) and
   ``_initial_meld_is_worth_enough`` (RK-6, RO-6, DO-3).

What every game's ``turn`` shares is in ``turn_document`` (Rummy 17's own clauses are in
``rummy17.turn``). Also the redeal check of Rummikub (RK-3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .cards import Card, Joker, Token, card_sort_key
from .errors import Collector, EntryError, Problem
from .messages import N_, NN_, register
from .tile_melds import TurnRules, check_tiles, meld_value
from .turn_document import (
    beyond_hand,
    check_copies,
    check_turn_copies,
    key,
    missing,
    played_cards,
    read_cards,
    read_melds,
    read_turn,
    verdict_json,
)

if TYPE_CHECKING:
    from .tiles import LeftoverGame

register(
    {
        "turn-left-table-tile": N_(
            "{card} is no longer on the table: a tile never goes back to a rack"
        ),
        "turn-left-table-card": N_(
            "{card} is no longer on the table: a card never goes back to a hand"
        ),
        "turn-joker-left-tile": N_(
            "a joker is no longer on the table: a freed joker must be used in a set in the same "
            "turn and never goes onto a rack"
        ),
        "turn-joker-left-card": N_(
            "a joker is no longer on the table: a freed joker cannot leave the table and must "
            "be used at once"
        ),
        "turn-nothing-played-tile": N_(
            "nothing was played: a turn puts at least one tile from the rack on the table, or "
            "the player draws"
        ),
        "turn-nothing-played-card": N_(
            "nothing was played: a turn adds at least one card from the hand to the table"
        ),
        "turn-not-in-hand-tile": N_("{card} was played but was not on the rack"),
        "turn-not-in-hand-card": N_("{card} was played but was not in the hand"),
        "turn-initial-touched": N_(
            "meld {number} of the table before the turn was changed: an initial meld uses "
            "only tiles from one's own rack and leaves the table alone"
        ),
        "turn-initial-joker": N_("a joker was taken from the table before the initial meld"),
        "turn-initial-value": N_("the initial meld is worth {value}; it needs at least {least}"),
        "redeal-not-list": N_("tiles must be a list of the first {count} tiles"),
        "redeal-count": N_("the first tiles are {count}, not {given} ({rule})"),
        "redeal-yes": N_("{pairs} pairs: the player may show them and ask for a reshuffle"),
        "redeal-no": NN_(
            "{pairs} pair: a redeal needs {least} or more identical pairs",
            "{pairs} pairs: a redeal needs {least} or more identical pairs",
            "pairs",
        ),
    }
)

TURN_KEYS = frozenset({"game", "opened", "before", "after", "hand"})


@dataclass(frozen=True)
class InitialMeld:
    """A turn before the player's initial meld: what the new melds are worth, and the melds
    of the table before (numbered from 1) not found unchanged after it."""

    value: int
    touched: list[int]


@dataclass(frozen=True)
class TileTurn:
    """One turn of a tile game as the document gives it, each meld with its verdict."""

    game: LeftoverGame
    rules: TurnRules
    opened: bool
    before: list[list[Token]]
    after: list[list[Token]]
    hand: list[Token] | None
    before_verdicts: list[dict[str, Any]]  # each meld's ``check`` verdict
    verdicts: list[dict[str, Any]]  # each meld of ``after``: its ``check`` verdict

    @cached_property
    def on_before(self) -> list[Token]:
        """Every card on the table before the turn."""
        return [t for m in self.before for t in m]

    @cached_property
    def on_after(self) -> list[Token]:
        """Every card on the table after the turn."""
        return [t for m in self.after for t in m]

    @cached_property
    def played(self) -> list[Token]:
        """The cards on the table after the turn that were not on it before."""
        return played_cards(self.on_before, self.on_after)

    @cached_property
    def initial(self) -> InitialMeld | None:
        """The initial meld (RK-6, RO-6); None once opened, or in a game without one."""
        if self.rules.initial_least is None or self.opened:
            return None
        return _initial_meld(self)


def check_tile_turn(game: LeftoverGame, rules: TurnRules, doc: object) -> dict[str, Any]:
    """The contract's ``turn`` for a tile game: checks 1–5, every problem with its clause.

    :raises EntryError: bad input: an unreadable document or card, too many copies, an
        illegal table before the turn, a joker whose stand-in cannot be told.
    """
    turn = _read_tile_turn(game, rules, doc)
    value = turn.initial.value if turn.initial is not None else None
    return verdict_json(TILE_CLAUSES, turn, turn.played, value, _meld_entries(turn))


def _read_tile_turn(game: LeftoverGame, rules: TurnRules, raw: object) -> TileTurn:
    read = read_turn(raw, game, TURN_KEYS, read_melds)
    on_before = [t for m in read.before for t in m]
    on_after = [t for m in read.after for t in m]
    check_turn_copies(on_before, on_after, read.hand, game.limits({}))
    before_verdicts = _verdicts(read.before, game, "before")
    verdicts = _verdicts(read.after, game, "after")
    return TileTurn(
        game, rules, read.opened, read.before, read.after, read.hand, before_verdicts, verdicts
    )


def _every_meld_is_legal(turn: TileTurn) -> Iterator[Problem]:
    """Check 1 (RK-4/5, RO-4/5, MR-3/4): every meld after the turn is a legal group or run."""
    for number, verdict in enumerate(turn.verdicts, start=1):
        if not verdict["valid"]:
            yield Problem(verdict["code"], _params(verdict), meld=number, rule=verdict["rule"])


def _nothing_leaves_the_table(turn: TileTurn) -> Iterator[Problem]:
    """Check 2 (RK-9, RO-8, MR-6): no tile goes back to a rack, no card to a hand; nor does a
    freed joker, which is used on the table in the same turn (RK-14, RO-9, MR-7)."""
    rules, w = turn.rules, turn.rules.words
    gone = missing(turn.on_before, turn.on_after)
    for text in sorted(gone, key=lambda k: card_sort_key(turn.game.parse_card(k))):
        for _ in range(gone[text]):
            if text.startswith("*"):
                yield Problem(f"turn-joker-left-{w}", card=text, rule=rules.freed_joker)
            else:
                yield Problem(f"turn-left-table-{w}", card=text, rule=rules.left_table)


def _something_was_played(turn: TileTurn) -> Iterator[Problem]:
    """Check 3 (RK-8, RO-7, MR-6): a turn puts at least one card from the hand on the table."""
    if not turn.played:
        yield Problem(f"turn-nothing-played-{turn.rules.words}", rule=turn.rules.nothing_played)


def _played_cards_come_from_the_hand(turn: TileTurn) -> Iterator[Problem]:
    """Check 4 (RK-8, RO-7, MR-5): with the hand given, every played card was in it."""
    if turn.hand is None:
        return
    for t in beyond_hand(turn.hand, turn.played):
        yield Problem(
            f"turn-not-in-hand-{turn.rules.words}", card=key(t), rule=turn.rules.from_hand
        )


def _initial_meld_leaves_the_table_alone(turn: TileTurn) -> Iterator[Problem]:
    """Check 5 (RK-6, RO-8): an initial meld uses only the rack's own tiles; every meld of the
    table before the turn is still there, unchanged."""
    for number in turn.initial.touched if turn.initial is not None else ():
        yield Problem("turn-initial-touched", {"number": number}, rule=turn.rules.initial_touch)


def _no_joker_taken_before_the_initial_meld(turn: TileTurn) -> Iterator[Problem]:
    """Check 5 (RK-13, RO-8): no joker is taken from the table before the initial meld."""
    touched = turn.initial.touched if turn.initial is not None else ()
    if any(isinstance(t, Joker) for n in touched for t in turn.before[n - 1]):
        yield Problem("turn-initial-joker", rule=turn.rules.initial_joker)


def _initial_meld_is_worth_enough(turn: TileTurn) -> Iterator[Problem]:
    """Check 5 (RK-6, RO-6, DO-3): the new melds of an initial meld are worth at least 30
    (Rummikub: face values) or 25 (Rummy-O: the values of RO-2); a joker its stand-in's."""
    initial, least = turn.initial, turn.rules.initial_least
    if initial is not None and least is not None and turn.played and initial.value < least:
        values = {"value": initial.value, "least": least}
        yield Problem("turn-initial-value", values, rule=turn.rules.initial_rule)


#: The checks of a tile game's turn, in the contract's order: the order problems are reported.
TILE_CLAUSES: tuple[Callable[[TileTurn], Iterable[Problem]], ...] = (
    _every_meld_is_legal,  # 1
    _nothing_leaves_the_table,  # 2
    _something_was_played,  # 3
    _played_cards_come_from_the_hand,  # 4
    _initial_meld_leaves_the_table_alone,  # 5
    _no_joker_taken_before_the_initial_meld,  # 5
    _initial_meld_is_worth_enough,  # 5
)


def _params(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """A meld verdict's parameters without its clause (a problem carries that itself)."""
    return {k: v for k, v in verdict["params"].items() if k != "rule"}


def _verdicts(melds: Sequence[Sequence[Token]], game: LeftoverGame, field: str) -> list[Any]:
    """Each meld's ``check`` verdict; a joker whose stand-in cannot be told is bad input."""
    problems = Collector()
    verdicts = []
    for number, meld in enumerate(melds, start=1):
        verdict = check_tiles(game.id, meld)
        if verdict.get("readings") or (field == "before" and not verdict["valid"]):
            problems.add(
                EntryError(
                    verdict["code"],
                    field=field,
                    meld=number,
                    rule=verdict["rule"],
                    **_params(verdict),
                )
            )
        verdicts.append(verdict)
    problems.raise_any()
    return verdicts


def _meld_entries(turn: TileTurn) -> list[dict[str, Any]]:
    """The melds of ``after`` in order: cards with stand-ins filled in, and why not if illegal."""
    melds = []
    for meld, verdict in zip(turn.after, turn.verdicts, strict=True):
        entry: dict[str, Any] = {
            "cards": verdict.get("cards") or [t.text for t in meld],
            "valid": verdict["valid"],
            "kind": verdict["kind"],
        }
        if not verdict["valid"]:
            entry.update(
                reason=verdict["reason"],
                rule=verdict["rule"],
                code=verdict["code"],
                params=verdict["params"],
            )
        melds.append(entry)
    return melds


def _initial_meld(turn: TileTurn) -> InitialMeld:
    """The worth of the new melds (the melds of ``after`` that are no meld of ``before``
    unchanged), and the melds of ``before`` not found unchanged in ``after``."""
    game = turn.game
    before = _resolved(turn.before, turn.before_verdicts, game)
    found = _unchanged(before, _resolved(turn.after, turn.verdicts, game))
    kept = set(found.values())
    value = sum(
        meld_value(game.id, [_face(game.parse_card(c)) for c in verdict["cards"]])
        for i, verdict in enumerate(turn.verdicts)
        if i not in kept and verdict["valid"]
    )
    touched = [n for n in range(1, len(before) + 1) if n not in found]
    return InitialMeld(value, touched)


def _unchanged(
    before: Sequence[Sequence[Token]], after: Sequence[Sequence[Token]]
) -> dict[int, int]:
    """Each meld of ``before`` (numbered from 1) found unchanged in ``after``: its index there.

    A meld is unchanged when it holds the same cards (in any order); each meld of ``after``
    answers for one meld of ``before`` at most.
    """
    kept: set[int] = set()
    found: dict[int, int] = {}
    # First the melds that are the very same, jokers' stand-ins included; then by the tiles
    # alone (a joker is a joker), so which copy of a look-alike meld stayed does not matter.
    for text in (_exact, key):
        left = [Counter(text(t) for t in m) for m in after]
        for number, meld in enumerate(before, start=1):
            if number in found:
                continue
            want = Counter(text(t) for t in meld)
            match = next((i for i, m in enumerate(left) if i not in kept and m == want), None)
            if match is not None:
                kept.add(match)
                found[number] = match
    return found


def _exact(token: Token) -> str:
    """A card with its joker's stand-in (``*R6``)."""
    return token.text


def _resolved(
    melds: Sequence[Sequence[Token]], verdicts: Sequence[Mapping[str, Any]], game: LeftoverGame
) -> list[list[Token]]:
    """Each meld with its jokers' stand-ins filled in where the meld tells them."""
    return [
        [game.parse_card(c) for c in verdict["cards"]] if verdict["valid"] else list(meld)
        for meld, verdict in zip(melds, verdicts, strict=True)
    ]


def _face(token: Token) -> Card:
    if isinstance(token, Joker):
        assert token.stands_for is not None  # a legal, unambiguous meld names every stand-in
        return token.stands_for
    return token


def check_redeal(
    game: LeftoverGame, raw: object, *, count: int, least: int, rule: str
) -> dict[str, Any]:
    """RK-3: ``least`` or more pairs of identical tiles among the first ``count`` tiles."""
    if not isinstance(raw, list):
        raise EntryError("redeal-not-list", field="tiles", count=count)
    problems = Collector()
    tiles = read_cards(raw, game, field="tiles", problems=problems)
    problems.raise_any()
    if len(tiles) != count:
        raise EntryError("redeal-count", field="tiles", rule=rule, count=count, given=len(tiles))
    check_copies({"tiles": tiles}, game.limits({}))
    counts = Counter(t.text for t in tiles if isinstance(t, Card))
    pairs = sorted(
        (t for t in tiles if isinstance(t, Card) and counts[t.text] == 2), key=card_sort_key
    )
    shown = list(dict.fromkeys(t.text for t in pairs))
    allowed = len(shown) >= least
    problem = Problem(
        "redeal-yes" if allowed else "redeal-no", {"pairs": len(shown), "least": least}, rule=rule
    )
    return {
        "redeal": allowed,
        "pairs": shown,
        "rule": rule,
        "reason": problem.reason(),
        "code": problem.code,
        "params": problem.values(),
    }
