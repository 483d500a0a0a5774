"""Limits: meld lines and cards per line in the form and the API, the
history shown a page at a time, typed refusals in the players' words, and no link token in
the log after a run of hostile requests."""

from __future__ import annotations

import html
import logging

import pytest
from samples import PLAYERS, sample_round
from test_fuzz import HOSTILE_TEXT, RAW

from companion.adapters import store
from companion.adapters.db import get_session
from companion.domain import EntryError, all_games, score_document
from companion.domain import bounds as limits
from companion.domain import documents as api_models


@pytest.fixture
def rummy17(app):
    """The edit token of a Rummy 17 match (the game whose melds are entered)."""
    game = next(g for g in all_games() if g.melds_entered)
    with app.app_context():
        match = store.create_match(
            get_session(), game=game.id, players=PLAYERS, first_dealer="Anna", games=3
        )
        return match.edit_token, game.id


def placed(page: str, field: str) -> str:
    """The problems shown next to the field with this id."""
    return html.unescape(page.split(f'id="{field}-error">', 1)[1].split("</ul>", 1)[0])


def test_too_many_meld_lines_in_the_form_are_refused_next_to_the_player(client, rummy17):
    edit, game = rummy17
    lines = "\n".join(["R3 R4 R5"] * (api_models.MAX_MELDS + 1))
    data = {"players-0-melds": "", "players-1-melds": lines, "players-2-melds": "", "went_out": "-"}
    page = client.post(f"/m/{edit}/rounds/new", data=data)
    assert page.status_code == 422
    text = page.get_data(as_text=True)
    assert "At most 30 meld lines per player" in placed(text, "players-1-melds")
    assert "R3 R4 R5\nR3 R4 R5" in text  # what was typed is kept


def test_a_meld_line_too_long_in_the_form_names_the_line(client, rummy17):
    edit, _ = rummy17
    line = " ".join(f"R{v}" for v in range(1, 18)) + " B1 B2 B3 B4"  # 21 cards
    data = {"players-0-melds": "", "players-1-melds": "", "players-2-melds": f"Y1 Y2 Y3\n{line}"}
    page = client.post(f"/m/{edit}/rounds/new", data=data)
    assert page.status_code == 422
    text = placed(page.get_data(as_text=True), "players-2-melds")
    assert "Meld 2: a meld line holds at most 20 cards" in text


def test_the_api_names_the_player_whose_melds_are_too_many(client, rummy17):
    edit, game = rummy17
    doc = sample_round(game)
    doc["players"][1]["melds"] = [["R3", "R4", "R5"]] * 31
    for response in (
        client.post("/api/v1/score", json=doc),
        client.post(f"/api/v1/matches/{edit}/games", json=doc, headers={"If-Match": "*"}),
    ):
        assert response.status_code == 422
        error = response.get_json()["error"]
        assert error["code"] == "too-many-melds"
        assert error["player"] == "Béla" and error["field"] == "melds"
        assert error["message"] == "Béla's melds: at most 30 meld lines per player"


def test_a_pydantic_refusal_is_said_in_the_players_words_and_translated(client):
    doc = {"game": "rummikub", "players": [{"name": "Anna", "rack": "R3"}], "went_out": 5}
    error = client.post("/api/v1/score", json=doc).get_json()["error"]
    messages = [p["message"] for p in error["problems"]]
    assert "went_out must be text" in messages
    assert any(m.startswith("players[0].rack must be a list of tiles") for m in messages)  # RK
    assert all("Input should" not in m for m in messages)  # never pydantic's English
    german = client.post("/api/v1/score", json=doc, headers={"Accept-Language": "de"})
    said = [p["message"] for p in german.get_json()["error"]["problems"]]
    assert len(said) == len(messages) and not set(said) & set(messages)
    assert any("went_out" in m for m in said)  # the field keeps its name


def test_sizes_are_refused_at_the_edge_with_the_field(client):
    doc = {"game": "rummikub", "players": ["A" * 101, "B"], "first_dealer": "B"}
    error = client.post("/api/v1/matches", json=doc).get_json()["error"]
    assert error["field"] == "players[0]" and error["code"] == "edge-text-too-long"
    rounds = [sample_round("rummikub")] * (api_models.MAX_ROUNDS + 1)
    doc = {"game": "rummikub", "players": PLAYERS, "rounds": rounds}
    error = client.post("/api/v1/match", json=doc).get_json()["error"]
    assert error["code"] == "too-many-rounds"


