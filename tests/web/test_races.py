"""Sixteen phones saving at once, on SQLite and PostgreSQL: exactly one write wins.

Every thread has its own session (or its own HTTP client), loads the match, waits at a
barrier and then writes on the same revision.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from samples import PLAYERS, sample_round
from sqlmodel import Session

from companion.adapters import store
from companion.adapters.models import Match

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

CLIENTS = 16


@pytest.fixture
def app(app_factory: Callable[..., Any]) -> Any:
    """The app with a connection for every phone (the default pool holds 15)."""
    return app_factory(DATABASE_ENGINE_OPTIONS={"pool_size": CLIENTS + 4})


def at_once(work: Callable[[int, threading.Barrier], str]) -> Counter[str]:
    """Run ``work(i, barrier)`` in sixteen threads at once; count what each one answered."""
    barrier = threading.Barrier(CLIENTS, timeout=30)
    answers: list[str] = [""] * CLIENTS

    def run(i: int) -> None:
        try:
            answers[i] = work(i, barrier)
        except Exception as failure:  # noqa: BLE001  (reported in the count, and so fails it)
            answers[i] = f"{type(failure).__name__}: {failure}"

    threads = [threading.Thread(target=run, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return Counter(answers)


def started(app: Any, rounds: int = 0, games: int = CLIENTS) -> Match:
    with Session(app.extensions["companion_db"], expire_on_commit=False) as session:
        match = store.create_match(
            session, game="rummikub", players=PLAYERS, first_dealer="Anna", games=games
        )
        for points in range(rounds):
            store.add_round(session, match, sample_round("rummikub", points + 1))
        return match


def stored(app: Any, match: Match) -> tuple[int, list[dict[str, Any]], int]:
    """Revision, round documents and number of history entries, as stored now."""
    with Session(app.extensions["companion_db"]) as session:
        found = store.get_by_edit_token(session, match.edit_token)
        return found.revision, store.as_document(found)["rounds"], len(store.history(found))


def store_write(app: Any, match: Match, write: Callable[[Session, Match, int], None]) -> Any:
    """A thread's work: load the match in its own session, wait for all, then ``write``."""

    def work(i: int, barrier: threading.Barrier) -> str:
        with Session(app.extensions["companion_db"], expire_on_commit=False) as session:
            mine = store.get_by_edit_token(session, match.edit_token)
            store.as_document(mine)
            barrier.wait()
            try:
                write(session, mine, i)
            except store.StaleRevision:
                return "stale"
            except store.ConflictError:
                return "conflict"
            return "saved"

    return work


@pytest.mark.parametrize("with_revision", [True, False])
def test_sixteen_phones_adding_the_next_round_one_wins(app, with_revision):
    match = started(app, rounds=1)

    def write(session: Session, mine: Match, i: int) -> None:
        revision = 2 if with_revision else None
        store.add_round(session, mine, sample_round("rummikub", 10 + i), revision=revision)

    answers = at_once(store_write(app, match, write))
    assert answers == {"saved": 1, ("stale" if with_revision else "conflict"): CLIENTS - 1}
    revision, rounds, entries = stored(app, match)
    assert revision == 3
    assert len(rounds) == 2  # never round 3, 4, …: the losers stored nothing
    assert entries == 3


def test_sixteen_phones_correcting_the_same_round_one_wins(app):
    match = started(app, rounds=2)

    def write(session: Session, mine: Match, i: int) -> None:
        store.update_round(session, mine, 2, sample_round("rummikub", 20 + i), revision=3)

    answers = at_once(store_write(app, match, write))
    assert answers == {"saved": 1, "stale": CLIENTS - 1}
    revision, rounds, entries = stored(app, match)
    assert (revision, len(rounds), entries) == (4, 2, 4)


def test_sixteen_phones_deleting_rounds_one_wins(app):
    match = started(app, rounds=CLIENTS)

    def write(session: Session, mine: Match, i: int) -> None:
        store.delete_round(session, mine, i + 1, revision=CLIENTS + 1)

    answers = at_once(store_write(app, match, write))
    assert answers == {"saved": 1, "stale": CLIENTS - 1}
    revision, rounds, _ = stored(app, match)
    assert (revision, len(rounds)) == (CLIENTS + 2, CLIENTS - 1)


