"""Every write on one path: one revision claim and one idempotency mechanism for matches and
events alike, and the 428 rule (docs/adr/0005-one-service-path.md), over HTTP on SQLite and
PostgreSQL.

A write on an existing match or event that is not idempotent by nature answers 428 without
``If-Match`` or ``Idempotency-Key`` and changes nothing; the same key sent twice does the work
once and answers alike (status and body); a stale ``If-Match`` answers 412.
"""

from __future__ import annotations

from typing import Any

import pytest
from samples import PLAYERS, sample_round
from sqlalchemy import func, select
from sqlmodel import Session

from companion.adapters import store
from companion.adapters.models import Event, EventTable, IdempotencyKey, Match
from companion.adapters.store import events

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

NAMES = ["Anna", "Béla", "Csaba", "Dóra", "Emese", "Ferenc", "Gábor", "Hanna"]


def new_match(client: Any) -> str:
    body = {"game": "rummikub", "players": PLAYERS, "first_dealer": "Anna", "games": 5}
    made = client.post("/api/v1/matches", json=body)
    assert made.status_code == 201, made.get_json()
    return str(made.get_json()["edit"])


def new_event(client: Any, sessions: int = 3) -> str:
    body = {"game": "rummikub", "entrants": NAMES, "sessions": sessions, "size": 4}
    made = client.post("/api/v1/events", json=body)
    assert made.status_code == 201, made.get_json()
    return str(made.get_json()["edit"])


def count(app: Any, model: Any) -> int:
    with Session(app.extensions["companion_db"]) as session:
        return int(session.execute(select(func.count()).select_from(model)).scalar_one())


def event_now(app: Any, edit: str) -> tuple[int, int, list[str]]:
    """The event's revision, its seated tables and its entrants, as the database has them."""
    with Session(app.extensions["companion_db"]) as session:
        event = events.by_edit_token(session, edit)
        assert event is not None
        return event.revision, len(event.tables), list(event.entrants)


# --- 428: a write that is not idempotent by nature names a revision or a key -----------------


def test_seating_a_session_without_if_match_or_a_key_is_428_and_seats_nothing(app, client):
    edit = new_event(client)
    refused = client.post(f"/api/v1/events/{edit}/sessions")
    assert refused.status_code == 428, refused.get_json()
    error = refused.get_json()["error"]
    assert error["code"] == "if-match-or-key-required" and refused.get_json()["revision"] == 1
    assert event_now(app, edit)[:2] == (1, 0)


@pytest.mark.parametrize(
    ("path", "body"),
    [("redraw", None), ("entrants", {"name": "Zoli"})],
)
def test_every_event_write_without_if_match_or_a_key_is_428(app, client, path, body):
    edit = new_event(client)
    seated = client.post(f"/api/v1/events/{edit}/sessions", headers={"If-Match": '"1"'})
    assert seated.status_code == 201
    before = event_now(app, edit)
    refused = client.post(f"/api/v1/events/{edit}/{path}", json=body)
    assert refused.status_code == 428, refused.get_json()
    assert event_now(app, edit) == before


def test_adding_a_round_without_if_match_or_a_key_is_428_and_stores_nothing(app, client):
    edit = new_match(client)
    refused = client.post(f"/api/v1/matches/{edit}/games", json=sample_round("rummikub"))
    assert refused.status_code == 428, refused.get_json()
    assert refused.get_json()["error"]["code"] == "if-match-or-key-required"
    read = client.get(f"/api/v1/matches/{edit}").get_json()
    assert read["revision"] == 1 and read["document"]["rounds"] == []


def test_put_and_delete_still_need_if_match_even_with_a_key(client):
    edit = new_match(client)
    added = client.post(
        f"/api/v1/matches/{edit}/games", json=sample_round("rummikub"), headers={"If-Match": "*"}
    )
    assert added.status_code == 201
    key = {"Idempotency-Key": "put-1"}
    put = client.put(
        f"/api/v1/matches/{edit}/games/1", json=sample_round("rummikub", 4), headers=key
    )
    assert put.status_code == 428 and put.get_json()["error"]["code"] == "if-match-required"
    gone = client.delete(f"/api/v1/matches/{edit}/games/1", headers={"Idempotency-Key": "del-1"})
    assert gone.status_code == 428


def test_creation_and_idempotent_writes_need_neither_header(app, client):
    edit = new_event(client)  # 201 without a key (the contract's table)
    new_match(client)
    seated = client.post(f"/api/v1/events/{edit}/sessions", headers={"If-Match": '"1"'})
    assert seated.status_code == 201
    left = client.delete(f"/api/v1/events/{edit}/entrants/Anna")  # a withdrawal: idempotent
    assert left.status_code == 200 and left.get_json()["event"]["withdrawn"] == ["Anna"]


