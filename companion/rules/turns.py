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
   ``_initial_meld_is_worth_enough`` (RK-6, RO-6, DO-3);
6. ``_a_freed_joker_goes_into_a_new_meld`` (Rummy-O: RO-9, DO-7; Rummikub lets it go
   anywhere, RK-14, DK-5) and ``_a_joker_is_freed_by_its_tile`` (Rummy-O: RO-9, DO-8; in
   Rummikub rearranging frees it too, RK-14);
7. ``_a_named_joker_keeps_its_card`` (Manipulation: MR-7, DM-9).

A joker whose stand-in the table leaves open (either end of a run) is asked about only where
the answer depends on it (contract "Games and cards"): every reading is judged, and only when
the verdict differs between them (part of it: whether a not-opened player's new melds reach
the initial meld's worth) is the document bad input naming the meld; otherwise the meld lists
its readings under ``could`` and ``value`` is the least worth of the readings. A reading never uses
a card of which the document's melds give every copy elsewhere (a hand never narrows it).

What every game's ``turn`` shares is in ``turn_document`` (Rummy 17's own clauses are in
``rummy17.turn``). Also the redeal check of Rummikub (RK-3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import islice, product
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
        "turn-freed-joker-old-meld": N_(
            "a freed joker went into meld {number}, a meld of the table before the turn with "
            "tiles only added: a freed joker is used at once in a new combination"
        ),
        "turn-joker-renamed": N_(
            "a joker stood for {card} before the turn and no longer does, and no {card} took "
            "its place: a joker keeps its card until the real card replaces it"
        ),
        "turn-joker-renamed-rank": N_(
            "a joker stood for a {rank} in a set before the turn and no longer does, and no "
            "{rank} took its place: a joker keeps its card until the real card replaces it"
        ),
        "turn-joker-freed-unplayed": N_(
            "a joker stood for {card} before the turn and no longer does, but no {card} was "
            "played from the rack: a joker is freed only by putting the tile it stands for in "
            "its place"
        ),
        "turn-joker-freed-unplayed-rank": N_(
            "a joker stood for a {rank} in a group before the turn and no longer does, but no "
            "{rank} was played from the rack: a joker is freed only by putting the tile it "
            "stands for in its place"
        ),
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
    #: The melds of each table with every joker's stand-in: the reading judged (``_judged``).
    before_read: list[list[Token]]
    after_read: list[list[Token]]

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
    turn = _judged(_read_tile_turn(game, rules, doc))
    value = turn.initial.value if turn.initial is not None else None
    return verdict_json(TILE_CLAUSES, turn, turn.played, value, _meld_entries(turn))


def _read_tile_turn(game: LeftoverGame, rules: TurnRules, raw: object) -> TileTurn:
    read = read_turn(raw, game, TURN_KEYS, read_melds)
    on_before = [t for m in read.before for t in m]
    on_after = [t for m in read.after for t in m]
    limits = game.limits({})
    check_turn_copies(on_before, on_after, read.hand, limits)
    before_verdicts = _verdicts(read.before, game, "before", limits.copies)
    verdicts = _verdicts(read.after, game, "after", limits.copies)
    before_read = [r[0] for r in _readings(read.before, before_verdicts, game)]
    after_read = [r[0] for r in _readings(read.after, verdicts, game)]
    return TileTurn(
        game,
        rules,
        read.opened,
        read.before,
        read.after,
        read.hand,
        before_verdicts,
        verdicts,
        before_read,
        after_read,
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


def _a_freed_joker_goes_into_a_new_meld(turn: TileTurn) -> Iterator[Problem]:
    """Check 6 (RO-9, DO-7; Rummy-O only, RK-14 and DK-5 let it go anywhere): a freed joker
    is used at once in a new combination, not in a meld of the table before the turn with
    tiles only added to it, the one it was freed from included. A joker from the rack may
    join any meld, so only jokers beyond those from the rack count against old melds."""
    rule = turn.rules.freed_joker_new
    if rule is None or not turn.opened:  # before opening, check 5 keeps the table as it was
        return
    from_rack = max(0, _joker_count(turn.after) - _joker_count(turn.before))
    grown = [(number, extra) for number, extra in _grown(turn) if extra]
    if sum(extra for _, extra in grown) > from_rack:
        for number, _ in grown:
            yield Problem("turn-freed-joker-old-meld", {"number": number}, meld=number, rule=rule)


def _joker_count(melds: Sequence[Sequence[Token]]) -> int:
    return sum(isinstance(t, Joker) for m in melds for t in m)


def _grown(turn: TileTurn) -> Iterator[tuple[int, int]]:
    """The legal melds of ``after`` (numbered from 1) that are a meld of ``before`` with cards
    only added, each with the jokers it holds beyond those that kept their place and card."""
    taken = {i for i, v in enumerate(turn.verdicts) if not v["valid"]}  # no card to compare
    after = [Counter(key(t) for t in m) for m in turn.after_read]
    for old, was in zip(turn.before_read, turn.before_verdicts, strict=True):
        want = Counter(key(t) for t in old)
        grew = [
            (_new_jokers(old, was, turn.after_read[i], turn.verdicts[i]), i)
            for i, m in enumerate(after)
            if i not in taken and not want - m
        ]
        if grew:
            extra, best = min(grew)
            taken.add(best)
            yield best + 1, extra


def _new_jokers(
    old: Sequence[Token], was: Mapping[str, Any], new: Sequence[Token], now: Mapping[str, Any]
) -> int:
    """The jokers of ``new`` beyond those of ``old`` that kept their card: a run's joker its
    card (``*R6``), a set's its value (every colour the set lacks reads the same)."""

    def cards(meld: Sequence[Token], verdict: Mapping[str, Any]) -> Counter[str]:
        if verdict["kind"] == "set":
            return Counter(f"*{_face(t).value}" for t in meld if isinstance(t, Joker))
        return Counter(t.text for t in meld if isinstance(t, Joker))

    jokers = cards(new, now)
    return sum(jokers.values()) - sum((jokers & cards(old, was)).values())


def _a_joker_is_freed_by_its_tile(turn: TileTurn) -> Iterator[Problem]:
    """Check 6 (RO-9, DO-8; Rummy-O only, RK-14 frees a joker by rearranging too): a joker
    leaves the card it stood for only when that tile is played from the rack this turn; moving
    the table's own tiles into its place frees nothing. Before the initial meld check 5 keeps
    the table as it was, and names the joker taken; a joker gone from the table is check 2's."""
    rule = turn.rules.freed_by_tile
    if rule is None or not turn.opened:
        return
    played = [t for t in turn.played if isinstance(t, Card)]
    lost = list(_lost_cards(turn, played, "turn-joker-freed-unplayed", rule))
    gone = max(0, _joker_count(turn.before) - _joker_count(turn.after))
    yield from lost[: max(0, len(lost) - gone)]


def _a_named_joker_keeps_its_card(turn: TileTurn) -> Iterator[Problem]:
    """Check 7 (MR-7, DM-9; Manipulation): a joker that stood for a card before the turn
    still stands for it after, anywhere on the table, unless the real card is on the table
    after the turn to take its place. Where a set before the turn left its joker's suit
    unsaid, its rank is compared."""
    rule = turn.rules.named_joker
    if rule is None:
        return
    on_after = [t for t in turn.on_after if isinstance(t, Card)]
    yield from _lost_cards(turn, on_after, "turn-joker-renamed", rule)


def _lost_cards(
    turn: TileTurn, replacing: Sequence[Card], code: str, rule: str
) -> Iterator[Problem]:
    """A problem ``code`` for each joker of the table before whose card no joker after stands
    for and none of ``replacing`` took the place of (``code``-rank where a set left its joker's
    suit unsaid: then only its rank is compared, DM-9)."""
    deck = turn.game.deck
    needs = [
        (card.value, None if unsaid else card.colour)
        for meld in zip(turn.before, turn.before_read, turn.before_verdicts, strict=True)
        for card, unsaid in _joker_cards(*meld)
    ]
    if not needs:
        return
    places: list[Place] = [
        (card.value, frozenset(deck.colours) - _shown(read) if unsaid else frozenset({card.colour}))
        for given, read, verdict in zip(turn.after, turn.after_read, turn.verdicts, strict=True)
        for card, unsaid in _joker_cards(given, read, verdict)
    ]
    places += [(t.value, frozenset({t.colour})) for t in replacing]
    # A joker in an illegal meld after the turn stands for no card that can be told: it may
    # still be the one it was (check 1 names the meld).
    places += [
        (None, frozenset(deck.colours))
        for meld, verdict in zip(turn.after, turn.verdicts, strict=True)
        if not verdict["valid"]
        for t in meld
        if isinstance(t, Joker)
    ]
    for value, suit in _unmatched(needs, places):
        if suit is None:
            yield Problem(f"{code}-rank", {"rank": deck.value_text(value)}, rule=rule)
        else:
            card = Card(suit, value, turn.game.id)
            yield Problem(code, {"card": card.text}, card=card.text, rule=rule)


def _joker_cards(
    given: Sequence[Token], read: Sequence[Token], verdict: Mapping[str, Any]
) -> Iterator[tuple[Card, bool]]:
    """The card each joker of a meld stands for in the reading judged, and whether it is a
    set's joker whose suit the table left unsaid (DM-9: then only its rank counts)."""
    stated = Counter(t.stands_for.text for t in given if isinstance(t, Joker) and t.stands_for)
    for t in read:
        if isinstance(t, Joker) and t.stands_for is not None:
            card = t.stands_for
            unsaid = verdict["kind"] == "set" and stated[card.text] == 0
            stated[card.text] -= 1
            yield card, unsaid


def _shown(meld: Sequence[Token]) -> frozenset[str]:
    """The suits the real cards of a meld show."""
    return frozenset(t.colour for t in meld if isinstance(t, Card))


Place = tuple[int | None, frozenset[str]]  # a value (None: any) and the suits it can be


def _unmatched(
    needs: Sequence[tuple[int, str | None]], places: Sequence[Place]
) -> list[tuple[int, str | None]]:
    """The needs no place can take, each place taking one need (a bipartite matching)."""
    owner: dict[int, int] = {}

    def fits(need: tuple[int, str | None], place: Place) -> bool:
        value_fits = place[0] is None or need[0] == place[0]
        return value_fits and (need[1] is None or need[1] in place[1])

    def seat(n: int, seen: set[int]) -> bool:
        for p, place in enumerate(places):
            if p not in seen and fits(needs[n], place):
                seen.add(p)
                if p not in owner or seat(owner[p], seen):
                    owner[p] = n
                    return True
        return False

    return [need for n, need in enumerate(needs) if not seat(n, set())]


#: The checks of a tile game's turn, in the contract's order: the order problems are reported.
TILE_CLAUSES: tuple[Callable[[TileTurn], Iterable[Problem]], ...] = (
    _every_meld_is_legal,  # 1
    _nothing_leaves_the_table,  # 2
    _something_was_played,  # 3
    _played_cards_come_from_the_hand,  # 4
    _initial_meld_leaves_the_table_alone,  # 5
    _no_joker_taken_before_the_initial_meld,  # 5
    _initial_meld_is_worth_enough,  # 5
    _a_freed_joker_goes_into_a_new_meld,  # 6
    _a_joker_is_freed_by_its_tile,  # 6
    _a_named_joker_keeps_its_card,  # 7
)

#: The checks whose answer can depend on the card a joker stands for (contract "Games and
#: cards"): judged in every reading the table leaves open.
READING_CLAUSES: tuple[Callable[[TileTurn], Iterable[Problem]], ...] = (
    _initial_meld_leaves_the_table_alone,
    _no_joker_taken_before_the_initial_meld,
    _initial_meld_is_worth_enough,
    _a_freed_joker_goes_into_a_new_meld,
    _a_joker_is_freed_by_its_tile,
    _a_named_joker_keeps_its_card,
)


def _params(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """A meld verdict's parameters without its clause (a problem carries that itself)."""
    return {k: v for k, v in verdict["params"].items() if k != "rule"}


def _verdicts(
    melds: Sequence[Sequence[Token]], game: LeftoverGame, field: str, copies: int
) -> list[Any]:
    """Each meld's ``check`` verdict, its readings limited to cards that can exist: a card of
    which the table gives every copy elsewhere is no reading (contract "Games and cards"; the
    hand does not count, since a joker may stand for a tile there, ready to free it). An
    illegal meld before the turn is bad input."""
    given = Counter(key(t) for m in melds for t in m if isinstance(t, Card))
    problems = Collector()
    verdicts = []
    for number, meld in enumerate(melds, start=1):
        elsewhere = given - Counter(key(t) for t in meld if isinstance(t, Card))
        used_up = {c for c, n in elsewhere.items() if n >= copies and not c.startswith("*")}
        verdict = check_tiles(game.id, meld, used_up)
        if field == "before" and not verdict["valid"]:
            problems.add(_entry_error(verdict, field, number))
        verdicts.append(verdict)
    problems.raise_any()
    return verdicts


def _entry_error(verdict: Mapping[str, Any], field: str, number: int) -> EntryError:
    """A meld's verdict as bad input of the document, at its place."""
    return EntryError(
        verdict["code"], field=field, meld=number, rule=verdict["rule"], **_params(verdict)
    )


def _readings(
    melds: Sequence[Sequence[Token]], verdicts: Sequence[Mapping[str, Any]], game: LeftoverGame
) -> list[list[list[Token]]]:
    """Each meld's readings, every joker with its stand-in; an illegal meld as it was given."""
    out = []
    for meld, verdict in zip(melds, verdicts, strict=True):
        if not verdict["valid"]:
            out.append([list(meld)])
            continue
        texts = [r["cards"] for r in verdict.get("readings") or [verdict]]
        out.append([[game.parse_card(c) for c in cards] for cards in texts])
    return out


#: How many readings of a table the referee judges before it asks which is meant.
MOST_READINGS = 256


def _judged(turn: TileTurn) -> TileTurn:
    """The turn in the reading it is judged in (contract "Games and cards").

    Where a joker's stand-in is left open, every reading of the two tables is judged by the
    clauses that depend on a joker's card; a meld that lies unchanged after the turn keeps its
    reading. When every reading gives the same answer (an initial meld's worth may differ, so
    long as every reading reaches it or none does: RK-6, RO-6) the turn is judged in the
    reading of least worth, the first of them. Otherwise the document is bad input naming each
    meld whose reading changes the answer, with its readings.

    :raises EntryError: the answer depends on a joker the table leaves open.
    """
    split = len(turn.before)
    choices = _readings(turn.before, turn.before_verdicts, turn.game) + _readings(
        turn.after, turn.verdicts, turn.game
    )
    groups = _reading_groups(choices, [*turn.before, *turn.after], split)
    if all(len(g.options) == 1 for g in groups):
        return turn

    def variant(picks: Sequence[Sequence[list[Token]]]) -> TileTurn:
        melds: list[list[Token]] = [c[0] for c in choices]  # each filled by its group
        for group, pick in zip(groups, picks, strict=True):
            for i, meld in zip(group.places, pick, strict=True):
                melds[i] = meld
        return replace(turn, before_read=melds[:split], after_read=melds[split:])

    def answer(picks: Sequence[Sequence[list[Token]]]) -> list[tuple[Any, ...]]:
        # The problems, not the worth: whether the initial meld is reached is among them.
        t = variant(picks)
        return [(p.code, p.rule, p.meld, p.card) for c in READING_CLAUSES for p in c(t)]

    def worth(picks: Sequence[Sequence[list[Token]]]) -> int:
        initial = variant(picks).initial
        return initial.value if initial is not None else 0

    first = [g.options[0] for g in groups]
    base = answer(first)
    combos = list(islice(product(*(g.options for g in groups)), MOST_READINGS + 1))
    if len(combos) <= MOST_READINGS and all(answer(picks) == base for picks in combos):
        return variant(min(combos, key=worth))  # the first of least worth
    open_ = [n for n, g in enumerate(groups) if len(g.options) > 1]
    matters = [
        n
        for n in open_
        if any(answer([*first[:n], o, *first[n + 1 :]]) != base for o in groups[n].options[1:])
    ] or open_
    problems = Collector()
    for i in sorted(i for n in matters for i in groups[n].places):
        field, number = ("before", i + 1) if i < split else ("after", i - split + 1)
        verdicts = turn.before_verdicts if i < split else turn.verdicts
        if verdicts[number - 1].get("readings"):
            problems.add(_entry_error(verdicts[number - 1], field, number))
    problems.raise_any()
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class _Group:
    """Melds whose readings go together (a meld and itself unchanged after the turn), by
    their index among the melds of both tables, with the readings they can take together."""

    places: tuple[int, ...]
    options: Sequence[tuple[list[Token], ...]]


def _reading_groups(
    choices: Sequence[list[list[Token]]], given: Sequence[Sequence[Token]], split: int
) -> list[_Group]:
    """Each meld's readings; a meld of ``before`` found unchanged in ``after`` (the same cards)
    reads the same in both, so the two go together."""

    def texts(meld: Sequence[Token]) -> list[str]:
        return sorted(t.text for t in meld)

    groups: list[_Group] = []
    tied: set[int] = set()
    for i in range(split):
        if len(choices[i]) < 2:
            continue
        for j in range(split, len(choices)):
            if j in tied or texts(given[i]) != texts(given[j]):
                continue
            both = [(b, a) for b in choices[i] for a in choices[j] if texts(b) == texts(a)]
            if both:
                groups.append(_Group((i, j), both))
                tied.update((i, j))
                break
    for i, options in enumerate(choices):
        if i not in tied:
            groups.append(_Group((i,), [(o,) for o in options]))
    return groups


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
        elif verdict.get("readings"):  # contract: the readings the turn left open
            entry["could"] = [
                " ".join(c[1:] for c in r["cards"] if c.startswith("*"))
                for r in verdict["readings"]
            ]
        melds.append(entry)
    return melds


def _initial_meld(turn: TileTurn) -> InitialMeld:
    """The worth of the new melds (the melds of ``after`` that are no meld of ``before``
    unchanged), and the melds of ``before`` not found unchanged in ``after``."""
    game = turn.game
    found = _unchanged(turn.before_read, turn.after_read)
    kept = set(found.values())
    value = sum(
        meld_value(game.id, [_face(t) for t in meld])
        for i, (meld, verdict) in enumerate(zip(turn.after_read, turn.verdicts, strict=True))
        if i not in kept and verdict["valid"]
    )
    touched = [n for n in range(1, len(turn.before_read) + 1) if n not in found]
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
