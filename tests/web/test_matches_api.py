"""Matches over HTTP (contract, "Matches over HTTP") for every game, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from samples import GAMES, PLAYERS, holding, sample_round

from companion.domain import get_game, match_document

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

API = "/api/v1/matches"


def create(client: FlaskClient, game: str = "rummikub", **fields: Any) -> dict[str, Any]:
    """POST a new match for the three sample players, Béla dealing first; its answer."""
    body = {"game": game, "players": PLAYERS, "first_dealer": "Béla", **fields}
    response = client.post(API, json=body)
    assert response.status_code == 201, response.json
    return response.json


def etag(revision: int) -> dict[str, str]:
    return {"If-Match": f'"{revision}"'}


def read(client: FlaskClient, token: str) -> dict[str, Any]:
    response = client.get(f"{API}/{token}")
    assert response.status_code == 200
    return response.json


def same_but_dealers(result: dict[str, Any], expected: dict[str, Any]) -> bool:
    """Results equal apart from who dealt and starts (the store keeps dealers as played)."""

    def strip(r: dict[str, Any]) -> dict[str, Any]:
        out = json.loads(json.dumps(r))
        for line in out["rounds"] + ([out["next"]] if "next" in out else []):
            line.pop("dealer")
            line.pop("starts")
        return out

    return strip(result) == strip(expected)


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_over_http(client, game):
    created = create(client, game, title="Péntek")
    assert list(created) == ["edit", "view", "revision", "document", "result"]
    edit, view = created["edit"], created["view"]
    assert created["revision"] == 1
    length = get_game(game).default_length(len(PLAYERS))
    document = {"game": game, "players": PLAYERS, "first_dealer": "Béla", "title": "Péntek"}
    if length is not None:
        document["games"] = length
    assert created["document"] == {**document, "rounds": []}
    assert created["result"] == match_document(created["document"])
    assert created["result"]["games"] == length

    # Read with either token; only the edit token shows the edit token.
    by_edit = client.get(f"{API}/{edit}")
    assert by_edit.headers["ETag"] == '"1"'
    assert by_edit.json == created
    by_view = client.get(f"{API}/{view}")
    assert by_view.status_code == 200
    assert by_view.headers["ETag"] == '"1"'
    assert list(by_view.json) == ["revision", "document", "result"]
    assert edit not in by_view.get_data(as_text=True)

    # Add two rounds (If-Match or an Idempotency-Key on POST, else 428), replace the first,
    # delete it.
    first, second = sample_round(game, 1), sample_round(game, 4)
    added = client.post(f"{API}/{edit}/games", json=first, headers={"If-Match": "*"})
    assert added.status_code == 201
    assert (added.json["revision"], added.headers["ETag"]) == (2, '"2"')
    assert added.json["document"]["rounds"] == [first]
    added = client.post(f"{API}/{edit}/games", json=second, headers=etag(2))
    assert added.status_code == 201
    assert added.json["revision"] == 3
    assert [line["dealer"] for line in added.json["result"]["rounds"]] == ["Béla", "Cili"]

    corrected = sample_round(game, 7)
    replaced = client.put(f"{API}/{edit}/games/1", json=corrected, headers=etag(3))
    assert replaced.status_code == 200
    assert replaced.json["revision"] == 4
    assert replaced.json["document"]["rounds"] == [corrected, second]
    assert replaced.json["result"] == match_document(replaced.json["document"])

    deleted = client.delete(f"{API}/{edit}/games/1", headers=etag(4))
    assert deleted.status_code == 200
    assert (deleted.json["revision"], deleted.headers["ETag"]) == (5, '"5"')
    assert deleted.json["document"]["rounds"] == [second]
    result = deleted.json["result"]
    # Round 2 became round 1 and keeps its dealer; the deal passes on from Cili.
    assert [(line["number"], line["dealer"]) for line in result["rounds"]] == [(1, "Cili")]
    assert result["next"]["dealer"] == "Anna"
    assert same_but_dealers(result, match_document(deleted.json["document"]))
    assert read(client, view) == {
        k: v for k, v in deleted.json.items() if k not in ("edit", "view")
    }


@pytest.mark.parametrize("game", GAMES)
def test_a_write_on_an_older_revision_is_412_and_changes_nothing(client, game):
    edit = create(client, game)["edit"]
    client.post(f"{API}/{edit}/games", json=sample_round(game), headers={"If-Match": "*"})
    before = read(client, edit)
    for method, path, body in (
        ("post", "games", sample_round(game, 2)),
        ("put", "games/1", sample_round(game, 3)),
        ("delete", "games/1", None),
    ):
        response = getattr(client, method)(f"{API}/{edit}/{path}", json=body, headers=etag(1))
        assert response.status_code == 412, (method, response.json)
        assert response.json["revision"] == 2
        assert response.headers["ETag"] == '"2"'
        error = response.json["error"]
        assert (error["code"], error["params"]) == ("stale-revision", {"revision": 2})
        assert "reload" in error["message"]
    assert read(client, edit) == before


@pytest.mark.parametrize("header", ['"9"', 'W/"2"', "2x", '"1", "3"'])
def test_an_if_match_naming_no_current_revision_is_412(client, header):
    edit = create(client)["edit"]
    client.post(f"{API}/{edit}/games", json=sample_round("rummikub"), headers={"If-Match": "*"})
    response = client.delete(f"{API}/{edit}/games/1", headers={"If-Match": header})
    assert response.status_code == 412
    assert read(client, edit)["revision"] == 2


@pytest.mark.parametrize("header", ['"2"', '"1", "2"', "*"])
def test_an_if_match_naming_the_current_revision_writes(client, header):
    edit = create(client)["edit"]
    client.post(f"{API}/{edit}/games", json=sample_round("rummikub"), headers={"If-Match": "*"})
    response = client.delete(f"{API}/{edit}/games/1", headers={"If-Match": header})
    assert response.status_code == 200
    assert response.json["revision"] == 3


def test_put_and_delete_without_if_match_are_428(client):
    edit = create(client)["edit"]
    client.post(f"{API}/{edit}/games", json=sample_round("rummikub"), headers={"If-Match": "*"})
    before = read(client, edit)
    for response in (
        client.put(f"{API}/{edit}/games/1", json=sample_round("rummikub", 5)),
        client.delete(f"{API}/{edit}/games/1"),
    ):
        assert response.status_code == 428
        assert response.json["error"]["code"] == "if-match-required"
        assert response.json["revision"] == 2
    assert read(client, edit) == before


def test_a_view_token_or_unknown_token_on_a_write_is_404(client):
    created = create(client)
    edit, view = created["edit"], created["view"]
    client.post(f"{API}/{edit}/games", json=sample_round("rummikub"), headers={"If-Match": "*"})
    before = read(client, edit)
    for token in (view, "nope", edit[:-1], edit.upper() if edit.upper() != edit else "x"):
        for method, path, body in (
            ("post", "games", sample_round("rummikub")),
            ("put", "games/1", sample_round("rummikub", 3)),
            ("delete", "games/1", None),
        ):
            response = getattr(client, method)(f"{API}/{token}/{path}", json=body, headers=etag(2))
            assert response.status_code == 404, (token, method)
            assert response.is_json
            assert response.json["error"]["message"]
            assert edit not in response.get_data(as_text=True)
    assert read(client, edit) == before
    assert client.get(f"{API}/nope").status_code == 404


def test_a_round_number_the_match_does_not_have_is_404(client):
    edit = create(client)["edit"]
    client.post(f"{API}/{edit}/games", json=sample_round("rummikub"), headers={"If-Match": "*"})
    for number in (0, 2, 99):
        response = client.put(
            f"{API}/{edit}/games/{number}", json=sample_round("rummikub"), headers=etag(2)
        )
        assert response.status_code == 404
        assert response.json["error"]["code"] == "round-missing"
        assert client.delete(f"{API}/{edit}/games/{number}", headers=etag(2)).status_code == 404
    assert client.delete(f"{API}/{edit}/games/one", headers=etag(2)).status_code == 404
    assert read(client, edit)["revision"] == 2


@pytest.mark.parametrize("game", GAMES)
def test_a_bad_round_is_422_and_changes_nothing(client, game):
    edit = create(client, game)["edit"]
    client.post(f"{API}/{edit}/games", json=sample_round(game), headers={"If-Match": "*"})
    before = read(client, edit)
    bad = sample_round(game)
    key, _ = holding(bad, 1)
    bad["players"][1][key] = ["ZZ99"]
    other_players = sample_round(game, players=["Anna", "Béla", "Dani"])
    for method, path in (("post", "games"), ("put", "games/1")):
        for body in (bad, other_players, {"players": "nobody"}, [], "R5"):
            response = getattr(client, method)(f"{API}/{edit}/{path}", json=body, headers=etag(2))
            assert response.status_code == 422, (method, body)
            assert response.json["error"]["message"]
    response = client.post(f"{API}/{edit}/games", json=bad, headers={"If-Match": "*"})
    assert response.json["error"]["player"] == "Béla"
    assert response.json["error"]["round"] == 2
    assert read(client, edit) == before


def test_a_body_that_is_not_json_is_400(client):
    edit = create(client)["edit"]
    for response in (
        client.post(API, data=b"{", content_type="application/json"),
        client.post(
            f"{API}/{edit}/games",
            data=b"{",
            content_type="application/json",
            headers={"If-Match": "*"},
        ),
        client.put(f"{API}/{edit}/games/1", data=b"\xff", headers=etag(1)),
    ):
        assert response.status_code == 400
        assert response.json["error"]["message"]
    assert read(client, edit)["revision"] == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "players": PLAYERS, "first_dealer": "Anna"}, "unknown-game"),
        ({"players": PLAYERS, "first_dealer": "Anna"}, "game-missing"),
        ({"game": "rummikub", "players": PLAYERS, "first_dealer": "Dani"}, None),
        ({"game": "rummikub", "players": ["Anna"], "first_dealer": "Anna"}, None),
        ({"game": "rummikub", "players": "Anna, Béla", "first_dealer": "Anna"}, None),
        ({"game": "rummikub", "players": PLAYERS, "first_dealer": "Anna", "games": 0}, None),
        ({"game": "manipulation", "players": PLAYERS, "first_dealer": "Anna", "games": 3}, None),
        ({"game": "rummikub", "players": PLAYERS, "first_dealer": "Anna", "title": 5}, None),
        ({"game": "rummikub", "players": PLAYERS, "first_dealer": "Anna", "x": 1}, None),
        (["rummikub"], "body-not-object"),
    ],
)
def test_a_bad_new_match_is_422(client, body, code):
    response = client.post(API, json=body)
    assert response.status_code == 422
    assert response.json["error"]["message"]
    if code:
        assert response.json["error"]["code"] == code


def test_a_new_match_says_where_it_is(client):
    response = client.post(
        API, json={"game": "rummy-o", "players": PLAYERS, "first_dealer": "Cili", "games": 2}
    )
    assert response.status_code == 201
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(f"{API}/{response.json['edit']}")
    assert response.json["document"]["games"] == 2


def test_a_round_past_the_end_of_the_series_is_422(client):
    edit = create(client, "rummy-o", games=1)["edit"]
    assert (
        client.post(
            f"{API}/{edit}/games", json=sample_round("rummy-o"), headers={"If-Match": "*"}
        ).status_code
        == 201
    )
    response = client.post(
        f"{API}/{edit}/games", json=sample_round("rummy-o"), headers={"If-Match": "*"}
    )
    assert response.status_code == 422
    assert read(client, edit)["result"]["finished"] is True


def test_saving_the_same_round_again_keeps_the_revision(client):
    edit = create(client)["edit"]
    client.post(f"{API}/{edit}/games", json=sample_round("rummikub"), headers={"If-Match": "*"})
    response = client.put(f"{API}/{edit}/games/1", json=sample_round("rummikub"), headers=etag(2))
    assert response.status_code == 200
    assert response.json["revision"] == 2


def test_the_old_read_only_json_still_works(client):
    created = create(client)
    client.post(
        f"{API}/{created['edit']}/games", json=sample_round("rummikub"), headers={"If-Match": "*"}
    )
    body = client.get(f"/v/{created['view']}.json").json
    assert body["revision"] == 2
    assert body["document"] == read(client, created["view"])["document"]
    assert created["edit"] not in json.dumps(body)
