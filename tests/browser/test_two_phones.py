"""Two phones enter the same round: nothing is lost, nothing doubled, one tap decides.

Both phones open "Round 1" of the same Rummikub match. The first saves; the second is shown
the conflict screen (what the other phone saved, what it typed, kept) and keeps its own
version, which replaces round 1 instead of becoming round 2. Then both correct round 1 at
once and the second keeps the other phone's version.
"""

from __future__ import annotations

from typing import Any

from phone import NO_WORKER, PHONE, answer, follow, shot, start

NAMES = ["Anna", "Béla", "Cili"]


def fill_round(page: Any, went_out: str, racks: list[str]) -> None:
    answer(page, "went_out", went_out)
    for i, rack in enumerate(racks):
        page.fill(f"#players-{i}-rack", rack)


def test_two_phones_save_round_one_keep_mine_then_keep_theirs(
    server: Any, page: Any, browser: Any
) -> None:
    board = start(page, server.url, "rummikub", NAMES, first=0)
    other = browser.new_context(viewport=PHONE, service_workers=NO_WORKER).new_page()
    other.goto(board)

    follow(page, "#enter-round")
    follow(other, "#enter-round")
    fill_round(page, "Cili", ["R5", "B2 O7", ""])
    fill_round(other, "Cili", ["R5 R6", "B2 O7", ""])
    follow(page, "#save-button")
    assert "Round 1 saved." in page.inner_text("main")

    follow(other, "#save-button")
    conflict = other.locator("#conflict")
    assert conflict.is_visible()
    assert "Round 1 was saved on another phone" in conflict.inner_text()
    assert "Round 1 added" in conflict.inner_text()
    assert other.input_value("#players-0-rack") == "R5 R6"  # what was typed, kept
    assert other.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    box = other.locator("#keep-mine").bounding_box()
    assert box is not None and box["height"] >= 44
    shot(other, "conflict-new-round")
    follow(other, "#keep-mine")
    assert "Round 1 saved." in other.inner_text("main")
    assert "Round 2" not in other.inner_text("table")  # replaced, not added

    # Both correct round 1; the second keeps what the first saved.
    page.goto(board + "/rounds/1/edit")
    other.goto(board + "/rounds/1/edit")
    page.fill("#players-1-rack", "B2")
    follow(page, "#save-button")
    other.fill("#players-1-rack", "O7")
    follow(other, "#save-button")
    assert other.locator("#conflict").is_visible()
    assert "B2 O7 → B2" in other.locator("#conflict").inner_text()
    follow(other, "#keep-theirs")
    assert "Kept what the other phone saved" in other.inner_text("main")
    other.goto(board + "/rounds/1/edit")
    assert other.input_value("#players-1-rack") == "B2"
    assert other.locator("#restored").is_hidden()  # the dropped draft is not offered back
    other.context.close()


def test_a_refused_save_shows_a_summary_and_goes_to_the_first_problem(
    server: Any, page: Any
) -> None:
    board = start(page, server.url, "rummikub", NAMES, first=0)
    follow(page, "#enter-round")
    fill_round(page, "Cili", ["R5", "", "B2"])  # Béla's rack forgotten, Cili went out holding B2
    follow(page, "#save-button")
    summary = page.locator("#summary")
    assert summary.is_visible()
    text = summary.inner_text()
    assert "Nothing was saved: 2 problems to fix." in text
    assert "Béla:" in text and "Cili:" in text
    focused = page.evaluate("document.activeElement.id")
    assert focused == "players-1-rack"  # the first problem's field, scrolled into view
    assert page.locator("#players-1-rack").is_visible()
    assert page.evaluate("window.scrollY") > 0
    shot(page, "refused-save")
    page.click("#summary [data-goto=players-2-rack]")
    assert page.evaluate("document.activeElement.id") == "players-2-rack"
    assert page.input_value("#players-0-rack") == "R5"  # nothing typed is lost
    assert page.url.startswith(board)
