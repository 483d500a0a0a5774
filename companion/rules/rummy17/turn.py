"""Is this turn legal? The referee's answer for Rummy 17 (contract ``turn``, R17-9…R17-13).

Melds lie in front of the player who laid them (R17-9) and are never regrouped (R17-10), so
the table is compared meld by meld, in place. Every problem is reported with its clause.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import RUMMY17, Joker, Token, card_sort_key
from ..errors import Collector, EntryError, Problem
from ..game import turn_object
from ..holdings import Limits
from ..messages import N_, register
from ..seating import check_names
from ..turn_document import check_copies, key, played_cards, problem_json, read_cards, read_melds
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
    }
)

TURN17_KEYS = frozenset({"game", "player", "opened", "before", "after", "hand"})
#: R17-1: every card and every joker exists once.
ONCE = Limits("Rummy 17", (2, 6), 1, 1, "R17-1", "R17-1")


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


def _table(
    raw: object, game: Game, field: str, problems: Collector
) -> dict[str, list[list[Token]]]:
    if not isinstance(raw, Mapping):
        raise EntryError("turn17-table-not-object", field=field)
    out = {}
    for name, melds in raw.items():
        with problems.check(player=name):
            out[name] = read_melds(melds, game, field=field, problems=problems)
    return out


def _lay(table: Mapping[str, list[list[Token]]], field: str) -> dict[str, list[Laid]]:
    """Each meld read (R17-9, R17-13); an illegal meld of ``before`` is bad input."""
    problems = Collector()
    out: dict[str, list[Laid]] = {}
    for owner, melds in table.items():
        out[owner] = []
        for number, tokens in enumerate(melds, start=1):
            try:
                laid = Laid(owner, number, tuple(tokens), analyse_meld(tokens))
            except MeldError as err:
                if field == "before":
                    problems.add(EntryError.of(err.problems).at(player=owner, meld=number))
                laid = Laid(owner, number, tuple(tokens), None, err)
            out[owner].append(laid)
    problems.raise_any()
    return out


def _colour(joker: Joker) -> str:
    assert joker.colour is not None
    return RUMMY17.colour_names[joker.colour]


def check_rummy17_turn(game: Game, doc: object) -> dict[str, Any]:
    """The contract's ``turn`` for Rummy 17: checks 1–7, every problem with its clause."""
    doc = turn_object(doc, TURN17_KEYS)
    opened = doc.get("opened", True)
    if not isinstance(opened, bool):
        raise EntryError("turn-opened-not-bool", field="opened")
    problems = Collector()
    before_raw = _table(doc.get("before"), game, "before", problems)
    after_raw = _table(doc.get("after"), game, "after", problems)
    hand = None
    if doc.get("hand") is not None:
        hand = read_cards(doc["hand"], game, field="hand", problems=problems)
    problems.raise_any()
    names = check_names(list(before_raw), players=game.seats, rule=game.seats_rule)
    if list(after_raw) != list(before_raw):
        raise EntryError("turn17-players-differ", field="after", names=", ".join(names))
    player = doc.get("player")
    if not isinstance(player, str) or player not in before_raw:
        raise EntryError(
            "turn17-player-unknown", field="player", name=player, names=", ".join(names)
        )
    if hand is not None and any(isinstance(t, Joker) for t in hand):
        raise EntryError("turn17-joker-in-hand", field="hand", player=player, rule="D17-8")
    on_before = [t for ms in before_raw.values() for m in ms for t in m]
    on_after = [t for ms in after_raw.values() for m in ms for t in m]
    check_copies({"before": on_before, "after": on_after, "hand": on_before + (hand or [])}, ONCE)
    before = _lay(before_raw, "before")
    after = _lay(after_raw, "after")
    found: list[Problem] = []

    # 1. every meld in after is legal (R17-9, R17-13)
    for laid in (m for ms in after.values() for m in ms):
        if laid.error is not None:
            p = laid.error.first
            found.append(
                Problem(
                    p.code, p.params, player=laid.owner, meld=laid.number, card=p.card, rule=p.rule
                )
            )
    laid_new = len(after[player]) > len(before[player])
    swapped_in: Counter[tuple[str, int, str]] = Counter()
    # 6. a joker that leaves its meld was swapped (R17-12) and ends the turn melded (R17-13)
    for old in (m for ms in before.values() for m in ms):
        joker = old.joker
        if joker is None or old.number > len(after[old.owner]):
            continue
        new = after[old.owner][old.number - 1]
        if key(joker) in new.keys:
            continue
        where = {"owner": old.owner, "number": old.number, "colour": _colour(joker)}
        if not opened:
            found.append(
                Problem(
                    "turn17-swap-not-opened",
                    where,
                    player=old.owner,
                    meld=old.number,
                    rule="R17-12",
                )
            )
        could = (
            [joker.stands_for] if joker.stands_for else list(old.meld.readings if old.meld else ())
        )
        placed = [c for c in could if c.text in new.keys - old.keys]
        if placed:
            swapped_in[(old.owner, old.number, placed[0].text)] += 1
        else:
            stand = " / ".join(c.text for c in could)
            found.append(
                Problem(
                    "turn17-swap-card-missing",
                    {**where, "stand": stand},
                    player=old.owner,
                    meld=old.number,
                    rule="R17-12",
                )
            )
    gone = Counter(key(t) for t in on_before if isinstance(t, Joker)) - Counter(
        key(t) for t in on_after if isinstance(t, Joker)
    )
    for text in sorted(gone):
        joker = Joker(text[1], None)
        found.append(
            Problem("turn17-joker-not-melded", {"colour": _colour(joker)}, card=text, rule="R17-13")
        )
    # 2. every meld of before is still in its place, holding all its cards (R17-10)
    # 4. cards added to melds only when opened, or with a new meld this turn (R17-10)
    for owner, melds in before.items():
        for old in melds:
            where = {"owner": owner, "number": old.number}
            if old.number > len(after[owner]):
                found.append(
                    Problem("turn17-meld-gone", where, player=owner, meld=old.number, rule="R17-10")
                )
                continue
            new = after[owner][old.number - 1]
            lost = Counter(
                {k: n for k, n in (old.keys - new.keys).items() if not k.startswith("*")}
            )
            for text in sorted(lost):
                found.append(
                    Problem(
                        "turn17-card-moved",
                        where,
                        player=owner,
                        meld=old.number,
                        card=text,
                        rule="R17-10",
                    )
                )
            added = Counter(
                {k: n for k, n in (new.keys - old.keys).items() if not k.startswith("*")}
            )
            for (o, n, text), count in swapped_in.items():
                if (o, n) == (owner, old.number):
                    added[text] -= count
            added = +added
            if added and not opened and not laid_new:
                cards = sorted(added, key=lambda t: card_sort_key(game.parse_card(t)))
                found.append(
                    Problem(
                        "turn17-add-before-meld",
                        {**where, "cards": cards},
                        player=owner,
                        meld=old.number,
                        rule="R17-10",
                    )
                )
    # 3. only the player lays new melds, at the end of their own list (R17-9)
    for owner, melds in after.items():
        if owner == player:
            continue
        for laid in melds[len(before[owner]) :]:
            found.append(
                Problem(
                    "turn17-new-meld-other",
                    {"owner": owner, "number": laid.number, "current": player},
                    player=owner,
                    meld=laid.number,
                    rule="R17-9",
                )
            )
    # 5. a joker from beside the table goes only into a new run of four or more (R17-11)
    new_jokers = Counter(key(t) for t in on_after if isinstance(t, Joker)) - Counter(
        key(t) for t in on_before if isinstance(t, Joker)
    )
    for laid in (m for ms in after.values() for m in ms):
        joker = laid.joker
        if joker is None or key(joker) not in new_jokers or laid.meld is None:
            continue
        fresh = laid.owner == player and laid.number > len(before[player])
        colour = _colour(joker)
        if not fresh:
            params: dict[str, Any] = {"colour": colour, "owner": laid.owner, "number": laid.number}
            code = "turn17-joker-added"
        elif laid.meld.kind != RUN:
            params, code = {"colour": colour}, "turn17-joker-set"
        elif len(laid.tokens) < JOKER_RUN_MIN:
            params = {"colour": colour, "count": len(laid.tokens), "least": JOKER_RUN_MIN}
            code = "turn17-joker-short"
        else:
            continue
        found.append(
            Problem(
                code, params, player=laid.owner, meld=laid.number, card=key(joker), rule="R17-11"
            )
        )
    played = played_cards(on_before, on_after)
    # 7. with the hand, every played card was in it (R17-9; a joker never is, D17-8)
    if hand is not None:
        spare = Counter(key(t) for t in hand)
        for t in played:
            if isinstance(t, Joker):
                continue
            if spare[key(t)] > 0:
                spare[key(t)] -= 1
            else:
                found.append(
                    Problem("turn17-not-in-hand", {"player": player}, card=t.text, rule="R17-9")
                )
    return {
        "valid": not found,
        "played": [t.text for t in played],
        "value": None,
        "problems": [problem_json(p) for p in found],
        "melds": [_meld_json(m) for ms in after.values() for m in ms],
    }


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
