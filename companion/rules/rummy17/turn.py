"""Is this turn legal? The referee's answer for Rummy 17 (contract ``turn``, R17-9…R17-13).

Melds lie in front of the player who laid them (R17-9) and are never regrouped (R17-10), so
the table is compared meld by meld, in place. ``RUMMY17_CLAUSES`` holds one function per
check and every problem is reported with its clause, in the order Rummy 17's problems have
always been listed; that is not the contract's numbering (which would reorder the problems of
a turn that breaks several clauses), so each check's number in the contract is given first:

- 1 ``_every_meld_is_legal``: every meld after the turn is a legal set or run (R17-9, R17-13);
- 6 ``_a_joker_is_swapped_for_its_card``: a joker that leaves its meld was swapped, by a
  player who has melded (in an earlier turn, or earlier in this one: D17-9), for the card it
  stands for (R17-12); only a meld of the table before the turn has a joker to swap;
- 6 ``_a_taken_joker_is_melded``: a joker taken from the table ends the turn in a meld
  (R17-13);
- 2, 4 ``_melds_are_never_regrouped`` (R17-10), meld by meld:
  ``_a_meld_stays_whole_in_its_place`` (2), ``_cards_are_added_only_once_melded`` (4);
- 3 ``_only_the_player_lays_new_melds``, at the end of their own list (R17-9);
- 5 ``_a_joker_from_beside_the_table_starts_a_run_of_four`` of its colour, laid this turn
  (R17-11);
- 7 ``_played_cards_come_from_the_hand``: with the hand, every played card was in it (R17-9; a
  joker never is, D17-8);
- 8 ``_a_card_is_kept_for_the_discard``: with the hand, at least one of its cards is not
  played, since the turn ends with a discard (R17-14, D17-11).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..cards import Card, Joker, Token, card_sort_key
from ..errors import Collector, EntryError, Problem
from ..messages import N_, register
from ..seating import check_names
from ..turn_document import (
    beyond_hand,
    check_turn_copies,
    key,
    missing,
    played_cards,
    read_melds,
    read_turn,
    verdict_json,
)
from .deck import ONCE, RUMMY17
from .melds import RUN, Meld, MeldError, analyse_meld
from .play import JOKER_RUN_MIN

if TYPE_CHECKING:
    from ..game import Game

register(
    {
        "turn17-table-not-object": N_(
            "{field} must be an object giving each player's melds, in seat order"
        ),
        "turn17-players-differ": N_(
            "before and after must name the same players in the same seat order: {names}"
        ),
        "turn17-player-unknown": N_(
            "player names {name!r}, who is not at the table; the players are {names}"
        ),
        "turn17-joker-in-hand": N_("a joker is never in a hand ({rule})"),
        "turn17-meld-gone": N_(
            "{owner}'s meld {number} is gone: melds on the table are never regrouped"
        ),
        "turn17-card-moved": N_(
            "{card} left {owner}'s meld {number}: melds on the table are never regrouped"
        ),
        "turn17-new-meld-other": N_(
            "meld {number} in front of {owner} is new: {current} lays melds only in front of "
            "themselves"
        ),
        "turn17-add-before-meld": N_(
            "{cards} added to {owner}'s meld {number}: a player adds to melds only after "
            "their own first meld (that turn or later)"
        ),
        "turn17-joker-added": N_(
            "the {colour} joker came from beside the table into {owner}'s meld {number}: it "
            "only goes into a new run of at least four cards"
        ),
        "turn17-joker-set": N_(
            "the {colour} joker came from beside the table into a set: it only goes into a "
            "new run of at least four cards"
        ),
        "turn17-joker-short": N_(
            "the {colour} joker came from beside the table into a run of {count} cards: it "
            "needs a run of at least {least}"
        ),
        "turn17-swap-not-opened": N_(
            "the {colour} joker left {owner}'s meld {number}: only a player who has already "
            "melded may swap a joker"
        ),
        "turn17-swap-card-missing": N_(
            "the {colour} joker left {owner}'s meld {number}, and {stand} did not take its "
            "place: a joker is swapped for the card it stands for"
        ),
        "turn17-joker-not-melded": N_(
            "the {colour} joker is no longer on the table: a joker taken from the table must "
            "be melded this turn and never goes into the hand"
        ),
        "turn17-not-in-hand": N_("{card} was played but was not in {player}'s hand"),
        "turn17-no-discard": N_(
            "{player} melded every card of their hand and has none left to discard: a turn "
            "ends with a discard"
        ),
    }
)

TURN17_KEYS = frozenset({"game", "player", "opened", "before", "after", "hand"})


@dataclass(frozen=True)
class Laid:
    """One meld as it lies: whose, its place in their list, its cards, and its reading."""

    owner: str
    number: int
    tokens: tuple[Token, ...]
    meld: Meld | None  # None: no legal meld
    error: MeldError | None = None

    @property
    def keys(self) -> Counter[str]:
        """The cards as a turn compares them (a joker by its colour only)."""
        return Counter(key(t) for t in self.tokens)

    @property
    def joker(self) -> Joker | None:
        """The meld's joker, with its stand-in where the meld tells it."""
        source = self.meld.cards if self.meld else self.tokens
        return next((t for t in source if isinstance(t, Joker)), None)


