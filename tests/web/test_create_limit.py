"""A public server limits what one address can start (companion.web.ratelimit, Flask-Limiter).

Starting a match (the start page, a rematch, the API) or an event (its page, the API) counts
against one limit per client address; reading, saving rounds and seating an event's
sessions never do. The time is a hand-turned clock on the limiter's storage, never the real
one: the hour passes in one assignment.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from samples import sample_round

from companion.web.app import create_app
from companion.web.ratelimit import SqliteStorage, client_address

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

START = 1_800_000_000.0
MATCH = {"game": "rummikub", "players": ["Anna", "Béla"], "first_dealer": "Anna"}
EVENT = {"game": "rummikub", "entrants": ["Anna", "Béla", "Cili", "Dani"]}
SENTENCE = "This address has started as many matches and events as it may for now."


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def limited(app_factory: Callable[..., Flask], limit: str = "3/hour", **config: Any) -> Flask:
    """An app with ``limit`` and the clock stopped at START (``app.clock`` turns it)."""
    app = app_factory(CREATE_LIMIT=limit, **config)
    storage = app.extensions["companion_limiter"].storage
    assert isinstance(storage, SqliteStorage)
    clock = Clock()
    storage.clock = clock
    app.clock = clock  # type: ignore[attr-defined]
    return app


def start_page(client: FlaskClient, **kwargs: Any) -> Any:
    data = {"names-0": "Anna", "names-1": "Béla", "first": "0"}
    return client.post("/start/rummikub", data=data, **kwargs)


def test_the_fourth_start_in_an_hour_is_refused_with_retry_after(app_factory) -> None:
    app = limited(app_factory)
    client = app.test_client()
    for _ in range(3):
        assert client.post("/api/v1/matches", json=MATCH).status_code == 201
    app.clock.now += 1000
    refused = client.post("/api/v1/matches", json=MATCH)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "2600"  # the first start leaves the hour then
    error = refused.get_json()["error"]
    assert error["status"] == 429
    assert error["message"] == f"{SENTENCE} Try again in 44 minutes."
    app.clock.now = START + 3600 + 1
    assert client.post("/api/v1/matches", json=MATCH).status_code == 201


def test_matches_and_events_on_pages_and_over_the_api_count_together(app_factory) -> None:
    app = limited(app_factory)
    client = app.test_client()
    assert start_page(client).status_code == 302
    assert client.post("/api/v1/events", json=EVENT).status_code == 201
    entrants = "\n".join(EVENT["entrants"])
    made = client.post("/events/new", data={"game": "rummikub", "entrants": entrants})
    assert made.status_code == 302
    refused = start_page(client, headers={"Accept-Language": "hu"})
    assert refused.status_code == 429 and refused.mimetype == "text/html"
    assert refused.headers["Retry-After"] == "3600"
    page = html.unescape(refused.get_data(as_text=True))
    assert "60 perc múlva" in page
    assert client.post("/api/v1/events", json=EVENT).status_code == 429
    board = client.get(made.headers["Location"])
    assert board.status_code == 200  # reading is never limited


def test_a_rematch_is_a_start_too(app_factory) -> None:
    app = limited(app_factory, "1/hour")
    client = app.test_client()
    edit = start_page(client).headers["Location"].rsplit("/", 1)[-1]
    assert client.post(f"/m/{edit}/rematch").status_code == 429


def test_a_form_sent_back_with_a_mistake_costs_nothing(app_factory) -> None:
    app = limited(app_factory, "1/hour")
    client = app.test_client()
    for _ in range(5):
        wrong = client.post("/start/rummikub", data={"names-0": "Anna", "first": "0"})
        assert wrong.status_code == 422
        assert client.post("/api/v1/matches", json={**MATCH, "players": ["A"]}).status_code == 422
        assert client.get("/start/rummikub").status_code == 200
    assert start_page(client).status_code == 302


def test_a_busy_table_saves_and_reads_without_limit(app_factory) -> None:
    app = limited(app_factory, "1/hour")
    client = app.test_client()
    made = client.post("/api/v1/matches", json={**MATCH, "players": ["Anna", "Béla", "Cili"]})
    edit = made.get_json()["edit"]
    assert client.post("/api/v1/matches", json=MATCH).status_code == 429
    for number in (1, 2, 3):
        saved = client.post(
            f"/api/v1/matches/{edit}/games",
            json=sample_round("rummikub", number),
            headers={"If-Match": "*"},
        )
        assert saved.status_code == 201
        assert client.get(f"/m/{edit}").status_code == 200
    event = app.test_client()
    event.environ_base["REMOTE_ADDR"] = "203.0.113.9"  # the organiser's phone
    answer = event.post("/api/v1/events", json={**EVENT, "sessions": 2}).get_json()
    for revision in (1, 2):  # seating a session makes its tables' matches: never limited
        seated = event.post(f"/api/v1/events/{answer['edit']}/sessions", headers={"If-Match": "*"})
        assert seated.status_code == 201, (revision, seated.get_json())


def test_each_address_counts_apart_behind_the_proxy(app_factory) -> None:
    app = limited(app_factory, "1/hour", PROXY=1)
    client = app.test_client()
    for address in ("203.0.113.5", "203.0.113.6"):
        sent = {"X-Forwarded-For": address}
        assert client.post("/api/v1/matches", json=MATCH, headers=sent).status_code == 201
        assert client.post("/api/v1/matches", json=MATCH, headers=sent).status_code == 429


def test_without_the_proxy_setting_a_forwarded_address_is_not_believed(app_factory) -> None:
    app = limited(app_factory, "1/hour")
    client = app.test_client()
    assert client.post("/api/v1/matches", json=MATCH).status_code == 201
    forged = {"X-Forwarded-For": "198.51.100.7"}
    assert client.post("/api/v1/matches", json=MATCH, headers=forged).status_code == 429


def test_all_server_processes_share_one_count(app_factory) -> None:
    """``companion serve`` runs several workers: two apps on one instance folder stand in
    for two of them, each with its own limiter, and the third start is refused in either."""
    one, two = limited(app_factory, "2/hour"), limited(app_factory, "2/hour")
    assert one.test_client().post("/api/v1/matches", json=MATCH).status_code == 201
    assert two.test_client().post("/api/v1/matches", json=MATCH).status_code == 201
    assert one.test_client().post("/api/v1/matches", json=MATCH).status_code == 429
    assert two.test_client().post("/api/v1/matches", json=MATCH).status_code == 429


def test_the_limit_can_be_turned_off(app_factory) -> None:
    app = app_factory(CREATE_LIMIT="off")
    assert "companion_limiter" not in app.extensions
    client = app.test_client()
    for _ in range(5):
        assert client.post("/api/v1/matches", json=MATCH).status_code == 201


def test_a_limit_that_cannot_be_read_stops_the_start(tmp_path) -> None:
    with pytest.raises(ValueError, match="COMPANION_CREATE_LIMIT"):
        create_app({"INSTANCE_PATH": str(tmp_path), "CREATE_LIMIT": "often"})


def test_the_limit_is_on_by_default(tmp_path) -> None:
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x"})
    assert "companion_limiter" in app.extensions


@pytest.mark.parametrize(
    ("remote", "key"),
    [
        ("203.0.113.5", "203.0.113.5"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.5", "203.0.113.5"),
    ],
)
def test_an_ipv6_address_counts_by_its_network(remote: str, key: str) -> None:
    app = Flask(__name__)
    with app.test_request_context(environ_base={"REMOTE_ADDR": remote}):
        assert client_address() == key


def test_the_openapi_document_says_a_start_may_be_refused() -> None:
    from companion.web.api.openapi import document

    paths = document()["paths"]
    for path in ("/api/v1/matches", "/api/v1/events"):
        answer = paths[path]["post"]["responses"]["429"]
        assert "Retry-After" in answer["headers"]
        assert re.search("address", answer["description"])


@pytest.mark.server
def test_the_real_server_counts_across_its_workers(tmp_path) -> None:
    """``companion serve`` with two workers: each start on a new connection may land on
    either, and the third is refused all the same (no clock needed: an hour is long)."""
    import json
    import urllib.error
    import urllib.request

    from live_server import WITHOUT_SHEETS, serving

    env = {
        "COMPANION_INSTANCE_PATH": str(tmp_path / "instance"),
        "COMPANION_WORKERS": "2",
        "COMPANION_CREATE_LIMIT": "2/hour",
        **WITHOUT_SHEETS,
    }
    with serving(env) as server:
        statuses = []
        for _ in range(4):
            ask = urllib.request.Request(
                server.url + "/api/v1/matches",
                data=json.dumps(MATCH).encode(),
                headers={"Content-Type": "application/json", "Connection": "close"},
            )
            try:
                with urllib.request.urlopen(ask, timeout=10) as answer:
                    statuses.append(answer.status)
            except urllib.error.HTTPError as refused:
                statuses.append(refused.code)
                assert int(refused.headers["Retry-After"]) > 3500
        assert statuses == [201, 201, 429, 429]


def test_a_burst_of_100_starts_from_one_address_makes_exactly_the_limit(tmp_path) -> None:
    """100 starts at once from one address against the real server (two workers), with a
    limit of 5 a minute: exactly 5 matches are made, and 95 are refused. Each start is
    counted before its view runs, in the same step that checks the limit (checking first and
    counting after success let 56 of 100 through)."""
    import http.client
    import json
    import threading

    from live_server import WITHOUT_SHEETS, serving
    from sqlmodel import func, select

    from companion.adapters.db import get_session
    from companion.adapters.models import Match

    instance = tmp_path / "instance"
    env = {
        "COMPANION_INSTANCE_PATH": str(instance),
        "COMPANION_WORKERS": "2",
        "COMPANION_CREATE_LIMIT": "5/minute",
        **WITHOUT_SHEETS,
    }
    starts = 100
    with serving(env) as server:
        ready = threading.Barrier(starts)
        statuses: list[int] = []
        body = json.dumps(MATCH)

        def start() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            try:
                conn.connect()
                ready.wait()  # all 100 connected, then all sent at once
                conn.request("POST", "/api/v1/matches", body, {"Content-Type": "application/json"})
                statuses.append(conn.getresponse().status)
            finally:
                conn.close()

        threads = [threading.Thread(target=start) for _ in range(starts)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert sorted(set(statuses)) == [201, 429]
    assert statuses.count(201) == 5 and statuses.count(429) == starts - 5
    app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "x"})
    with app.app_context():
        assert get_session().exec(select(func.count()).select_from(Match)).one() == 5
