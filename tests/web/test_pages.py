"""The pages through the test client: every route, CSRF, wrong links, inline errors, read-only."""

from __future__ import annotations

import copy
import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support import load

from companion import store
from companion.db import get_session
from companion.rules import match_document

NAMES = ["Zsófi", "Márk", "Lili"]  # the players of tests/data/rummy17-round.json


def start(client: FlaskClient, names: list[str], dealer: int = 0, games: str = "") -> str:
    """Start a match through the home page; the edit token."""
    data = {f"names-{i}": n for i, n in enumerate(names)}
    data.update(first_dealer=str(dealer), games=games, title="")
    answer = client.post("/", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    match = re.fullmatch(r"/m/([\w-]+)", answer.headers["Location"])
    assert match, answer.headers["Location"]
    return match.group(1)


def view_token(client: FlaskClient, edit: str) -> str:
    """The read-only token, as the scoreboard shows it."""
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    return re.search(r'id="view-link"[^>]*value="[^"]*/v/([\w-]+)"', page).group(1)


def form_data(doc: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """What a player types into the game form for this round document."""
    data: dict[str, Any] = {
        "bonus_cards": list(doc["bonus_cards"]),
        "went_out": doc.get("went_out") or "-",
        "last_discard": doc.get("last_discard") or "",
        "save": "1",
    }
    for i, player in enumerate(doc["players"]):
        data[f"players-{i}-melds"] = "\n".join(" ".join(m) for m in player["melds"])
        hand = player.get("hand", [])
        if isinstance(hand, dict):
            data[f"players-{i}-low"], data[f"players-{i}-high"] = hand["low"], hand["high"]
        else:
            data[f"players-{i}-hand"] = " ".join(hand)
    data.update(extra)
    return data


def totals_shown(page: str) -> list[int]:
    """The totals row of a scoreboard, in seat order."""
    cells = re.findall(r'data-player="\d+">([^<]+)</td>', page)
    return [int(c.replace("−", "-")) for c in cells]


@pytest.fixture
def round_doc() -> dict[str, Any]:
    return load("rummy17-round.json")


@pytest.fixture
def edit(client: FlaskClient) -> str:
    return start(client, NAMES, dealer=1)


@pytest.fixture
def played(client: FlaskClient, edit: str, round_doc: dict[str, Any]) -> str:
    """A match with one game saved."""
    answer = client.post(f"/m/{edit}/games/new", data=form_data(round_doc))
    assert answer.status_code == 302
    return edit


def test_home_is_the_app(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<form method="post"' in page and 'name="names-5"' in page
    assert "No matches yet" in page


def test_start_a_match_with_accents_and_cyrillic(client: FlaskClient, app: Flask) -> None:
    names = ["Zsófi", "Дмитрий", "Ørjan"]
    edit = start(client, names, dealer=2)
    cookie = client.get_cookie("companion_device")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    for name in names:
        assert name in page
    # D17-7: no number given, one game per player; Ørjan deals first, Zsófi starts (R17-6).
    assert "Game 1 of 3: Ørjan deals, Zsófi starts." in page
    home = client.get("/").get_data(as_text=True)
    assert f"/m/{edit}" in home and "Дмитрий" in home


def test_matches_of_another_device_are_not_listed(app: Flask, edit: str) -> None:
    other = app.test_client()
    assert f"/m/{edit}" not in other.get("/").get_data(as_text=True)


@pytest.mark.parametrize(
    ("names", "dealer", "message"),
    [
        (["Anna"], 0, "2 to 6 players"),
        (["Anna", "Béla"], 3, "Tick who deals first"),
        (["Anna", "anna"], 0, "used twice"),
    ],
)
def test_start_errors_keep_the_names(
    client: FlaskClient, names: list[str], dealer: int, message: str
) -> None:
    data = {f"names-{i}": n for i, n in enumerate(names)} | {"first_dealer": str(dealer)}
    answer = client.post("/", data=data)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert message in page
    for name in names:
        assert f'value="{name}"' in page


def test_a_name_used_twice_is_marked_at_the_second(client: FlaskClient) -> None:
    data = {"names-0": "Anna", "names-1": "Béla", "names-2": "ANNA", "first_dealer": "0"}
    page = client.post("/", data=data).get_data(as_text=True)
    assert 'id="names-2-error"' in page and 'id="names-0-error"' not in page
    assert "The name ANNA is used twice" in page


def test_number_of_games_can_be_set(client: FlaskClient) -> None:
    edit = start(client, NAMES, games="5")
    assert "Game 1 of 5" in client.get(f"/m/{edit}").get_data(as_text=True)


def test_new_game_says_who_deals_and_starts(client: FlaskClient, edit: str) -> None:
    page = client.get(f"/m/{edit}/games/new").get_data(as_text=True)
    assert "Márk deals, Lili starts" in page  # R17-2, R17-6
    assert page.count('type="checkbox" name="bonus_cards"') == 12
    assert 'data-draft="companion:' in page and 'data-restore="1"' in page


def test_save_game_and_scoreboard_matches_the_rules_core(
    client: FlaskClient, app: Flask, played: str, round_doc: dict[str, Any]
) -> None:
    page = client.get(f"/m/{played}").get_data(as_text=True)
    expected = match_document(
        {"game": "rummy17", "players": NAMES, "first_dealer": "Márk", "rounds": [round_doc]}
    )
    assert totals_shown(page) == [expected["totals"][n] for n in NAMES]
    assert "Game 2 of 3: Lili deals, Zsófi starts." in page
    assert "Game 1 added" in page  # the history
    assert 'data-clear-draft="companion:' in page  # the saved game's draft goes


def test_rummy17_game_is_marked_doubled(client: FlaskClient) -> None:
    doc = load("rummy17-doubled.json")
    edit = start(client, [p["name"] for p in doc["players"]])
    client.post(f"/m/{edit}/games/new", data=form_data(doc))
    assert "×2" in client.get(f"/m/{edit}").get_data(as_text=True)
    breakdown = client.get(f"/m/{edit}/games/1").get_data(as_text=True)
    assert "RUMMY 17" in breakdown and "R17-15a" in breakdown


def test_a_17_shows_the_rummy17_notice_before_saving(
    client: FlaskClient, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, last_discard="Y17", preview="1")
    del data["save"]
    page = client.post(f"/m/{edit}/games/new", data=data).get_data(as_text=True)
    assert re.search(r'<p class="notice" id="r17">', page)


def test_inline_error_next_to_the_meld_keeps_everything_typed(
    client: FlaskClient, app: Flask, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, **{"players-1-melds": "K2 K3 K4\nY5 Y7 Y9"})
    answer = client.post(f"/m/{edit}/games/new", data=data)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    marks = page.split('data-name="Márk"')[1].split("</fieldset>")[0]
    assert "Meld 2:" in marks  # next to Márk's melds, in plain words
    assert "K2 K3 K4\nY5 Y7 Y9</textarea>" in page
    assert "G7 G8 G9 G10\nR16 B16 Y16</textarea>" in page  # another player's entry kept
    assert 'value="R1 G13"' in page
    for card in round_doc["bonus_cards"]:
        assert re.search(rf'value="{card}" data-name="[^"]*"\s+checked', page)
    with app.app_context():
        assert store.get_by_edit_token(get_session(), edit).rounds == []


def test_inline_error_next_to_the_hand_and_the_last_card(
    client: FlaskClient, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, **{"players-2-hand": "B5 B6 *K"})
    page = client.post(f"/m/{edit}/games/new", data=data).get_data(as_text=True)
    lili = page.split('data-name="Lili"')[1].split("</fieldset>")[0]
    assert "joker never stays in a hand" in lili.split("Cards left in hand")[1]

    data = form_data(round_doc, last_discard="G8")  # G8 lies in Zsófi's meld (D17-8)
    page = client.post(f"/m/{edit}/games/new", data=data).get_data(as_text=True)
    ending = page.split('id="ending"')[1]
    assert "G8 also lies in" in html.unescape(ending)


def test_both_cards_and_counts_for_a_hand_is_refused(
    client: FlaskClient, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, **{"players-1-low": "2"})
    answer = client.post(f"/m/{edit}/games/new", data=data)
    assert answer.status_code == 422
    assert "not both" in answer.get_data(as_text=True)


def test_four_bonus_cards_are_refused(
    client: FlaskClient, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, bonus_cards=round_doc["bonus_cards"][:4])
    page = client.post(f"/m/{edit}/games/new", data=data).get_data(as_text=True)
    assert "exactly five bonus cards, not 4 (R17-3)" in page


def test_server_preview_scores_without_saving(
    client: FlaskClient, app: Flask, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, preview="1")
    del data["save"]
    page = client.post(f"/m/{edit}/games/new", data=data).get_data(as_text=True)
    assert "Preview (not saved)" in page
    assert "Zsófi has the most runs" in page or "most runs" in page
    assert "R17-B3" in page
    with app.app_context():
        assert store.get_by_edit_token(get_session(), edit).rounds == []


def test_draw_five_at_random_without_javascript(
    client: FlaskClient, app: Flask, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, draw="1", bonus_cards=[])
    del data["save"]
    page = client.post(f"/m/{edit}/games/new", data=data).get_data(as_text=True)
    assert (
        len(re.findall(r'name="bonus_cards" value="[^"]+" data-name="[^"]*"\s+checked', page)) == 5
    )
    assert "K2 K3 K4" in page
    with app.app_context():
        assert store.get_by_edit_token(get_session(), edit).rounds == []


def test_breakdown_shows_every_award_figure_rule_and_reason(
    client: FlaskClient, played: str, round_doc: dict[str, Any]
) -> None:
    page = html.unescape(client.get(f"/m/{played}/games/1").get_data(as_text=True))
    for rule in ("R17-B3", "R17-B4", "R17-B7", "R17-B9", "R17-B12"):
        assert rule in page
    assert "Márk dealt, Lili started" in page
    assert "Zsófi went out; last card B11" in page
    assert page.count("<th>Player</th>") >= 6  # the scores, then one table per award
    assert "/games/1/edit" in page and "/games/1/delete" in page


def test_edit_game_is_prefilled_and_recorded(
    client: FlaskClient, played: str, round_doc: dict[str, Any]
) -> None:
    page = client.get(f"/m/{played}/games/1/edit").get_data(as_text=True)
    assert "G7 G8 G9 G10\nR16 B16 Y16</textarea>" in page
    assert 'value="R1 G13"' in page and 'value="Zsófi" checked' in page
    changed = copy.deepcopy(round_doc)
    changed["players"][2]["hand"] = ["B5"]
    answer = client.post(f"/m/{played}/games/1/edit", data=form_data(changed))
    assert answer.status_code == 302
    board = client.get(f"/m/{played}").get_data(as_text=True)
    assert "Game 1 edited: Lili&#39;s hand" in board
    expected = match_document(
        {"game": "rummy17", "players": NAMES, "first_dealer": "Márk", "rounds": [changed]}
    )
    assert totals_shown(board) == [expected["totals"][n] for n in NAMES]


def test_delete_asks_first_then_deletes(client: FlaskClient, played: str) -> None:
    page = client.get(f"/m/{played}/games/1/delete").get_data(as_text=True)
    assert "Delete game 1?" in page and '<form method="post"' in page
    assert client.post(f"/m/{played}/games/1/delete").status_code == 302
    board = client.get(f"/m/{played}").get_data(as_text=True)
    assert "Game 1 deleted" in board and "Game 1 of 3" in board
    assert client.get(f"/m/{played}/games/1").status_code == 404


def test_finished_match_takes_no_new_game(client: FlaskClient, round_doc: dict[str, Any]) -> None:
    edit = start(client, NAMES, games="1")
    client.post(f"/m/{edit}/games/new", data=form_data(round_doc))
    answer = client.get(f"/m/{edit}/games/new", follow_redirects=True)
    page = answer.get_data(as_text=True)
    assert "All 1 games of this match are entered." in page
    assert "The match is over." in page and "/games/new" not in page


@pytest.mark.parametrize(
    "path",
    [
        "/m/{bad}",
        "/v/{bad}",
        "/m/{bad}/games/new",
        "/m/{bad}/games/1",
        "/v/{bad}/games/1",
        "/m/{bad}/games/1/edit",
        "/m/{bad}/games/1/delete",
        "/m/{edit}/games/7",
        "/m/{edit}/games/7/edit",
        "/m/{edit}/games/7/delete",
        "/v/{view}/games/7",
        "/v/{edit}",  # an edit token is not a read-only token
        "/m/{view}",  # and the read-only token never opens the edit pages
    ],
)
def test_wrong_links_are_404(client: FlaskClient, played: str, path: str) -> None:
    view = view_token(client, played)
    bad = played[:-1] + ("A" if played[-1] != "A" else "B")
    url = path.format(bad=bad, edit=played, view=view)
    answer = client.get(url)
    assert answer.status_code == 404
    assert "Not found" in answer.get_data(as_text=True)


def test_read_only_view_changes_nothing(client: FlaskClient, played: str) -> None:
    view = view_token(client, played)
    for path in (f"/v/{view}", f"/v/{view}/games/1"):
        answer = client.get(path)
        page = answer.get_data(as_text=True)
        assert answer.status_code == 200
        assert "<form" not in page and '<button type="submit"' not in page
        assert played not in page  # the edit token never appears
        assert "/m/" not in page
        assert client.post(path, data={}).status_code in (404, 405)
    page = client.get(f"/v/{view}").get_data(as_text=True)
    assert f"/v/{view}/sheet.pdf" in page and f"/v/{view}.json" in page
    for link in (f"/v/{view}/sheet.pdf", f"/v/{view}.json"):  # the links lead somewhere
        assert client.get(link).status_code == 200
    assert "Read-only" in page
    for path in (f"/v/{view}/games/new", f"/v/{view}/games/1/edit", f"/v/{view}/games/1/delete"):
        assert client.post(path, data={}).status_code in (404, 405)


def test_names_are_escaped(client: FlaskClient) -> None:
    edit = start(client, ["<b>Bold</b>", "Anna"])
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    assert "<b>Bold</b>" not in page and "&lt;b&gt;Bold&lt;/b&gt;" in page


def test_pages_use_no_inline_script_or_style(client: FlaskClient, played: str) -> None:
    view = view_token(client, played)
    for path in (
        "/",
        f"/m/{played}",
        f"/m/{played}/games/new",
        f"/m/{played}/games/1",
        f"/m/{played}/games/1/edit",
        f"/m/{played}/games/1/delete",
        f"/v/{view}",
    ):
        page = client.get(path).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", page), path
        assert " style=" not in page and "<style" not in page, path
        assert not re.search(r"\son[a-z]+=", page), path
        assert "http://" not in page.replace("http://localhost/", ""), path


def test_csrf_is_required_on_every_form(csrf_app: Flask, round_doc: dict[str, Any]) -> None:
    client = csrf_app.test_client()
    data = {"names-0": "Anna", "names-1": "Béla", "first_dealer": "0"}
    assert client.post("/", data=data).status_code == 400
    home = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', home).group(1)
    names = {f"names-{i}": n for i, n in enumerate(NAMES)}
    answer = client.post("/", data=names | {"first_dealer": "0", "csrf_token": token})
    assert answer.status_code == 302
    edit = answer.headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/m/{edit}/games/new", data=form_data(round_doc)).status_code == 400
    answer = client.post(f"/m/{edit}/games/new", data=form_data(round_doc, csrf_token=token))
    assert answer.status_code == 302
    assert client.post(f"/m/{edit}/games/1/edit", data=form_data(round_doc)).status_code == 400
    assert client.post(f"/m/{edit}/games/1/delete").status_code == 400
    assert client.get(f"/m/{edit}/games/1").status_code == 200  # still there
    # The JSON API is exempt: it takes no cookies, so fetch needs no token.
    assert client.post("/api/v1/score", json=round_doc).status_code == 200
