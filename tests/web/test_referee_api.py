"""``POST /api/v1/turn``, ``/knock`` and ``/redeal``: 200, 422 with the error object, 400."""

from __future__ import annotations

import pytest

from companion.domain import check_turn

TURN = {
    "game": "rummy17",
    "player": "Anna",
    "opened": False,
    "before": {"Anna": [], "Béla": [["K10", "K11", "K12"]]},
    "after": {"Anna": [["R3", "R4", "R5", "*R"]], "Béla": [["K9", "K10", "K11", "K12"]]},
    "hand": ["R3", "R4", "R5", "K9", "G2"],
}
KNOCK = {
    "players": ["Anna", "Béla", "Cili", "Dani"],
    "current": "Béla",
    "discarded_by": "Anna",
    "knocks": ["Dani", "Cili"],
}


def test_turn_contract_example(client):
    response = client.post("/api/v1/turn", json=TURN)
    assert response.status_code == 200
    assert response.json == check_turn(TURN)
    assert response.json["valid"] is True


def test_turn_illegal_is_200_with_problems_in_the_language(client):
    doc = {**TURN, "after": {"Anna": [["R3", "R4", "*R5"]], "Béla": [["K10", "K11", "K12"]]}}
    en = client.post("/api/v1/turn", json=doc).json
    hu = client.post("/api/v1/turn", json=doc, headers={"Accept-Language": "hu"}).json
    assert en["valid"] is False
    assert [p["rule"] for p in en["problems"]] == ["R17-11"]
    assert hu["problems"][0]["rule"] == "R17-11"
    assert hu["problems"][0]["reason"] != en["problems"][0]["reason"]


def test_turn_bad_input_is_422(client):
    response = client.post("/api/v1/turn", json={**TURN, "player": "Zoé"})
    assert response.status_code == 422
    assert response.json["error"]["field"] == "player"


@pytest.mark.parametrize("path", ["/api/v1/turn", "/api/v1/knock", "/api/v1/redeal"])
def test_a_body_that_is_not_json_is_400(client, path):
    response = client.post(path, data=b"{nope", content_type="application/json")
    assert response.status_code == 400
    assert "error" in response.json


def test_knock_contract_example(client):
    response = client.post("/api/v1/knock", json=KNOCK)
    assert response.status_code == 200
    assert response.json["gets"] == "Cili"
    assert response.json["reason"] == "Cili knocked and comes first after Béla"
    assert response.json["refused"] == {}


def test_knock_refused_in_the_language(client):
    body = {**KNOCK, "knocks": ["Anna", "Béla"]}
    de = client.post("/api/v1/knock", json=body, headers={"Accept-Language": "de"}).json
    en = client.post("/api/v1/knock", json=body).json
    assert de["gets"] is None
    assert set(de["refused"]) == {"Anna", "Béla"}
    assert de["refused"]["Anna"] != en["refused"]["Anna"]


def test_knock_bad_input_is_422(client):
    response = client.post("/api/v1/knock", json={**KNOCK, "knocks": ["Zoé"]})
    assert response.status_code == 422
    assert response.json["error"]["field"] == "knocks"


def test_redeal(client):
    tiles = "R1 R1 K2 K2 B3 B3 O1 O2 O3 O4 O5 O6 O7 *".split()
    response = client.post("/api/v1/redeal", json={"game": "rummikub", "tiles": tiles})
    assert response.status_code == 200
    assert response.json["redeal"] is True
    assert response.json["pairs"] == ["K2", "R1", "B3"]
    refused = client.post("/api/v1/redeal", json={"game": "manipulation", "tiles": tiles})
    assert refused.status_code == 422


# --- the rulings over HTTP: check's copies, D17-11, DO-8, the initial meld's worth ---------


def test_check_more_copies_than_the_box_has_is_422(client):
    response = client.post("/api/v1/check", json={"game": "rummikub", "cards": ["*", "*", "*"]})
    assert response.status_code == 422
    assert (response.json["error"]["rule"], response.json["error"]["card"]) == ("DK-4", "*")
    hu = client.post(
        "/api/v1/check",
        json={"game": "rummy17", "cards": ["K9", "K9", "K10"]},
        headers={"Accept-Language": "hu"},
    )
    assert hu.status_code == 422 and hu.json["error"]["rule"] == "R17-1"
    assert hu.json["error"]["message"] != response.json["error"]["message"]


def test_D17_11_a_turn_melding_the_whole_hand_is_refused_in_the_language(client):
    doc = {**TURN, "hand": ["R3", "R4", "R5", "K9"]}  # the contract's example without G2
    en = client.post("/api/v1/turn", json=doc).json
    de = client.post("/api/v1/turn", json=doc, headers={"Accept-Language": "de"}).json
    assert [p["rule"] for p in en["problems"]] == ["D17-11"]
    assert de["problems"][0]["reason"].startswith("Anna hat alle Karten der Hand gemeldet")
    assert de["problems"][0]["fix"] == "Eine Karte in der Hand von Anna lassen, um sie abzulegen."


def test_DO_8_over_http(client):
    doc = {
        "game": "rummy-o",
        "before": [["R3", "R4", "R5"], ["R6", "R7", "*R8"]],
        "after": [["R3", "R4", "R5", "R6", "R7"], ["B10", "B11", "*B12"]],
    }
    bg = client.post("/api/v1/turn", json=doc, headers={"Accept-Language": "bg"}).json
    assert bg["valid"] is False and [p["rule"] for p in bg["problems"]] == ["DO-8"]
    assert bg["problems"][0]["reason"].startswith("жокер заместваше R8 преди хода")


def test_RK_6_the_turn_is_judged_at_the_least_worth_when_every_reading_reaches_it(client):
    doc = {"game": "rummikub", "opened": False, "before": [], "after": [["R11", "R12", "*"]]}
    response = client.post("/api/v1/turn", json=doc)
    assert response.status_code == 200 and response.json["value"] == 33
    straddles = {**doc, "after": [["R9", "R10", "*"]]}
    assert client.post("/api/v1/turn", json=straddles).status_code == 422
