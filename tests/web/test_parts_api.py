"""Own hands over HTTP (contract "Own hands: every player enters their own part"): open the next
round's parts, one token per player, PUT and GET a part, the scorekeeper reads them all, and the
round saved as any round closes them. Run on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.domain import score_document

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

PLAYERS = {
    "rummy17": ["Anna", "Béla", "Cili"],
    "rummikub": ["Anna", "Béla", "Cili"],
    "rummy-o": ["Anna", "Béla"],
    "manipulation": ["Anna", "Béla", "Cili"],
}

#: One good part per game and seat, and the rest of a round that goes with them.
PARTS: dict[str, dict[str, Any]] = {
    "rummy17": {
        "Anna": {"melds": [["R1", "R2", "R3"], ["B5", "G5", "Y5"]], "hand": []},
        "Béla": {"melds": [["R7", "R8", "R9"]], "hand": ["R4", "G9"]},
        "Cili": {"melds": [], "hand": {"low": 2, "high": 1}},
    },
    "rummikub": {
        "Anna": {"rack": []},
        "Béla": {"rack": ["K1", "R13", "*"]},
        "Cili": {"rack": {"points": 17}},
    },
    "rummy-o": {"Anna": {"rack": []}, "Béla": {"rack": ["R3", "B12"]}},
    "manipulation": {
        "Anna": {"hand": []},
        "Béla": {"hand": ["KS", "2H"]},
        "Cili": {"hand": {"points": 20}},
    },
}
ENDING: dict[str, dict[str, Any]] = {
    "rummy17": {
        "bonus_cards": ["most-cards", "most-sets", "longest-run", "most-red", "highest-triple"],
        "went_out": "Anna",
        "last_discard": "Y3",
    },
    "rummikub": {"went_out": "Anna"},
    "rummy-o": {"went_out": "Anna"},
    "manipulation": {"went_out": "Anna", "knocked": None},
}
#: A part that is bad on its own, per game, and the card or field the error names.
BAD: dict[str, tuple[dict[str, Any], str]] = {
    "rummy17": ({"melds": [["R1", "R2"]], "hand": []}, "R17-9"),
    "rummikub": ({"rack": ["R1", "R1", "R1"]}, "DK-4"),
    "rummy-o": ({"rack": ["Q1"]}, "Q1"),
    "manipulation": ({"hand": ["*", "XX"]}, "XX"),
}


def _match(client: FlaskClient, game: str) -> dict[str, Any]:
    players = PLAYERS[game]
    answer = client.post(
        "/api/v1/matches", json={"game": game, "players": players, "first_dealer": players[0]}
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def _open(client: FlaskClient, edit: str, revision: int | str = "*") -> Any:
    tag = "*" if revision == "*" else f'"{revision}"'
    return client.post(f"/api/v1/matches/{edit}/parts", headers={"If-Match": tag})


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_every_player_enters_their_part_and_the_saved_round_closes_them(
    client: FlaskClient, game: str
) -> None:
    made = _match(client, game)
    edit, revision = made["edit"], made["revision"]
    opened = _open(client, edit, revision)
    assert opened.status_code == 201
    body = opened.get_json()
    assert body["round"] == 1
    assert [s["name"] for s in body["seats"]] == PLAYERS[game]
    tokens = {s["name"]: s["token"] for s in body["seats"]}
    assert len(set(tokens.values())) == len(tokens)
    assert all(len(t) >= 32 for t in tokens.values())  # as strong as an edit token
    # Open again while open: the same tokens, 200.
    again = _open(client, edit)
    assert again.status_code == 200
    assert again.get_json() == body
    # Nothing sent yet.
    before = client.get(f"/api/v1/matches/{edit}/parts").get_json()
    assert before == {"round": 1, "parts": {name: None for name in PLAYERS[game]}}
    first = PLAYERS[game][0]
    assert client.get(f"/api/v1/parts/{tokens[first]}").get_json() == {
        "round": 1,
        "name": first,
        "part": None,
    }
    for name, part in PARTS[game].items():
        put = client.put(f"/api/v1/parts/{tokens[name]}", json=part)
        assert put.status_code == 200, put.get_json()
        assert put.get_json() == {"round": 1, "name": name, "part": part}
        assert client.get(f"/api/v1/parts/{tokens[name]}").get_json()["part"] == part
    # Opening parts or filling them in never moves the match's revision.
    assert client.get(f"/api/v1/matches/{edit}").get_json()["revision"] == revision
    every = client.get(f"/api/v1/matches/{edit}/parts").get_json()
    assert every == {"round": 1, "parts": PARTS[game]}
    # The scorekeeper saves the round from the parts, as any round.
    doc = {
        "game": game,
        **ENDING[game],
        "players": [{"name": n, **p} for n, p in every["parts"].items()],
    }
    saved = client.post(f"/api/v1/matches/{edit}/games", json=doc, headers={"If-Match": "*"})
    assert saved.status_code == 201, saved.get_json()
    scores = saved.get_json()["result"]["totals"]
    assert scores == {p["name"]: p["score"] for p in score_document(doc)["players"]}
    # Saving round 1 closed its parts: 410 for reading and writing, and no parts open.
    for name, token in tokens.items():
        gone = client.get(f"/api/v1/parts/{token}")
        assert gone.status_code == 410
        assert gone.get_json()["round"] == 1
        assert gone.get_json()["changed"] is False
        assert client.put(f"/api/v1/parts/{token}", json=PARTS[game][name]).status_code == 410
    assert client.get(f"/api/v1/matches/{edit}/parts").status_code == 404
    # The next opening is round 2, with new tokens.
    second = _open(client, edit)
    assert second.status_code == 201
    assert second.get_json()["round"] == 2
    assert not {s["token"] for s in second.get_json()["seats"]} & set(tokens.values())


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_part_bad_on_its_own_is_refused_and_nothing_is_stored(
    client: FlaskClient, game: str
) -> None:
    edit = _match(client, game)["edit"]
    seats = _open(client, edit).get_json()["seats"]
    token, name = seats[1]["token"], seats[1]["name"]
    bad, named = BAD[game]
    answer = client.put(f"/api/v1/parts/{token}", json=bad)
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error["player"] == name
    assert named in str(answer.get_json())
    assert client.get(f"/api/v1/parts/{token}").get_json()["part"] is None
    # Not a part at all, or another player's: the fields are said.
    for body in ([], {"name": "Cili", **PARTS[game][name]}, {"cards": []}):
        refused = client.put(f"/api/v1/parts/{token}", json=body)
        assert refused.status_code == 422, body
        assert refused.get_json()["error"]["message"]
    assert client.put(f"/api/v1/parts/{token}", data="{").status_code == 400
    # The player's own object of a round, name and all, is their part.
    named = client.put(f"/api/v1/parts/{token}", json={"name": name, **PARTS[game][name]})
    assert named.status_code == 200
    assert named.get_json()["part"] == PARTS[game][name]


def test_what_only_the_whole_round_can_tell_waits_for_the_round(client: FlaskClient) -> None:
    """A card twice across two players' parts: each part is fine on its own (contract), the
    round is refused when saved, naming the card, and the parts stay open."""
    edit = _match(client, "rummy17")["edit"]
    tokens = {s["name"]: s["token"] for s in _open(client, edit).get_json()["seats"]}
    assert client.put(f"/api/v1/parts/{tokens['Anna']}", json={"hand": ["R5"]}).status_code == 200
    assert client.put(f"/api/v1/parts/{tokens['Béla']}", json={"hand": ["R5"]}).status_code == 200
    parts = client.get(f"/api/v1/matches/{edit}/parts").get_json()["parts"]
    doc = {
        **ENDING["rummy17"],
        "went_out": "Cili",
        "players": [
            {"name": "Anna", **parts["Anna"]},
            {"name": "Béla", **parts["Béla"]},
            {"name": "Cili", "melds": [["K1", "K2", "K3"]], "hand": []},
        ],
    }
    refused = client.post(f"/api/v1/matches/{edit}/games", json=doc, headers={"If-Match": "*"})
    assert refused.status_code == 422
    assert "R5" in refused.get_json()["error"]["message"]
    assert client.get(f"/api/v1/parts/{tokens['Anna']}").status_code == 200


def test_the_later_of_two_sends_is_kept_and_a_changed_part_is_told(client: FlaskClient) -> None:
    edit = _match(client, "rummy17")["edit"]
    tokens = {s["name"]: s["token"] for s in _open(client, edit).get_json()["seats"]}
    url = f"/api/v1/parts/{tokens['Béla']}"
    client.put(url, json={"melds": [["R7", "R8", "R9"]], "hand": ["R4"]})
    client.put(url, json={"melds": [["R7", "R8", "R9"]], "hand": ["R4", "G9"]})
    assert client.get(url).get_json()["part"]["hand"] == ["R4", "G9"]
    doc = {
        **ENDING["rummy17"],
        "players": [
            {"name": "Anna", "melds": [["R1", "R2", "R3"]], "hand": []},
            {"name": "Béla", "melds": [["R7", "R8", "R9"]], "hand": ["R4"]},  # changed
            {"name": "Cili", "hand": {"low": 1, "high": 0}},
        ],
    }
    assert (
        client.post(
            f"/api/v1/matches/{edit}/games", json=doc, headers={"If-Match": "*"}
        ).status_code
        == 201
    )
    gone = client.get(url).get_json()
    assert gone["changed"] is True
    assert gone["saved"] == {"melds": [["R7", "R8", "R9"]], "hand": ["R4"]}
    # The history says who entered what.
    history = client.get(f"/m/{edit}").get_data(as_text=True)
    assert "Béla on their own phone, changed by the scorekeeper" in history
    assert "Anna by the scorekeeper" in history


def test_tokens_reach_only_their_own_part(client: FlaskClient) -> None:
    made = _match(client, "rummikub")
    edit, view = made["edit"], made["view"]
    seats = _open(client, edit).get_json()["seats"]
    token = seats[0]["token"]
    # A view token opens, reads and drops no parts; a part token is no edit token.
    assert _open(client, view).status_code == 404
    assert client.get(f"/api/v1/matches/{view}/parts").status_code == 404
    assert client.delete(f"/api/v1/matches/{view}/parts").status_code == 404
    for other in (view, edit, "nope", "x" * 300):
        assert client.get(f"/api/v1/parts/{other}").status_code == 404
        assert client.put(f"/api/v1/parts/{other}", json={"rack": []}).status_code == 404
    assert client.get(f"/api/v1/matches/{token}").status_code == 404
    assert client.post(f"/api/v1/matches/{token}/games", json={}).status_code == 404
    assert client.get(f"/m/{token}").status_code == 404
    # A part token never shows on the read-only page, its JSON, CSV or the match's JSON.
    for path in (f"/v/{view}", f"/v/{view}.json", f"/v/{view}/scores.csv"):
        page = client.get(path)
        assert token not in page.get_data(as_text=True), path
    assert token not in str(client.get(f"/api/v1/matches/{edit}").get_json())


def test_dropped_parts_answer_410_and_a_stale_revision_opens_nothing(client: FlaskClient) -> None:
    made = _match(client, "manipulation")
    edit = made["edit"]
    assert _open(client, edit, made["revision"] + 5).status_code == 412
    assert client.get(f"/api/v1/matches/{edit}/parts").status_code == 404
    assert client.delete(f"/api/v1/matches/{edit}/parts").status_code == 404
    seats = _open(client, edit).get_json()["seats"]
    dropped = client.delete(f"/api/v1/matches/{edit}/parts")
    assert dropped.status_code == 200
    assert set(dropped.get_json()["parts"]) == {"Anna", "Béla", "Cili"}
    for seat in seats:
        gone = client.get(f"/api/v1/parts/{seat['token']}")
        assert gone.status_code == 410
        assert "stopped" in gone.get_json()["error"]["message"]
    assert _open(client, edit).status_code == 201  # opened afresh, new tokens


def test_a_finished_match_opens_no_parts(client: FlaskClient) -> None:
    players = ["Anna", "Béla"]
    made = client.post(
        "/api/v1/matches",
        json={"game": "rummikub", "players": players, "first_dealer": "Anna", "games": 1},
    ).get_json()
    doc = {
        "went_out": "Anna",
        "players": [{"name": "Anna", "rack": []}, {"name": "Béla", "rack": ["K1"]}],
    }
    assert (
        client.post(
            f"/api/v1/matches/{made['edit']}/games", json=doc, headers={"If-Match": "*"}
        ).status_code
        == 201
    )
    refused = _open(client, made["edit"])
    assert refused.status_code == 422
    assert "over" in refused.get_json()["error"]["message"]


def test_the_openapi_document_has_the_parts(client: FlaskClient) -> None:
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    assert set(paths["/api/v1/matches/{token}/parts"]) == {"post", "get", "delete"}
    assert set(paths["/api/v1/parts/{token}"]) == {"get", "put"}
    assert "410" in paths["/api/v1/parts/{token}"]["put"]["responses"]


@pytest.mark.parametrize(
    ("game", "field", "word"), [("rummy17", "hand", "card"), ("rummikub", "rack", "tile")]
)
def test_a_card_too_long_to_be_one_is_said_as_a_card_in_the_games_words(
    client: FlaskClient, game: str, field: str, word: str
) -> None:
    edit = _match(client, game)["edit"]
    token = _open(client, edit).get_json()["seats"][0]["token"]
    answer = client.put(f"/api/v1/parts/{token}", json={field: ["R1", "X" * 40]})
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error["player"] == "Anna" and error["field"] == field
    assert (
        error["message"]
        == f"Anna's {field}: {'X' * 12}… is not a {word}: a {word} is at most 12 characters"
    )
