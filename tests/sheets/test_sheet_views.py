"""The sheet downloads: /m/…/sheet.pdf, /v/…/sheet.pdf and /sheets/blank.pdf, every game."""

from __future__ import annotations

from typing import Any

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient
from pdfcheck import A4, LETTER, page_sizes, reader, same_size, text
from sheet_samples import manipulation_to_150, sample_match, sample_rack_match

from companion.adapters import store
from companion.adapters.db import get_session
from companion.domain import all_games, get_game
from companion.i18n.catalogues import translator

GAMES = [g.id for g in all_games()]


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def stored(app: Flask, doc: dict[str, Any], *, games: int | None = None) -> dict[str, Any]:
    """Store a match document through the store, as the pages do; its links and result."""
    with app.app_context():
        session = get_session()
        m = store.create_match(
            session,
            game=doc["game"],
            players=doc["players"],
            first_dealer=doc["first_dealer"],
            games=games,
            title=doc.get("title"),
        )
        for raw in doc["rounds"]:
            store.add_round(session, m, raw)
        return {"edit": m.edit_token, "view": m.view_token, "match": m, "session": session}


@pytest.fixture
def match(app: Flask) -> dict[str, Any]:
    """A 3-player Rummy 17 match of 5 rounds with 3 entered and round 1 corrected afterwards."""
    doc = sample_match(3, 3, planned=5)
    links = stored(app, doc, games=5)
    with app.app_context():
        session = get_session()
        m = store.get_by_edit_token(session, links["edit"])
        assert m is not None
        doc["rounds"][0]["players"][1]["hand"] = {"low": 3, "high": 1}
        store.update_round(session, m, 1, doc["rounds"][0])
        return {
            "edit": links["edit"],
            "view": links["view"],
            "result": store.result(m),
            "history": [store.describe(h, translator("en"), m.game) for h in store.history(m)],
        }


def test_both_links_give_the_same_one_page_sheet(client: FlaskClient, match: dict) -> None:
    texts = []
    for url in (f"/m/{match['edit']}/sheet.pdf", f"/v/{match['view']}/sheet.pdf"):
        response = client.get(url)
        assert response.status_code == 200
        assert response.mimetype == "application/pdf"
        disposition = response.headers["Content-Disposition"]
        assert disposition.startswith("inline") and ".pdf" in disposition
        pdf = response.get_data()
        assert len(reader(pdf).pages) == 1 and same_size(page_sizes(pdf)[0], A4)
        texts.append(text(pdf))
    assert texts[0] == texts[1]
    got = texts[0]
    for s in match["result"]["standings"]:
        assert f"{s['rank']}. {s['name']} {s['total']}" in got


def test_the_history_is_printed_in_words(client: FlaskClient, match: dict) -> None:
    got = text(client.get(f"/v/{match['view']}/sheet.pdf").get_data())
    corrections = [w for w in match["history"] if "edited" in w]
    assert corrections and all(what in got for what in corrections)
    # the start and new games are no corrections (the grid shows them).
    assert not any(w in got for w in match["history"] if w not in corrections)
    # Rummy 17 says game, in English too
    assert any(what.startswith("Game 1 edited: ") for what in match["history"])


def test_the_qr_code_and_link_point_to_the_read_only_view(client: FlaskClient, match: dict):
    pdf = client.get(f"/m/{match['edit']}/sheet.pdf").get_data()
    url = f"http://localhost/v/{match['view']}"
    assert url in text(pdf)
    assert match["edit"] not in text(pdf)  # the edit link never goes on paper
    drawn = reader(pdf).pages[0].images[0].image.convert("L")
    matrix = segno.make(url, error="m").matrix
    assert drawn.size == (len(matrix), len(matrix))
    assert all(
        (drawn.getpixel((x, y)) < 128) == bool(dark)
        for y, row in enumerate(matrix)
        for x, dark in enumerate(row)
    )


def test_deleting_a_round_keeps_who_dealt_the_others(app: Flask, client: FlaskClient) -> None:
    links = stored(app, sample_match(3, 3, planned=4), games=4)
    with app.app_context():
        session = get_session()
        m = store.get_by_edit_token(session, links["edit"])
        assert m is not None
        store.delete_round(session, m, 1)
        result = store.result(m)
    got = text(client.get(f"/v/{links['view']}/sheet.pdf").get_data())
    for line in result["rounds"]:  # round 1 is now the one the second dealer dealt
        assert f"{line['number']} {line['dealer']} " in got
    assert f"3 {result['next']['dealer']}" in got


