"""The round form asks which card a joker stands for only where the round depends on it
(D17-6, contract "Games and cards")."""

from __future__ import annotations

import copy

from flask.testing import FlaskClient
from support import load
from test_pages import NAMES, form_data, start, stored_rounds


def with_open_end(bonus_first: str) -> dict:
    """The public round with Márk's K2 K3 K4 laid as K2 K3 and a joker (K1 or K4)."""
    doc = copy.deepcopy(load("rummy17-round.json"))
    doc["players"][1]["melds"][0] = ["K2", "K3", "*K"]
    doc["players"][1]["hand"] = ["R1", "G13", "B9"]
    doc["bonus_cards"][0] = bonus_first
    return doc


def test_a_round_no_drawn_card_cares_about_is_saved_without_a_question(
    app, client: FlaskClient
) -> None:
    edit = start(client, NAMES, first=1)
    answer = client.post(f"/m/{edit}/rounds/new", data=form_data(with_open_end("most-runs")))
    assert answer.status_code == 302, answer.get_data(as_text=True)
    (stored,) = stored_rounds(app, edit)
    assert stored["players"][1]["melds"][0] == ["K2", "K3", "*K"]


def test_a_round_whose_drawn_card_depends_on_the_joker_names_the_meld_to_ask(
    client: FlaskClient,
) -> None:
    edit = start(client, NAMES, first=1)
    data = form_data(with_open_end("most-1-2-3"))  # K1 counts, K4 does not
    page = client.post(f"/m/{edit}/rounds/new", data=data).get_data(as_text=True)
    assert "could stand for K1 or K4" in page
    assert 'id="players-1-melds"' in page and 'data-ask="1"' in page
    del data["save"]
    answer = client.post(
        f"/m/{edit}/rounds/new/preview",
        data=data,
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 422
    assert answer.get_json()["asked"] == {"players-1-melds": [1]}


def test_d17_6_a_card_in_a_hand_never_spares_the_question(client: FlaskClient) -> None:
    # Márk lays K14 K15 and the black joker; Lili holds K16 and may swap it in (R17-12):
    # K13 or K16, and most-8-16 counts one and not the other, so the form asks.
    doc = copy.deepcopy(load("rummy17-round.json"))
    doc["players"][1]["melds"][0] = ["K14", "K15", "*K"]
    doc["players"][2]["hand"] = [*doc["players"][2]["hand"], "K16"]
    assert "most-8-16" in doc["bonus_cards"]  # Márk's figure is 0 with K13, 1 with K16
    edit = start(client, NAMES, first=1)
    data = form_data(doc)
    del data["save"]
    answer = client.post(
        f"/m/{edit}/rounds/new/preview",
        data=data,
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 422, answer.get_data(as_text=True)
    assert answer.get_json()["asked"] == {"players-1-melds": [1]}
    assert any("K13 or K16" in text for text in answer.get_json()["errors"]["players-1-melds"])
