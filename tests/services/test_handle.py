"""``handle``, the one way to write: every command's handler run once per idempotency key, on
the revision it names, all or nothing (docs/adr/0005-one-service-path.md).

For each command on a real SQLite session: it is ``Done``; the same key twice does the work once
and answers ``Replayed``; on a wrong revision it is ``StaleRevision`` and nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlmodel import Session

from companion.adapters import store
from companion.adapters.models import Event, Match
from companion.adapters.store import events
from companion.domain import EntryError, get_game
from companion.domain.documents import PartBody, parse
from companion.domain.documents import Round as RoundDocument
from companion.services import saving
from companion.services.commands import (
    AddEntrant,
    AddRound,
    Command,
    CreateEvent,
    DeleteRound,
    KeepPart,
    Later,
    Lengthen,
    OpenParts,
    Redraw,
    Rematch,
    ReplaceRound,
    RestoreRound,
    SeatSession,
    SendPart,
    StartMatch,
    StopParts,
    WithdrawEntrant,
)
from companion.services.handlers import HANDLERS, handle

PLAYERS = ["Anna", "Béla", "Cili"]
NAMES = ["Anna", "Béla", "Csaba", "Dóra", "Emese", "Ferenc", "Gábor", "Hanna"]


def a_round(points: int) -> RoundDocument:
    """A valid Rummikub round where player i is left with ``points + i``."""
    game = get_game("rummikub")
    doc: dict[str, Any] = {"game": game.id, **{e.key: None for e in game.endings}}
    doc["players"] = [
        {"name": n, game.holding: {"points": points + i}} for i, n in enumerate(PLAYERS)
    ]
    return parse(RoundDocument, doc)


def start(session: Session, once: store.Once | None = None) -> Any:
    return handle(
        session,
        StartMatch(game="rummikub", players=PLAYERS, first_dealer="Anna", games=5, once=once),
    )


def started(session: Session) -> Match:
    done = start(session)
    assert isinstance(done, saving.Done)
    return done.value  # type: ignore[no-any-return]


def match_now(app: Flask, match: Match) -> tuple[int, int | None, list[Any]]:
    """The match as the database has it: revision, length and rounds."""
    with Session(app.extensions["companion_db"]) as other:
        found = store.get_by_edit_token(other, match.edit_token)
        assert found is not None
        return found.revision, found.games, [r.document for r in found.rounds]


def event_now(app: Flask, event: Event) -> tuple[int, int, list[str], list[str]]:
    """The event as the database has it: revision, tables, entrants and who withdrew."""
    with Session(app.extensions["companion_db"]) as other:
        found = events.by_edit_token(other, event.edit_token)
        assert found is not None
        return found.revision, len(found.tables), list(found.entrants), list(found.withdrawn)


def count(app: Flask, model: Any) -> int:
    with Session(app.extensions["companion_db"]) as other:
        return int(other.execute(select(func.count()).select_from(model)).scalar_one())


def test_every_command_has_one_handler() -> None:
    assert set(HANDLERS) == set(Command.__args__)  # type: ignore[attr-defined]


# --- a match's writes on its revision ----------------------------------------------------------

#: Whatever a command needs done first (a round to replace, a deletion to undo).
Prepare = Callable[[Session, Match], dict[str, Any]]
#: The command, given the match, what was prepared, the revision and the key.
Build = Callable[[Match, dict[str, Any], int | None, store.Once | None], Command]


def one_round(session: Session, match: Match) -> dict[str, Any]:
    handle(session, AddRound(match=match, round=a_round(1)))
    return {}


def one_deleted(session: Session, match: Match) -> dict[str, Any]:
    one_round(session, match)
    handle(session, DeleteRound(match=match, number=1))
    return {"change": max(store.undoable(session, match))}


MATCH_WRITES: dict[str, tuple[Prepare, Build]] = {
    "add a round": (
        lambda s, m: {},
        lambda m, p, r, o: AddRound(match=m, round=a_round(2), revision=r, once=o),
    ),
    "replace a round": (
        one_round,
        lambda m, p, r, o: ReplaceRound(match=m, number=1, round=a_round(5), revision=r, once=o),
    ),
    "delete a round": (
        one_round,
        lambda m, p, r, o: DeleteRound(match=m, number=1, revision=r, once=o),
    ),
    "restore a round": (
        one_deleted,
        lambda m, p, r, o: RestoreRound(match=m, change=p["change"], revision=r, once=o),
    ),
    "lengthen": (
        lambda s, m: {},
        lambda m, p, r, o: Lengthen(match=m, revision=r, once=o),
    ),
}


@pytest.mark.parametrize("write", sorted(MATCH_WRITES))
def test_a_match_write_is_done_on_its_revision(app: Flask, session: Session, write: str) -> None:
    prepare, build = MATCH_WRITES[write]
    match = started(session)
    prepared = prepare(session, match)
    before = match_now(app, match)
    done = handle(session, build(match, prepared, match.revision, None))
    assert isinstance(done, saving.Done)
    after = match_now(app, match)
    assert after[0] == before[0] + 1 and after != before


@pytest.mark.parametrize("write", sorted(MATCH_WRITES))
def test_a_match_write_sent_twice_with_its_key_is_done_once(
    app: Flask, session: Session, write: str
) -> None:
    prepare, build = MATCH_WRITES[write]
    match = started(session)
    prepared = prepare(session, match)
    before = match_now(app, match)
    command = build(match, prepared, match.revision, store.Once("test:command", "once"))
    first = handle(session, command)
    once = match_now(app, match)
    again = handle(session, command)  # its revision is stale now: the key answers first
    assert isinstance(first, saving.Done) and isinstance(again, saving.Replayed)
    assert again.match.id == match.id
    assert match_now(app, match) == once and once[0] == before[0] + 1


@pytest.mark.parametrize("write", sorted(MATCH_WRITES))
def test_a_match_write_on_a_wrong_revision_is_stale_and_changes_nothing(
    app: Flask, session: Session, write: str
) -> None:
    prepare, build = MATCH_WRITES[write]
    match = started(session)
    prepared = prepare(session, match)
    before = match_now(app, match)
    key = store.Once("test:command", "stale")
    with pytest.raises(store.StaleRevision) as refused:
        handle(session, build(match, prepared, before[0] + 7, key))
    assert refused.value.revision == before[0]
    assert match_now(app, match) == before
    assert store.done(session, key) is None  # the key was not kept: sent again, it is done


def test_a_refused_round_changes_nothing(app: Flask, session: Session) -> None:
    match = started(session)
    before = match_now(app, match)
    with pytest.raises(store.RoundMissing):
        handle(session, DeleteRound(match=match, number=3, revision=match.revision))
    assert match_now(app, match) == before


# --- creations: a key makes a retry answer alike, with one new row ------------------------------


def test_starting_a_match_twice_with_one_key_starts_one(app: Flask, session: Session) -> None:
    key = store.Once("test:start", "one")
    first, again = start(session, key), start(session, key)
    assert isinstance(first, saving.Done) and isinstance(again, saving.Replayed)
    assert again.match.id == first.value.id and count(app, Match) == 1


def test_a_rematch_twice_with_one_key_starts_one(app: Flask, session: Session) -> None:
    match = started(session)
    key = store.Once("test:rematch", "one")
    first = handle(session, Rematch(match=match, once=key))
    again = handle(session, Rematch(match=match, once=key))
    assert isinstance(first, saving.Done) and isinstance(again, saving.Replayed)
    assert again.match.id == first.value.id != match.id
    assert first.value.first_dealer == "Béla"  # the next player deals first
    assert count(app, Match) == 2


def test_a_later_command_is_built_only_when_its_key_is_not_stored(session: Session) -> None:
    match = started(session)
    key = store.Once("test:later", "one")
    built: list[int] = []

    def build() -> Command:
        built.append(1)
        return AddRound(match=match, round=a_round(1), revision=match.revision, once=key)

    assert isinstance(handle(session, Later(key, build)), saving.Done)
    assert isinstance(handle(session, Later(key, build)), saving.Replayed)
    assert built == [1]
    assert handle(session, Later(None, lambda: None)) == saving.Done(None)


def test_a_key_with_another_request_is_refused(app: Flask, session: Session) -> None:
    match = started(session)
    handle(session, Lengthen(match=match, once=store.Once("test:api", "k", "body-1")))
    before = match_now(app, match)
    with pytest.raises(EntryError) as refused:
        handle(session, Lengthen(match=match, once=store.Once("test:api", "k", "body-2")))
    assert refused.value.codes == ["idempotency-key-reused"]
    assert match_now(app, match) == before


# --- own hands: the parts never change the match's revision ------------------------------------


def test_parts_open_send_keep_and_stop(app: Flask, session: Session) -> None:
    match = started(session)
    before = match_now(app, match)
    opened = handle(session, OpenParts(match=match, revision=match.revision))
    assert isinstance(opened, saving.Done) and opened.value.created
    again = handle(session, OpenParts(match=match))
    assert isinstance(again, saving.Done) and not again.value.created  # the same ones
    part = opened.value.parts[1]
    body = parse(PartBody, {"rack": {"points": 4}})
    assert handle(session, SendPart(part=part, body=body)) == saving.Done(part)
    assert part.part == {"rack": {"points": 4}}
    handle(session, KeepPart(part=part, body={"rack": {"points": 6}}))
    assert part.saved == {"rack": {"points": 6}} and part.part == {"rack": {"points": 4}}
    assert handle(session, StopParts(match=match)) == saving.Done(True)
    assert store.open_of(session, match) == []
    assert match_now(app, match) == before  # the revision is checked, never claimed


def test_parts_opened_on_a_wrong_revision_are_stale_and_none_open(
    app: Flask, session: Session
) -> None:
    match = started(session)
    with pytest.raises(store.StaleRevision):
        handle(session, OpenParts(match=match, revision=match.revision + 1))
    assert store.open_of(session, match) == []


def test_a_part_sent_after_the_parts_stopped_is_refused(session: Session) -> None:
    match = started(session)
    opened = handle(session, OpenParts(match=match))
    assert isinstance(opened, saving.Done)
    handle(session, StopParts(match=match))
    part = opened.value.parts[0]
    with pytest.raises(store.PartClosed):
        handle(session, SendPart(part=part, body=parse(PartBody, {"rack": {"points": 4}})))
    assert part.part is None


# --- an event's writes ----------------------------------------------------------------------------


def create(session: Session, once: store.Once | None = None) -> Any:
    return handle(
        session, CreateEvent(game="rummikub", entrants=NAMES, sessions=3, size=4, once=once)
    )


def created(session: Session) -> Event:
    done = create(session)
    assert isinstance(done, saving.Done)
    return done.value  # type: ignore[no-any-return]


def test_creating_an_event_twice_with_one_key_creates_one(app: Flask, session: Session) -> None:
    key = store.Once("test:create-event", "one")
    first, again = create(session, key), create(session, key)
    assert isinstance(first, saving.Done) and isinstance(again, saving.Replayed)
    assert again.event.id == first.value.id and count(app, Event) == 1


def test_a_refused_event_is_not_created(app: Flask, session: Session) -> None:
    with pytest.raises(EntryError):
        handle(session, CreateEvent(game="rummikub", entrants=["Anna"], sessions=0))
    assert count(app, Event) == 0


def seated(session: Session, event: Event) -> dict[str, Any]:
    handle(session, SeatSession(event=event))
    return {}


EVENT_WRITES: dict[str, tuple[Callable[[Session, Event], Any], Callable[..., Command]]] = {
    "seat a session": (
        lambda s, e: None,
        lambda e, r, o: SeatSession(event=e, revision=r, once=o),
    ),
    "redraw": (seated, lambda e, r, o: Redraw(event=e, revision=r, once=o)),
    "add an entrant": (
        lambda s, e: None,
        lambda e, r, o: AddEntrant(event=e, name="Ilona", revision=r, once=o),
    ),
    "withdraw an entrant": (
        lambda s, e: None,
        lambda e, r, o: WithdrawEntrant(event=e, name="Hanna", revision=r, once=o),
    ),
}


@pytest.mark.parametrize("write", sorted(EVENT_WRITES))
def test_an_event_write_sent_twice_with_its_key_is_done_once(
    app: Flask, session: Session, write: str
) -> None:
    prepare, build = EVENT_WRITES[write]
    event = created(session)
    prepare(session, event)
    before = event_now(app, event)
    command = build(event, event.revision, store.Once("test:event", "once"))
    first = handle(session, command)
    once = event_now(app, event)
    again = handle(session, command)
    assert isinstance(first, saving.Done) and isinstance(again, saving.Replayed)
    assert again.event.id == event.id
    assert event_now(app, event) == once and once[0] == before[0] + 1 and once != before


@pytest.mark.parametrize("write", sorted(EVENT_WRITES))
def test_an_event_write_on_a_wrong_revision_is_stale_and_changes_nothing(
    app: Flask, session: Session, write: str
) -> None:
    prepare, build = EVENT_WRITES[write]
    event = created(session)
    prepare(session, event)
    before = event_now(app, event)
    with pytest.raises(store.StaleRevision) as refused:
        handle(session, build(event, before[0] + 7, store.Once("test:event", "stale")))
    assert refused.value.revision == before[0]
    assert event_now(app, event) == before
