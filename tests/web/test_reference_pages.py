"""The rules reference pages (/rules, /rules/<game>) and the clause links on every other page
and sheet, through the test client."""

from __future__ import annotations

import html
import io
import re

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader
from support import load

from companion.domain import all_games
from companion.i18n import reference

GAME_IDS = [g.id for g in all_games()]
CLAUSES = {k: v for k, v in load("reference-clauses.json").items() if not k.startswith("_")}
WRITTEN = sorted({"en", "hu", *reference.written()})
HOUSE = {"en": "House decision", "hu": "Házi értelmezés"}


def page(client: FlaskClient, url: str, status: int = 200) -> str:
    answer = client.get(url)
    assert answer.status_code == status, url
    return answer.get_data(as_text=True)


def shown_clauses(text: str) -> list[str]:
    return re.findall(r'<section class="clause[^"]*" id="([^"]+)"', text)


def test_the_home_page_links_the_rules(client: FlaskClient) -> None:
    assert 'href="/rules"' in page(client, "/")


def test_the_index_lists_every_game(client: FlaskClient) -> None:
    text = page(client, "/rules")
    for game in GAME_IDS:
        assert f'href="/rules/{game}"' in text


@pytest.mark.parametrize("lang", WRITTEN)
@pytest.mark.parametrize("game", GAME_IDS)
def test_each_game_page_has_every_clause_as_an_anchor(
    client: FlaskClient, game: str, lang: str
) -> None:
    text = page(client, f"/rules/{game}?lang={lang}")
    assert shown_clauses(text) == CLAUSES[game]
    for clause in CLAUSES[game]:
        assert f'<a class="clause-id" href="#{clause}">{clause}</a>' in text
    title = reference.load(game, lang).title
    assert f"<h1>{html.escape(title)}</h1>" in text
    if lang in HOUSE:  # every game has house decisions, marked in the page's words
        assert text.count(f'<p class="house-mark">{HOUSE[lang]}') == sum(
            c.startswith("D") for c in CLAUSES[game]
        )


def test_a_game_page_links_its_match_start_and_back(client: FlaskClient) -> None:
    text = page(client, "/rules/rummikub")
    assert 'href="/start/rummikub"' in text and 'href="/rules"' in text


def test_the_start_page_links_its_games_rules(client: FlaskClient) -> None:
    assert 'href="/rules/rummy-o"' in page(client, "/start/rummy-o")


def test_an_unknown_game_has_no_rules(client: FlaskClient) -> None:
    page(client, "/rules/chess", 404)


def test_rk9_search_shows_rk9_and_the_clauses_citing_it(client: FlaskClient) -> None:
    text = page(client, "/rules/rummikub?q=RK-9")
    assert shown_clauses(text)[0] == "RK-9" and "RK-10" not in shown_clauses(text)
    assert 'value="RK-9"' in text and 'href="/rules/rummikub">' in text  # "show all"


@pytest.mark.parametrize(
    ("lang", "query", "clause"),
    [("en", "Joker", "RK-12"), ("hu", "jatekos", "RK-1"), ("hu", "Állvány", "RK-21")],
)
def test_a_word_search_works_without_javascript(
    client: FlaskClient, lang: str, query: str, clause: str
) -> None:
    text = page(client, f"/rules/rummikub?lang={lang}&q={query}")
    assert clause in shown_clauses(text)
    assert len(shown_clauses(text)) < len(CLAUSES["rummikub"])


def test_the_index_search_finds_clauses_in_every_game(client: FlaskClient) -> None:
    text = page(client, "/rules?q=joker")
    for game in GAME_IDS:
        assert f'href="/rules/{game}#' in text
    assert "No clause matches" in page(client, "/rules?q=xylophone")


def test_a_search_is_escaped(client: FlaskClient) -> None:
    text = page(client, "/rules/rummikub?q=<script>alert(1)</script>")
    assert "<script>alert" not in text and "&lt;script&gt;" in text


# --- Clause links on the other pages ------------------------------------------------------


def test_the_referees_answer_links_its_clause(client: FlaskClient) -> None:
    text = page(client, "/check?game=rummikub&cards=R1+R2+B3")
    assert re.search(r'Rule <a class="rule-link" href="/rules/rummikub#RK-\d+">RK-\d+</a>', text)


def start(client: FlaskClient, game: str) -> str:
    data = {"names-0": "Anna", "names-1": "Béla", "first": "0", "games": "", "title": ""}
    answer = client.post(f"/start/{game}", data=data)
    assert answer.status_code == 302
    return answer.headers["Location"]


def test_a_breakdown_links_its_clauses(client: FlaskClient) -> None:
    board = start(client, "rummikub")
    data = {"save": "1", "went_out": "Anna", "players-0-rack": "", "players-1-rack": "R5 K7"}
    assert client.post(f"{board}/rounds/new", data=data).status_code == 302
    text = page(client, f"{board}/rounds/1")
    assert '<a class="rule-link" href="/rules/rummikub#RK-20">RK-20</a>' in text
    assert '<a class="rule-link" href="/rules/rummikub#RK-21">RK-21</a>' in text
    assert 'href="/rules/rummikub"' in page(client, board)  # the scoreboard's rules link


def test_an_entry_error_links_its_clause(client: FlaskClient) -> None:
    board = start(client, "rummikub")
    # DK-4: a winner under RK-20 has an empty rack
    data = {"save": "1", "went_out": "Anna", "players-0-rack": "R1", "players-1-rack": "R5"}
    answer = client.post(f"{board}/rounds/new", data=data)
    assert answer.status_code == 422
    errors = re.findall(r'<ul class="errors"[^>]*>(.*?)</ul>', answer.get_data(as_text=True), re.S)
    assert any('class="rule-link" href="/rules/rummikub#' in e for e in errors)


def test_the_sheets_house_decisions_link_their_clauses(client: FlaskClient) -> None:
    board = start(client, "rummikub")
    answer = client.get(f"{board}/sheet.pdf")
    assert answer.status_code == 200
    pdf = PdfReader(io.BytesIO(answer.data))
    uris = {
        str(a.get_object()["/A"]["/URI"])
        for p in pdf.pages
        for a in p.get("/Annots") or []
        if "/A" in a.get_object() and "/URI" in a.get_object()["/A"]
    }
    assert {f"http://localhost/rules/rummikub#DK-{n}" for n in (1, 2, 3, 4)} <= uris
