"""Rough edges a newcomer met: each now as the table expects it."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from samples import sample_round

from companion.domain import get_game


def test_the_favicon_is_there_for_a_page_that_does_not_name_it(client: FlaskClient) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.mimetype.startswith("image/")


def test_the_rummikub_turn_page_does_not_link_the_rummy17_knock(client: FlaskClient) -> None:
    rummikub = client.get("/referee/turn?game=rummikub").get_data(as_text=True)
    assert 'id="to-knock"' not in rummikub
    rummy17 = client.get("/referee/turn?game=rummy17").get_data(as_text=True)
    assert 'id="to-knock"' in rummy17


def test_a_rack_that_is_no_penalty_is_shown_as_counted() -> None:
    # RO-12 and MR-11 (DM-2): the loser's rack or hand is counted, not taken off their score.
    signs = {g: {c.key: c.sign for c in get_game(g).columns} for g in ("rummy-o", "manipulation")}
    assert signs["rummy-o"]["rack_value"] == "="
    assert signs["manipulation"]["hand_value"] == "="
    assert {c.key: c.sign for c in get_game("rummikub").columns}["rack_value"] == "-"


def test_the_rummy_o_breakdown_shows_no_negative_rack_beside_a_score_of_0(
    client: FlaskClient,
) -> None:
    doc = sample_round("rummy-o", points=7, players=["Anna", "Béla"])
    doc["went_out"] = "Anna"
    doc["players"][0]["rack"] = {"points": 0}
    answer = client.post(
        "/api/v1/matches",
        json={"game": "rummy-o", "players": ["Anna", "Béla"], "first_dealer": "Anna"},
    )
    edit = answer.get_json()["edit"]
    saved = client.post(f"/api/v1/matches/{edit}/games", json=doc, headers={"If-Match": '"1"'})
    assert saved.status_code == 201, saved.get_json()
    page = client.get(f"/m/{edit}/rounds/1").get_data(as_text=True)
    table = page[page.index('id="scores"') : page.index("</table>")]
    # Béla's rack of 8 is what Anna collects, no penalty of his (RO-12): 8, then his score 0.
    assert re.search(r'<td class="n">8</td><td class="n"><strong>0</strong>', table)


def test_the_sheet_lists_corrections_not_new_rounds(client: FlaskClient) -> None:
    from io import BytesIO

    from pypdf import PdfReader

    players = ["Anna", "Béla"]
    made = client.post(
        "/api/v1/matches", json={"game": "rummikub", "players": players, "first_dealer": "Anna"}
    ).get_json()
    edit = made["edit"]
    doc = sample_round("rummikub", points=3, players=players)
    assert client.post(f"/api/v1/matches/{edit}/games", json=doc, headers={"If-Match": '"1"'})
    doc["players"][0]["rack"] = {"points": 5}
    fixed = client.put(f"/api/v1/matches/{edit}/games/1", json=doc, headers={"If-Match": '"2"'})
    assert fixed.status_code == 200, fixed.get_json()
    pdf = client.get(f"/m/{edit}/sheet.pdf").data
    text = " ".join(p.extract_text() for p in PdfReader(BytesIO(pdf)).pages)
    assert "Round 1 edited" in text
    assert "Round 1 added" not in text and "started" not in text


def test_the_next_session_is_seated_only_once_this_one_has_started(client: FlaskClient) -> None:
    made = client.post(
        "/api/v1/events",
        json={"game": "rummikub", "entrants": ["Anna", "Béla", "Cili", "Dani"], "sessions": 2},
    )
    assert made.status_code == 201, made.get_json()
    edit = made.get_json()["edit"]
    page = client.get(f"/e/{edit}").get_data(as_text=True)
    assert 'id="seat"' in page  # nothing seated yet: seat session 1
    revision = made.get_json()["revision"]
    assert client.post(f"/e/{edit}/seat", data={"revision": str(revision)}).status_code == 302
    page = client.get(f"/e/{edit}").get_data(as_text=True)
    assert 'id="seat"' not in page and 'id="redraw"' in page


def test_a_counted_hand_says_card_and_cards_as_the_number_wants(client: FlaskClient) -> None:
    players = ["Anna", "Béla"]
    made = client.post(
        "/api/v1/matches", json={"game": "rummy17", "players": players, "first_dealer": "Anna"}
    ).get_json()
    doc = sample_round("rummy17", points=1, players=players)
    doc["players"][1]["hand"] = {"low": 1, "high": 2}
    saved = client.post(
        f"/api/v1/matches/{made['edit']}/games", json=doc, headers={"If-Match": '"1"'}
    )
    assert saved.status_code == 201, saved.get_json()
    page = client.get(f"/m/{made['edit']}/rounds/1").get_data(as_text=True)
    assert "Hand: 1 card of 1–9, 0 cards of 10–17" in page
    assert "Hand: 1 card of 1–9, 2 cards of 10–17" in page