@pytest.mark.parametrize(
    "doc",
    [
        sample_rack_match("rummikub", 4, 3),
        sample_rack_match("rummy-o", 2, 2),
        manipulation_to_150(),
    ],
    ids=lambda d: d["game"],
)
def test_every_game_prints_its_sheet(app: Flask, client: FlaskClient, doc: dict) -> None:
    links = stored(app, doc)
    with app.app_context():
        m = store.get_by_view_token(get_session(), links["view"])
        assert m is not None
        result = store.result(m)
    response = client.get(f"/v/{links['view']}/sheet.pdf")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith("inline")
    got = text(response.get_data())
    assert get_game(doc["game"]).name in got
    for s in result["standings"]:
        assert f"{s['rank']}. {s['name']} {s['total']}" in got


def test_letter_on_request(client: FlaskClient, match: dict) -> None:
    pdf = client.get(f"/v/{match['view']}/sheet.pdf?paper=letter").get_data()
    assert same_size(page_sizes(pdf)[0], LETTER)
    assert client.get(f"/v/{match['view']}/sheet.pdf?paper=a5").status_code == 400


@pytest.mark.parametrize("url", ["/m/nope/sheet.pdf", "/v/nope/sheet.pdf"])
def test_unknown_tokens_are_404(client: FlaskClient, match: dict, url: str) -> None:
    assert client.get(url).status_code == 404


def test_view_token_is_not_an_edit_token(client: FlaskClient, match: dict) -> None:
    assert client.get(f"/m/{match['view']}/sheet.pdf").status_code == 404


@pytest.mark.parametrize(("players", "paper", "size"), [(2, "a4", A4), (6, "letter", LETTER)])
def test_blank_sheet(client: FlaskClient, players: int, paper: str, size) -> None:
    response = client.get(f"/sheets/blank.pdf?players={players}&paper={paper}")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].startswith("inline")
    assert "rummy17-blank" in response.headers["Content-Disposition"]
    pdf = response.get_data()
    assert len(reader(pdf).pages) == 1 and same_size(page_sizes(pdf)[0], size)
    assert text(pdf).count("Penalty" if players <= 4 else "P B S Σ") >= players


@pytest.mark.parametrize("game", GAMES)
def test_blank_sheet_of_every_game(client: FlaskClient, game: str) -> None:
    kind = get_game(game)
    low, high = kind.seats
    response = client.get(f"/sheets/blank.pdf?game={game}&players={high}")
    assert response.status_code == 200
    assert f"{game}-blank-{high}-players.pdf" in response.headers["Content-Disposition"]
    pdf = response.get_data()
    assert len(reader(pdf).pages) == 1
    got = text(pdf)
    assert f"{kind.name} — score sheet" in got and f"Seat {high}" in got
    response = client.get(f"/sheets/blank.pdf?game={game}&players={high + 1}")
    assert response.status_code == 400
    assert f"players must be a whole number from {low} to {high}" in response.get_data(as_text=True)


def test_blank_sheet_games_and_names(client: FlaskClient) -> None:
    pdf = client.get("/sheets/blank.pdf?names=Anna,Béla,Жанна&games=2").get_data()
    got = text(pdf)
    assert "Anna Béla Жанна" in got and "2 Dealer" in got and "3 Dealer" not in got
    pdf = client.get("/sheets/blank.pdf?game=rummikub&names=Anna,Béla&games=3").get_data()
    got = text(pdf)
    assert "Anna Béla" in got and "3 Starts" in got and "4 Starts" not in got


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("players=7", "players must be a whole number from 2 to 6"),
        ("players=1", "players must be a whole number from 2 to 6"),
        ("players=x", "players must be a whole number from 2 to 6"),
        ("game=rummikub&players=5", "players must be a whole number from 2 to 4"),
        ("game=chess", "game must be one of {games}"),
        ("games=0", "games must be a whole number from 1 to 24"),
        ("games=25", "games must be a whole number from 1 to 24"),
        ("paper=a5", "Paper must be a4 or letter"),
        ("players=3&names=Anna,Béla", "players and names do not agree"),
        ("game=manipulation&names=A,B,C,D,E,F", "Manipulation Rummy is for 2 to 5 players"),
    ],
)
def test_bad_blank_sheet_requests_are_400_in_plain_words(
    client: FlaskClient, query: str, words: str
) -> None:
    response = client.get(f"/sheets/blank.pdf?{query}")
    assert response.status_code == 400
    words = words.format(games=", ".join(g.id for g in all_games()))  # in the registry's order
    assert words in response.get_data(as_text=True)
