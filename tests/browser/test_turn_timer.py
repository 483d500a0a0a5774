"""The turn timer on the phone (RK-10, RO-10, RK-11), with Playwright's fake clock, stopped
(``fake_clock``): nothing here waits for real seconds to pass, and no real second that passes
(a slow reload on a loaded machine) moves the timer."""

from __future__ import annotations

import time
from typing import Any

import pytest
from phone import fake_clock, follow, scroll_width, shot
from playwright.sync_api import expect

from companion.adapters import store
from companion.adapters.db import get_session
from companion.domain import get_game

NAMES = ["Anna", "Béla", "Cili"]
# Record what the page asks of the phone: vibrations and the screen wake lock.
RECORD = """
window.__buzz = [];
navigator.vibrate = function (pattern) { window.__buzz.push(pattern); return true; };
window.__locks = 0;
Object.defineProperty(navigator, "wakeLock", {value: {request: function () {
  window.__locks += 1;
  return Promise.resolve(new EventTarget());
}}});
"""


def open_timer(page: Any, url: str) -> None:
    page.add_init_script(RECORD)
    fake_clock(page)
    page.goto(url)


def shows(page: Any, clock: str, plays: str, after: str) -> None:
    expect(page.locator("#timer-clock")).to_have_text(clock)
    expect(page.locator("#timer-now")).to_have_text(f"{plays} plays")
    expect(page.locator("#timer-next")).to_have_text(f"Next: {after}")


def test_rk10_rk11_a_minute_then_the_penalty_and_the_turn_passes_clockwise(
    server: Any, page: Any
) -> None:
    open_timer(page, f"{server.url}/timer/rummikub?name=Anna&name=B%C3%A9la&name=Cili")
    shows(page, "1:00", "Anna", "Béla")  # RK-10: 1 minute a turn
    assert page.evaluate("window.__locks") == 1  # the screen stays on
    expect(page.locator("#timer-end")).to_be_hidden()
    shot(page, "timer-ready", full=False)

    page.click("#timer-tap")
    page.clock.run_for(15_000)
    shows(page, "0:45", "Anna", "Béla")
    shot(page, "timer-running", full=False)

    page.clock.run_for(45_000)  # 60 s in all: the end, its penalty, one buzz
    shows(page, "0:00", "Anna", "Béla")
    end = page.locator("#timer-end")
    expect(end).to_be_visible()
    expect(end).to_contain_text("Time is up!")
    expect(page.locator("#timer-penalty")).to_contain_text("RK-11")
    expect(page.locator("#timer-penalty")).to_contain_text("3 penalty tiles")
    assert page.evaluate("window.__buzz.length") == 1
    shot(page, "timer-ended", full=False)
    page.clock.run_for(5_000)
    assert page.evaluate("window.__buzz.length") == 1  # once per turn, not on every tick

    # One tap: the next seat clockwise (RK-2) with a full minute; round the table and back.
    page.click("#timer-tap")
    shows(page, "1:00", "Béla", "Cili")
    expect(end).to_be_hidden()
    page.clock.run_for(1_000)
    expect(page.locator("#timer-clock")).to_have_text("0:59")
    page.click("#timer-tap")
    shows(page, "1:00", "Cili", "Anna")
    page.click("#timer-tap")
    shows(page, "1:00", "Anna", "Béla")


def test_pause_stops_the_count_and_a_reload_keeps_everything(server: Any, page: Any) -> None:
    open_timer(page, f"{server.url}/timer/rummikub?name=Anna&name=B%C3%A9la&name=Cili")
    page.click("#timer-tap")
    page.click("#timer-tap")  # Béla's turn
    page.clock.run_for(20_000)
    shows(page, "0:40", "Béla", "Cili")

    page.click("#timer-pause")
    expect(page.locator("#timer-pause")).to_have_text("Resume")
    page.clock.run_for(30_000)
    expect(page.locator("#timer-clock")).to_have_text("0:40")  # paused: no time passes

    page.reload()  # still paused, still Béla's turn, still 40 s left
    shows(page, "0:40", "Béla", "Cili")
    expect(page.locator("#timer-pause")).to_have_text("Resume")
    page.clock.run_for(10_000)
    expect(page.locator("#timer-clock")).to_have_text("0:40")

    page.click("#timer-pause")  # resume
    page.clock.run_for(10_000)
    expect(page.locator("#timer-clock")).to_have_text("0:30")
    page.reload()  # running: the deadline was kept, so the count goes on from where it was
    shows(page, "0:30", "Béla", "Cili")
    page.clock.run_for(30_000)
    expect(page.locator("#timer-end")).to_be_visible()

    page.reload()  # ended: the end stays shown, and the phone does not buzz again
    expect(page.locator("#timer-end")).to_be_visible()
    assert page.evaluate("window.__buzz.length") == 0

    page.click("#timer-seats [data-seat='0']")  # give Anna the turn by hand
    shows(page, "1:00", "Anna", "Béla")
    page.click("#timer-reset")
    shows(page, "1:00", "Anna", "Béla")


