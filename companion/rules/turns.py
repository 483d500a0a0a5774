"""Is this turn legal? The referee's answer for the tile games (contract ``turn``).

Rummikub (RK-4…RK-14), Deluxe Rummy-O (RO-4…RO-9, DO-3) and Manipulation Rummy
(MR-3…MR-7): the table before and after one turn, compared as multisets (a joker is a joker
whatever it stands for). Every problem is reported with its clause, not only the first.
Also the redeal check of Rummikub (RK-3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import Card, Joker, Token, card_sort_key
from .errors import Collector, EntryError, Problem
from .fixes import fix_fields
from .game import turn_object
from .holdings import Limits
from .messages import N_, NN_, register
from .tile_melds import check_tiles, meld_value

if TYPE_CHECKING:
    from .game import Game
    from .tiles import LeftoverGame

register(
    {
        "turn-melds-not-list": N_("{field} must be a list of melds, each a list of cards"),
        "turn-hand-not-list": N_("hand must be a list of cards"),
        "turn-opened-not-bool": N_("opened must be true or false"),
        "turn-too-many-copies": NN_(
            "{card} appears more than once; the game has one ({rule})",
            "{card} appears more than {most} times; the game has {most} ({rule})",
            "most",
        ),
        "turn-too-many-jokers": NN_(
            "more than {most} joker; the game has {most} ({rule})",
            "more than {most} jokers; the game has {most} ({rule})",
            "most",
        ),
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
class TurnRules:
    """The clauses one tile game cites for each check of a turn (contract ``turn``)."""

    left_table: str  # RK-9, RO-8, MR-6: nothing goes back to a rack or hand
    freed_joker: str  # RK-14, RO-9, MR-7
    nothing_played: str  # RK-8, RO-7, MR-6
    from_hand: str  # RK-8, RO-7, MR-5
    words: str  # "tile" (racks) or "card" (hands): which sentences the game's table reads
    #: The least an initial meld is worth (RK-6: 30, RO-6: 25); None: no initial meld.
    initial_least: int | None = None
    initial_rule: str = ""  # RK-6, RO-6: the worth
    initial_touch: str = ""  # RK-6, RO-8: the table is left alone
    initial_joker: str = ""  # RK-13, RO-8: no joker taken from the table


def key(token: Token) -> str:
    """How a turn compares cards: a joker is a joker whatever it stands for."""
    return token.bare if isinstance(token, Joker) else token.text


def read_cards(raw: object, game: Game, *, field: str, problems: Collector) -> list[Token]:
    """A list of cards (a hand); unreadable ones go to ``problems``."""
    if not isinstance(raw, list):
        raise EntryError("turn-hand-not-list", field=field)
    out: list[Token] = []
    for c in raw:
        with problems.check(field=field):
            token = game.parse_card(c)
            out.append(Joker(token.colour, None, token.game) if isinstance(token, Joker) else token)
    return out


def read_melds(raw: object, game: Game, *, field: str, problems: Collector) -> list[list[Token]]:
    """A table: a list of melds, each a list of cards; unreadable cards go to ``problems``."""
    if not isinstance(raw, list) or not all(isinstance(m, list) for m in raw):
        raise EntryError("turn-melds-not-list", field=field)
    melds = []
    for number, meld in enumerate(raw, start=1):
        tokens = []
        for c in meld:
            with problems.check(field=field, meld=number):
                tokens.append(game.parse_card(c))
        melds.append(tokens)
    return melds


def check_copies(groups: Mapping[str, Sequence[Token]], limits: Limits) -> None:
    """DK-4, DO-6, DM-8: no more copies of a card, nor jokers, than the game has."""
    problems = Collector()
    for field, tokens in groups.items():
        counts = Counter(key(t) for t in tokens)
        for text, n in sorted(counts.items()):
            joker = text == "*"  # Rummy 17 jokers have colours: each exists once (R17-1)
            most = limits.jokers if joker else limits.copies
            if n > most:
                code = "turn-too-many-jokers" if joker else "turn-too-many-copies"
                problems.add(EntryError(code, field=field, card=text, rule=limits.rule, most=most))
    problems.raise_any()


def problem_json(problem: Problem) -> dict[str, Any]:
    """One problem of a turn: its clause, the reason in English, and code/params to say it
    anew in another language; ``meld``, ``card`` and ``player`` where it has them."""
    out: dict[str, Any] = {"rule": problem.rule, "reason": problem.reason()}
    for place in ("player", "meld", "card"):
        value = getattr(problem, place)
        if value is not None:
            out[place] = value
    out["code"] = problem.code
    out["params"] = problem.values()
    out.update(fix_fields(problem, out["params"]))
    return out


def played_cards(before: Sequence[Token], after: Sequence[Token]) -> list[Token]:
    """The cards in ``after`` not in ``before`` (multisets), sorted as the game writes them."""
    extra = Counter(key(t) for t in after) - Counter(key(t) for t in before)
    out: list[Token] = []
    for t in after:
        if extra[key(t)] > 0:
            extra[key(t)] -= 1
            out.append(Joker(t.colour, None, t.game) if isinstance(t, Joker) else t)
    return sorted(out, key=card_sort_key)


def _verdicts(melds: Sequence[Sequence[Token]], game: LeftoverGame, field: str) -> list[Any]:
    """Each meld's ``check`` verdict; a joker whose stand-in cannot be told is bad input."""
    problems = Collector()
    verdicts = []
    for number, meld in enumerate(melds, start=1):
        verdict = check_tiles(game.id, meld)
        if verdict.get("readings") or (field == "before" and not verdict["valid"]):
            params = {k: v for k, v in verdict["params"].items() if k != "rule"}
            problems.add(
                EntryError(
                    verdict["code"], field=field, meld=number, rule=verdict["rule"], **params
                )
            )
        verdicts.append(verdict)
    problems.raise_any()
    return verdicts


