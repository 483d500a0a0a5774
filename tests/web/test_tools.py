"""The referee page (/check) and the blank-sheet chooser (/sheets/blank), through the client."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from support import unlinked

from companion.rules import check_meld


def text(client: FlaskClient, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200
    return unlinked(answer.get_data(as_text=True))


def test_the_home_page_links_the_referee_and_blank_sheets(client: FlaskClient) -> None:
    page = text(client, "/")
    assert 'href="/check"' in page and 'href="/sheets/blank"' in page


def test_an_empty_question_shows_the_form_only(client: FlaskClient) -> None:
    page = text(client, "/check")
    assert 'id="check"' in page and 'id="verdict"' not in page


@pytest.mark.parametrize(
    ("game", "cards"),
    [("rummy17", "B5 B6 *R"), ("rummikub", "K12 K13 K1"), ("manipulation", "KH AH 2H")],
)
def test_an_illegal_meld_shows_the_cores_reason_and_rule(client, game, cards) -> None:
    verdict = check_meld(game, cards.split())
    page = text(client, f"/check?game={game}&cards={cards.replace(' ', '+')}")
    assert "Not a legal meld" in page
    assert verdict["reason"][1:] in page and f"Rule {verdict['rule']}" in page


def test_a_legal_meld_shows_its_kind_stand_ins_and_value(client: FlaskClient) -> None:
    page = text(client, "/check?game=rummy17&cards=K14,Y14,*g")
    assert "Legal: a set" in page and "*G14" in page and "Worth 42" in page


def test_an_ambiguous_joker_lists_every_reading(client: FlaskClient) -> None:
    page = text(client, "/check?game=rummy17&cards=R5+R6+*R")
    assert "Legal: a run" in page and "*R4" in page and "*R7" in page and "D17-6" in page


def test_an_unreadable_card_is_named_next_to_the_field_and_the_text_kept(client) -> None:
    page = text(client, "/check?game=rummy17&cards=R5+Q6+R7")
    assert "Q6 is not a card" in page and 'value="R5 Q6 R7"' in page
    assert 'id="verdict"' not in page


def test_an_unknown_game_is_refused_as_a_form_error_not_a_crash(client: FlaskClient) -> None:
    page = text(client, "/check?game=chess&cards=R5+R6+R7")
    assert 'id="verdict"' not in page and "Not a valid choice" in page


def test_the_referee_never_writes(client: FlaskClient) -> None:
    assert client.post("/check", data={"cards": "R5 R6 R7"}).status_code == 405


def test_the_blank_sheet_chooser_submits_to_the_pdf(client: FlaskClient) -> None:
    page = text(client, "/sheets/blank")
    assert 'action="/sheets/blank.pdf"' in page and 'name="players"' in page
    answer = client.get("/sheets/blank.pdf?players=3&paper=letter&names=Anna,Béla,Cili")
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")
