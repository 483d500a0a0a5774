"""Club nights and tournaments kept by the app: an event over ordinary matches (EV-1…EV-7).

The one place that writes an event: create it, seat a session (every table an ordinary match,
started through ``store.create_match``), re-draw a session before play, add or withdraw an
entrant. Writes claim the event's next revision (compare and set), so of two organisers'
phones acting on the same revision one wins and the other is told (``store.claiming``, the
claim every match's write makes too); an idempotency key is stored with the write, as a
match's is (``once``). Standings are never
stored: the rules core computes them from the tables' match results (``rules.events``),
cached per (event, revision, the tables' revisions), which holds across server processes.
"""

from __future__ import annotations

import copy
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select as columns
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from companion.adapters import store
from companion.adapters.cache import LRU
from companion.adapters.models import Change, Event, EventTable, Match, RetiredTable, utcnow
from companion.adapters.store.once import Once, remember
from companion.domain import EntryError, Translator, get_game
from companion.domain.bounds import MAX_TITLE, MAX_TYPED_GAMES
from companion.domain.club import (
    METHODS,
    MOST_ENTRANTS,
    MOST_SESSIONS,
    event_standings,
    met_pairs,
    read_entrants,
    seat_session,
    standings,
    table_sizes,
)
from companion.domain.messages import ENGLISH, N_, NN_, register, render
from companion.domain.names import clash, name_key, spelled, twin
from companion.domain.seating import NAME_LIMIT

register(
    {
        "event-sessions-count": N_("an event has 1 to {most} sessions, not {count} (EV-1)"),
        "event-rounds-count": N_("rounds per table must be a whole number, 1 to {most}"),
        "event-all-seated": NN_(
            "all {count} session is seated already (EV-1)",
            "all {count} sessions are seated already (EV-1)",
            "count",
        ),
        "event-nothing-seated": N_("no session is seated yet"),
        "event-session-started": N_(
            "session {session} has started (a table saved a round): its seating stays (EV-3)"
        ),
        "event-entrant-unknown": N_("{name} is not an entrant of this event"),
        "event-entrant-withdrawn": N_("{name} has withdrawn already"),
        "event-not-found": N_("there is no event at this link"),
        "event-title-long": N_("the title is longer than {limit} characters"),
        # the event's history
        "event-created": NN_(
            "Event started: {count} entrant, {sessions} sessions",
            "Event started: {count} entrants, {sessions} sessions",
            "count",
        ),
        "event-seated": NN_(
            "Session {session} seated at {count} table",
            "Session {session} seated at {count} tables",
            "count",
        ),
        "event-redrawn": N_("Session {session} drawn again before play"),
        "event-joined": N_("{name} joined"),
        "event-withdrew": N_("{name} withdrew"),
        "event-back": N_("{name} is back"),
        "event-table-change": N_("Session {session}, table {table}: {what}"),
    }
)

#: Standings computed once per (event, revision, the tables' revisions) in each process.
STANDINGS: LRU[str] = LRU(256)


class EventError(EntryError):
    """An event write refused in words (nothing was changed)."""


# --- reading ------------------------------------------------------------------------------


def by_edit_token(session: Session, token: str) -> Event | None:
    """The event with this organiser's token, or None."""
    if not store.TOKEN.fullmatch(token or ""):
        return None
    return session.exec(select(Event).where(Event.edit_token == token)).first()


def by_view_token(session: Session, token: str) -> Event | None:
    """The event with this read-only token, or None."""
    if not store.TOKEN.fullmatch(token or ""):
        return None
    return session.exec(select(Event).where(Event.view_token == token)).first()


def retired(session: Session, token: str) -> Event | None:
    """The event whose table had this edit token before it was drawn again (EV-3), or None."""
    if not store.TOKEN.fullmatch(token or ""):
        return None
    row = session.get(RetiredTable, token)
    return session.get(Event, row.event_id) if row is not None else None


def sessions_of(event: Event) -> list[list[EventTable]]:
    """The seated sessions, each its tables in order."""
    out: list[list[EventTable]] = []
    for table in sorted(event.tables, key=lambda t: (t.session, t.number)):
        while len(out) < table.session:
            out.append([])
        out[table.session - 1].append(table)
    return out


