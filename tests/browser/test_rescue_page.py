"""The "Put the table back" page on a phone (RK-11): from the referee page to the melds."""

from __future__ import annotations

import pytest
from phone import follow, scroll_width, shot


def written(page, selector):
    """The cards drawn as chips there, as the notation writes them."""
    return page.locator(selector).evaluate_all("chips => chips.map(c => c.dataset.card)")


@pytest.mark.parametrize("page", ["light", "dark"], indirect=True)
def test_rk11_a_messy_table_is_put_back_on_the_phone(server, page):
    page.goto(server.url + "/check")
    follow(page, "#rescue-link")
    page.select_option("select[name=game]", "rummikub")
    full = " ".join(f"{c}{v}" for c in "KRBO" for v in range(1, 14))
    page.fill("input[name=cards]", f"{full} {full} * * ")
    follow(page, "#rescue button[type=submit]")
    melds = page.locator("#melds li")
    assert melds.count() >= 8
    laid = written(page, "#melds .card")
    assert len(laid) == 106
    assert sum(t.startswith("*") for t in laid) == 2
    assert page.locator("#unplaceable").count() == 0
    assert scroll_width(page) <= 390
    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    shot(page, "rescue-solved-" + ("dark" if dark else "light"))
    page.fill("input[name=cards]", "R5 R6 R7 K9 B9 O9 K1")
    follow(page, "#rescue button[type=submit]")
    assert written(page, "#unplaceable .card") == ["K1"]
    assert scroll_width(page) <= 390
    shot(page, "rescue-left-over-" + ("dark" if dark else "light"))


def test_rk11_the_table_is_tapped_in_with_the_tile_picker(server, page):
    page.goto(server.url + "/rescue?game=rummikub")
    page.click("[data-pick=hand][data-target=cards]")
    for tap in ("R", "5", "6", "7", "K", "9", "B", "9", "O", "9", "*"):
        if tap == "*":
            page.click("#picker [data-joker]")
        elif tap.isdigit():
            page.click(f"#picker [data-v='{tap}']")
        else:
            page.click(f"#picker [data-c={tap}]")
    shot(page, "rescue-picker", full=False)
    page.click("#picker [data-act=done]")
    assert page.input_value("input[name=cards]") == "R5 R6 R7 K9 B9 O9 *"
    follow(page, "#rescue button[type=submit]")
    laid = written(page, "#melds .card")
    naturals = sorted(t for t in laid if not t.startswith("*"))
    assert naturals == ["B9", "K9", "O9", "R5", "R6", "R7"]
    assert sum(t.startswith("*") for t in laid) == 1  # the joker shows what it stands for
    assert page.locator("#unplaceable").count() == 0
