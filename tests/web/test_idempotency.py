"""No doubled game: a form carries an idempotency key made when it is
drawn, an API write an ``Idempotency-Key``; a double tap, a form sent again or a retried
request stores one round (or match) and answers like the first success. The keys are in
the database, so this holds across processes; on SQLite and PostgreSQL."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from samples import PLAYERS, sample_round
from sqlmodel import Session

from companion.adapters import store

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

TWINS = 8


@pytest.fixture
def app(app_factory: Callable[..., Any]) -> Any:
    return app_factory(DATABASE_ENGINE_OPTIONS={"pool_size": TWINS + 4})


def started(app: Any, games: int = 10, rounds: int = 0) -> Any:
    with Session(app.extensions["companion_db"], expire_on_commit=False) as session:
        match = store.create_match(
            session, game="rummikub", players=PLAYERS, first_dealer="Anna", games=games
        )
        for points in range(rounds):
            store.add_round(session, match, sample_round("rummikub", points + 1))
        return match


def stored(app: Any, match: Any) -> Any:
    with Session(app.extensions["companion_db"], expire_on_commit=False) as session:
        found = store.get_by_edit_token(session, match.edit_token)
        return found.revision, len(found.rounds), found.games


def count_matches(app: Any) -> int:
    from sqlalchemy import func, select

    from companion.adapters.models import Match

    with Session(app.extensions["companion_db"]) as session:
        return int(session.execute(select(func.count()).select_from(Match)).scalar_one())


def form_key(page: str) -> str:
    found = re.search(r'name="key" type="hidden" value="([^"]+)"', page) or re.search(
        r'id="key" name="key" type="hidden" value="([^"]+)"', page
    )
    assert found, "the form has no idempotency key"
    return found.group(1)


def round_post(page: str) -> dict[str, str]:
    revision = re.search(r'name="revision" type="hidden" value="(\d+)"', page)
    assert revision
    return {
        "key": form_key(page),
        "revision": revision.group(1),
        "went_out": "Anna",
        "players-0-rack": "",
        "players-1-points": "7",
        "players-2-points": "9",
    }


def at_once(send: Callable[[int], Any]) -> list[Any]:
    barrier = threading.Barrier(TWINS, timeout=30)
    answers: list[Any] = [None] * TWINS

    def run(i: int) -> None:
        barrier.wait()
        try:
            answers[i] = send(i)
        except Exception as failure:  # noqa: BLE001  (reported in the answers)
            answers[i] = failure

    threads = [threading.Thread(target=run, args=(i,)) for i in range(TWINS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_every_form_gets_a_fresh_key_when_drawn(app, client):
    match = started(app)
    first = form_key(client.get(f"/m/{match.edit_token}/rounds/new").get_data(as_text=True))
    again = form_key(client.get(f"/m/{match.edit_token}/rounds/new").get_data(as_text=True))
    assert first != again and len(first) >= 20
    assert form_key(client.get("/start/rummikub").get_data(as_text=True))
    client.post(
        f"/m/{match.edit_token}/rounds/new",
        data=round_post(client.get(f"/m/{match.edit_token}/rounds/new").get_data(as_text=True)),
    )
    assert form_key(client.get(f"/m/{match.edit_token}/rounds/1/delete").get_data(as_text=True))


def test_a_round_form_sent_twice_stores_one_round(app, client):
    match = started(app)
    form = round_post(client.get(f"/m/{match.edit_token}/rounds/new").get_data(as_text=True))
    first = client.post(f"/m/{match.edit_token}/rounds/new", data=form)
    again = client.post(f"/m/{match.edit_token}/rounds/new", data=form)
    assert first.status_code == again.status_code == 302
    assert first.headers["Location"] == again.headers["Location"] == f"/m/{match.edit_token}"
    assert stored(app, match) == (2, 1, 10)
    board = client.get(again.headers["Location"]).get_data(as_text=True)
    assert "Round 1 saved." in board
    # A new form (a new key) saves the next round.
    form = round_post(client.get(f"/m/{match.edit_token}/rounds/new").get_data(as_text=True))
    assert client.post(f"/m/{match.edit_token}/rounds/new", data=form).status_code == 302
    assert stored(app, match) == (3, 2, 10)


def test_a_round_form_sent_twice_at_once_stores_one_round(app, client):
    match = started(app)
    form = round_post(client.get(f"/m/{match.edit_token}/rounds/new").get_data(as_text=True))
    answers = at_once(
        lambda i: app.test_client().post(f"/m/{match.edit_token}/rounds/new", data=form)
    )
    assert Counter(getattr(a, "status_code", repr(a)) for a in answers) == {302: TWINS}
    assert {a.headers["Location"] for a in answers} == {f"/m/{match.edit_token}"}
    assert stored(app, match) == (2, 1, 10)


def test_a_correction_and_a_delete_sent_twice_are_done_once(app, client):
    match = started(app)
    for points in (1, 2, 3):
        with Session(app.extensions["companion_db"], expire_on_commit=False) as session:
            mine = store.get_by_edit_token(session, match.edit_token)
            store.add_round(session, mine, sample_round("rummikub", points))
    page = client.get(f"/m/{match.edit_token}/rounds/1/edit").get_data(as_text=True)
    form = round_post(page)
    assert client.post(f"/m/{match.edit_token}/rounds/1/edit", data=form).status_code == 302
    assert client.post(f"/m/{match.edit_token}/rounds/1/edit", data=form).status_code == 302
    assert stored(app, match) == (5, 3, 10)
    page = client.get(f"/m/{match.edit_token}/rounds/3/delete").get_data(as_text=True)
    form = {"key": form_key(page), "revision": "5"}
    answers = at_once(
        lambda i: app.test_client().post(f"/m/{match.edit_token}/rounds/3/delete", data=form)
    )
    assert Counter(getattr(a, "status_code", repr(a)) for a in answers) == {302: TWINS}
    assert stored(app, match) == (6, 2, 10)


def test_a_start_form_sent_twice_starts_one_match(app, client):
    before = count_matches(app)  # PostgreSQL: the schema is the module's
    form = {
        "key": form_key(client.get("/start/rummikub").get_data(as_text=True)),
        "names-0": "Anna",
        "names-1": "Béla",
        "first": "0",
    }
    first = client.post("/start/rummikub", data=form)
    assert first.status_code == 302 and count_matches(app) == before + 1
    answers = at_once(lambda i: app.test_client().post("/start/rummikub", data=form))
    assert {a.headers["Location"] for a in answers} == {first.headers["Location"]}
    form["key"] = form_key(client.get("/start/rummikub").get_data(as_text=True))
    answers = at_once(lambda i: app.test_client().post("/start/rummikub", data=form))
    assert len({getattr(a, "headers", {}).get("Location") for a in answers}) == 1
    assert count_matches(app) == before + 2


def test_lengthen_and_rematch_sent_twice_are_done_once(app, client):
    match = started(app, games=1, rounds=1)  # over: the board offers both
    before = count_matches(app)
    board = client.get(f"/m/{match.edit_token}").get_data(as_text=True)
    form = {"key": form_key(board), "revision": "2"}
    answers = at_once(
        lambda i: app.test_client().post(f"/m/{match.edit_token}/lengthen", data=form)
    )
    assert Counter(getattr(a, "status_code", repr(a)) for a in answers) == {302: TWINS}
    assert stored(app, match) == (3, 1, 2)
    form["revision"] = "3"
    answers = at_once(lambda i: app.test_client().post(f"/m/{match.edit_token}/rematch", data=form))
    assert len({getattr(a, "headers", {}).get("Location") for a in answers}) == 1
    assert count_matches(app) == before + 1


def test_an_api_round_retried_is_stored_once_with_the_same_answer(app, client):
    match = started(app)
    url = f"/api/v1/matches/{match.edit_token}/games"
    headers = {"Idempotency-Key": "round-1-try"}
    first = client.post(url, json=sample_round("rummikub", 1), headers=headers)
    again = client.post(url, json=sample_round("rummikub", 1), headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert stored(app, match) == (2, 1, 10)
    other = client.post(url, json=sample_round("rummikub", 2), headers=headers)
    assert other.status_code == 422
    assert other.get_json()["error"]["code"] == "idempotency-key-reused"
    bad = client.post(url, json=sample_round("rummikub", 2), headers={"Idempotency-Key": "a b"})
    assert bad.get_json()["error"]["code"] == "idempotency-key-invalid"
    # A retried correction answers 200 although its If-Match is now stale.
    put = {"Idempotency-Key": "fix-1", "If-Match": '"2"'}
    first = client.put(f"{url}/1", json=sample_round("rummikub", 5), headers=put)
    again = client.put(f"{url}/1", json=sample_round("rummikub", 5), headers=put)
    assert first.status_code == again.status_code == 200
    assert stored(app, match) == (3, 1, 10)


def test_api_writes_sent_at_once_with_one_key_store_once(app):
    match = started(app)
    url = f"/api/v1/matches/{match.edit_token}/games"
    answers = at_once(
        lambda i: app.test_client().post(
            url, json=sample_round("rummikub", 1), headers={"Idempotency-Key": "same"}
        )
    )
    assert Counter(getattr(a, "status_code", repr(a)) for a in answers) == {201: TWINS}
    assert stored(app, match) == (2, 1, 10)
    before = count_matches(app)
    body = {"game": "rummikub", "players": PLAYERS, "first_dealer": "Anna"}
    answers = at_once(
        lambda i: app.test_client().post(
            "/api/v1/matches", json=body, headers={"Idempotency-Key": "new-match"}
        )
    )
    assert Counter(getattr(a, "status_code", repr(a)) for a in answers) == {201: TWINS}
    assert len({a.headers["Location"] for a in answers}) == 1
    assert count_matches(app) == before + 1
