"""The last card's short form ``{"seventeen": false}`` everywhere a card is (R17-15a):
the round form (one tap), the API, matches over HTTP, the history, the breakdown and sheet."""

from __future__ import annotations

import copy
import html
import re

import pytest
from flask.testing import FlaskClient
from support import load
from test_pages import NAMES, form_data, start, stored_rounds

from companion.domain import score_document


def short_round(seventeen: bool = False) -> dict:
    doc = copy.deepcopy(load("rummy17-round.json"))
    doc["last_discard"] = {"seventeen": seventeen}
    return doc


def test_the_round_form_offers_not_a_17_as_one_tap(client: FlaskClient) -> None:
    edit = start(client, NAMES, first=1)
    page = client.get(f"/m/{edit}/rounds/new").get_data(as_text=True)
    assert re.search(r'<button type="button" data-last-short="not17"[^>]*>Not a 17</button>', page)
    assert 'name="last_short"' in page


def test_a_round_saved_as_not_a_17_keeps_the_short_form(app, client: FlaskClient) -> None:
    edit = start(client, NAMES, first=1)
    data = form_data(load("rummy17-round.json"), last_discard="", last_short="not17")
    answer = client.post(f"/m/{edit}/rounds/new", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    (stored,) = stored_rounds(app, edit)
    assert stored["last_discard"] == {"seventeen": False}
    breakdown = client.get(f"/m/{edit}/rounds/1").get_data(as_text=True)
    assert "went out; the last card was not a 17" in breakdown
    # Editing the round shows the tap as it was made, and no card in the field.
    page = client.get(f"/m/{edit}/rounds/1/edit").get_data(as_text=True)
    assert re.search(r'name="last_short" id="last_short" value="not17"', page)


def test_a_typed_card_wins_over_a_stale_short_tap(app, client: FlaskClient) -> None:
    edit = start(client, NAMES, first=1)
    data = form_data(load("rummy17-round.json"), last_short="not17")  # last_discard B11
    assert client.post(f"/m/{edit}/rounds/new", data=data).status_code == 302
    assert stored_rounds(app, edit)[0]["last_discard"] == "B11"


def test_the_notice_is_asked_with_the_short_form(client: FlaskClient) -> None:
    edit = start(client, NAMES, first=1)
    data = form_data(load("rummy17-round.json"), last_discard="", last_short="17")
    del data["save"]
    page = client.post(f"/m/{edit}/rounds/new/preview", data=data).get_data(as_text=True)
    assert re.search(r'<p class="notice" id="r17">', page)


@pytest.mark.parametrize("seventeen", [False, True])
def test_api_score_takes_the_short_form(client: FlaskClient, seventeen: bool) -> None:
    response = client.post("/api/v1/score", json=short_round(seventeen))
    assert response.status_code == 200, response.json
    assert response.json == score_document(short_round(seventeen))
    assert response.json["multiplier"] == (2 if seventeen else 1)


@pytest.mark.parametrize("bad", [{"seventeen": "no"}, {"colour": "R"}, 17, ["R17"]])
def test_api_refuses_a_bad_last_card_in_words(client: FlaskClient, bad: object) -> None:
    doc = short_round()
    doc["last_discard"] = bad
    response = client.post("/api/v1/score", json=doc)
    assert response.status_code == 422
    assert "last" in response.json["error"]["message"]


def test_matches_over_http_keep_the_short_form_and_the_history_says_it(
    client: FlaskClient,
) -> None:
    body = {"game": "rummy17", "players": NAMES, "first_dealer": "Márk"}
    made = client.post("/api/v1/matches", json=body).json
    round_doc = load("rummy17-round.json")
    answer = client.post(
        f"/api/v1/matches/{made['edit']}/games", json=round_doc, headers={"If-Match": '"1"'}
    )
    assert answer.status_code == 201, answer.json
    revision = answer.json["revision"]
    answer = client.put(
        f"/api/v1/matches/{made['edit']}/games/1",
        json=short_round(),
        headers={"If-Match": f'"{revision}"'},
    )
    assert answer.status_code == 200, answer.json
    assert answer.json["document"]["rounds"][0]["last_discard"] == {"seventeen": False}
    history = html.unescape(client.get(f"/m/{made['edit']}").get_data(as_text=True))
    # the card is drawn as a chip, named in words
    assert re.search(
        r'last card: <span class="card c-B"[^>]*aria-label="blue 11"[^>]*>.*?</span> → not a 17',
        history,
    )
    sheet = client.get(f"/m/{made['edit']}/sheet.pdf")
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF")
