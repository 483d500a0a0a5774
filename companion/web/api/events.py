"""Events over HTTP, in the style of "Matches over HTTP" (contract): an organiser's token and
a read-only token, a ``revision`` as the ETag, ``If-Match`` on writes (412 when stale), 404 for
an unknown token or a read-only token on a write, 422 for bad input (nothing changed).

- ``POST /api/v1/events`` ``{"game", "entrants", "sessions", "rounds"?, "size"?,
  "seating"?, "title"?}``: 201, the event;
- ``GET /api/v1/events/TOKEN``: 200, the event (``edit`` and the tables' edit tokens only
  with the organiser's token);
- ``POST /api/v1/events/EDIT/sessions``: 201, the next session seated (EV-2, EV-3);
- ``POST /api/v1/events/EDIT/redraw``: 200, the last session drawn again before play;
- ``POST /api/v1/events/EDIT/entrants`` ``{"name"}``: 200, a late arrival (EV-1);
- ``DELETE /api/v1/events/EDIT/entrants/NAME``: 200, a withdrawal (EV-1).

Every write takes an ``Idempotency-Key`` (the same key again does the work once and answers
alike, as a match's writes do); a write on an event needs ``If-Match`` or the key, else 428
(a retried seating without either would seat a second session; docs/adr/0005).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, jsonify

from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.models import Event
from companion.adapters.store import events
from companion.domain import EntryError, get_game
from companion.services import saving
from companion.services.commands import (
    AddEntrant,
    Command,
    CreateEvent,
    Later,
    Redraw,
    SeatSession,
    WithdrawEntrant,
)
from companion.web.api.answers import IF_MATCH_OR_KEY, once_of, precondition, written
from companion.web.api.answers import problem as error_response
from companion.web.api.matches import bp, json_body
from companion.web.ratelimit import creating

EVENT_FIELDS = ("game", "entrants", "sessions", "rounds", "size", "seating", "title")


def event_answer(event: Event, *, editing: bool) -> dict[str, Any]:
    """An event as the API gives it: tokens (organiser only), settings, seating, standings."""
    game = get_game(event.game)
    out: dict[str, Any] = {}
    if editing:
        out["edit"] = event.edit_token
    out["view"] = event.view_token
    out["revision"] = event.revision
    seating = []
    for tables in events.sessions_of(event):
        seating.append(
            [
                {
                    "table": t.number,
                    "players": list(t.match.players) if t.match else [],
                    "first": game.first_seat_of(t.match.players, t.match.first_dealer)
                    if t.match
                    else None,
                    "match": {"view": t.match.view_token}
                    | ({"edit": t.match.edit_token} if editing else {})
                    if t.match
                    else None,
                }
                for t in tables
            ]
        )
    out["event"] = {
        "game": event.game,
        "title": event.title,
        "entrants": list(event.entrants),
        "withdrawn": list(event.withdrawn),
        "sessions": event.sessions,
        "rounds": event.rounds,
        "size": event.size,
        "seating": event.seating,
        "seated": seating,
    }
    out["standings"] = events.result(get_session(), event)
    return out


def _event_json(event: Event, status: int = 200, *, editing: bool = True) -> Response:
    """The event as JSON, its revision as the ETag."""
    response = jsonify(event_answer(event, editing=editing))
    response.status_code = status
    response.set_etag(str(event.revision))
    return response


def _not_found() -> Response:
    return error_response(EntryError("event-not-found"), 404)


@bp.post("/events", endpoint="create_event")
@creating
def create() -> Response:
    """Start an event (EV-1) → 201 with both tokens; the same ``Idempotency-Key`` again
    answers the same event (201 again), created once."""
    body = json_body()
    try:
        once = once_of("api:create-event")
    except EntryError as err:
        return error_response(err, 422)

    def build() -> Command:
        if not isinstance(body, dict):
            raise EntryError("body-not-object", example='{"game": ..., "entrants": [...]}')
        unknown = sorted(set(body) - set(EVENT_FIELDS))
        if unknown:
            raise EntryError("body-unknown-field", key=unknown[0], fields=", ".join(EVENT_FIELDS))
        seating = body.get("seating", "draw")
        return CreateEvent(
            game=body.get("game"),  # type: ignore[arg-type]
            entrants=body.get("entrants"),
            sessions=body.get("sessions", 1),
            rounds=body.get("rounds"),
            size=body.get("size", 4),
            seating=seating if isinstance(seating, str) else repr(seating),
            title=body.get("title") if isinstance(body.get("title"), str) else None,
            once=once,
        )

    def respond(saved: saving.Done[Any] | saving.Replayed) -> Response:
        event = saved.event if isinstance(saved, saving.Replayed) else saved.value
        response = _event_json(event, 201)
        response.headers["Location"] = f"/api/v1/events/{event.edit_token}"
        return response

    return written(Later(once, build), None, respond)


@bp.get("/events/<token>", endpoint="read_event")
def read(token: str) -> Response:
    """An event by its organiser's or read-only token."""
    session = get_session()
    event = events.by_edit_token(session, token)
    if event is not None:
        return _event_json(event)
    event = events.by_view_token(session, token)
    if event is None:
        return _not_found()
    return _event_json(event, editing=False)


def _write(
    token: str,
    command: Callable[[Event, int | None, store.Once | None], Command],
    status: int,
    required: str | None = IF_MATCH_OR_KEY,
) -> Response:
    """Handle the ``command`` built for the event of an organiser's token, once per
    ``Idempotency-Key``, on the revision ``If-Match`` names; a write ``required`` to carry
    either answers 428 without."""
    event = events.by_edit_token(get_session(), token)
    if event is None:
        return _not_found()
    try:
        once = once_of(f"api:event:{event.id}")
    except EntryError as refusal:
        return error_response(refusal, 422)
    later = Later(once, lambda: command(event, precondition(event, once, required), once))

    def respond(saved: saving.Done[Any] | saving.Replayed) -> Response:
        return _event_json(saved.event if isinstance(saved, saving.Replayed) else event, status)

    return written(later, event, respond, context=event.game)


@bp.post("/events/<token>/sessions", endpoint="seat_event")
def seat(token: str) -> Response:
    """Seat the next session (EV-2, EV-3) → 201."""
    return _write(token, lambda e, r, o: SeatSession(event=e, revision=r, once=o), 201)


@bp.post("/events/<token>/redraw", endpoint="redraw_event")
def redraw(token: str) -> Response:
    """Draw the last session again before any table saved a round (EV-3)."""
    return _write(token, lambda e, r, o: Redraw(event=e, revision=r, once=o), 200)


@bp.post("/events/<token>/entrants", endpoint="join_event")
def join(token: str) -> Response:
    """A late arrival, ``{"name": …}``, seated from the next session (EV-1)."""
    body = json_body()
    name = body.get("name") if isinstance(body, dict) else None
    return _write(token, lambda e, r, o: AddEntrant(event=e, name=name, revision=r, once=o), 200)


@bp.delete("/events/<token>/entrants/<name>", endpoint="withdraw_from_event")
def withdraw(token: str, name: str) -> Response:
    """An entrant withdraws before the next session (EV-1); played results stay. Idempotent by
    nature (a withdrawal sent twice withdraws once), so neither header is required."""
    return _write(
        token, lambda e, r, o: WithdrawEntrant(event=e, name=name, revision=r, once=o), 200, None
    )
