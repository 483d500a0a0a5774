"""The round form asks which card a joker stands for only where the game depends on it
(D17-6, contract "Games and cards"), and then offers the readings as buttons."""

from __future__ import annotations

from typing import Any

from phone import start


def test_the_form_asks_for_the_joker_a_drawn_card_depends_on(server: Any, page: Any) -> None:
    board = start(page, server.url, "rummy17", ["Anna", "Béla"], 0)
    page.goto(board.rstrip("/") + "/rounds/new")
    for card in ("Most 1-2-3", "Most cards", "Most sets", "Most runs", "Longest run"):
        page.locator("#bonus label").filter(has_text=card).first.click()
    page.get_by_role("radio", name="The draw pile ran out").click()
    assert not page.locator("#walker").is_visible()  # typed: nothing opened to close first
    page.fill("#players-0-melds", "K2 K3 *K")  # K1 counts for Most 1-2-3, K4 does not
    page.fill("#players-0-hand", "B9")
    page.fill("#players-1-hand", "G5")
    readings = page.locator("[data-readings=players-0-melds]")
    page.locator("#players-0-melds").blur()
    page.wait_for_load_state("networkidle")
    assert readings.is_hidden()  # nothing asked while typing: the game as a whole decides
    page.locator("#save-button").click()
    page.wait_for_load_state("networkidle")
    readings.locator("button").first.wait_for()  # refused: now it asks, with the readings
    assert readings.locator("button").count() == 2
    readings.locator("button").first.click()
    assert page.input_value("#players-0-melds") in ("*K1 K2 K3", "K2 K3 *K4")