@dataclass(frozen=True)
class Swap:
    """A joker that left its meld of the table before, the meld still in its place: the cards
    the joker could stand for, and the one of them that took its place (None: none did)."""

    old: Laid
    joker: Joker
    could: tuple[Card, ...]
    placed: Card | None


@dataclass(frozen=True)
class Rummy17Turn:
    """One turn of Rummy 17 as the document gives it: each player's melds, in seat order."""

    game: Game
    player: str  # whose turn it is
    opened: bool  # they had melded in an earlier turn
    before: dict[str, list[Laid]]
    after: dict[str, list[Laid]]
    hand: list[Token] | None

    @cached_property
    def on_before(self) -> list[Token]:
        """Every card on the table before the turn."""
        return [t for laid in _melds(self.before) for t in laid.tokens]

    @cached_property
    def on_after(self) -> list[Token]:
        """Every card on the table after the turn."""
        return [t for laid in _melds(self.after) for t in laid.tokens]

    @cached_property
    def played(self) -> list[Token]:
        """The cards on the table after the turn that were not on it before."""
        return played_cards(self.on_before, self.on_after)

    @cached_property
    def swaps(self) -> list[Swap]:
        """The jokers that left their melds (R17-12), meld by meld."""
        return [s for s in (_swap(self, old) for old in _melds(self.before)) if s is not None]

    @cached_property
    def lays_a_meld(self) -> bool:
        """The player lays a new meld of their own this turn."""
        return any(self.is_new(laid) for laid in self.after[self.player])

    @cached_property
    def melded_before_swapping(self) -> bool:
        """D17-9: the player laid a first meld earlier in this turn, before swapping: a new
        meld of theirs that stands without the jokers swapped out of old melds."""
        swapped = {key(s.joker) for s in self.swaps}
        for laid in self.after[self.player]:
            if not self.is_new(laid) or laid.meld is None:
                continue
            rest = [t for t in laid.tokens if key(t) not in swapped]
            if len(rest) == len(laid.tokens):
                return True
            try:
                analyse_meld(rest)
            except MeldError:
                continue
            return True
        return False

    def is_new(self, laid: Laid) -> bool:
        """A meld after the turn that is new: after the melds its owner had before."""
        return laid.number > len(self.before[laid.owner])

    def in_place(self, old: Laid) -> Laid | None:
        """The meld after the turn in the place of ``old``; None: the place is empty."""
        melds = self.after[old.owner]
        return melds[old.number - 1] if old.number <= len(melds) else None


def check_rummy17_turn(game: Game, doc: object) -> dict[str, Any]:
    """The contract's ``turn`` for Rummy 17: checks 1–8, every problem with its clause.

    :raises EntryError: bad input: an unreadable document or card, players or player not at
        the table, a joker in the hand, a card twice, an illegal meld before the turn.
    """
    turn = _read(game, doc)
    melds = [_meld_json(m) for m in _melds(turn.after)]
    return verdict_json(RUMMY17_CLAUSES, turn, turn.played, None, melds)


