"""The read-only view follows the match: a save shows on the other phones within
2 s, without a reload; a lost connection is said plainly and the last scores stay.

The watching phone's clock is Playwright's fake one, stopped (``fake_clock``): its polls come
when the test moves its time on, so "within 2 s" is the page's time, never the machine's."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from phone import NO_WORKER, PHONE, answer, fake_clock, follow, shot, start
from playwright.sync_api import expect

NAMES = ["Anna", "Béla", "Cili"]
#: How often the read-only page asks the server (static/js/live.js, ``EVERY``), in ms.
POLL = 1_500


def poll_of(url: str) -> Callable[[Any], bool]:
    """Whether a response answers the read-only page's poll (it sends the ETag it shows)."""
    return lambda r: r.url == url and r.request.headers.get("if-none-match") is not None


def test_a_saved_round_appears_on_the_read_only_phone_without_a_reload(
    server: Any, page: Any, browser: Any
) -> None:
    board = start(page, server.url, "rummikub", NAMES, first=0)
    view = page.input_value("#view-link")
    watcher = browser.new_context(
        viewport=PHONE, color_scheme="dark", service_workers=NO_WORKER
    ).new_page()
    fake_clock(watcher)
    with watcher.expect_response(poll_of(view)):  # its first ask, on load, is answered
        watcher.goto(view)
    assert watcher.locator("#qr svg").is_visible()  # join by pointing a camera
    watcher.evaluate("window.stayed = true")  # gone if the page reloads
    rows = watcher.locator("#board tbody tr[data-href]")
    assert rows.count() == 0

    follow(page, "#enter-round")
    answer(page, "went_out", "Cili")
    page.fill("#players-0-rack", "R5 K13")
    page.fill("#players-1-rack", "B2")
    follow(page, "#save-button")
    assert POLL < 2_000  # within 2 s of the watcher's time: its next poll brings the round
    with watcher.expect_response(poll_of(view)):
        watcher.clock.run_for(POLL)
    expect(rows).to_have_count(1)
    assert watcher.evaluate("window.stayed === true")  # swapped in place, not reloaded
    assert "Round 1 added" in watcher.inner_text("#live-history")
    shot(watcher, "live-view")
    status = watcher.locator("#live-status")
    assert status.is_hidden()

    # The connection drops: the phone says since when the scores are, and keeps them.
    watcher.context.set_offline(True)
    watcher.clock.run_for(POLL)
    expect(status).to_be_visible()
    assert re.search(r"as of \d", watcher.inner_text("#live-status"))
    assert rows.count() == 1
    watcher.context.set_offline(False)
    watcher.clock.run_for(POLL)
    expect(status).to_be_hidden()
    assert page.url == board
    watcher.context.close()
