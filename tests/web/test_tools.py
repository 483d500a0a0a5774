"""The referee page (/check) and the blank-sheet chooser (/sheets/blank), through the client."""

from __future__ import annotations

import html

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


def test_a_legal_meld_shows_its_kind_stand_ins_and_the_R17_11_note(client: FlaskClient) -> None:
    page = text(client, "/check?game=rummy17&cards=K14,Y14,*g")
    assert "Legal: a set" in page and "*G14" in page
    assert "Worth" not in page  # Rummy 17 has no initial meld to count
    assert "a run of at least four cards of its colour (R17-11)" in page


def test_RK_6_a_legal_meld_shows_its_worth_for_the_initial_meld(client: FlaskClient) -> None:
    page = text(client, "/check?game=rummikub&cards=K12+K13+*")
    assert "Legal: a run" in page and "*K11" in page and "Worth 36" in page


def test_RK_12_readings_of_both_kinds_are_headed_a_set_or_a_run(client: FlaskClient) -> None:
    page = text(client, "/check?game=rummikub&cards=R4+*+*")
    assert "Legal: a set or a run" in page and "*R2" in page and "*B4" in page


def test_an_ambiguous_joker_lists_every_reading(client: FlaskClient) -> None:
    page = text(client, "/check?game=rummy17&cards=R5+R6+*R")
    assert "Legal: a run" in page and "*R4" in page and "*R7" in page and "D17-6" in page


def test_an_unreadable_card_is_named_next_to_the_field_and_the_text_kept(client) -> None:
    page = text(client, "/check?game=rummy17&cards=R5+Q6+R7")
    assert "Q6 is not a card" in page and 'value="R5 Q6 R7"' in page
    assert 'id="verdict"' not in page


@pytest.mark.parametrize(
    ("game", "cards", "words"),
    [
        ("rummikub", "*+*+*", "More than 2 jokers; the game has 2 (DK-4)"),
        ("rummy17", "K9+K9+K10", "K9 appears more than once; the game has one (R17-1)"),
    ],
)
def test_more_copies_than_the_box_has_is_refused_with_the_text_kept(
    client: FlaskClient, game: str, cards: str, words: str
) -> None:
    # Contract "check": bad input, as in turn and rescue; no verdict.
    page = html.unescape(text(client, f"/check?game={game}&cards={cards}"))
    assert words in page and 'id="verdict"' not in page


def test_an_unknown_game_is_refused_as_a_form_error_not_a_crash(client: FlaskClient) -> None:
    page = text(client, "/check?game=chess&cards=R5+R6+R7")
    assert 'id="verdict"' not in page and "Not a valid choice" in page


def test_the_referee_never_writes(client: FlaskClient) -> None:
    assert client.post("/check", data={"cards": "R5 R6 R7"}).status_code == 405


def test_the_blank_sheet_chooser_submits_to_the_pdf(client: FlaskClient) -> None:
    page = text(client, "/sheets/blank")
    assert 'action="/sheets/blank"' in page and 'name="players"' in page
    answer = client.get("/sheets/blank.pdf?players=3&paper=letter&names=Anna,Béla,Cili")
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")


def test_the_blank_chooser_sends_a_good_choice_on_to_the_pdf(client: FlaskClient) -> None:
    page = text(client, "/sheets/blank?lang=en")  # only the language: the chooser, no PDF yet
    assert 'id="games"' in page and "One per player" in page  # the number of rounds
    answer = client.get("/sheets/blank?game=rummikub&players=3&games=5&paper=letter&names=A,+B,+C")
    assert answer.status_code == 302
    assert answer.headers["Location"] == (
        "/sheets/blank.pdf?game=rummikub&players=3&paper=letter&games=5&names=A,+B,+C"
    )


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("game=rummy17&players=4&names=Anna,+Béla,+Cili", "names", "3 names for 4 players"),
        ("game=rummikub&players=6", "players", "Rummikub is for 2 to 4 players."),
        ("game=rummy17&players=2&names=Anna,+anna", "names", "anna is used twice"),
        ("game=rummy17&players=2&games=99", "games", "Not a valid choice"),
    ],
)
def test_a_bad_blank_sheet_choice_comes_back_with_the_problem_and_everything_typed(
    client: FlaskClient, query: str, field: str, message: str
) -> None:
    answer = client.get(f"/sheets/blank?{query}")
    assert answer.status_code == 422
    page = html.unescape(answer.get_data(as_text=True))
    problem = page.split(f'id="{field}-error"', 1)[1].split("</ul>", 1)[0]
    assert message in problem
    for part in query.split("&"):
        key, value = part.split("=")
        value = value.replace("+", " ")
        if key == "names":
            assert f'value="{value}"' in page  # the names as typed
        elif key != "games" or value != "99":
            assert f'<option selected value="{value}">' in page or (
                f'value="{value}" data-seats' in page and "selected" in page
            )
