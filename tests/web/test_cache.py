"""Computed once per revision: a match's result, its read-only page and its score sheet
(the edit page: test_edit_cache.py).

The keys hold the match and its revision, so every server process may keep its own copy and
still never show an old result: a write anywhere moves the revision on.
"""

from __future__ import annotations

import sqlite3
import stat
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, template_rendered
from samples import PLAYERS, sample_round

from companion.adapters import cache, render_queue, store
from companion.adapters.db import get_session
from companion.adapters.render_queue import queue_for
from companion.adapters.store import reading
from companion.web.pages import offline

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

GAME = "rummikub"


@pytest.fixture(autouse=True)
def empty_caches() -> None:
    cache.results.clear()
    cache.pages.clear()


class StoppedClock:
    """``datetime`` whose ``now`` stands still: a page says when it was made ("as of …"),
    filled in on every load, so two loads a second apart would differ by that alone."""

    @staticmethod
    def now(tz: Any = None) -> datetime:
        return datetime(2026, 11, 29, 12, 0, tzinfo=tz)


@pytest.fixture(autouse=True)
def stopped_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offline, "datetime", StoppedClock)


def start(app: Flask, rounds: int = 2) -> tuple[str, str]:
    """A match with ``rounds`` rounds; its edit and read-only tokens."""
    with app.app_context():
        session = get_session()
        match = store.create_match(
            session, game=GAME, players=PLAYERS, first_dealer="Anna", games=rounds + 2
        )
        for n in range(rounds):
            store.add_round(session, match, sample_round(GAME, points=n + 1))
        return match.edit_token, match.view_token


