"""The sheet downloads: /m/…/sheet.pdf, /v/…/sheet.pdf and /sheets/blank.pdf (issue 4)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient
from pdfcheck import A4, LETTER, page_sizes, reader, same_size, text
from sheet_samples import sample_match

from companion import store
from companion.app import create_app
from companion.db import get_session
from companion.rules import match_document


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app on a fresh SQLite file (the web tests also run PostgreSQL; sheets only read)."""
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite3'}",
            "SECRET_KEY": "test secret key",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app
    app.extensions["companion_db"].dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def match(app: Flask) -> dict:
    """A 3-player match of 5 games with 3 entered and game 1 corrected afterwards."""
    doc = sample_match(3, 3, planned=5)
    with app.app_context():
        session = get_session()
        m = store.create_match(
            session,
            players=doc["players"],
            first_dealer=doc["first_dealer"],
            games=5,
            title=doc["title"],
        )
        for raw in doc["rounds"]:
            store.add_game(session, m, raw)
        doc["rounds"][0]["players"][1]["hand"] = {"low": 3, "high": 1}
        store.update_game(session, m, 1, doc["rounds"][0])
        return {
            "edit": m.edit_token,
            "view": m.view_token,
            "doc": store.as_document(m),
            "history": [h["what"] for h in store.history(m)],
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
    result = match_document(match["doc"])
    for s in result["standings"]:
        assert f"{s['rank']}. {s['name']} {s['total']}" in got
    assert match["history"] and all(what in got for what in match["history"])
    assert "Game 1" in " ".join(match["history"])


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
    pdf = response.get_data()
    assert len(reader(pdf).pages) == 1 and same_size(page_sizes(pdf)[0], size)
    assert text(pdf).count("Penalty" if players <= 4 else "Pen.") >= players


def test_blank_sheet_games_and_names(client: FlaskClient) -> None:
    pdf = client.get("/sheets/blank.pdf?names=Anna,Béla,Жанна&games=2").get_data()
    got = text(pdf)
    assert "Anna Béla Жанна" in got and "2 Dealer" in got and "3 Dealer" not in got


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("players=7", "players must be a whole number from 2 to 6"),
        ("players=1", "players must be a whole number from 2 to 6"),
        ("players=x", "players must be a whole number from 2 to 6"),
        ("games=0", "games must be a whole number from 1 to 24"),
        ("games=25", "games must be a whole number from 1 to 24"),
        ("paper=a5", "Paper must be a4 or letter"),
        ("players=3&names=Anna,Béla", "players and names do not agree"),
    ],
)
def test_bad_blank_sheet_requests_are_400_in_plain_words(
    client: FlaskClient, query: str, words: str
) -> None:
    response = client.get(f"/sheets/blank.pdf?{query}")
    assert response.status_code == 400
    assert words in response.get_data(as_text=True)
