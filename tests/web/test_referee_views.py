"""The referee's pages through the test client: knock (R17-8) and turn (contract ``turn``)."""

from __future__ import annotations

from companion import store
from companion.db import get_session


def test_knock_page_asks_for_seats_first(client):
    html = client.get("/referee/knock").get_data(as_text=True)
    assert 'id="players"' in html
    assert 'name="current"' not in html


def test_knock_page_answers_with_the_clause(client):
    url = "/referee/knock?players=Anna,Béla,Cili,Dani&current=Béla&knocks=Dani,Cili"
    html = client.get(url).get_data(as_text=True)
    assert "Cili gets the card" in html
    assert "R17-8" in html


def test_knock_page_deal_card_and_bad_names(client):
    html = client.get("/referee/knock?players=Anna,Béla&current=Béla&knocks=Anna&deal=1")
    assert "Anna gets the card" in html.get_data(as_text=True)
    html = client.get("/referee/knock?players=Anna,Béla&current=Béla&knocks=Zoé")
    assert 'id="knock-error"' in html.get_data(as_text=True)


def test_knock_page_in_german(client):
    url = "/referee/knock?players=Anna,Béla,Cili&current=Béla&knocks=Cili&lang=de"
    html = client.get(url).get_data(as_text=True)
    assert "Cili bekommt die Karte" in html


def test_turn_page_lists_every_problem_with_its_clause(client):
    url = "/referee/turn?asked=1&game=rummikub&opened=1&before=R5 R6 R7 R8&after=R5 R6&hand=K1"
    html = client.get(url).get_data(as_text=True)
    assert "Not a legal turn" in html
    for rule in ("RK-5", "RK-9", "RK-8"):
        assert rule in html


def test_turn_page_initial_meld_value(client):
    url = "/referee/turn?asked=1&game=rummy-o&before=&after=R11 R12 R13"
    html = client.get(url).get_data(as_text=True)
    assert "A legal turn" in html
    assert "The initial meld is worth 30." in html


def test_turn_page_bad_input_names_the_meld(client):
    # Contract "Games and cards": asked where the readings differ on reaching the initial meld
    # (RK-6: R8 R9 R10 is 27, R9 R10 R11 is 30).
    url = "/referee/turn?asked=1&game=rummikub&opened=0&after=R9 R10 *"
    html = client.get(url).get_data(as_text=True)
    assert 'id="turn-error"' in html
    assert "meld 1" in html


def test_turn_page_has_no_opened_switch_for_manipulation(client):
    html = client.get("/referee/turn?game=manipulation").get_data(as_text=True)
    assert 'name="opened"' not in html
    assert 'name="before"' in html


def test_check_page_links_the_referee_pages(client):
    html = client.get("/check").get_data(as_text=True)
    assert "/referee/turn" in html and "/referee/knock" in html


def test_a_rummy17_match_links_the_knock_page_with_its_players(app, client):
    with app.app_context():
        match = store.create_match(
            get_session(), game="rummy17", players=["Anna", "Béla"], first_dealer="Anna", games=None
        )
        token = match.edit_token
    html = client.get(f"/m/{token}").get_data(as_text=True)
    assert "/referee/knock?players=Anna" in html


def test_an_illegal_turn_offers_to_put_the_table_back_from_the_table_before(client):
    import html as markup
    import re

    url = "/referee/turn?asked=1&game=rummikub&opened=1&before=R5 R6 R7 R8&after=R5 R6&hand=K1"
    page = client.get(url).get_data(as_text=True)
    assert "Put R7 back into a meld on the table." in markup.unescape(page)  # the fix (RK-9)
    found = re.search(r'href="([^"]*/rescue\?[^"]*)"[^>]*id="rescue-before"', page)
    assert found
    rescue = client.get(markup.unescape(found.group(1))).get_data(as_text=True)
    assert "Every tile has a place" in rescue  # R5 R6 R7 R8 is a run (RK-11)
    # The rescue page keeps the table before: after trying other tiles, one tap starts again.
    tried = client.get("/rescue?game=rummikub&cards=R5+R6&before=R5+R6+R7+R8").get_data(
        as_text=True
    )
    again = re.search(r'href="([^"]*)"[^>]*id="start-before"', tried)
    assert again and 'name="before" value="R5 R6 R7 R8"' in tried
    restarted = client.get(markup.unescape(again.group(1))).get_data(as_text=True)
    assert "Every tile has a place" in restarted and 'value="R5 R6 R7 R8"' in restarted


def test_a_legal_turn_or_a_rummy17_turn_offers_no_rescue(client):
    legal = "/referee/turn?asked=1&game=rummikub&opened=1&before=R5 R6 R7&after=R5 R6 R7 R8"
    assert 'id="rescue-before"' not in client.get(legal).get_data(as_text=True)


def test_turn_page_DO_8_names_the_clause_and_the_fix(client):
    url = (
        "/referee/turn?asked=1&game=rummy-o&opened=1&before=R3 R4 R5%0AR6 R7 *R8"
        "&after=R3 R4 R5 R6 R7%0AB10 B11 *B12"
    )
    html = client.get(url).get_data(as_text=True)
    assert "Not a legal turn" in html and "DO-8" in html
    assert "put a R8 from the rack in its place" in html


def test_turn_page_judges_a_joker_whose_readings_all_reach_the_initial_meld(client):
    html = client.get("/referee/turn?asked=1&game=rummikub&opened=0&after=R11 R12 *").get_data(
        as_text=True
    )
    assert "A legal turn" in html and "The initial meld is worth 33." in html


def test_turn_page_D17_11_for_a_rummy17_turn(client):
    url = (
        "/referee/turn?asked=1&game=rummy17&players=Anna, Béla&player=Anna&opened=1"
        "&after-0=R3 R4 R5&hand=R3 R4 R5"
    )
    html = client.get(url).get_data(as_text=True)
    assert "Not a legal turn" in html and "D17-11" in html
