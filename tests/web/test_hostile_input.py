"""One regression test per cause of a 500 found by a fuzz run: each is now a
400, 404 or 422 with the error object (API) or a message on the page; and no link token is
ever written to the log."""

from __future__ import annotations

import io
import json
import logging

import pytest
from samples import PLAYERS, sample_round

from companion.adapters import store
from companion.adapters.db import get_session


@pytest.fixture
def edit(app):
    with app.app_context():
        match = store.create_match(
            get_session(), game="rummikub", players=PLAYERS, first_dealer="Anna", games=5
        )
        store.add_round(get_session(), match, sample_round("rummikub", 1))
        return match.edit_token


def api_error(response, status=400):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json and response.get_json()["error"]["message"]
    return response.get_json()["error"]


@pytest.mark.parametrize("depth", [100_000, 900, 17])
def test_deeply_nested_json_is_refused(client, depth):
    body = b"[" * depth + b"]" * depth
    api_error(client.post("/api/v1/score", data=body, content_type="application/json"))
    nested = '{"game": "rummikub", "players": ' + "[" * depth + "]" * depth + "}"
    api_error(client.post("/api/v1/matches", data=nested))


@pytest.mark.parametrize(
    "body",
    [
        b"NaN",
        b'{"game": "rummikub", "players": [Infinity]}',
        b'{"game": -Infinity}',
        b'{"games": 1e999}',
        b'{"games": ' + b"9" * 5000 + b"}",
        b'{"games": 10000000000000000000}',
        b'"\\ud800"',
        b'{"game": "rummikub", "players": ["\\udfff", "B"], "first_dealer": "B"}',
        b'{"game": "rummikub", "players": ["A\\u0000", "B"], "first_dealer": "B"}',
    ],
)
def test_json_nobody_can_store_is_refused_at_the_edge(client, edit, body):
    for path in (
        "/api/v1/score",
        "/api/v1/match",
        "/api/v1/check",
        "/api/v1/turn",
        "/api/v1/knock",
        "/api/v1/redeal",
        "/api/v1/rescue",
        "/api/v1/matches",
    ):
        api_error(client.post(path, data=body, content_type="application/json"))
    api_error(client.post(f"/api/v1/matches/{edit}/games", data=body, headers={"If-Match": "*"}))


def test_huge_numbers_in_form_integer_fields_are_inline_errors(client, edit):
    for number in ("9" * 30, "9" * 5000, "²", "-1"):
        page = client.post(
            "/start/rummikub",
            data={"names-0": "Anna", "names-1": "Béla", "first": "0", "games": number},
        )
        assert page.status_code == 422
        assert "from 1 to 60" in page.get_data(as_text=True) or number == "²"
        page = client.post(f"/m/{edit}/rounds/new", data={"players-0-points": number})
        assert page.status_code == 422


def test_a_file_where_text_is_expected_is_not_read(client, edit):
    upload = {"names-0": (io.BytesIO(b"Anna"), "names.txt"), "names-1": "Béla", "first": "1"}
    page = client.post("/start/rummikub", data=upload, content_type="multipart/form-data")
    assert page.status_code == 422  # one name is missing: the file was not taken for one
    upload = {"players-0-rack": (io.BytesIO(b"R3"), "rack.txt"), "went_out": "Anna"}
    page = client.post(f"/m/{edit}/rounds/new", data=upload, content_type="multipart/form-data")
    assert page.status_code == 422
    upload = {"revision": (io.BytesIO(b"2"), "r.txt")}
    page = client.post(f"/m/{edit}/lengthen", data=upload, content_type="multipart/form-data")
    assert page.status_code == 302


@pytest.mark.parametrize("value", ["%C2%B2", "%D9%A1", "9" * 5000, "1e3", "-1", "%00"])
def test_blank_sheet_numbers_are_ascii_digits(client, value):
    for query in (f"players={value}", f"games={value}"):
        response = client.get(f"/sheets/blank.pdf?game=rummikub&{query}")
        assert response.status_code == 400
        assert "whole number" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    "doc",
    [
        {**sample_round("rummy17"), "bonus_cards": [["most-cards"], {}, 1, None, True]},
        {**sample_round("rummikub"), "players": [{"name": ["A"], "rack": []}]},
        {**sample_round("manipulation"), "knocked": ["Anna"]},
        {**sample_round("rummy-o"), "players": [{"name": "A", "rack": {"points": [1]}}]},
        {"game": ["rummikub"], "players": []},
    ],
)
def test_wrong_json_types_reach_the_rules_core_as_entry_errors(client, doc):
    response = client.post("/api/v1/score", json=doc)
    assert api_error(response, 422)["code"]


def test_huge_list_indices_in_form_names_are_left_out(client, edit):
    for name in ("players-" + "9" * 5000 + "-rack", "players-²-rack", "players-99999-rack"):
        page = client.post(f"/m/{edit}/rounds/new", data={name: "R3", "went_out": "Anna"})
        assert page.status_code == 422
    for name in ("names-" + "9" * 5000, "names-١", "names-123456789"):
        page = client.post("/start/rummikub", data={name: "Anna", "names-0": "Béla"})
        assert page.status_code == 422


def test_a_revision_that_is_no_number_is_no_revision(client, edit):
    for raw in ("²", "9" * 5000, "-3", "1e3"):
        assert client.post(f"/m/{edit}/lengthen", data={"revision": raw}).status_code == 302
    page = client.post(f"/m/{edit}/rounds/1/delete", data={"revision": "²"})
    assert page.status_code == 302


@pytest.mark.parametrize(
    "path",
    [
        "/m/%00",
        "/v/%00",
        "/m/%00/sheet.pdf",
        "/v/%00.json",
        "/api/v1/matches/%00",
        "/m/%00/rounds/1",
        "/m/a%00b/rounds/new",
    ],
)
def test_a_nul_in_a_link_finds_nothing(client, path):
    assert client.get(path).status_code == 404


def test_a_nul_in_a_form_value_is_refused(client, edit):
    page = client.post(
        "/start/rummikub", data={"names-0": "An\x00na", "names-1": "Béla", "first": "0"}
    )
    assert page.status_code == 400
    page = client.post(f"/m/{edit}/rounds/new", data={"players-0-rack": "R3\x00"})
    assert page.status_code == 400


def test_a_nul_in_the_device_cookie_is_no_device(client):
    for cookie in ('"\\000"', '"a\\000b"', "x" * 5000):
        page = client.get("/", headers={"Cookie": f"companion_device={cookie}"})
        assert page.status_code == 200


def test_an_error_never_logs_the_edit_token(app, edit, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(store, "result", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with caplog.at_level(logging.ERROR):
        assert app.test_client().get(f"/m/{edit}").status_code == 500
        assert app.test_client().get(f"/m/{edit}/sheet.pdf").status_code == 500
    assert "boom" in caplog.text and "/m/…" in caplog.text
    assert edit not in caplog.text


def test_a_database_error_never_shows_the_values_sent(app, edit, caplog):
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    with app.app_context(), pytest.raises(DBAPIError) as failure:
        get_session().execute(text("SELECT * FROM no_such_table WHERE x = :t"), {"t": edit})
    assert edit not in str(failure.value)


def test_the_api_error_object_for_a_body_that_is_no_json(client):
    error = api_error(client.post("/api/v1/score", data=json.dumps({"a": 1})[:-1]))
    assert error["status"] == 400
