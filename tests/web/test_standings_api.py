"""``POST /api/v1/standings`` (contract ``standings``): 200 with the result, 422 with the
error object, 400 for a body that is not JSON; ``Accept-Language`` chooses the words."""

from __future__ import annotations

from support import load

from companion.domain.club import standings
from companion.web.api.openapi import document


def test_standings_over_http_equal_the_command(client):
    response = client.post("/api/v1/standings", json=load("event.json"))
    assert response.status_code == 200
    assert response.json == standings(load("event.json"))


def test_bad_event_is_422_in_the_players_language(client):
    doc = load("event.json")
    doc["entrants"].append("anna")
    response = client.post("/api/v1/standings", json=doc, headers={"Accept-Language": "hu"})
    assert response.status_code == 422
    error = response.json["error"]
    assert error["code"] == "event-name-twice" and error["rule"] == "EV-1"
    assert "anna" in error["message"] and "twice" not in error["message"]


def test_wrong_types_are_422_and_not_json_is_400(client):
    assert client.post("/api/v1/standings", json={"entrants": "Anna"}).status_code == 422
    assert client.post("/api/v1/standings", json=[1]).status_code == 422
    answer = client.post(
        "/api/v1/standings", data="{", headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 400


def test_the_openapi_document_describes_the_standings():
    paths = document()["paths"]
    operation = paths["/api/v1/standings"]["post"]
    assert "EventDocument" in str(operation["requestBody"])
    assert "StandingsResult" in str(operation["responses"])