@pytest.fixture
def scored(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times a match was scored for reading (store.score)."""
    calls: list[int] = []
    real = reading.score

    def counting(match: Any) -> dict[str, Any]:
        calls.append(match.revision)
        return real(match)

    monkeypatch.setattr(reading, "score", counting)
    return calls


def test_the_result_is_computed_once_per_revision(app, client, scored):
    edit, view = start(app)
    for path in (f"/m/{edit}", f"/v/{view}", f"/v/{view}.json", f"/api/v1/matches/{edit}"):
        assert client.get(path).status_code == 200
        assert client.get(path).status_code == 200
    assert scored == [3]
    response = client.post(
        f"/api/v1/matches/{edit}/games",
        json=sample_round(GAME, points=7),
        headers={"If-Match": "*"},
    )
    assert response.status_code in (200, 201), response.get_json()
    board = client.get(f"/v/{view}.json").get_json()
    assert board["revision"] == 4 and len(board["rounds"]) == 3
    client.get(f"/m/{edit}")
    assert scored == [3, 4]


def test_a_result_from_the_cache_is_a_copy_the_caller_may_change(app, scored):
    _edit, view = start(app)
    with app.app_context():
        match = store.get_by_view_token(get_session(), view)
        assert match is not None
        first = store.result(match)
        first["totals"].clear()
        first["rounds"].pop()
        again = store.result(match)
    assert len(again["rounds"]) == 2 and again["totals"]
    assert scored == [3]


def test_another_process_writing_moves_every_reader_to_the_new_result(app_factory):
    """Two apps on one database stand for two server processes: each keeps its own cache
    (here the same module's, which is harder), and the revision in the key keeps both right."""
    first, second = app_factory(), app_factory()
    edit, view = start(first)
    before = first.test_client().get(f"/v/{view}.json").get_json()
    response = second.test_client().post(
        f"/api/v1/matches/{edit}/games",
        json=sample_round(GAME, points=9),
        headers={"If-Match": "*"},
    )
    assert response.status_code in (200, 201)
    after = first.test_client().get(f"/v/{view}.json").get_json()
    assert len(after["rounds"]) == len(before["rounds"]) + 1
    assert after["totals"] != before["totals"]
    page = first.test_client().get(f"/v/{view}").get_data(as_text=True)
    assert page.count('href="/v/') >= 3


def rendered(app: Flask) -> list[str]:
    names: list[str] = []

    def seen(_sender: object, template: Any, **_: object) -> None:
        names.append(template.name)

    template_rendered.connect(seen, app, weak=False)
    return names


def test_the_read_only_page_is_rendered_once_per_revision_and_language(app, client):
    edit, view = start(app)
    names = rendered(app)
    first = client.get(f"/v/{view}")
    second = client.get(f"/v/{view}")
    assert first.data == second.data and names.count("match.html") == 1
    german = client.get(f"/v/{view}", headers={"Accept-Language": "de"})
    assert german.headers["Content-Language"] == "de" and german.data != first.data
    assert names.count("match.html") == 2
    client.post(
        f"/api/v1/matches/{edit}/games",
        json=sample_round(GAME, points=5),
        headers={"If-Match": "*"},
    )
    third = client.get(f"/v/{view}")
    assert third.data != first.data and names.count("match.html") == 3
    assert ">3<" in third.get_data(as_text=True) or "/rounds/3" in third.get_data(as_text=True)


def test_an_unknown_read_only_link_is_still_a_404(client):
    assert client.get("/v/" + "x" * 32).status_code == 404


def test_a_second_download_of_an_unchanged_sheet_costs_no_render(app, client):
    edit, view = start(app)
    queue = queue_for(app)
    before = queue.renders
    first = client.get(f"/v/{view}/sheet.pdf")
    assert first.status_code == 200 and first.data.startswith(b"%PDF")
    again = client.get(f"/v/{view}/sheet.pdf")
    assert again.data == first.data
    assert queue.renders == before + 1
    kept = Path(app.instance_path) / render_queue.STORAGE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    with sqlite3.connect(kept) as db:  # the storage's names never show a token
        names = [name for (name,) in db.execute("select key from kv")]
    assert names and not any(view in name or edit in name for name in names)
    # Another language or paper is another sheet; a new revision is another sheet.
    client.get(f"/v/{view}/sheet.pdf?lang=hu")
    client.get(f"/v/{view}/sheet.pdf?paper=letter")
    assert queue.renders == before + 3
    client.post(
        f"/api/v1/matches/{edit}/games",
        json=sample_round(GAME, points=4),
        headers={"If-Match": "*"},
    )
    newer = client.get(f"/v/{view}/sheet.pdf")
    assert newer.data != first.data and queue.renders == before + 4


def test_twenty_downloads_at_once_wait_on_one_render(app):
    _edit, view = start(app)
    queue = queue_for(app)
    before = queue.renders
    answers: list[tuple[int, bytes]] = []

    def download() -> None:
        response = app.test_client().get(f"/v/{view}/sheet.pdf?lang=de")
        answers.append((response.status_code, response.data))

    threads = [threading.Thread(target=download) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [code for code, _ in answers] == [200] * 20
    assert len({data for _, data in answers}) == 1
    assert queue.renders == before + 1


def test_blank_sheets_are_kept_too_and_bad_names_are_still_a_400(app, client):
    queue = queue_for(app)
    before = queue.renders
    assert client.get("/sheets/blank.pdf?game=rummikub&players=3").status_code == 200
    assert client.get("/sheets/blank.pdf?game=rummikub&players=3").status_code == 200
    assert queue.renders == before + 1
    bad = client.get("/sheets/blank.pdf?game=rummikub&names=" + ",".join(["Anna"] * 9))
    assert bad.status_code == 400


def test_when_too_many_requests_wait_for_sheets_one_more_gets_503_and_a_time(
    app, client, monkeypatch
):
    """The request threads are the pages' too: beyond WAITING, a sheet is "try again"."""
    import threading as threads

    _edit, view = start(app)
    waiting = threads.BoundedSemaphore(1)
    monkeypatch.setattr(render_queue, "_waiting", waiting)
    waiting.acquire()  # another request is waiting for its sheet
    try:
        busy = client.get(f"/v/{view}/sheet.pdf", headers={"Accept-Language": "de"})
    finally:
        waiting.release()
    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == "5"
    assert "Wertungsbögen" in busy.get_data(as_text=True)
    assert client.get(f"/v/{view}/sheet.pdf").status_code == 200
