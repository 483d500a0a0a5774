"""The read-only view follows the match (issue 11): a save shows on the other phones within
2 s, without a reload; a lost connection is said plainly and the last scores stay."""

from __future__ import annotations

import re
import time
from typing import Any

from phone import PHONE, answer, follow, shot, start

NAMES = ["Anna", "Béla", "Cili"]


def test_a_saved_round_appears_on_the_read_only_phone_without_a_reload(
    server: Any, page: Any, browser: Any
) -> None:
    board = start(page, server.url, "rummikub", NAMES, first=0)
    view = page.input_value("#view-link")
    watcher = browser.new_context(viewport=PHONE, color_scheme="dark").new_page()
    watcher.goto(view)
    assert watcher.locator("#qr svg").is_visible()  # join by pointing a camera
    watcher.evaluate("window.stayed = true")  # gone if the page reloads
    assert watcher.locator("#board tbody tr[data-href]").count() == 0

    follow(page, "#enter-round")
    answer(page, "went_out", "Cili")
    page.fill("#players-0-rack", "R5 K13")
    page.fill("#players-1-rack", "B2")
    follow(page, "#save-button")
    saved = time.monotonic()
    watcher.locator("#board tbody tr[data-href]").first.wait_for(timeout=2000)
    assert time.monotonic() - saved < 2.0
    assert watcher.evaluate("window.stayed === true")  # swapped in place, not reloaded
    assert "Round 1 added" in watcher.inner_text("#live-history")
    shot(watcher, "live-view")
    assert watcher.locator("#live-status").is_hidden()

    # The connection drops: the phone says since when the scores are, and keeps them.
    watcher.context.set_offline(True)
    watcher.locator("#live-status").wait_for(state="visible", timeout=4000)
    assert re.search(r"as of \d", watcher.inner_text("#live-status"))
    assert watcher.locator("#board tbody tr[data-href]").count() == 1
    watcher.context.set_offline(False)
    watcher.locator("#live-status").wait_for(state="hidden", timeout=4000)
    assert page.url == board
    watcher.context.close()
