"""The phone itself: six players without sideways scrolling, page weight, wake lock, dark mode."""

from __future__ import annotations

from typing import Any

from phone import NO_WORKER, follow, shot

from companion.adapters import store
from companion.adapters.db import get_session
from companion.web.assets import static_url

SIX = ["Anna-Katharina", "Bartholomäus", "Вячеслав", "Zsófia Eleonóra", "Ødegaard", "Li"]
BUDGET = 60 * 1024  # the first load of the scoreboard transfers under 60 KB


def six_player_match(server: Any, games: int = 6) -> tuple[str, str]:
    """A 6-player match with one RUMMY 17 round and one ordinary round; (edit, view) tokens."""
    melds = [
        [["R1", "R2", "R3"]],
        [["B4", "B5", "B6", "B7"]],
        [["G8", "Y8", "K8"]],
        [["Y10", "Y11", "Y12"]],
        [["K13", "K14", "K15", "*K16"]],
        [["R16", "B16", "G16"]],
    ]
    hands: list[Any] = [[], ["R9"], {"low": 3, "high": 4}, ["G17", "B10"], ["B3"], ["Y1"]]
    round_doc = {
        "game": "rummy17",
        "bonus_cards": ["most-cards", "most-sets", "longest-run", "most-red", "went-out"],
        "went_out": SIX[0],
        "last_discard": "K17",
        "players": [
            {"name": n, "melds": m, "hand": h} for n, m, h in zip(SIX, melds, hands, strict=True)
        ],
    }
    with server.app.app_context():
        session = get_session()
        match = store.create_match(
            session, game="rummy17", players=SIX, first_dealer=SIX[4], games=games
        )
        store.add_round(session, match, round_doc)
        plain = dict(round_doc, last_discard="K16")
        plain["players"] = [dict(p) for p in round_doc["players"]]
        plain["players"][4] = dict(plain["players"][4], melds=[["K13", "K14", "K15", "*K12"]])
        store.add_round(session, match, plain)
        return match.edit_token, match.view_token


def scroll_width(page: Any) -> int:
    return page.evaluate("document.scrollingElement.scrollWidth")


def test_six_players_fit_without_sideways_scrolling(server: Any, page: Any) -> None:
    edit, view = six_player_match(server)
    for path in (
        f"/m/{edit}",
        f"/v/{view}",
        f"/m/{edit}/rounds/1",
        f"/m/{edit}/rounds/new",
        f"/m/{edit}/rounds/1/edit",
        f"/m/{edit}/rounds/1/delete",
        "/",
        "/start/rummy17",
    ):
        page.goto(server.url + path)
        assert scroll_width(page) <= 390, path
    page.goto(f"{server.url}/m/{edit}")
    headers = page.locator("#board thead th").all()
    assert len(headers) == 7
    for th in headers:  # every column header is inside the screen
        box = th.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    names = page.locator("#board thead th > span:last-child").all()
    whole = "e => e.scrollHeight <= e.clientHeight && e.scrollWidth <= e.clientWidth"
    for name, span in zip(SIX, names, strict=True):
        assert span.inner_text() == name
        fits = span.evaluate(whole)
        assert fits, name  # shown whole, not cut to a few letters
    shot(page, "six-players")
    assert page.locator("#board .x2").count() == 1  # round 1 was a RUMMY 17
    rows = page.locator("#board tbody tr[data-href]").all()
    assert all(r.bounding_box()["height"] >= 44 for r in rows)  # thumb-sized rows


def test_scoreboard_first_load_is_light_and_stays_home(server: Any, browser: Any) -> None:
    edit, _ = six_player_match(server)
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers=NO_WORKER)
    page = context.new_page()
    responses: list[Any] = []
    page.on("response", lambda r: responses.append(r))
    page.goto(f"{server.url}/m/{edit}", wait_until="networkidle")
    sizes = {r.url.removeprefix(server.url): len(r.body()) for r in responses}
    context.close()
    total = sum(sizes.values())
    print(f"\nscoreboard first load: {total} bytes ({total / 1024:.1f} KB): {sizes}")
    with server.app.test_request_context():  # the scripts and styles by their hashed names
        assert set(sizes) >= {f"/m/{edit}", static_url("app.css"), static_url("app.js")}
    assert all(r.url.startswith(server.url) for r in responses)  # no request leaves the origin
    assert total < BUDGET