def started(tables: list[EventTable]) -> bool:
    """A session has started once any of its tables saved a round (EV-3: seating stays)."""
    return any(t.match is not None and t.match.rounds for t in tables)


def present(event: Event) -> list[str]:
    """The entrants who take part in the next session (EV-1: not withdrawn)."""
    gone = {name_key(n) for n in event.withdrawn}
    return [n for n in event.entrants if name_key(n) not in gone]


def document(event: Event) -> dict[str, Any]:
    """The contract's event document (``standings``) from the tables' match documents."""
    sessions = []
    for tables in sessions_of(event):
        docs = []
        for table in tables:
            assert table.match is not None
            doc = store.as_document(table.match)
            doc.pop("game", None)
            doc.pop("title", None)
            docs.append(doc)
        sessions.append({"tables": docs})
    return {"game": event.game, "entrants": list(event.entrants), "sessions": sessions}


@dataclass(frozen=True)
class TableRow:
    """One table as the standings read it: where it sits and its match's identity now."""

    session: int
    number: int
    match_id: int
    view_token: str
    edit_token: str
    revision: int
    players: list[str]
    first_dealer: str


def table_rows(session: Session, event: Event) -> list[TableRow]:
    """Every table of the event with its match's revision, in one query (no match loaded)."""
    query = (
        columns(
            col(EventTable.session),
            col(EventTable.number),
            col(Match.id),
            col(Match.view_token),
            col(Match.edit_token),
            col(Match.revision),
            col(Match.players),
            col(Match.first_dealer),
        )
        .join(Match, col(Match.id) == col(EventTable.match_id))
        .where(col(EventTable.event_id) == event.id)
        .order_by(col(EventTable.session), col(EventTable.number))
    )
    return [TableRow(*row) for row in session.execute(query).all()]


def version(rows: list[TableRow], event: Event) -> str:
    """What the standings depend on: the event's revision and every table's."""
    total = sum(r.revision for r in rows)
    return f"{event.id}:{event.view_token}:{event.revision}:{len(rows)}:{total}"


def _results(session: Session, rows: list[TableRow]) -> list[list[dict[str, Any]]]:
    """Each session's match results; only tables that changed are scored again."""
    out: list[list[dict[str, Any]]] = []
    for row in rows:
        while len(out) < row.session:
            out.append([])
        out[row.session - 1].append(
            store.result_by_id(session, row.match_id, row.view_token, row.revision)
        )
    return out


def result(session: Session, event: Event, rows: list[TableRow] | None = None) -> dict[str, Any]:
    """The contract's standings of the event now (EV-5, EV-6), a fresh copy each call."""
    rows = table_rows(session, event) if rows is None else rows
    key = version(rows, event)
    cached = STANDINGS.get(key)
    if cached is None:
        results = _results(session, rows)
        lines = event_standings(event.entrants, results)
        finished = all(r["finished"] for tables in results for r in tables)
        answer = {
            "game": event.game,
            "finished": finished,
            "standings": [line.to_json() for line in lines],
        }
        cached = json.dumps(answer, ensure_ascii=False)
        STANDINGS.put(key, cached)
    out: dict[str, Any] = json.loads(cached)
    out["sessions"] = event.sessions
    out["seated"] = max((r.session for r in rows), default=0)
    # EV-7: the event is finished when every table of its last session is finished.
    out["finished"] = out["finished"] and out["seated"] == event.sessions
    return out


def table_states(session: Session, rows: list[TableRow]) -> list[dict[str, Any]]:
    """The last session's tables as the pages show them: seats, rounds saved, finished (EV-4)."""
    last = max((r.session for r in rows), default=0)
    out = []
    for row in rows:
        if row.session != last:
            continue
        match = store.result_by_id(session, row.match_id, row.view_token, row.revision)
        game = get_game(match["game"])
        out.append(
            {
                "number": row.number,
                "players": list(row.players),
                "played": len(match["rounds"]),
                "finished": match["finished"],
                "edit": row.edit_token,
                "view": row.view_token,
                "first": game.first_seat_of(row.players, row.first_dealer),
            }
        )
    return out


#: The history codes of a table's match that the event's history repeats (EV-7): corrections.
TABLE_EDITS = (
    "round-edited",
    "round-deleted",
    "round-deleted-moved",
    "round-deleted-renumbered",
    "round-restored",
)


