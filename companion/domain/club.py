"""Club nights and tournaments: seating several tables and the standings across them.

EV-1…EV-7 (``rules/events.md``). An event is one game, its entrants and its sessions; each
session is the tables that played, each table an ordinary match document. Nothing here knows a
game: a table is scored by ``match_document``, seats come from the game's description, and the
ranking at a table is the match's own (highest total first, end bonuses included, EV-5).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from companion.domain.documents import EventDocument, json_of
from companion.domain.errors import Collector, EntryError, about
from companion.domain.game import Game, get_game
from companion.domain.messages import N_, register
from companion.domain.names import clash, name_key, spelled, twin
from companion.domain.scoring import match_document
from companion.domain.seating import NAME_LIMIT

register(
    {
        "event-not-object": N_("an event must be a JSON object"),
        "event-unknown-field": N_(
            "the event has an unknown field {key!r}; the fields are {fields}"
        ),
        "event-entrants-not-list": N_("entrants must be a list of names"),
        "event-entrant-count": N_("an event has 2 to 200 entrants, not {count} ({rule})"),
        "event-name-missing": N_("entrant {number} has no name"),
        "event-name-too-long": N_("entrant {number}'s name is longer than {limit} characters"),
        "event-name-twice": N_("{name} is entered twice; each entrant needs their own name"),
        "event-name-alike": N_(
            "“{other}” and “{name}” are the same name; each entrant needs their own name"
        ),
        "event-sessions-not-list": N_("sessions must be a list, each with its tables"),
        "event-session-count": N_("an event has at most {most} sessions, not {count} ({rule})"),
        "event-session-not-object": N_('a session must be a JSON object with "tables"'),
        "event-tables-not-list": N_("tables must be a list of match documents"),
        "event-table-not-object": N_("a table must be a JSON object (a match document)"),
        "event-table-other-game": N_("the table plays {other!r}, the event is {game}"),
        "event-not-entrant": N_(
            "{name} sits at this table but is not an entrant; add them to the entrants first"
        ),
        "event-seated-twice": N_(
            "{name} also sits at table {other} of this session; everyone sits at one table ({rule})"
        ),
        "event-too-few": N_(
            "{count} present cannot fill a table: {game_name} needs at least {least} ({rule})"
        ),
        "event-size-outside": N_(
            "the preferred table size {size} is outside {game_name}'s {low} to {high} players "
            "({rule})"
        ),
        "event-method-unknown": N_("seating is by {methods}, not {method!r} ({rule})"),
    }
)

EVENT_KEYS = frozenset({"game", "entrants", "sessions", "title"})
MOST_ENTRANTS = 200  # EV-1
MOST_SESSIONS = 20  # EV-1
DRAW_TRIES = 200  # EV-3: a draw retries up to 200 times for fewer repeated pairs
METHODS = ("draw", "standings")  # EV-3


@dataclass(frozen=True)
class Event:
    """An event document as read: its game, entrants and each session's tables (EV-1)."""

    game: Game
    entrants: tuple[str, ...]
    sessions: tuple[tuple[Mapping[str, Any], ...], ...]  # each table a match document


@dataclass(frozen=True)
class Standing:
    """One entrant's line of the standings (EV-5, EV-6); ``score`` and shares unrounded."""

    rank: int
    name: str
    score: float  # the sum of session shares, in per cent
    sessions: tuple[float | None, ...]  # each session's share in per cent, None: not played
    totals: int  # EV-6 (1): the sum of the entrant's match totals
    rounds_won: int  # EV-6 (2): rounds won, where the game has round winners
    missed: int  # sessions not played (0 % each, EV-6)
    provisional: bool  # a table of theirs is still playing (EV-4)

    def to_json(self) -> dict[str, Any]:
        """The contract's standings line: percentages to one decimal."""
        return {
            "rank": self.rank,
            "name": self.name,
            "score": round(self.score, 1),
            "sessions": [None if s is None else round(s, 1) for s in self.sessions],
            "totals": self.totals,
            "rounds_won": self.rounds_won,
            "missed": self.missed,
            "provisional": self.provisional,
        }