def test_wake_lock_is_taken_and_taken_again(server: Any, page: Any) -> None:
    edit, view = six_player_match(server)
    page.add_init_script(
        """
        window.__locks = 0;
        Object.defineProperty(navigator, "wakeLock", {value: {request: function () {
          window.__locks += 1;
          var lock = new EventTarget();
          lock.release = function () { lock.dispatchEvent(new Event("release")); };
          window.__lock = lock;
          return Promise.resolve(lock);
        }}});
        """
    )
    page.goto(f"{server.url}/v/{view}")
    page.wait_for_function("window.__locks === 1")
    # The browser releases the lock when the page is hidden; coming back takes it again.
    page.evaluate("window.__lock.release(); document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.__locks === 2")
    page.goto(server.url + "/")  # app.js asks for the lock as it runs, before "load", or never
    assert page.locator("body[data-wake]").count() == 0
    assert page.evaluate("window.__locks") == 0  # the home page does not keep the screen on


def test_copy_buttons_copy_the_links(server: Any, browser: Any) -> None:
    edit, view = six_player_match(server)
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers=NO_WORKER)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    page.goto(f"{server.url}/m/{edit}")
    page.click("[data-copy=view-link]")
    assert page.evaluate("navigator.clipboard.readText()") == f"{server.url}/v/{view}"
    page.click("[data-copy=edit-link]")
    assert page.evaluate("navigator.clipboard.readText()") == f"{server.url}/m/{edit}"
    context.close()


def test_dark_mode_follows_the_system(server: Any, browser: Any) -> None:
    edit, _ = six_player_match(server)
    colours = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, color_scheme=scheme, service_workers=NO_WORKER
        )
        page = context.new_page()
        page.goto(f"{server.url}/m/{edit}")
        colours[scheme] = page.evaluate("getComputedStyle(document.body).backgroundColor")
        context.close()
    assert colours["light"] != colours["dark"]
    assert colours["dark"] == "rgb(18, 21, 19)"


def test_a_round_can_be_entered_without_javascript(server: Any, browser: Any) -> None:
    edit, _ = six_player_match(server)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, java_script_enabled=False, service_workers=NO_WORKER
    )
    page = context.new_page()
    page.goto(f"{server.url}/m/{edit}/rounds/new")
    assert page.locator("[data-pick]").first.is_hidden()  # the picker needs JavaScript
    page.fill("#players-0-melds", "R1 R2 R3")
    follow(page, "#draw")  # the server draws five bonus cards and keeps what was typed
    assert page.locator("input[name=bonus_cards]:checked").count() == 5
    assert page.input_value("#players-0-melds") == "R1 R2 R3"
    for i in range(1, 6):
        page.fill(f"#players-{i}-low", str(i))
    page.check(f"input[name=went_out][value='{SIX[0]}']")
    page.fill("#last_discard", "Y17")
    follow(page, "#preview-button")
    assert "Preview (not saved)" in page.inner_text("#preview")
    assert page.locator("#r17").is_visible()  # RUMMY 17 shown before saving (R17-15a)
    follow(page, "#save-button")
    assert page.url == f"{server.url}/m/{edit}"
    assert page.locator("#board .x2").count() == 2
    context.close()


def test_blank_sheets_offer_only_the_chosen_games_seats(server: Any, page: Any) -> None:
    page.goto(server.url + "/sheets/blank")
    page.select_option("#players", "6")
    page.select_option("#game", "rummikub")  # RK-1: 2 to 4 players
    assert page.input_value("#players") == "4"
    assert page.locator("#players option[value='5']").is_disabled()
    query = page.evaluate("new URLSearchParams(new FormData(document.forms.blank)).toString()")
    answer = page.request.get(server.url + "/sheets/blank.pdf?" + query)
    assert answer.status == 200, answer.text()
    assert answer.headers["content-type"] == "application/pdf"
