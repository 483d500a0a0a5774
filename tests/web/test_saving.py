"""The one save function (companion/services/saving.py), on SQLite and PostgreSQL: a
write is done once per idempotency key — a request sent again gets the write stored first,
and so does a twin that lost the race to it — while a stale revision or a conflict with
another write is raised for the caller to answer, with nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from samples import PLAYERS, sample_round
from sqlmodel import Session

from companion.adapters import store
from companion.adapters.models import Match
from companion.domain import EntryError
from companion.services import saving

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)


def started(session: Any) -> Match:
    return store.create_match(
        session, game="rummikub", players=PLAYERS, first_dealer="Anna", games=5
    )


def stored(app: Any, match: Match) -> tuple[int, int]:
    """The match's revision and number of rounds as the database has them."""
    with Session(app.extensions["companion_db"]) as other:
        found = store.get_by_edit_token(other, match.edit_token)
        assert found is not None
        return found.revision, len(found.rounds)


def test_a_write_sent_again_with_its_key_is_replayed_not_run(app, session):
    match = started(session)
    runs: list[str] = []

    def send(key: str) -> saving.Done[str] | saving.Replayed:
        once = store.Once("test:round-add", key)

        def write() -> str:
            runs.append(key)
            store.add_round(session, match, sample_round("rummikub", len(runs)), once=once)
            return "written"

        return saving.save(session, once, write)

    assert send("key-1") == saving.Done("written")
    again = send("key-1")
    assert isinstance(again, saving.Replayed)
    assert (again.match.id, again.number) == (match.id, 1)
    assert runs == ["key-1"]
    assert stored(app, match) == (2, 1)
    assert send("key-2") == saving.Done("written")  # a new form: the next round
    assert runs == ["key-1", "key-2"] and stored(app, match) == (3, 2)


def test_without_a_key_every_write_runs(app, session):
    match = started(session)
    for points in (1, 2):
        saved = saving.save(
            session,
            None,
            lambda p=points: store.add_round(session, match, sample_round("rummikub", p)),
        )
        assert saved == saving.Done(None)
    assert stored(app, match) == (3, 2)


def test_a_twin_stored_first_answers_the_write_that_lost_the_race(app, session):
    match = started(session)
    once = store.Once("test:round-add", "twin")

    def write() -> None:
        # The same request on another connection commits while this one is under way.
        with Session(app.extensions["companion_db"], expire_on_commit=False) as other:
            twin = store.get_by_edit_token(other, match.edit_token)
            assert twin is not None
            store.add_round(other, twin, sample_round("rummikub", 3), revision=1, once=once)
        store.add_round(session, match, sample_round("rummikub", 3), revision=1, once=once)

    saved = saving.save(session, once, write)
    assert isinstance(saved, saving.Replayed)
    assert (saved.match.id, saved.number) == (match.id, 1)
    assert stored(app, match) == (2, 1)


def test_a_stale_revision_is_the_callers_to_answer_and_changes_nothing(app, session):
    match = started(session)
    store.add_round(session, match, sample_round("rummikub", 1))
    once = store.Once("test:round-add", "late")

    def write() -> None:
        store.add_round(session, match, sample_round("rummikub", 2), revision=1, once=once)

    with pytest.raises(store.StaleRevision) as refused:
        saving.save(session, once, write)
    assert refused.value.revision == 2
    assert stored(app, match) == (2, 1)
    # Sent again on the revision it now shows, the same key saves (nothing was kept of it).
    saved = saving.save(
        session,
        once,
        lambda: store.add_round(session, match, sample_round("rummikub", 2), revision=2, once=once),
    )
    assert saved == saving.Done(None) and stored(app, match) == (3, 2)


def test_a_conflict_that_no_twin_explains_is_raised(session):
    def write() -> None:
        raise store.ConflictError()

    with pytest.raises(store.ConflictError):
        saving.save(session, store.Once("test:round-add", "alone"), write)


def test_a_key_used_for_another_request_is_refused(app, session):
    match = started(session)
    first = store.Once("test:api", "same", "fingerprint-1")
    saving.save(
        session,
        first,
        lambda: store.add_round(session, match, sample_round("rummikub", 1), once=first),
    )
    runs: list[int] = []
    with pytest.raises(EntryError) as refused:
        saving.save(
            session, store.Once("test:api", "same", "fingerprint-2"), lambda: runs.append(1)
        )
    assert refused.value.codes == ["idempotency-key-reused"]
    assert runs == [] and stored(app, match) == (2, 1)