def test_sixteen_http_clients_on_one_revision_one_wins(app):
    match = started(app, rounds=1)
    path = f"/api/v1/matches/{match.edit_token}/games"

    def work(i: int, barrier: threading.Barrier) -> str:
        client = app.test_client()
        assert client.get(f"/api/v1/matches/{match.edit_token}").headers["ETag"] == '"2"'
        barrier.wait()
        response = client.post(
            path, json=sample_round("rummikub", 10 + i), headers={"If-Match": '"2"'}
        )
        if response.status_code == 412:
            assert response.json["revision"] == 3
        return str(response.status_code)

    answers = at_once(work)
    assert answers == {"201": 1, "412": CLIENTS - 1}
    revision, rounds, _ = stored(app, match)
    assert (revision, len(rounds)) == (3, 2)


def test_sixteen_http_clients_with_keys_but_no_if_match_never_shift_a_round(app):
    match = started(app, rounds=1, games=CLIENTS + 1)  # room for every client's round
    path = f"/api/v1/matches/{match.edit_token}/games"

    def work(i: int, barrier: threading.Barrier) -> str:
        client = app.test_client()
        barrier.wait()
        # Each its own Idempotency-Key and no If-Match: a write of its own, on no revision.
        key = {"Idempotency-Key": f"client-{i}"}
        response = client.post(path, json=sample_round("rummikub", 10 + i), headers=key)
        return str(response.status_code)

    answers = at_once(work)
    # Each request loads the match itself, so a late one may see the winner's round and add
    # the next one honestly (on SQLite every request is late: a writer's transaction waits
    # for the one before it and then reads); a request that loses a race is refused (409),
    # never renumbered.
    assert set(answers) <= {"201", "409"}
    assert answers["201"] >= 1
    revision, rounds, entries = stored(app, match)
    assert len(rounds) == 1 + answers["201"]
    assert revision == entries == 2 + answers["201"]


def test_sixteen_scorekeepers_opening_the_parts_get_one_set_of_tokens(app):
    """One opening, whoever asks at the same moment; the others get its tokens."""
    match = started(app)
    path = f"/api/v1/matches/{match.edit_token}/parts"

    def work(i: int, barrier: threading.Barrier) -> str:
        client = app.test_client()
        barrier.wait()
        response = client.post(path)
        seats = response.get_json().get("seats") if response.status_code < 300 else None
        tokens = ",".join(s["token"] for s in seats) if seats else ""
        return f"{response.status_code} {tokens}"

    answers = at_once(work)
    statuses = Counter(a.split(" ")[0] for a in answers.elements())
    assert statuses == {"201": 1, "200": CLIENTS - 1}, answers
    assert len({a.split(" ")[1] for a in answers}) == 1  # the same tokens for everyone


def test_sixteen_phones_sending_one_part_keep_one_of_them_whole(app):
    """Sixteen sends of one part at once are all stored, one after another (a send
    that finds another one committed since it began is written again over it); what is kept
    is one of them, whole, and the part's log has an entry per send."""
    match = started(app)
    client = app.test_client()
    token = client.post(f"/api/v1/matches/{match.edit_token}/parts").get_json()["seats"][1]
    path = f"/api/v1/parts/{token['token']}"
    racks = [[f"R{n % 13 + 1}", f"{'BK'[n // 13]}{n % 13 + 1}"] for n in range(CLIENTS)]

    def work(i: int, barrier: threading.Barrier) -> str:
        phone = app.test_client()
        barrier.wait()
        answer = phone.put(path, json={"rack": racks[i]})
        if answer.status_code not in (200, 503):
            return f"{answer.status_code} {answer.get_data(as_text=True)[:300]}"
        return str(answer.status_code)

    answers = at_once(work)
    assert answers == {"200": CLIENTS}, answers
    kept = client.get(path).get_json()["part"]
    assert kept["rack"] in racks
    with Session(app.extensions["companion_db"]) as session:
        part = store.part_by_token(session, token["token"])
        assert part is not None and len(part.log) == answers["200"]