def test_real_seconds_passing_move_nothing_not_even_across_a_reload(server: Any, page: Any) -> None:
    # What a loaded machine does to a test: real seconds pass between two steps. The page's
    # time is the fake clock's alone, so the count is where the test left it.
    open_timer(page, f"{server.url}/timer/rummikub?name=Anna&name=B%C3%A9la&name=Cili")
    page.click("#timer-tap")
    page.clock.run_for(10_000)
    shows(page, "0:50", "Anna", "Béla")
    time.sleep(1.5)  # the real seconds themselves: this is what the test is about
    expect(page.locator("#timer-clock")).to_have_text("0:50")
    page.reload()
    shows(page, "0:50", "Anna", "Béla")


def test_ro10_a_match_timer_follows_the_scoreboard_and_has_no_penalty(
    server: Any, page: Any
) -> None:
    with server.app.app_context():
        match = store.create_match(
            get_session(), game="rummy-o", players=NAMES, first_dealer="Anna", games=None
        )
        edit = match.edit_token
    page.add_init_script(RECORD)
    fake_clock(page)
    page.goto(f"{server.url}/m/{edit}")
    follow(page, "#timer-link")
    shows(page, "3:00", "Béla", "Cili")  # RO-10: 3 minutes; RO-3: Béla starts the round
    page.click("#timer-tap")
    page.clock.run_for(180_000)
    expect(page.locator("#timer-end")).to_be_visible()
    # The Rummy-O rulebook sets no penalty for running over: none is shown.
    assert page.locator("#timer-penalty").count() == 0
    follow(page, "#timer-back")
    assert page.url == f"{server.url}/m/{edit}"


def test_the_countdown_fills_the_phone(server: Any, page: Any) -> None:
    open_timer(page, f"{server.url}/timer/rummy-o?name=Anna&name=B%C3%A9la")
    assert scroll_width(page) <= 390
    tap = page.locator("#timer-tap").bounding_box()
    assert tap["width"] >= 340 and tap["height"] >= 330  # a big target, most of the screen
    digits = page.locator("#timer-clock").bounding_box()
    assert digits["height"] >= 120 and digits["width"] >= 250  # readable across the table
    keys = page.locator("#timer-pause").bounding_box()
    assert keys["height"] >= 44
    # The tap, the names and the buttons all fit on the screen without scrolling.
    bottom = page.locator("#timer-seats").bounding_box()
    assert bottom["y"] + bottom["height"] <= 844


CONTRAST = """(sel) => {
  function lum(css) {
    var c = css.match(/[\\d.]+/g).slice(0, 3).map(function (v) {
      v = v / 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }
  var e = document.querySelector(sel), s = getComputedStyle(e);
  var a = lum(s.color), b = lum(getComputedStyle(e.parentElement).backgroundColor);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("page", ["dark", "light"], indirect=True)
def test_the_digits_stand_out_in_light_and_dark(server: Any, page: Any, request: Any) -> None:
    scheme = request.node.callspec.params["page"]
    open_timer(page, f"{server.url}/timer/rummikub?name=Anna&name=B%C3%A9la&name=Cili")
    ratios = {"ready": page.evaluate(CONTRAST, "#timer-clock")}
    page.click("#timer-tap")
    page.clock.run_for(30_000)
    expect(page.locator("#timer-clock")).to_have_text("0:30")
    ratios["running"] = page.evaluate(CONTRAST, "#timer-clock")
    shot(page, f"timer-running-{scheme}", full=False)
    page.clock.run_for(25_000)
    expect(page.locator("#timer-clock")).to_have_text("0:05")
    ratios["last seconds"] = page.evaluate(CONTRAST, "#timer-clock")
    page.clock.run_for(5_000)
    expect(page.locator("#timer-end")).to_be_visible()
    ratios["over"] = page.evaluate(CONTRAST, "#timer-clock")
    shot(page, f"timer-ended-{scheme}", full=False)
    # WCAG AA asks 4.5:1 for text; the countdown keeps well clear of it in every state.
    assert all(r >= 4.5 for r in ratios.values()), ratios


def test_the_script_shows_the_servers_seconds_and_words(
    server: Any, page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nothing is hard-coded in timer.js: another limit from the game, another count; the words
    # are the page language's (here Hungarian), rendered by the server.
    monkeypatch.setattr(type(get_game("rummikub")), "turn_seconds", 75)
    open_timer(page, f"{server.url}/timer/rummikub?name=Anna&name=B%C3%A9la&lang=hu")
    expect(page.locator("#timer-clock")).to_have_text("1:15")
    expect(page.locator("#timer-action")).to_have_text("Koppints az indításhoz")
    page.click("#timer-tap")
    expect(page.locator("#timer-action")).to_have_text("Koppintás: következő játékos")
    page.click("#timer-pause")
    expect(page.locator("#timer-pause")).to_have_text("Folytatás")
    page.click("#timer-tap")  # a tap while paused resumes the same turn
    page.clock.run_for(75_000)
    expect(page.locator("#timer-end")).to_contain_text("Lejárt az idő!")
    expect(page.locator("#timer-penalty")).to_contain_text("3 büntetőlapot")
    page.click("#timer-tap")
    expect(page.locator("#timer-now")).to_have_text("Béla van soron")
    expect(page.locator("#timer-next")).to_have_text("Következő: Anna")