def _read(game: Game, raw: object) -> Rummy17Turn:
    read = read_turn(raw, game, TURN17_KEYS, _table)
    names = check_names(list(read.before), players=game.seats, rule=game.seats_rule)
    if list(read.after) != list(read.before):
        raise EntryError("turn17-players-differ", field="after", names=", ".join(names))
    player = read.doc.get("player")
    if not isinstance(player, str) or player not in read.before:
        raise EntryError(
            "turn17-player-unknown", field="player", name=player, names=", ".join(names)
        )
    if read.hand is not None and any(isinstance(t, Joker) for t in read.hand):
        raise EntryError("turn17-joker-in-hand", field="hand", player=player, rule="D17-8")
    on_before = [t for ms in read.before.values() for m in ms for t in m]
    on_after = [t for ms in read.after.values() for m in ms for t in m]
    check_turn_copies(on_before, on_after, read.hand, ONCE)
    before, after = _lay(read.before, "before"), _lay(read.after, "after")
    return Rummy17Turn(game, player, read.opened, before, after, read.hand)


def _table(
    raw: object, game: Game, *, field: str, problems: Collector
) -> dict[str, list[list[Token]]]:
    """A table of Rummy 17: each player's melds, in seat order."""
    if not isinstance(raw, Mapping):
        raise EntryError("turn17-table-not-object", field=field)
    out = {}
    for name, melds in raw.items():
        with problems.check(player=name):
            out[name] = read_melds(melds, game, field=field, problems=problems)
    return out


def _lay(table: Mapping[str, list[list[Token]]], field: str) -> dict[str, list[Laid]]:
    """Each meld read (R17-9, R17-13); an illegal meld of ``before`` is bad input.

    D17-6: a joker's reading is no card that lies elsewhere on the same table. The hand does
    not count: the card a joker stands for may be in it, ready to swap (R17-12)."""
    problems = Collector()
    out: dict[str, list[Laid]] = {}
    given = Counter(key(t) for ms in table.values() for m in ms for t in m if isinstance(t, Card))
    for owner, melds in table.items():
        out[owner] = []
        for number, tokens in enumerate(melds, start=1):
            elsewhere = +(given - Counter(key(t) for t in tokens if isinstance(t, Card)))
            try:
                laid = Laid(owner, number, tuple(tokens), analyse_meld(tokens, elsewhere))
            except MeldError as err:
                if field == "before":
                    problems.add(EntryError.of(err.problems).at(player=owner, meld=number))
                laid = Laid(owner, number, tuple(tokens), None, err)
            out[owner].append(laid)
    problems.raise_any()
    return out


def _melds(table: Mapping[str, list[Laid]]) -> Iterator[Laid]:
    """Every meld of a table, player by player in seat order."""
    return (laid for melds in table.values() for laid in melds)


def _colour(joker: Joker) -> str:
    assert joker.colour is not None
    return RUMMY17.colour_names[joker.colour]


def _no_jokers(cards: Counter[str]) -> Counter[str]:
    return Counter({k: n for k, n in cards.items() if not k.startswith("*")})


def _jokers(cards: Iterable[Token]) -> list[Token]:
    return [t for t in cards if isinstance(t, Joker)]


# --- the clauses, in the order they run (see the module's docstring) ----------------------


def _every_meld_is_legal(turn: Rummy17Turn) -> Iterator[Problem]:
    """Check 1 (R17-9, R17-13): every meld after the turn is a legal set or run."""
    for laid in _melds(turn.after):
        if laid.error is not None:
            p = laid.error.first
            yield Problem(
                p.code, p.params, player=laid.owner, meld=laid.number, card=p.card, rule=p.rule
            )


def _swap(turn: Rummy17Turn, old: Laid) -> Swap | None:
    """The joker that left ``old``, still in its place, and what took the joker's place."""
    joker, new = old.joker, turn.in_place(old)
    if joker is None or new is None or key(joker) in new.keys:
        return None
    could = (joker.stands_for,) if joker.stands_for else (old.meld.readings if old.meld else ())
    placed = [c for c in could if c.text in new.keys - old.keys]
    return Swap(old, joker, could, placed[0] if placed else None)


