"""The rules reference on the phone: a clause link lands on its clause, nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

from phone import shot

PHONE_WIDTH = 390


def scroll_width(page: Any) -> int:
    return int(page.evaluate("document.scrollingElement.scrollWidth"))


def test_rk9_link_shows_its_clause_without_sideways_scrolling(server: Any, page: Any) -> None:
    page.goto(f"{server.url}/rules/rummikub#RK-9")
    clause = page.locator("#RK-9")
    clause.wait_for()
    assert clause.is_visible()
    box = clause.bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"]  # scrolled to it
    assert "RK-9" in clause.inner_text()
    assert scroll_width(page) <= PHONE_WIDTH
    anchor = page.locator("#RK-9 .clause-id").bounding_box()
    assert anchor is not None and anchor["height"] >= 44 and anchor["width"] >= 44  # a target
    shot(page, "rules-rk9", full=False)


def test_the_referees_rule_links_to_its_clause(server: Any, page: Any) -> None:
    page.goto(f"{server.url}/check?game=rummikub&cards=K12+K13+K1")
    page.click("#verdict a.rule-link")
    page.wait_for_load_state()
    assert "/rules/rummikub#RK-" in page.url
    clause_id = page.url.rsplit("#", 1)[1]
    assert page.locator(f"#{clause_id}").is_visible()
    for path in ("/rules", "/rules/rummy17?lang=hu", "/rules/manipulation?q=joker"):
        page.goto(server.url + path)
        assert scroll_width(page) <= PHONE_WIDTH, path
