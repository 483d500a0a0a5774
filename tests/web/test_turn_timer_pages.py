"""The turn timer's pages (RK-10, RO-10): linked from the scoreboard and the home page for the
games whose rules time a turn, not found for the others; the seconds, seats, starter, penalty
(RK-11) and every word come from the server."""

from __future__ import annotations

import html
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support import unlinked

from companion.adapters import store
from companion.adapters.db import get_session
from companion.domain import get_game

NAMES = ["Anna", "Béla", "Cili"]
TIMED = {"rummikub": 60, "rummy-o": 180}  # RK-10: 1 minute; RO-10: 3 minutes
UNTIMED = ["rummy17", "manipulation"]


def new_match(app: Flask, game: str, first_dealer: str = "Anna") -> tuple[str, str]:
    with app.app_context():
        match = store.create_match(
            get_session(), game=game, players=NAMES, first_dealer=first_dealer, games=None
        )
        return match.edit_token, match.view_token


def timer_data(page: str) -> dict[str, str]:
    """The data attributes timer.js reads, unescaped."""
    section = re.search(r'<section class="timer"[^>]*>', page, re.S)
    assert section, "no timer on the page"
    found = re.findall(r"data-([a-z0-9]+)=(?:\"([^\"]*)\"|'([^']*)')", section[0])
    return {key: html.unescape(double or single) for key, double, single in found}


def test_rk10_ro10_the_games_carry_their_turn_limit() -> None:
    assert {g: get_game(g).turn_seconds for g in TIMED} == TIMED
    assert get_game("rummikub").turn_rule == "RK-10"
    assert get_game("rummy-o").turn_rule == "RO-10"
    for game in UNTIMED:
        assert get_game(game).turn_seconds is None and get_game(game).turn_penalty is None


def test_rk11_only_rummikub_has_a_penalty_for_running_over() -> None:
    penalty = get_game("rummikub").descriptor()["turn_penalty"]
    assert penalty["rule"] == "RK-11" and "3 penalty tiles" in penalty["text"]
    # The Rummy-O rulebook sets a time limit (RO-10) but no penalty for running over.
    assert get_game("rummy-o").descriptor()["turn_penalty"] is None


@pytest.mark.parametrize("game", list(TIMED))
def test_rk10_ro10_the_scoreboard_links_the_timer(app: Flask, client: FlaskClient, game: str):
    edit, view = new_match(app, game)
    for board, timer in ((f"/m/{edit}", f"/m/{edit}/timer"), (f"/v/{view}", f"/v/{view}/timer")):
        page = client.get(board).get_data(as_text=True)
        assert f'id="timer-link" href="{timer}"' in page
        assert client.get(timer).status_code == 200
    # The read-only board's timer never carries the edit link.
    assert edit not in client.get(f"/v/{view}/timer").get_data(as_text=True)


@pytest.mark.parametrize("game", UNTIMED)
def test_a_game_without_a_time_limit_has_no_timer(app: Flask, client: FlaskClient, game: str):
    edit, view = new_match(app, game)
    assert 'id="timer-link"' not in client.get(f"/m/{edit}").get_data(as_text=True)
    assert 'id="timer-link"' not in client.get(f"/v/{view}").get_data(as_text=True)
    for path in (f"/m/{edit}/timer", f"/v/{view}/timer", f"/timer/{game}?name=A&name=B"):
        response = client.get(path)
        assert response.status_code == 404
        assert "no turn timer" in response.get_data(as_text=True)


def test_an_unknown_game_or_match_has_no_timer(client: FlaskClient) -> None:
    assert client.get("/timer/chess").status_code == 404
    assert client.get("/m/nosuchmatchtoken12345/timer").status_code == 404
    assert client.get("/v/nosuchmatchtoken12345/timer").status_code == 404


@pytest.mark.parametrize(("game", "seconds"), list(TIMED.items()))
def test_the_seconds_come_from_the_game(app: Flask, client: FlaskClient, game: str, seconds: int):
    edit, view = new_match(app, game)
    page = client.get(f"/m/{edit}/timer").get_data(as_text=True)
    data = timer_data(page)
    assert int(data["seconds"]) == seconds
    assert json.loads(data["seats"]) == NAMES
    assert data["key"] == f"companion:timer:{view}"  # one state per match, never the edit token
    assert f'role="timer">{seconds // 60}:00<' in page
    assert ("RK-11" in page) == (game == "rummikub")
    assert "data-wake" in page  # app.js keeps the screen on, as on the scoreboard


def test_rk2_the_timer_starts_with_who_starts_the_next_round(app: Flask, client: FlaskClient):
    # RK-2: the dealer is the seat before the one who starts; Béla deals, so Cili starts.
    edit, _ = new_match(app, "rummikub", first_dealer="Béla")
    page = client.get(f"/m/{edit}/timer").get_data(as_text=True)
    assert timer_data(page)["first"] == "2"
    assert "Cili plays" in page and "Next: Anna" in page


def test_the_home_page_offers_a_timer_for_each_timed_game(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert sorted(re.findall(r'data-timer="([^"]+)"', page)) == sorted(TIMED)
    assert "1 minute a turn (RK-10)" in page and "3 minutes a turn (RO-10)" in page


def test_the_standalone_timer_asks_for_names_then_counts(client: FlaskClient) -> None:
    form = client.get("/timer/rummikub").get_data(as_text=True)
    assert 'id="timer-names"' in form and form.count('name="name"') == 4  # RK-1: up to 4
    page = client.get("/timer/rummikub?name=Anna&name=+B%C3%A9la+&name=&name=Cili")
    assert page.status_code == 200
    data = timer_data(page.get_data(as_text=True))
    assert json.loads(data["seats"]) == NAMES and data["first"] == "0"
    assert data["key"].startswith("companion:timer:rummikub:")
    too_few = client.get("/timer/rummikub?name=Anna")
    assert too_few.status_code == 422
    words = unlinked(too_few.get_data(as_text=True))
    assert "2 to 4 players" in words and "(RK-1)" in words
    again = client.get("/timer/rummikub?name=Anna&name=Cili&change=1").get_data(as_text=True)
    assert 'id="timer-names"' in again and 'value="Cili"' in again


def test_the_timer_speaks_the_page_language(app: Flask, client: FlaskClient) -> None:
    edit, _ = new_match(app, "rummikub")
    page = client.get(f"/m/{edit}/timer?lang=hu").get_data(as_text=True)
    words = json.loads(timer_data(page)["i18n"])
    english = json.loads(timer_data(client.get(f"/m/{edit}/timer?lang=en").data.decode())["i18n"])
    assert words.keys() == english.keys()
    assert all(words[k] != english[k] for k in words), "every timer word is translated"
    assert all("{name}" in words[k] for k in ("plays", "next"))