def _a_joker_is_swapped_for_its_card(turn: Rummy17Turn) -> Iterator[Problem]:
    """Check 6 (R17-12, D17-9): a joker leaves its meld only swapped by a player who has
    already melded (in an earlier turn, or with a meld laid earlier in this one), for the card
    it stands for, which takes its place in that meld."""
    for swap in turn.swaps:
        owner, number = swap.old.owner, swap.old.number
        where = {"owner": owner, "number": number, "colour": _colour(swap.joker)}
        if not turn.opened and not turn.melded_before_swapping:
            code = "turn17-swap-not-opened"
            yield Problem(code, where, player=owner, meld=number, rule="R17-12")
        if swap.placed is None:
            stand = " / ".join(c.text for c in swap.could)
            params = {**where, "stand": stand}
            code = "turn17-swap-card-missing"
            yield Problem(code, params, player=owner, meld=number, rule="R17-12")


def _a_taken_joker_is_melded(turn: Rummy17Turn) -> Iterator[Problem]:
    """Check 6 (R17-13): a joker taken from the table never goes into the hand: it ends the
    turn in a meld."""
    for text in sorted(missing(_jokers(turn.on_before), _jokers(turn.on_after))):
        colour = _colour(Joker(text[1], None))
        yield Problem("turn17-joker-not-melded", {"colour": colour}, card=text, rule="R17-13")


def _melds_are_never_regrouped(turn: Rummy17Turn) -> Iterator[Problem]:
    """Checks 2 and 4 (R17-10), meld by meld of the table before: melds on the table are never
    regrouped, and cards are added to them only once the player has melded."""
    for old in _melds(turn.before):
        yield from _a_meld_stays_whole_in_its_place(turn, old)
        yield from _cards_are_added_only_once_melded(turn, old)


def _a_meld_stays_whole_in_its_place(turn: Rummy17Turn, old: Laid) -> Iterator[Problem]:
    """Check 2 (R17-10): a meld of the table before is still in its place, holding all its
    cards, perhaps more; only a joker may leave it, swapped (check 6)."""
    where = {"owner": old.owner, "number": old.number}
    new = turn.in_place(old)
    if new is None:
        yield Problem("turn17-meld-gone", where, player=old.owner, meld=old.number, rule="R17-10")
        return
    for text in sorted(_no_jokers(old.keys - new.keys)):
        yield Problem(
            "turn17-card-moved", where, player=old.owner, meld=old.number, card=text, rule="R17-10"
        )


def _cards_are_added_only_once_melded(turn: Rummy17Turn, old: Laid) -> Iterator[Problem]:
    """Check 4 (R17-10): cards are added to a meld on the table (anyone's) only by a player
    who melded in an earlier turn, or who lays a new meld of their own this turn."""
    new = turn.in_place(old)
    if new is None or turn.opened or turn.lays_a_meld:
        return
    added = _no_jokers(new.keys - old.keys)
    added.subtract(s.placed.text for s in turn.swaps if s.old == old and s.placed is not None)
    if +added:
        cards = sorted(+added, key=lambda t: card_sort_key(turn.game.parse_card(t)))
        params = {"owner": old.owner, "number": old.number, "cards": cards}
        code = "turn17-add-before-meld"
        yield Problem(code, params, player=old.owner, meld=old.number, rule="R17-10")


def _only_the_player_lays_new_melds(turn: Rummy17Turn) -> Iterator[Problem]:
    """Check 3 (R17-9): only the player whose turn it is lays new melds, in front of
    themselves, at the end of their own list."""
    for laid in _melds(turn.after):
        if laid.owner != turn.player and turn.is_new(laid):
            owner, number = laid.owner, laid.number
            params = {"owner": owner, "number": number, "current": turn.player}
            yield Problem("turn17-new-meld-other", params, player=owner, meld=number, rule="R17-9")


