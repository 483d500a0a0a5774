"""Table rescue over HTTP (contract ``rescue``) and its page, "Put the table back" (RK-11)."""

from __future__ import annotations

import re
from collections import Counter


def test_rescue_api_lays_out_the_contract_example(client):
    cards = ["R5", "R6", "R7", "K9", "B9", "O9", "*"]
    response = client.post("/api/v1/rescue", json={"game": "rummikub", "cards": cards})
    assert response.status_code == 200
    body = response.json
    assert body["solved"] is True
    laid = Counter("*" if t.startswith("*") else t for m in body["melds"] for t in m)
    assert laid == Counter(cards)


def test_rk11_rescue_api_names_the_tile_without_a_place(client):
    response = client.post(
        "/api/v1/rescue", json={"game": "rummy-o", "cards": ["R1", "R2", "R3", "K1"]}
    )
    assert response.status_code == 200
    assert response.json == {"solved": False, "melds": [["R1", "R2", "R3"]], "unplaceable": ["K1"]}


def test_dm8_rescue_api_refuses_a_third_copy_naming_it(client):
    response = client.post(
        "/api/v1/rescue",
        json={"game": "manipulation", "cards": ["QD", "qd", "QD"]},
        headers={"Accept-Language": "de"},
    )
    assert response.status_code == 422
    error = response.json["error"]
    assert error["card"] == "QD" and error["rule"] == "DM-8"
    assert "QD" in error["message"]


def test_r17_9_rescue_api_says_rummy_17_has_no_rescue(client):
    response = client.post("/api/v1/rescue", json={"game": "rummy17", "cards": ["R5", "R6", "R7"]})
    assert response.status_code == 422
    assert response.json["error"]["code"] == "rescue-not-in-game"
    assert "Rummy 17" in response.json["error"]["message"]


def test_rescue_api_refuses_bodies_that_are_not_its_document(client):
    assert client.post("/api/v1/rescue", data="nope").status_code == 400
    unknown = client.post("/api/v1/rescue", json={"game": "rummikub", "cards": [], "x": 1})
    assert unknown.status_code == 422
    not_list = client.post("/api/v1/rescue", json={"game": "rummikub", "cards": "R1 R2 R3"})
    assert not_list.status_code == 422 and not_list.json["error"]["field"] == "cards"


def test_rescue_page_draws_the_melds(client):
    page = client.get("/rescue?game=manipulation&cards=QH+KH+AH+5C").get_data(as_text=True)
    assert 'id="melds"' in page and 'id="unplaceable"' in page
    # each card a chip with its suit, named in words; Manipulation says cards.
    assert all(f'data-card="{c}"' in page for c in ("QH", "AH", "5C"))
    assert 'aria-label="queen of hearts"' in page
    assert "Not every card can be placed" in page and "The cards on the table" in page
    # every game's words ride along for the game select (data-game-words); Manipulation's show
    shown = re.sub(r"data-game-words='[^']*'", "", page.split("<main", 1)[1].split("</main>")[0])
    assert "tile" not in shown
    assert "Every card has a place" in page or "Not every card can be placed" in page


def test_rescue_page_offers_only_games_with_a_shared_table_and_explains_errors(client):
    page = client.get("/rescue?game=rummikub&cards=R5+R5+R5").get_data(as_text=True)
    assert 'value="rummy17"' not in page
    assert 'value="rummikub"' in page
    assert "R5 is on the table more than 2 times" in page


def test_check_page_links_to_the_rescue(client):
    page = client.get("/check").get_data(as_text=True)
    assert 'id="rescue-link"' in page and "/rescue" in page
