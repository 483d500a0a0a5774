"""The referee's pages on the phone (390×844): who gets the face-up card (R17-8), and is
this turn legal (contract ``turn``), reached from the meld check page."""

from __future__ import annotations

from typing import Any

from phone import follow, picker, scroll_width, shot


def test_knock_page_taps_seats_in_order_and_names_the_clause(server: Any, page: Any) -> None:
    page.goto(server.url + "/check")
    follow(page, "#to-knock")
    page.fill("#players", "Anna, Béla, Cili, Dani")
    follow(page, "button[type=submit]")
    page.check("input[name=current][value='Béla']")
    for name in ("Dani", "Anna", "Cili"):  # in the order they knocked
        page.click(f"[data-knock='{name}']")
    assert page.input_value("#knocks") == "Dani, Anna, Cili"
    assert page.inner_text("[data-knock='Anna'] .order") == "2"
    page.click("[data-knock='Anna']")  # a second tap takes the knock back
    assert page.input_value("#knocks") == "Dani, Cili"
    page.click("[data-knock='Anna']")
    follow(page, "button[type=submit]")
    verdict = page.inner_text("#verdict")
    assert "Cili gets the card" in verdict  # first clockwise after Béla, not the first knock
    assert "Anna discarded this card" in verdict  # the player before Béla discarded it
    assert "R17-8" in verdict
    assert page.locator("[data-knock='Anna'] .order").inner_text() == "3"
    assert scroll_width(page) <= 390
    shot(page, "knock")


def test_knock_page_in_hungarian(server: Any, page: Any) -> None:
    page.goto(server.url + "/referee/knock?players=Anna,Béla,Cili&current=Béla&knocks=Anna,Cili")
    follow(page, "a[hreflang=hu]")
    verdict = page.inner_text("#verdict")
    assert "Cili" in verdict and "R17-8" in verdict
    assert "Anna dobta el ezt a lapot" in verdict
    page.goto(server.url + "/referee/knock?lang=en")  # the next test reads English


def test_turn_page_picks_before_copies_it_to_after_and_lists_every_problem(
    server: Any, page: Any
) -> None:
    page.goto(server.url + "/check")
    follow(page, "#to-turn")
    page.select_option("#game", "rummikub")
    page.wait_for_load_state()
    picker(page, "run", "before", "R", "5", "8")
    picker(page, "set", "before", "9", "K", "B", "O")
    assert page.input_value("#before") == "R5 R6 R7 R8\nK9 B9 O9"
    page.click("#copy-before")
    assert page.input_value("#after") == page.input_value("#before")
    page.fill("#after", "R5 R6 R7\nK9 B9 O9")  # R8 went back to the rack
    page.check("#opened")
    follow(page, "button[type=submit]")
    verdict = page.inner_text("#verdict")
    assert "Not a legal turn" in verdict
    assert "R8 is no longer on the table" in verdict
    assert "RK-9" in verdict and "RK-8" in verdict
    assert scroll_width(page) <= 390
    shot(page, "turn")


def test_turn_page_rummy17_initial_meld_with_a_joker(server: Any, page: Any) -> None:
    page.goto(server.url + "/referee/turn?game=rummy17&players=Anna,Béla")
    page.check("input[name=player][value=Anna]")
    page.fill("#before-1", "K10 K11 K12")
    page.fill("#after-0", "R3 R4 R5 *R")
    page.fill("#after-1", "K9 K10 K11 K12")
    page.fill("#hand", "R3 R4 R5 K9 G2")
    follow(page, "button[type=submit]")
    assert "A legal turn" in page.inner_text("#verdict")
    page.fill("#after-0", "R3 R4 *R")
    follow(page, "button[type=submit]")
    verdict = page.inner_text("#verdict")
    assert "R17-11" in verdict
    assert scroll_width(page) <= 390