def history(session: Session, event: Event, tr: Translator = ENGLISH) -> list[dict[str, Any]]:
    """The event's own entries and every correction at its tables (EV-7), newest first.

    One query finds the tables' corrections, however many tables the event has.
    """
    entries = [{"when": e["when"], "what": render(e["code"], e["params"], tr)} for e in event.log]
    query = (
        select(Change, EventTable.session, EventTable.number)
        .join(EventTable, col(EventTable.match_id) == col(Change.match_id))
        .where(EventTable.event_id == event.id, col(Change.code).in_(TABLE_EDITS))
    )
    for change, number, table in session.exec(query).all():
        entry = {"code": change.code, "params": copy.deepcopy(change.params)}
        what = store.describe(entry, tr, event.game)
        params = {"session": number, "table": table, "what": what}
        when = change.when.isoformat() if change.when else ""
        entries.append({"when": when, "what": render("event-table-change", params, tr)})
    return sorted(entries, key=lambda e: e["when"], reverse=True)


# --- writing ------------------------------------------------------------------------------


def create_event(
    session: Session,
    *,
    game: str,
    entrants: object,
    sessions: object,
    rounds: object = None,
    size: object = 4,
    seating: str = "draw",
    title: str | None = None,
    once: Once | None = None,
) -> Event:
    """Start an event (EV-1): every problem of the entries at once; nothing stored on error."""
    kind = get_game(game)
    problems: list[EntryError] = []

    def check(run: Any) -> Any:
        try:
            return run()
        except EntryError as err:
            problems.append(err)
            return None

    names = check(lambda: read_entrants(entrants))
    if (
        not isinstance(sessions, int)
        or isinstance(sessions, bool)
        or not 1 <= sessions <= MOST_SESSIONS
    ):
        problems.append(
            EventError("event-sessions-count", field="sessions", most=MOST_SESSIONS, count=sessions)
        )
    if rounds is not None and (
        not isinstance(rounds, int)
        or isinstance(rounds, bool)
        or not 1 <= rounds <= MAX_TYPED_GAMES
    ):
        # said in the game's words (Rummy 17 plays games at a table)
        count = EventError("event-rounds-count", field="rounds", most=MAX_TYPED_GAMES)
        problems.append(count.at(context=kind.id))
    if not isinstance(size, int) or isinstance(size, bool):
        size = 0
    if seating not in METHODS:
        problems.append(
            EventError(
                "event-method-unknown",
                field="seating",
                rule="EV-3",
                method=seating,
                methods=", ".join(METHODS),
            )
        )
    if names is not None:
        check(lambda: table_sizes(len(names), kind, int(size)))
    if title is not None and len(title.strip()) > MAX_TITLE:
        problems.append(EventError("event-title-long", field="title", limit=MAX_TITLE))
    if problems:
        raise EntryError.of([p for err in problems for p in err.problems])
    assert names is not None and isinstance(sessions, int) and isinstance(size, int)
    event = Event(
        title=(title or "").strip() or None,
        game=kind.id,
        entrants=list(names),
        withdrawn=[],
        sessions=sessions,
        rounds=rounds if isinstance(rounds, int) else None,
        size=size,
        seating=seating,
        edit_token=store.new_token(),
        view_token=store.new_token(),
        revision=1,
        log=[_entry("event-created", count=len(names), sessions=sessions)],
    )
    session.add(event)
    remember(session, once, event=event)
    try:
        session.commit()
    except IntegrityError:  # a twin with this key was stored first
        session.rollback()
        raise store.ConflictError() from None
    return event


def _entry(code: str, **params: Any) -> dict[str, Any]:
    return {"when": utcnow().isoformat(), "code": code, "params": params}


@contextmanager
def _writing(
    session: Session, event: Event, revision: int | None, once: Once | None
) -> Iterator[None]:
    """Claim the event's next revision (``store.claiming``, the one claim of every write), run
    the writes inside with the idempotency key stored beside them, commit; all or none."""
    with store.claiming(session, event, revision):
        yield
        remember(session, once, event=event)
    session.refresh(event)


def _log(event: Event, code: str, **params: Any) -> None:
    event.log = [*copy.deepcopy(event.log), _entry(code, **params)]