# --- seating (EV-2, EV-3) -------------------------------------------------------------------


def table_sizes(present: int, game: Game, preferred: int = 4) -> tuple[int, ...]:
    """EV-2: as few tables as the preferred size allows, sizes as equal as possible.

    10 entrants at size 4 sit 4 + 3 + 3, never 4 + 4 + 2; every size within the game's seats.
    The sizes come largest first. Raises ``EntryError`` when nobody can be seated this way.
    """
    low, high = game.seats
    if not low <= preferred <= high:
        raise EntryError(
            "event-size-outside",
            field="size",
            rule="EV-2",
            size=preferred,
            low=low,
            high=high,
            game_name=game.name,
        )
    if present < low:
        raise EntryError(
            "event-too-few", rule="EV-2", count=present, least=low, game_name=game.name
        )
    tables = -(-present // preferred)  # ceil: no table above the preferred size
    while tables > 1 and present // tables < low:  # too many tables leave one short
        tables -= 1
    while -(-present // tables) > high:  # the game's seats cap every table
        tables += 1
    big = present % tables
    size = present // tables
    return tuple([size + 1] * big + [size] * (tables - big))


def met_pairs(sessions: Sequence[Sequence[Sequence[str]]]) -> frozenset[frozenset[str]]:
    """Every pair of entrants who sat at one table in any of these sessions (EV-3)."""
    return frozenset(
        frozenset(pair)
        for tables in sessions
        for table in tables
        for pair in combinations(table, 2)
    )


def repeats(tables: Sequence[Sequence[str]], met: Collection[frozenset[str]]) -> int:
    """How many pairs at these tables already met (EV-3 prefers fewer)."""
    return sum(1 for table in tables for pair in combinations(table, 2) if frozenset(pair) in met)


def seat_session(
    present: Sequence[str],
    game: Game,
    *,
    preferred: int = 4,
    method: str = "draw",
    seed: int,
    met: Collection[frozenset[str]] = (),
    order: Sequence[str] | None = None,
) -> tuple[tuple[str, ...], ...]:
    """EV-2, EV-3: the tables of one session, each in seat order (the first seat deals or
    starts first). The same seed always gives the same seating, so it can be shown again.

    ``method`` "draw" shuffles (up to 200 tries for fewer pairs who already met); "standings"
    fills table 1 from the top of ``order`` (the standings), then swaps neighbours across
    adjacent tables where that seats fewer repeated pairs and nobody moves more than one table.
    """
    if method not in METHODS:
        raise EntryError(
            "event-method-unknown", rule="EV-3", method=method, methods=", ".join(METHODS)
        )
    sizes = table_sizes(len(present), game, preferred)
    rng = random.Random(seed)
    if method == "standings":
        ranked = [n for n in (order or ()) if n in set(present)]
        ranked += [n for n in present if n not in set(ranked)]  # late arrivals last
        tables = _by_standings(ranked, sizes, met)
    else:
        tables = _by_draw(list(present), sizes, met, rng)
    out = []
    for table in tables:  # EV-3: the seat order at a table, and so who deals first, is drawn
        seated = list(table)
        rng.shuffle(seated)
        out.append(tuple(seated))
    return tuple(out)


def _split(names: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    out, at = [], 0
    for size in sizes:
        out.append(list(names[at : at + size]))
        at += size
    return out


def _by_draw(
    names: list[str], sizes: Sequence[int], met: Collection[frozenset[str]], rng: random.Random
) -> list[list[str]]:
    best: list[list[str]] | None = None
    best_repeats = -1
    for _ in range(DRAW_TRIES if met else 1):
        rng.shuffle(names)
        tables = _split(names, sizes)
        count = repeats(tables, met)
        if best is None or count < best_repeats:
            best, best_repeats = tables, count
        if count == 0:
            break
    assert best is not None
    return best


def _by_standings(
    ranked: Sequence[str], sizes: Sequence[int], met: Collection[frozenset[str]]
) -> list[list[str]]:
    tables = _split(ranked, sizes)
    moved: set[str] = set()
    for i in range(len(tables) - 1):
        upper, lower = tables[i], tables[i + 1]
        improved = True
        while improved:
            improved = False
            now = repeats([upper, lower], met)
            # Neighbours first: the nearest places in the standings across the boundary.
            pairs = sorted(
                ((a, b) for a in range(len(upper)) for b in range(len(lower))),
                key=lambda ab: (len(upper) - ab[0]) + ab[1],
            )
            for a, b in pairs:
                x, y = upper[a], lower[b]
                if x in moved or y in moved:
                    continue  # nobody moves more than one table (EV-3)
                upper[a], lower[b] = y, x
                if repeats([upper, lower], met) < now:
                    moved.update((x, y))
                    improved = True
                    break
                upper[a], lower[b] = x, y
    return tables


# --- standings (EV-5, EV-6, EV-7) -----------------------------------------------------------


def session_shares(ranking: Sequence[tuple[str, int]]) -> dict[str, float]:
    """EV-5: each player's share of the opponents they finished ahead of, ties counting half.

    ``ranking`` is a table's (name, rank) pairs, equal ranks for equal totals. A table of four
    gives 1, 2/3, 1/3 and 0; a table of three 1, 1/2 and 0.
    """
    n = len(ranking)
    out = {}
    for name, rank in ranking:
        ahead = sum(1 for _, other in ranking if other > rank)
        tied = sum(1 for _, other in ranking if other == rank) - 1
        out[name] = (ahead + tied / 2) / (n - 1) if n > 1 else 0.0
    return out


def read_event(doc: object) -> Event:
    """The contract's event document, checked; every problem of the seating at once."""
    if not isinstance(doc, Mapping):
        raise EntryError("event-not-object")
    unknown = sorted(set(doc) - EVENT_KEYS)
    if unknown:
        raise EntryError(
            "event-unknown-field", key=unknown[0], fields=", ".join(sorted(EVENT_KEYS))
        )
    game = get_game(doc.get("game"))
    with about(field="entrants"):
        entrants = read_entrants(doc.get("entrants"))
    raw_sessions = doc.get("sessions", [])
    if not isinstance(raw_sessions, list):
        raise EntryError("event-sessions-not-list", field="sessions")
    if len(raw_sessions) > MOST_SESSIONS:
        raise EntryError(
            "event-session-count",
            field="sessions",
            rule="EV-1",
            most=MOST_SESSIONS,
            count=len(raw_sessions),
        )
    problems = Collector()
    known = {name_key(n): n for n in entrants}
    sessions = []
    for s, raw in enumerate(raw_sessions, start=1):
        if not isinstance(raw, Mapping) or not isinstance(raw.get("tables"), list):
            code = "event-session-not-object" if not isinstance(raw, Mapping) else ""
            problems.add(
                EntryError(code or "event-tables-not-list", field="sessions").at(session=s)
            )
            continue
        seated: dict[str, int] = {}
        tables = []
        for t, table in enumerate(raw["tables"], start=1):
            with problems.check(session=s, table=t):
                tables.append(_read_table(table, game, known, seated, t))
        sessions.append(tuple(tables))
    problems.raise_any()
    return Event(game, entrants, tuple(sessions))


def read_entrants(raw: object) -> tuple[str, ...]:
    """EV-1: 2 to 200 unique, non-empty names of at most 40 characters."""
    if not isinstance(raw, list):
        raise EntryError("event-entrants-not-list")
    if not 2 <= len(raw) <= MOST_ENTRANTS:
        raise EntryError("event-entrant-count", rule="EV-1", count=len(raw))
    problems = Collector()
    typed: list[str] = []
    out = []
    for i, given in enumerate(raw, start=1):
        name = spelled(given) if isinstance(given, str) else ""
        if not name:
            problems.add(EntryError("event-name-missing", number=i))
            continue
        other = twin(given, typed)
        if len(name) > NAME_LIMIT:
            problems.add(EntryError("event-name-too-long", number=i, limit=NAME_LIMIT))
        elif other is not None:
            problems.add(entrant_twice(given, other))
        typed.append(given)
        out.append(name)
    problems.raise_any()
    return tuple(out)


def entrant_twice(name: str, other: str) -> EntryError:
    """EV-1: ``name`` is refused, the same name as the entrant ``other`` (names.clash)."""
    kind, params = clash(name, other)
    return EntryError(f"event-name-{kind}", player=name.strip(), rule="EV-1", **params)


def _read_table(
    raw: object, game: Game, known: Mapping[str, str], seated: dict[str, int], number: int
) -> Mapping[str, Any]:
    """A table: a match document of the event's game, seating only entrants, once each."""
    if not isinstance(raw, Mapping):
        raise EntryError("event-table-not-object")
    if raw.get("game", game.id) != game.id:
        raise EntryError("event-table-other-game", other=raw.get("game"), game=game.id)
    problems = Collector()
    players = raw.get("players")
    for name in players if isinstance(players, list) else []:
        if not isinstance(name, str):
            continue  # the match says what is wrong with it
        key = name_key(name)
        if key not in known:
            problems.add(
                EntryError("event-not-entrant", player=name, field="players", name=name.strip())
            )
        elif key in seated and seated[key] != number:
            problems.add(
                EntryError(
                    "event-seated-twice",
                    player=known[key],
                    field="players",
                    rule="EV-2",
                    name=known[key],
                    other=seated[key],
                )
            )
        else:
            seated[key] = number
    problems.raise_any()
    return {**raw, "game": game.id}


def standings(doc: EventDocument | object) -> dict[str, Any]:
    """``companion standings``: an event document in, the contract's standings out (EV-5…7);
    typed, or as the CLI read it (``json_of``)."""
    event = read_event(json_of(doc))
    results: list[list[dict[str, Any]]] = []
    problems = Collector()
    for s, tables in enumerate(event.sessions, start=1):
        scored = []
        for t, table in enumerate(tables, start=1):
            with problems.check(session=s, table=t):
                scored.append(match_document(table))
        results.append(scored)
    problems.raise_any()
    lines = event_standings(event.entrants, results)
    finished = all(r["finished"] for scored in results for r in scored)
    return {
        "game": event.game.id,
        "finished": finished,
        "standings": [line.to_json() for line in lines],
    }


def event_standings(
    entrants: Sequence[str], sessions: Sequence[Sequence[Mapping[str, Any]]]
) -> list[Standing]:
    """EV-5, EV-6: the standings from each session's match results, best first.

    Ranked by the sum of session shares, then (1) the sum of match totals, (2) rounds won, and
    equal on all of them (unrounded) share a rank. A session not played scores 0 and counts as
    missed; a table still playing makes its players' lines provisional (EV-4).
    """
    canonical = {name_key(n): n for n in entrants}
    shares: dict[str, list[float | None]] = {n: [None] * len(sessions) for n in entrants}
    totals = dict.fromkeys(entrants, 0)
    won = dict.fromkeys(entrants, 0)
    provisional = dict.fromkeys(entrants, False)
    for s, results in enumerate(sessions):
        for result in results:
            ranking = [
                (canonical[name_key(line["name"])], line["rank"]) for line in result["standings"]
            ]
            for name, share in session_shares(ranking).items():
                shares[name][s] = 100 * share
            for name, total in result["totals"].items():
                totals[canonical[name_key(name)]] += total
            for line in result["rounds"]:
                for name in line.get("winners", ()):
                    won[canonical[name_key(name)]] += 1
            if not result["finished"]:
                for name, _ in ranking:
                    provisional[name] = True

    def score(name: str) -> float:
        return sum(x for x in shares[name] if x is not None)

    def key(name: str) -> tuple[float, int, int]:
        return (-round(score(name), 9), -totals[name], -won[name])

    ordered = sorted(entrants, key=lambda n: (key(n), n.casefold()))
    out: list[Standing] = []
    for i, name in enumerate(ordered):
        rank = out[-1].rank if out and key(ordered[i - 1]) == key(name) else i + 1
        out.append(
            Standing(
                rank=rank,
                name=name,
                score=score(name),
                sessions=tuple(shares[name]),
                totals=totals[name],
                rounds_won=won[name],
                missed=sum(1 for x in shares[name] if x is None),
                provisional=provisional[name],
            )
        )
    return out
