"""Every request reads one snapshot: a writer never shows a reader two states of the database.

Against ``companion serve`` (two worker processes, as in production) on SQLite and on
PostgreSQL, over HTTP:

- readers load an event's organiser page while its organiser seats and re-draws sessions
  (a re-draw deletes the tables' matches and makes new ones): no read answers 5xx;
- sixteen clients PUT the same corrected round with the same ``If-Match`` at once: exactly
  one gets 200 and the others 412 (a late request must not read the old revision but the new
  round, and take its save for a no-op).

Each race is a fixed amount of work, never what happened within a time: the organiser makes
``WRITES`` writes while the readers read until it is done, and there are ``TRIALS`` trials
of the sixteen PUTs. A loaded machine makes them slower, never different; no timing is
asserted.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from live_server import WITHOUT_SHEETS, Server, serving
from samples import PLAYERS, sample_round
from sqlmodel import Session, select
from support import postgres_schema

from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.models import Match
from companion.web.app import create_app

GAME = "rummikub"
CLIENTS = 16
TRIALS = 6
READERS = 6
ENTRANTS = 24  # six tables a session
SESSIONS = 20
MATCH = {"game": GAME, "players": PLAYERS, "first_dealer": "Anna"}
#: The organiser's writes while the readers read: re-draws, and every ``SEATING``th write
#: the next session seated instead.
WRITES = 12
SEATING = 4


#: The server keeps no match results and no standings between requests, so every read scores
#: every table from the database: the widest window a read can have (with the caches, a read
#: scores a table only the first time its process sees it, and the same race is rarer).
NO_CACHE = "import companion.adapters.cache, companion.adapters.store.events\n" + (
    "companion.adapters.cache.results.size = companion.adapters.store.events.STANDINGS.size = 0"
)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """``companion serve`` with two workers on a fresh SQLite file, or a PostgreSQL schema."""
    folder = tmp_path_factory.mktemp("snapshot")
    env = {
        "COMPANION_INSTANCE_PATH": str(folder / "instance"),
        "COMPANION_WORKERS": "2",
        **WITHOUT_SHEETS,
    }
    log = folder / "server.log"
    if request.param == "postgresql":
        with postgres_schema("snapshot") as url:
            with serving({**env, "COMPANION_DATABASE_URL": url}, NO_CACHE, log) as live:
                yield live
        return
    with serving(env, NO_CACHE, log) as live:
        yield live


def call(
    connection: http.client.HTTPConnection,
    method: str,
    path: str,
    body: object = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One request on a kept-alive connection: status, headers (looked up in any case, as
    HTTP names them: waitress writes ``Etag``) and body."""
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json"} if data is not None else {}
    connection.request(method, path, body=data, headers={**sent, **(headers or {})})
    answer = connection.getresponse()
    return answer.status, answer.headers, answer.read()


def connect(server: Server) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)