# --- one idempotency mechanism: matches and events alike -----------------------------------


def test_three_seatings_with_one_key_seat_one_session_and_answer_alike(app, client):
    edit = new_event(client)
    before = count(app, EventTable)
    key = {"Idempotency-Key": "seat-once"}
    answers = [client.post(f"/api/v1/events/{edit}/sessions", headers=key) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert answers[0].get_json() == answers[1].get_json() == answers[2].get_json()
    assert event_now(app, edit)[:2] == (2, 2)  # one session seated: 8 entrants at 2 tables
    assert count(app, EventTable) == before + 2


def test_a_key_sent_again_on_an_entrant_does_the_work_once(app, client):
    edit = new_event(client)
    key = {"Idempotency-Key": "zoli-joins"}
    first = client.post(f"/api/v1/events/{edit}/entrants", json={"name": "Zoli"}, headers=key)
    again = client.post(f"/api/v1/events/{edit}/entrants", json={"name": "Zoli"}, headers=key)
    assert (first.status_code, again.status_code) == (200, 200)
    assert first.get_json() == again.get_json()
    assert event_now(app, edit) == (2, 0, [*NAMES, "Zoli"])
    other = client.post(f"/api/v1/events/{edit}/entrants", json={"name": "Ödön"}, headers=key)
    assert other.status_code == 422  # the key with another body
    assert other.get_json()["error"]["code"] == "idempotency-key-reused"


def test_creating_an_event_with_a_key_twice_creates_one_and_answers_alike(app, client):
    body = {"game": "rummikub", "entrants": NAMES, "sessions": 2}
    key = {"Idempotency-Key": "new-event-1"}
    events_before, keys_before = count(app, Event), count(app, IdempotencyKey)
    first = client.post("/api/v1/events", json=body, headers=key)
    again = client.post("/api/v1/events", json=body, headers=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.get_json() == again.get_json()
    assert first.headers["Location"] == again.headers["Location"]
    assert count(app, Event) == events_before + 1
    assert count(app, IdempotencyKey) == keys_before + 1


def test_creating_a_match_with_a_key_twice_creates_one_and_answers_alike(app, client):
    body = {"game": "rummikub", "players": PLAYERS, "first_dealer": "Anna"}
    key = {"Idempotency-Key": "new-match-1"}
    before = count(app, Match)
    first = client.post("/api/v1/matches", json=body, headers=key)
    again = client.post("/api/v1/matches", json=body, headers=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.get_json() == again.get_json()
    assert count(app, Match) == before + 1


def test_a_round_with_a_key_sent_twice_is_stored_once(app, client):
    edit = new_match(client)
    key = {"Idempotency-Key": "round-1"}
    doc = sample_round("rummikub", 3)
    first = client.post(f"/api/v1/matches/{edit}/games", json=doc, headers=key)
    again = client.post(f"/api/v1/matches/{edit}/games", json=doc, headers=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.get_json() == again.get_json()
    assert len(again.get_json()["document"]["rounds"]) == 1


# --- one revision claim ---------------------------------------------------------------------


def test_a_seating_on_a_stale_if_match_is_412_and_seats_nothing(app, client):
    edit = new_event(client)
    client.post(f"/api/v1/events/{edit}/entrants", json={"name": "Zoli"}, headers={"If-Match": "*"})
    stale = client.post(f"/api/v1/events/{edit}/sessions", headers={"If-Match": '"1"'})
    assert stale.status_code == 412 and stale.get_json()["revision"] == 2
    assert stale.headers["ETag"] == '"2"'
    assert event_now(app, edit)[:2] == (2, 0)


def test_matches_and_events_claim_their_revision_in_one_place(app, session):
    """A write whose claim is lost (another wrote the revision it read) changes nothing and is
    told the same way for a match and an event: stale with its revision, else a conflict."""
    match = store.create_match(
        session, game="rummikub", players=PLAYERS, first_dealer="Anna", games=5
    )
    event = events.create_event(session, game="rummikub", entrants=NAMES, sessions=2)
    for row in (match, event):
        table = type(row).__table__
        session.commit()
        with Session(app.extensions["companion_db"]) as other:  # another phone's write
            other.connection().execute(
                table.update().where(table.c.id == row.id).values(revision=row.revision + 1)
            )
            other.commit()
        assert row.revision == 1  # as this request read it
        with pytest.raises(store.ConflictError) as lost:
            with store.claiming(session, row, None):
                raise AssertionError("the writes run only after the claim")
        assert not isinstance(lost.value, store.StaleRevision)
        assert row.revision == 2
        with pytest.raises(store.StaleRevision) as stale:
            with store.claiming(session, row, 1):
                raise AssertionError("a write on revision 1 never runs")
        assert stale.value.revision == 2
        with store.claiming(session, row, 2):
            pass
        assert row.revision == 3