def check_tile_turn(game: LeftoverGame, rules: TurnRules, doc: object) -> dict[str, Any]:
    """The contract's ``turn`` for a tile game: checks 1–5, every problem with its clause."""
    doc = turn_object(doc, TURN_KEYS)
    opened = doc.get("opened", True)
    if not isinstance(opened, bool):
        raise EntryError("turn-opened-not-bool", field="opened")
    problems = Collector()
    before = read_melds(doc.get("before"), game, field="before", problems=problems)
    after = read_melds(doc.get("after"), game, field="after", problems=problems)
    hand = None
    if doc.get("hand") is not None:
        hand = read_cards(doc["hand"], game, field="hand", problems=problems)
    problems.raise_any()
    on_before = [t for m in before for t in m]
    on_after = [t for m in after for t in m]
    check_copies(
        {"before": on_before, "after": on_after, "hand": on_before + (hand or [])},
        game.limits({}),
    )
    before_verdicts = _verdicts(before, game, "before")
    verdicts = _verdicts(after, game, "after")

    found: list[Problem] = []
    w = rules.words
    # 1. every meld in after is legal (RK-4/5, RO-4/5, MR-3/4)
    for number, verdict in enumerate(verdicts, start=1):
        if not verdict["valid"]:
            params = {k: v for k, v in verdict["params"].items() if k != "rule"}
            found.append(Problem(verdict["code"], params, meld=number, rule=verdict["rule"]))
    # 2. nothing leaves the table, a freed joker included (RK-9, RK-14, RO-8, RO-9, MR-6, MR-7)
    missing = Counter(key(t) for t in on_before) - Counter(key(t) for t in on_after)
    for text in sorted(missing, key=lambda k: card_sort_key(game.parse_card(k))):
        for _ in range(missing[text]):
            if text.startswith("*"):
                found.append(Problem(f"turn-joker-left-{w}", card=text, rule=rules.freed_joker))
            else:
                found.append(Problem(f"turn-left-table-{w}", card=text, rule=rules.left_table))
    played = played_cards(on_before, on_after)
    # 3. at least one card was played (RK-8, RO-7, MR-6)
    if not played:
        found.append(Problem(f"turn-nothing-played-{w}", rule=rules.nothing_played))
    # 4. with the hand, every played card was in it (RK-8, RO-7, MR-5)
    if hand is not None:
        spare = Counter(key(t) for t in hand)
        for t in played:
            if spare[key(t)] > 0:
                spare[key(t)] -= 1
            else:
                found.append(Problem(f"turn-not-in-hand-{w}", card=key(t), rule=rules.from_hand))
    # 5. the initial meld: the table left alone, new melds worth enough (RK-6, RK-13, RO-6, RO-8)
    value = None
    if rules.initial_least is not None and not opened:
        value, touched = _initial(
            _resolved(before, before_verdicts, game),
            _resolved(after, verdicts, game),
            verdicts,
            game,
        )
        for number in touched:
            found.append(
                Problem("turn-initial-touched", {"number": number}, rule=rules.initial_touch)
            )
        if any(any(isinstance(t, Joker) for t in before[n - 1]) for n in touched):
            found.append(Problem("turn-initial-joker", rule=rules.initial_joker))
        if played and value < rules.initial_least:
            found.append(
                Problem(
                    "turn-initial-value",
                    {"value": value, "least": rules.initial_least},
                    rule=rules.initial_rule,
                )
            )
    melds = []
    for meld, verdict in zip(after, verdicts, strict=True):
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
    return {
        "valid": not found,
        "played": [t.text for t in played],
        "value": value,
        "problems": [problem_json(p) for p in found],
        "melds": melds,
    }


def _initial(
    before: Sequence[Sequence[Token]],
    after: Sequence[Sequence[Token]],
    verdicts: Sequence[Mapping[str, Any]],
    game: LeftoverGame,
) -> tuple[int, list[int]]:
    """The worth of the new melds, and the melds of ``before`` not found unchanged in ``after``.

    A meld is unchanged when it holds the same cards (in any order); each meld of ``after``
    answers for one meld of ``before`` at most. The rest of ``after`` are the new melds.
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
    touched = [n for n in range(1, len(before) + 1) if n not in found]
    value = 0
    for i, verdict in enumerate(verdicts):
        if i not in kept and verdict["valid"]:
            faces = [game.parse_card(c) for c in verdict["cards"]]
            value += meld_value(game.id, [_face(t) for t in faces])
    return value, touched


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