def seat_next(
    session: Session, event: Event, revision: int | None = None, once: Once | None = None
) -> list[EventTable]:
    """Seat the next session (EV-2, EV-3): one ordinary match per table, all or none."""
    seated = sessions_of(event)
    if len(seated) >= event.sessions:
        raise EventError("event-all-seated", count=event.sessions)
    number = len(seated) + 1
    with _writing(session, event, revision, once):
        tables = _seat(session, event, number, seated)
        _log(event, "event-seated", session=number, count=len(tables))
    return tables


def redraw(
    session: Session, event: Event, revision: int | None = None, once: Once | None = None
) -> list[EventTable]:
    """Draw the last seated session again before anyone played (EV-3); old links retire."""
    seated = sessions_of(event)
    if not seated:
        raise EventError("event-nothing-seated")
    last = seated[-1]
    if started(last):
        started_error = EventError("event-session-started", rule="EV-3", session=len(seated))
        raise started_error.at(context=event.game)
    number = len(seated)
    with _writing(session, event, revision, once):
        for table in last:
            assert table.match is not None
            session.add(RetiredTable(token=table.match.edit_token, event_id=event.id))
            session.delete(table.match)  # its event_table row goes with it (cascade)
            session.delete(table)
        session.flush()
        tables = _seat(session, event, number, seated[:-1])
        _log(event, "event-redrawn", session=number)
    return tables


def _seat(
    session: Session, event: Event, number: int, before: list[list[EventTable]]
) -> list[EventTable]:
    game = get_game(event.game)
    met = met_pairs([[t.match.players for t in tables if t.match] for tables in before])
    method = event.seating if before else "draw"  # EV-3: by standings only after session 1
    order = None
    if method == "standings":
        order = [line["name"] for line in standings(document(event))["standings"]]
    seed = secrets.randbits(62)
    seating = seat_session(
        present(event), game, preferred=event.size, method=method, seed=seed, met=met, order=order
    )
    made = []
    for t, players in enumerate(seating, start=1):
        match = store.create_match(
            session,
            game=game.id,
            players=list(players),
            first_dealer=game.first_dealer(players, players[0]),
            games=event.rounds,
            title=event.title,
            commit=False,
        )
        table = EventTable(event=event, session=number, number=t, seed=seed, match=match)
        session.add(table)
        made.append(table)
    return made


def add_entrant(
    session: Session,
    event: Event,
    name: object,
    revision: int | None = None,
    once: Once | None = None,
) -> None:
    """A late arrival (EV-1): seated from the next session on; a name twice (or one that only
    looks different, ``rules.names``) is refused, unless it is a withdrawn entrant's."""
    typed = name if isinstance(name, str) else ""
    name = spelled(typed)
    if not name:
        raise EventError("event-name-missing", field="name", number=len(event.entrants) + 1)
    if len(name) > NAME_LIMIT:
        raise EventError("event-name-too-long", field="name", number=1, limit=NAME_LIMIT)
    known = twin(name, event.entrants)
    if known is not None:
        if twin(known, event.withdrawn) is not None:  # back after withdrawing
            with _writing(session, event, revision, once):
                event.withdrawn = [n for n in event.withdrawn if name_key(n) != name_key(known)]
                _log(event, "event-back", name=known)
            return
        kind, params = clash(typed, known)
        raise EventError(f"event-name-{kind}", field="name", rule="EV-1", **params)
    if len(event.entrants) >= MOST_ENTRANTS:
        raise EventError("event-entrant-count", rule="EV-1", count=len(event.entrants) + 1)
    with _writing(session, event, revision, once):
        event.entrants = [*event.entrants, name]
        _log(event, "event-joined", name=name)


def withdraw(
    session: Session,
    event: Event,
    name: object,
    revision: int | None = None,
    once: Once | None = None,
) -> None:
    """An entrant leaves before the next session (EV-1); results already played stay."""
    known = twin(name, event.entrants) if isinstance(name, str) else None
    if known is None:
        raise EventError("event-entrant-unknown", field="name", name=str(name))
    name = known
    if twin(name, event.withdrawn) is not None:
        raise EventError("event-entrant-withdrawn", field="name", name=name)
    with _writing(session, event, revision, once):
        event.withdrawn = [*event.withdrawn, name]
        _log(event, "event-withdrew", name=name)
