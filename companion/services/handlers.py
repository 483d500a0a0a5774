"""One handler per command, and ``handle``: the one way a view writes.

``handle(session, command)`` looks the command's handler up (``HANDLERS``, a tiny message
bus) and runs it inside ``saving.save``: once per idempotency key, one transaction, the
revision claimed by the store (docs/adr/0005-one-service-path.md). It answers ``Done`` with
what the handler returned, or ``Replayed`` when the key's write was stored already; the
refusals (``StaleRevision``, ``ConflictError``, any other ``EntryError``) are the view's to
answer, and each leaves the database as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlmodel import Session

from companion.adapters import store
from companion.adapters.store import events
from companion.services import saving
from companion.services.commands import (
    AddEntrant,
    AddRound,
    Command,
    CreateEvent,
    DeleteRound,
    ForgetOnDevice,
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


def start_match(session: Session, c: StartMatch) -> Any:
    """The new match."""
    return store.create_match(
        session,
        game=c.game,
        players=c.players,
        first_dealer=c.first_dealer,
        games=c.games,
        title=c.title,
        device=c.device,
        once=c.once,
    )


def rematch(session: Session, c: Rematch) -> Any:
    """The new match."""
    return store.rematch(session, c.match, device=c.device, once=c.once)


def add_round(session: Session, c: AddRound) -> Any:
    store.add_round(session, c.match, c.round, revision=c.revision, once=c.once)
    return None


def replace_round(session: Session, c: ReplaceRound) -> Any:
    store.update_round(session, c.match, c.number, c.round, revision=c.revision, once=c.once)
    return None


def delete_round(session: Session, c: DeleteRound) -> Any:
    store.delete_round(session, c.match, c.number, revision=c.revision, once=c.once)
    return None


def restore_round(session: Session, c: RestoreRound) -> Any:
    """The number the round is back at."""
    return store.restore_round(session, c.match, c.change, revision=c.revision, once=c.once)


def lengthen(session: Session, c: Lengthen) -> Any:
    """The series' new length."""
    store.lengthen(session, c.match, revision=c.revision, once=c.once)
    return c.match.games


def forget_on_device(session: Session, c: ForgetOnDevice) -> Any:
    store.forget_on_device(session, c.match)
    return None


def open_parts(session: Session, c: OpenParts) -> Any:
    """``store.Opened``: the parts, and whether this call opened them."""
    return store.open_parts(session, c.match, revision=c.revision)


def stop_parts(session: Session, c: StopParts) -> Any:
    """Whether any part was open."""
    return store.drop_parts(session, c.match)


def send_part(session: Session, c: SendPart) -> Any:
    """The part as stored."""
    return store.put_part(session, c.part, c.body, device=c.device)


def keep_part(session: Session, c: KeepPart) -> Any:
    """The part, the scorekeeper's change beside it."""
    return store.keep_part(session, c.part, c.body)


def create_event(session: Session, c: CreateEvent) -> Any:
    """The new event."""
    return events.create_event(
        session,
        game=c.game,
        entrants=c.entrants,
        sessions=c.sessions,
        rounds=c.rounds,
        size=c.size,
        seating=c.seating,
        title=c.title,
        once=c.once,
    )


def seat_session(session: Session, c: SeatSession) -> Any:
    """The tables seated."""
    return events.seat_next(session, c.event, c.revision, c.once)


def redraw(session: Session, c: Redraw) -> Any:
    """The tables drawn again."""
    return events.redraw(session, c.event, c.revision, c.once)


def add_entrant(session: Session, c: AddEntrant) -> Any:
    events.add_entrant(session, c.event, c.name, c.revision, c.once)
    return None


def withdraw_entrant(session: Session, c: WithdrawEntrant) -> Any:
    events.withdraw(session, c.event, c.name, c.revision, c.once)
    return None


#: The bus: each command's type and its handler.
HANDLERS: dict[type[Any], Callable[[Session, Any], Any]] = {
    StartMatch: start_match,
    Rematch: rematch,
    AddRound: add_round,
    ReplaceRound: replace_round,
    DeleteRound: delete_round,
    RestoreRound: restore_round,
    Lengthen: lengthen,
    ForgetOnDevice: forget_on_device,
    OpenParts: open_parts,
    StopParts: stop_parts,
    SendPart: send_part,
    KeepPart: keep_part,
    CreateEvent: create_event,
    SeatSession: seat_session,
    Redraw: redraw,
    AddEntrant: add_entrant,
    WithdrawEntrant: withdraw_entrant,
}


def handle(session: Session, command: Command | Later) -> saving.Done[Any] | saving.Replayed:
    """Run ``command``'s handler once per its key (``saving.save``): ``Done`` with what the
    handler returned, or ``Replayed``. A ``Later`` is built after the key's lookup; when it
    builds nothing, nothing is written and the answer is ``Done(None)``.

    :raises StaleRevision: the command was based on another revision; nothing changed.
    :raises ConflictError: another write won the race, and it was no twin; nothing changed.
    :raises EntryError: the command (or the key) was refused; nothing changed.
    """

    def write() -> Any:
        built = command.build() if isinstance(command, Later) else command
        if built is None:
            return None
        assert built.once == command.once, "a command is done once per the key it came with"
        return HANDLERS[type(built)](session, built)

    return saving.save(session, command.once, write)
