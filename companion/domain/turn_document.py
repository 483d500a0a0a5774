"""What every game's ``turn`` shares (contract ``turn``): reading the document, and the answer.

A turn document gives ``opened``, the table before and after the turn, and perhaps the hand;
each game reads its own table (a list of melds, or Rummy 17's melds per player) and checks its
own clauses (``turns`` for the tile games, ``rummy17.turn``). Shared here: the cards compared
as multisets (a joker is a joker whatever it stands for), the copies the game has, the played
cards, and the answer: every clause's problems in the order the game runs its clauses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from companion.domain.cards import Joker, Token, card_sort_key
from companion.domain.errors import Collector, EntryError, Problem
from companion.domain.fixes import fix_fields
from companion.domain.game import turn_object
from companion.domain.holdings import Limits
from companion.domain.messages import N_, NN_, register

register(
    {
        "turn-melds-not-list": N_("{field} must be a list of melds, each a list of cards"),
        "turn-hand-not-list": N_("{field} must be a list of cards"),
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
    }
)

Table = TypeVar("Table")
Table_co = TypeVar("Table_co", covariant=True)
State = TypeVar("State")


class Notation(Protocol):
    """What reading a turn asks of its game: how it writes its cards (``Game.parse_card``)."""

    def parse_card(self, raw: object) -> Token:
        """One card or joker in the game's notation; raises ``EntryError``."""
        ...


class ReadTable(Protocol[Table_co]):
    """How a game reads the table before or after a turn (``read_melds``; Rummy 17's per player)."""

    def __call__(self, raw: object, game: Notation, *, field: str, problems: Collector) -> Table_co:
        """The table, its unreadable cards added to ``problems``."""
        ...


@dataclass(frozen=True)
class TurnDocument(Generic[Table]):
    """What a turn document says, read: every game's fields, before any clause is checked."""

    doc: Mapping[str, Any]
    opened: bool
    before: Table
    after: Table
    hand: list[Token] | None  # None: not given, so check 4 (7 in Rummy 17) is skipped


def read_turn(
    raw: object, game: Notation, keys: frozenset[str], read_table: ReadTable[Table]
) -> TurnDocument[Table]:
    """The document's ``opened``, tables and hand; every unreadable card at once is bad input.

    :raises EntryError: the document is no turn of ``game``, or a card cannot be read.
    """
    doc = turn_object(raw, keys)
    opened = doc.get("opened", True)
    if not isinstance(opened, bool):
        raise EntryError("turn-opened-not-bool", field="opened")
    problems = Collector()
    before = read_table(doc.get("before"), game, field="before", problems=problems)
    after = read_table(doc.get("after"), game, field="after", problems=problems)
    hand = None
    if doc.get("hand") is not None:
        hand = read_cards(doc["hand"], game, field="hand", problems=problems)
    problems.raise_any()
    return TurnDocument(doc, opened, before, after, hand)


def key(token: Token) -> str:
    """How a turn compares cards: a joker is a joker whatever it stands for."""
    return token.bare if isinstance(token, Joker) else token.text


def read_cards(raw: object, game: Notation, *, field: str, problems: Collector) -> list[Token]:
    """A list of cards (a hand); unreadable ones go to ``problems``."""
    if not isinstance(raw, list):
        raise EntryError("turn-hand-not-list", field=field)
    out: list[Token] = []
    for c in raw:
        with problems.check(field=field):
            token = game.parse_card(c)
            out.append(Joker(token.colour, None, token.deck) if isinstance(token, Joker) else token)
    return out


def read_melds(
    raw: object, game: Notation, *, field: str, problems: Collector
) -> list[list[Token]]:
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


def check_turn_copies(
    on_before: Sequence[Token],
    on_after: Sequence[Token],
    hand: Sequence[Token] | None,
    limits: Limits,
) -> None:
    """No more copies than the game has on either table, nor on the first with the hand."""
    check_copies(
        {"before": on_before, "after": on_after, "hand": [*on_before, *(hand or [])]}, limits
    )


def missing(before: Iterable[Token], after: Iterable[Token]) -> Counter[str]:
    """The cards of ``before`` that ``after`` lacks, as a turn compares them (multisets)."""
    return Counter(key(t) for t in before) - Counter(key(t) for t in after)


def played_cards(before: Sequence[Token], after: Sequence[Token]) -> list[Token]:
    """The cards in ``after`` not in ``before`` (multisets), sorted as the game writes them."""
    extra = missing(after, before)
    out: list[Token] = []
    for t in after:
        if extra[key(t)] > 0:
            extra[key(t)] -= 1
            out.append(Joker(t.colour, None, t.deck) if isinstance(t, Joker) else t)
    return sorted(out, key=card_sort_key)


def beyond_hand(hand: Sequence[Token], played: Iterable[Token]) -> Iterator[Token]:
    """The played cards the hand did not hold (multisets), in the order played."""
    spare = Counter(key(t) for t in hand)
    for t in played:
        if spare[key(t)] > 0:
            spare[key(t)] -= 1
        else:
            yield t


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


def verdict_json(
    clauses: Iterable[Callable[[State], Iterable[Problem]]],
    turn: State,
    played: Sequence[Token],
    value: int | None,
    melds: list[dict[str, Any]],
) -> dict[str, Any]:
    """The contract's answer: every clause checked in turn, each problem in the order found."""
    found = [problem for clause in clauses for problem in clause(turn)]
    return {
        "valid": not found,
        "played": [t.text for t in played],
        "value": value,
        "problems": [problem_json(p) for p in found],
        "melds": melds,
    }
