"""A save leaves at once, whatever the page does next.

A phone's browser gives a page in the background (another tab in front, the standings opened
right after tapping Save) its timers late (at most once a second in Chromium) and no animation
frames at all. Headless Chromium under Playwright keeps every page visible, so the test puts
the round form in the background the way the page sees it: ``document.hidden``, a
``visibilitychange``, every timer held back a second and no animation frame. The save request
must leave all the same in the tap itself (the same task: no timer, frame or awaited promise
in between, so within any time limit, with no clock read), and the round be stored once.
"""

from __future__ import annotations

from typing import Any

from phone import start

from companion.adapters import store
from companion.adapters.db import get_session

#: The page as a background tab sees itself (see the module's docstring).
BACKGROUND = """
(() => {
  let away = false;
  Object.defineProperty(document, "hidden", { get: () => away });
  Object.defineProperty(document, "visibilityState", { get: () => (away ? "hidden" : "visible") });
  const later = window.setTimeout, every = window.setInterval, frame = window.requestAnimationFrame;
  window.setTimeout = (f, ms, ...a) => later(f, away ? Math.max(ms || 0, 1000) : ms, ...a);
  window.setInterval = (f, ms, ...a) => every(f, away ? Math.max(ms || 0, 1000) : ms, ...a);
  window.requestAnimationFrame = (f) => (away ? 0 : frame(f));
  const send = window.fetch;
  window.fetch = function (resource, init) {
    const save = init && init.method === "POST" && /(^|&)save=/.test(String(init.body));
    if (save && !sessionStorage.getItem("sent")) {
      sessionStorage.setItem("sent", window.__tapping ? "in the tap" : "later");
    }
    return send.apply(this, arguments);
  };
  window.__background = () => {
    away = true;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""

#: Tap Save with the page already in the background, as a player who switched tabs at once.
TAP = """
() => {
  window.__background();
  window.__tapping = true;  // click() runs the submit handlers before it returns
  try { document.getElementById("save-button").click(); } finally { window.__tapping = false; }
}
"""


def stored(server: Any, board: str) -> int:
    edit = board.rstrip("/").rsplit("/", 1)[-1]
    with server.app.app_context():
        match = store.get_by_edit_token(get_session(), edit)
        assert match is not None
        return len(match.rounds)


def tap_save_in_the_background(page: Any, board: str) -> str:
    """Tap Save, open the scoreboard in another tab at once; when the save left: "in the tap"
    (before the tap's task ended) or "later"."""
    other = page.context.new_page()
    page.evaluate(TAP)
    other.goto(board)  # the standings, opened right after the tap
    page.wait_for_url(board.rstrip("/"), timeout=10_000)  # saved: on to the scoreboard
    sent = str(page.evaluate("() => sessionStorage.getItem('sent')"))
    other.close()
    return sent


def test_a_rummy17_save_leaves_in_the_tap_with_the_page_in_the_background(
    server: Any, page: Any
) -> None:
    page.add_init_script(BACKGROUND)
    board = start(page, server.url, "rummy17", ["Anna", "Béla"], 0)
    page.goto(board.rstrip("/") + "/rounds/new")
    page.check("input[name=went_out][value='Anna']")
    for box in page.query_selector_all("#bonus input[type=checkbox]")[:5]:
        box.check()
    page.fill("#players-0-melds", "R1 R2 R3")
    page.fill("#last_discard", "B4")
    page.fill("#players-1-hand", "K13")
    assert tap_save_in_the_background(page, board) == "in the tap"
    assert stored(server, board) == 1


def test_a_rummikub_save_leaves_in_the_tap_with_the_page_in_the_background(
    server: Any, page: Any
) -> None:
    page.add_init_script(BACKGROUND)
    board = start(page, server.url, "rummikub", ["Anna", "Béla"], 0)
    page.goto(board.rstrip("/") + "/rounds/new")
    page.check("input[name=went_out][value='Anna']")
    page.fill("#players-1-rack", "R5 K13")
    assert tap_save_in_the_background(page, board) == "in the tap"
    assert stored(server, board) == 1
