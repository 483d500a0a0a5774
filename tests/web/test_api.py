"""The JSON API (contract: score, match, check), the games, and a match at its read-only link.

The matches API (create, read, write rounds, revisions) is in test_matches_api.py.
"""

from __future__ import annotations

import copy
import json

import pytest
from support import load, subset

from companion.adapters import store
from companion.domain import all_games, check_meld, match_document, score_document

EXAMPLES = ["rummy17-round", "rummy17-doubled"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_score_reproduces_the_examples(client, name):
    response = client.post("/api/v1/score", json=load(f"{name}.json"))
    assert response.status_code == 200
    assert response.is_json
    assert subset(load(f"{name}.expected.json"), response.json)
    assert response.json == score_document(load(f"{name}.json"))


def test_match_reproduces_the_example(client):
    response = client.post("/api/v1/match", json=load("rummy17-match.json"))
    assert response.status_code == 200
    assert subset(load("rummy17-match.expected.json"), response.json)


def test_answers_keep_the_contract_field_order_and_unicode(client):
    response = client.post("/api/v1/score", json=load("rummy17-round.json"))
    assert list(response.json) == list(score_document(load("rummy17-round.json")))
    assert "Zsófi" in response.get_data(as_text=True)  # not \u00f3-escaped


def test_body_without_json_content_type_is_still_read(client):
    body = load("rummy17-round.json")
    response = client.post(
        "/api/v1/score", data=json.dumps(body), content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200


@pytest.mark.parametrize("path", ["/api/v1/score", "/api/v1/match", "/api/v1/check"])
@pytest.mark.parametrize("body", [b"", b"{not json", b"\xff\xfe", b"players=Anna"])
def test_a_body_that_is_not_json_is_400_with_an_error_object(client, path, body):
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.is_json
    assert response.json["error"]["message"]


def test_bad_round_is_422_with_the_rules_core_error(client):
    doc = load("rummy17-round.json")
    doc["players"][1]["melds"][0] = ["K2", "K2", "K3"]
    response = client.post("/api/v1/score", json=doc)
    assert response.status_code == 422
    error = response.json["error"]
    assert error["player"] == doc["players"][1]["name"]
    assert error["meld"] == 1
    assert doc["players"][1]["name"] in error["message"]


def test_bad_match_is_422_naming_the_game(client):
    doc = load("rummy17-match.json")
    doc["rounds"][1]["bonus_cards"] = doc["rounds"][1]["bonus_cards"][:4]
    response = client.post("/api/v1/match", json=doc)
    assert response.status_code == 422
    assert response.json["error"]["message"].startswith(("game 2: ", "round 2: "))
    assert response.json["error"]["rule"] == "R17-3"


@pytest.mark.parametrize("body", [None, [], "R3 R4 R5", {"game": "rummy17"}, {"cards": [1, 2]}])
def test_json_that_is_not_a_document_is_422(client, body):
    for path in ("/api/v1/score", "/api/v1/match", "/api/v1/check"):
        response = client.post(path, data=json.dumps(body), content_type="application/json")
        assert response.status_code == 422, (path, body)
        assert response.json["error"]["message"]


@pytest.mark.parametrize(
    "cards", [["R3", "R4", "R5"], ["K12", "K13", "K1"], ["R3", "R4", "*R"], ["y8", "b8", "g8"]]
)
def test_check_answers_200_with_the_verdict(client, cards):
    response = client.post("/api/v1/check", json={"game": "rummy17", "cards": cards})
    assert response.status_code == 200
    assert response.json == check_meld("rummy17", cards)


def test_check_unknown_field_or_game_is_422(client):
    response = client.post("/api/v1/check", json={"game": "rummy17", "cards": ["R3"], "x": 1})
    assert response.status_code == 422
    response = client.post("/api/v1/check", json={"game": "chess", "cards": ["R3", "R4", "R5"]})
    assert response.status_code == 422


def test_api_is_post_only_and_unknown_api_paths_are_json_404(client):
    response = client.get("/api/v1/score")
    assert response.status_code == 405
    assert response.is_json
    response = client.get("/api/v1/nothing")
    assert response.status_code == 404
    assert response.json["error"]["message"]


def make_series(app):
    doc = load("rummy17-match.json")
    with app.app_context():
        from companion.adapters.db import get_session

        session = get_session()
        match = store.create_match(
            session,
            game=doc["game"],
            players=doc["players"],
            first_dealer=doc["first_dealer"],
            games=3,
            title="Friday <b>night</b>",
        )
        for round_doc in doc["rounds"]:
            store.add_round(session, match, round_doc)
    return match, doc


def test_match_json_by_view_token(app, client):
    match, doc = make_series(app)
    response = client.get(f"/v/{match.view_token}.json")
    assert response.status_code == 200
    assert response.headers["ETag"] == f'"{match.revision}"'
    body = response.json
    expected = match_document({**doc, "games": 3})
    assert subset(expected, body)
    assert subset(load("rummy17-match.expected.json")["totals"], body["totals"])
    assert body["title"] == "Friday <b>night</b>"
    assert body["players"] == doc["players"]
    assert body["games"] == 3
    assert body["document"]["rounds"] == doc["rounds"]
    # The document is what `companion match` reads, and gives the same result.
    assert match_document(body["document"]) == expected
    assert match.edit_token not in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/api/v1/matches/{token}", "/v/{token}.json"])
def test_match_json_unknown_token_is_json_404(app, client, path):
    match, _ = make_series(app)
    tokens = ["nope", match.view_token[:-1], match.edit_token[:-1]]
    tokens += [
        t for t in (match.view_token.upper(), match.view_token.lower()) if t != match.view_token
    ]
    if path.startswith("/v/"):
        tokens.append(match.edit_token)  # the read-only link opens only with the view token
    for token in tokens:
        response = client.get(path.format(token=token))
        assert response.status_code == 404, token
        assert response.is_json
        assert response.json["error"]["message"]


def test_match_json_reflects_an_edit(app, client):
    match, doc = make_series(app)
    edited = copy.deepcopy(doc["rounds"][0])
    edited["players"][1]["hand"] = ["R1", "Y16"]
    with app.app_context():
        from companion.adapters.db import get_session

        session = get_session()
        fresh = store.get_by_edit_token(session, match.edit_token)
        store.update_round(session, fresh, 1, edited)
    body = client.get(f"/v/{match.view_token}.json").json
    assert body["document"]["rounds"][0] == edited
    assert body["totals"] == match_document({**doc, "rounds": [edited, doc["rounds"][1]]})["totals"]


def test_games_lists_every_descriptor(client):
    response = client.get("/api/v1/games")
    assert response.status_code == 200
    assert response.json == [game.descriptor() for game in all_games()]
    assert [g["id"] for g in response.json] == ["rummy17", "rummikub", "rummy-o", "manipulation"]


@pytest.mark.parametrize("game", [game.id for game in all_games()])
def test_one_game_descriptor(client, game):
    response = client.get(f"/api/v1/games/{game}")
    assert response.status_code == 200
    assert response.json == next(g.descriptor() for g in all_games() if g.id == game)


@pytest.mark.parametrize("game", ["chess", "RUMMY17", "rummy 17"])
def test_unknown_game_descriptor_is_404_naming_the_games(client, game):
    response = client.get(f"/api/v1/games/{game}")
    assert response.status_code == 404
    error = response.json["error"]
    assert error["code"] == "game-not-found"
    assert "rummikub" in error["message"]


def test_check_needs_the_game(client):
    response = client.post("/api/v1/check", json={"cards": ["R3", "R4", "R5"]})
    assert response.status_code == 422
    assert "rummy17" in response.json["error"]["message"]


@pytest.mark.parametrize("cards", [["R1,R2,R3"], ["R1 R2", "R3"], ["R01", "R2", "r3"]])
def test_check_splits_a_string_holding_several_cards(client, cards):
    response = client.post("/api/v1/check", json={"game": "rummikub", "cards": cards})
    assert response.status_code == 200
    assert response.json["cards"] == ["R1", "R2", "R3"] and response.json["valid"]


@pytest.mark.parametrize("body", [{"cards": ["R3", "R4", "R5"]}, {"game": None, "cards": ["R3"]}])
def test_check_without_game_names_it_missing_in_words(client, body):
    response = client.post("/api/v1/check", json=body)
    assert response.status_code == 422
    error = response.json["error"]
    assert (error["code"], error["field"]) == ("game-missing", "game")
    assert "None" not in error["message"] and "rummikub" in error["message"]


def test_check_without_game_is_said_in_the_tables_language(client):
    response = client.post(
        "/api/v1/check", json={"cards": ["R3"]}, headers={"Accept-Language": "hu"}
    )
    assert response.status_code == 422
    assert response.json["error"]["code"] == "game-missing"
    assert not response.json["error"]["message"].startswith("the game is missing")


@pytest.mark.parametrize("game", ["rummikub", "rummy-o"])
def test_DK_4_DO_6_a_bad_card_on_a_rack_carries_the_player(client, game):
    doc = {
        "game": game,
        "players": [{"name": "Anna", "rack": ["R5", "X9"]}, {"name": "Béla", "rack": []}],
        "went_out": "Béla",
    }
    response = client.post("/api/v1/score", json=doc)
    assert response.status_code == 422
    error = response.json["error"]
    assert (error["player"], error["card"], error["field"]) == ("Anna", "X9", "rack")


def test_R17_11_the_check_note_is_said_in_the_tables_language(client):
    body = {"game": "rummy17", "cards": ["R5", "R6", "*R"]}
    english = client.post("/api/v1/check", json=body).json
    german = client.post("/api/v1/check", json=body, headers={"Accept-Language": "de"}).json
    assert english["note_code"] == german["note_code"] == "check-joker-beside-table"
    assert german["note"] != english["note"] and "(R17-11)" in german["note"]
    assert "value" not in english


def test_RK_4_check_names_the_joker_that_repeats_a_colour(client):
    body = {"game": "rummikub", "cards": ["R5", "*R5", "B5"]}
    answer = client.post("/api/v1/check", json=body).json
    assert (answer["valid"], answer["code"], answer["rule"]) == (False, "group-joker-twice", "RK-4")