def _a_joker_from_beside_the_table_starts_a_run_of_four(turn: Rummy17Turn) -> Iterator[Problem]:
    """Check 5 (R17-11): a joker that was not on the table before comes from beside it, only
    into a new run of at least four cards of its colour that the player lays this turn."""
    beside = missing(_jokers(turn.on_after), _jokers(turn.on_before))
    for laid in _melds(turn.after):
        joker = laid.joker
        if joker is None or key(joker) not in beside or laid.meld is None:
            continue
        wrong = _where_a_joker_may_not_go(turn, laid, laid.meld, joker)
        if wrong is not None:
            code, params = wrong
            yield Problem(
                code, params, player=laid.owner, meld=laid.number, card=key(joker), rule="R17-11"
            )


def _where_a_joker_may_not_go(
    turn: Rummy17Turn, laid: Laid, meld: Meld, joker: Joker
) -> tuple[str, dict[str, Any]] | None:
    """Why a joker from beside the table may not lie in ``laid`` (R17-11); None: it may."""
    colour = _colour(joker)
    if laid.owner != turn.player or not turn.is_new(laid):
        return "turn17-joker-added", {"colour": colour, "owner": laid.owner, "number": laid.number}
    if meld.kind != RUN:
        return "turn17-joker-set", {"colour": colour}
    if len(laid.tokens) < JOKER_RUN_MIN:
        count = len(laid.tokens)
        return "turn17-joker-short", {"colour": colour, "count": count, "least": JOKER_RUN_MIN}
    return None


def _played_cards_come_from_the_hand(turn: Rummy17Turn) -> Iterator[Problem]:
    """Check 7 (R17-9): with the hand given, every played card was in it; a joker never is
    (D17-8), it comes from the table or from beside it."""
    if turn.hand is None:
        return
    cards = [t for t in turn.played if not isinstance(t, Joker)]
    for t in beyond_hand(turn.hand, cards):
        yield Problem("turn17-not-in-hand", {"player": turn.player}, card=t.text, rule="R17-9")


def _a_card_is_kept_for_the_discard(turn: Rummy17Turn) -> Iterator[Problem]:
    """Check 8 (R17-14, D17-11): with the hand given (the player's cards once they have drawn,
    R17-7), at least one of its cards is not played: every turn ends with a discard from the
    hand, so a turn that melds every card is no turn (going out melds all but one)."""
    if turn.hand is None:
        return
    kept = Counter(key(t) for t in turn.hand)
    kept.subtract(key(t) for t in turn.played if not isinstance(t, Joker))
    if not +kept:
        yield Problem("turn17-no-discard", {"player": turn.player}, rule="D17-11")


#: The checks of a Rummy 17 turn in the order they run: the order problems are reported in
#: (the contract's numbers beside them).
RUMMY17_CLAUSES: tuple[Callable[[Rummy17Turn], Iterable[Problem]], ...] = (
    _every_meld_is_legal,  # 1
    _a_joker_is_swapped_for_its_card,  # 6
    _a_taken_joker_is_melded,  # 6
    _melds_are_never_regrouped,  # 2 and 4, meld by meld
    _only_the_player_lays_new_melds,  # 3
    _a_joker_from_beside_the_table_starts_a_run_of_four,  # 5
    _played_cards_come_from_the_hand,  # 7
    _a_card_is_kept_for_the_discard,  # 8
)


def _meld_json(laid: Laid) -> dict[str, Any]:
    """One meld of ``after``: whose, its cards (stand-ins filled in), and why not if illegal."""
    out: dict[str, Any] = {"player": laid.owner}
    if laid.meld is None:
        assert laid.error is not None
        p = laid.error.first
        out.update(cards=[t.text for t in laid.tokens], valid=False, kind=None)
        out.update(reason=p.reason(), rule=p.rule, code=p.code, params=p.values())
        return out
    meld = laid.meld.ordered()
    out.update(cards=[t.text for t in meld.cards], valid=True, kind=meld.kind)
    if meld.ambiguous:  # D17-6: either end; the turn does not depend on which
        out["could"] = [c.text for c in meld.readings]
    return out