@pytest.mark.server
def test_the_organiser_page_never_fails_while_sessions_are_seated_and_drawn_again(
    server: Server,
) -> None:
    organiser = connect(server)
    entrants = [f"Player {i}" for i in range(1, ENTRANTS + 1)]
    body = {"game": GAME, "entrants": entrants, "sessions": SESSIONS, "size": 4}
    status, _, raw = call(organiser, "POST", "/api/v1/events", body)
    assert status == 201, raw
    edit = json.loads(raw)["edit"]
    status, _, raw = call(
        organiser, "POST", f"/api/v1/events/{edit}/sessions", None, {"If-Match": "*"}
    )
    assert status == 201, raw

    reads: Counter[int] = Counter()
    writes: Counter[str] = Counter()
    failures: list[BaseException] = []
    lock = threading.Lock()
    # The organiser makes WRITES writes; meanwhile every reader loads the organiser's page
    # again and again, each time on a new connection (so the reads reach every server process
    # and fall all over the writes), until the organiser is done.
    begin = threading.Barrier(READERS + 1, timeout=120)
    done = threading.Event()

    def reader() -> None:
        begin.wait()
        while True:  # at least one read, however late this thread starts
            connection = connect(server)
            status, _, _ = call(connection, "GET", f"/e/{edit}")
            connection.close()
            with lock:
                reads[status] += 1
            if done.is_set():
                return

    def writer() -> None:
        begin.wait()
        for write in range(1, WRITES + 1):
            # The organiser mostly re-draws (every table's match deleted and made again), now
            # and then seats the next session; and another table starts a match of its own
            # (so new rows do not take the numbers of the rows just deleted).
            status, _, raw = call(organiser, "POST", "/api/v1/matches", MATCH)
            assert status == 201, raw
            action = "sessions" if write % SEATING == 0 else "redraw"
            status, _, raw = call(
                organiser, "POST", f"/api/v1/events/{edit}/{action}", None, {"If-Match": "*"}
            )
            assert status in (200, 201), raw
            writes[action] += 1

    def guarded(work: Callable[[], None]) -> None:
        try:
            work()
        except BaseException as failure:  # reported below
            failures.append(failure)
            begin.abort()
        finally:
            if work is writer:
                done.set()

    threads = [threading.Thread(target=guarded, args=(reader,)) for _ in range(READERS)]
    threads.append(threading.Thread(target=guarded, args=(writer,)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    organiser.close()
    assert not failures, failures
    seated = WRITES // SEATING
    assert writes == Counter({"redraw": WRITES - seated, "sessions": seated}), writes
    errors = sum(n for status, n in reads.items() if status >= 500)
    assert errors == 0, f"{errors} server errors in {sum(reads.values())} reads: {dict(reads)}"
    assert set(reads) == {200} and sum(reads.values()) >= READERS, dict(reads)


def new_match(server: Server) -> tuple[str, dict[str, Any]]:
    """A match with two rounds: its edit token and a correction of round 2."""
    connection = connect(server)
    body = {"game": GAME, "players": PLAYERS, "first_dealer": "Anna", "games": 8}
    status, _, raw = call(connection, "POST", "/api/v1/matches", body)
    assert status == 201, raw
    edit = json.loads(raw)["edit"]
    for points in (1, 2):
        status, _, raw = call(
            connection,
            "POST",
            f"/api/v1/matches/{edit}/games",
            sample_round(GAME, points),
            {"If-Match": "*"},
        )
        assert status == 201, raw
    connection.close()
    return edit, sample_round(GAME, 40)


def sixteen_puts(server: Server) -> Counter[str]:
    """One trial: a new match, and sixteen clients PUT the same correction of round 2 with
    ``If-Match: "3"`` at once; what each was answered (status and ETag)."""
    edit, correction = new_match(server)
    path = f"/api/v1/matches/{edit}/games/2"
    connections = [connect(server) for _ in range(CLIENTS)]
    for connection in connections:  # open, so the PUTs leave together
        assert call(connection, "GET", f"/api/v1/matches/{edit}")[0] == 200
    barrier = threading.Barrier(CLIENTS, timeout=30)
    answers: list[str] = [""] * CLIENTS

    def put(i: int) -> None:
        barrier.wait()
        status, headers, _ = call(connections[i], "PUT", path, correction, {"If-Match": '"3"'})
        answers[i] = f"{status} {headers.get('ETag', '')}"

    threads = [threading.Thread(target=put, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for connection in connections:
        connection.close()
    return Counter(answers)


@pytest.mark.server
def test_sixteen_puts_on_one_revision_give_one_200_and_fifteen_412(server: Server) -> None:
    outcomes = [sixteen_puts(server) for _ in range(TRIALS)]
    expected = Counter({'200 "4"': 1, '412 "4"': CLIENTS - 1})
    wrong = [dict(c) for c in outcomes if c != expected]
    assert not wrong, f"{len(wrong)} of {len(outcomes)} trials: {wrong}"


# --- the same, in one process: what a request's session sees -------------------------------


def test_a_request_reads_one_snapshot_whatever_is_committed_meanwhile(app: Flask) -> None:
    engine = app.extensions["companion_db"]
    with Session(engine, expire_on_commit=False) as setup:
        match = store.create_match(setup, game=GAME, players=PLAYERS, first_dealer="Anna", games=3)
    ids = select(Match.id).where(Match.id == match.id)
    with app.test_request_context("/", method="GET"):
        session = get_session()
        assert session.exec(ids).all() == [match.id]
        with Session(engine) as other:  # another request deletes it and commits
            other.delete(other.get(Match, match.id))
            other.commit()
        assert session.exec(ids).all() == [match.id]  # still there: one snapshot
    with app.test_request_context("/", method="GET"):
        assert get_session().exec(ids).all() == []  # the next request sees the delete


def sqlite_app(tmp_path: Path, timeout: float) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "SECRET_KEY": "test secret key",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_ENGINE_OPTIONS": {
                "connect_args": {"check_same_thread": False, "timeout": timeout}
            },
        }
    )


def test_a_write_waiting_past_the_busy_timeout_is_a_503_and_reads_go_on(tmp_path: Path) -> None:
    app = sqlite_app(tmp_path, timeout=0.1)
    client = app.test_client()
    body = {"game": GAME, "players": PLAYERS, "first_dealer": "Anna", "games": 3}
    edit = client.post("/api/v1/matches", json=body).json["edit"]
    blocker = app.extensions["companion_db"].raw_connection()
    try:
        blocker.execute("BEGIN IMMEDIATE")  # another process is writing, for long
        response = client.post(
            f"/api/v1/matches/{edit}/games", json=sample_round(GAME), headers={"If-Match": "*"}
        )
        assert response.status_code == 503
        assert response.headers["Retry-After"] == "1"
        assert client.get(f"/api/v1/matches/{edit}").status_code == 200  # WAL: reads go on
        assert client.get(f"/m/{edit}").status_code == 200
    finally:
        blocker.rollback()
        blocker.close()
    response = client.post(
        f"/api/v1/matches/{edit}/games", json=sample_round(GAME), headers={"If-Match": "*"}
    )
    assert response.status_code == 201
    app.extensions["companion_db"].dispose()