def test_one_points_limit_and_one_message_in_the_api_the_form_and_the_rules_core(app, client):
    """``{"points": N}``: 0 to ``limits.MAX_POINTS`` wherever it is read, said the same way."""
    most = limits.MAX_POINTS
    said = f"Anna's rack: points must be a whole number from 0 to {most}"
    for points in (most + 1, 10**9, 10**9 + 1, -1):
        doc = sample_round("rummikub", players=["Anna", "Béla"])
        doc["players"][0]["rack"] = {"points": points}
        error = client.post("/api/v1/score", json=doc).get_json()["error"]
        assert (error["code"], error["message"]) == ("points-not-number", said), points
        with pytest.raises(EntryError) as refused:
            score_document(doc)
        assert refused.value.code == "points-not-number"
        assert refused.value.first.message() == said
    doc["players"][0]["rack"] = {"points": most}
    assert client.post("/api/v1/score", json=doc).status_code == 200
    with app.app_context():
        match = store.create_match(
            get_session(), game="rummikub", players=["Anna", "Béla"], first_dealer="Anna", games=2
        )
        edit = match.edit_token
    form = f"/m/{edit}/rounds/new"
    page = client.post(form, data={"players-0-points": str(most + 1), "went_out": "Béla"})
    assert page.status_code == 422
    assert f"a whole number from 0 to {most}" in placed(
        page.get_data(as_text=True), "players-0-points"
    )
    assert f'max="{most}"' in client.get(form).get_data(as_text=True)


def test_one_card_count_limit_and_one_message_in_the_api_and_the_rules_core(client):
    """``{"low": N, "high": M}``: 0 to ``limits.MAX_HAND_CARDS`` (the 85 cards of Rummy 17's
    box, R17-1), the same words from the API and the rules core."""
    most = limits.MAX_HAND_CARDS
    assert most == 85
    for count in (most + 1, 10**9, 10**9 + 1, -1):
        doc = sample_round("rummy17", players=["Anna", "Béla"])
        doc["players"][1]["hand"] = {"low": count, "high": 1}
        said = f"Béla's hand: low must be a whole number of cards from 0 to {most}"
        error = client.post("/api/v1/score", json=doc).get_json()["error"]
        assert (error["code"], error["message"]) == ("hand-count-not-number", said), count
        with pytest.raises(EntryError) as refused:
            score_document(doc)
        assert refused.value.first.message() == said


def test_the_points_limit_is_the_most_a_whole_box_is_worth():
    """No rack or hand holds more than the whole box; the box worth most sets the limit."""
    worth = {}
    for game in all_games():
        if "points" not in [c.key for c in game.describe().counts]:
            continue
        deck, box = game.deck, game.limits({"players": ["A", "B", "C"]})
        tiles = [
            deck.value_text(v) + c if deck.suit_last else c + deck.value_text(v)
            for c in deck.colours
            for v in range(deck.low, deck.high + 1)
        ]
        worth[game.id] = box.copies * sum(game.worth(game.parse_card(t)) for t in tiles)
        worth[game.id] += box.jokers * game.worth(game.parse_card("*"))
        assert [c.limit for c in game.describe().counts] == [limits.MAX_POINTS]
    assert worth == {"rummikub": 788, "rummy-o": 802, "manipulation": 730}
    assert limits.MAX_POINTS == max(worth.values()) == 802


def test_the_match_page_shows_the_latest_history_and_pages_the_rest(app, client):
    with app.app_context():
        session = get_session()
        match = store.create_match(
            session, game="rummikub", players=PLAYERS, first_dealer="Anna", games=60
        )
        for n in range(1, 26):
            store.add_round(session, match, sample_round("rummikub", n))
        edit = match.edit_token
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    history = page.split('id="history"', 1)[1]
    assert history.count("<li>") == store.HISTORY_PAGE
    assert "Round 25" in history or "round 25" in history
    assert "?history=2" in history and "?history=0" not in history
    older = client.get(f"/m/{edit}?history=2").get_data(as_text=True).split('id="history"')[1]
    assert older.count("<li>") == 26 - store.HISTORY_PAGE  # 25 rounds and the start
    assert "?history=1" in older
    for odd in ("99", "²", "x", "-1"):
        assert client.get(f"/m/{edit}?history={odd}").status_code == 200


def test_a_run_of_hostile_requests_logs_no_edit_token(app, client, caplog):
    with app.app_context():
        match = store.create_match(
            get_session(), game="rummikub", players=PLAYERS, first_dealer="Anna", games=5
        )
        edit = match.edit_token
    with caplog.at_level(logging.DEBUG):
        for body in RAW:
            for url in (f"/api/v1/matches/{edit}/games", f"/api/v1/matches/{edit}/games/1"):
                answer = client.put(url, data=body, headers={"If-Match": "*"})
                assert answer.status_code < 500
        for text in HOSTILE_TEXT:
            text = text.encode("utf-8", "replace").decode()  # what a browser can send
            assert (
                client.post(f"/m/{edit}/rounds/new", data={"players-0-rack": text}).status_code
                < 500
            )
            assert client.get(f"/m/{edit}?history={text[:50]}").status_code < 500
    assert edit not in caplog.text
