"""Offline at the table: a dropped connection loses nothing, and says so.

These tests run their own app server on a fixed port, so that it can be stopped and started
again under the page (a phone whose Wi-Fi or server went away). A save made meanwhile waits
in the phone's outbox (IndexedDB), shown as "not saved yet" on the form and the scoreboard,
and is sent when the server is back: one round stored, never two, even when the first post
reached the server and only its answer was lost (the form's idempotency key). A stale
revision gets the server's own conflict screen. The service worker keeps the last scoreboard,
which opens without a connection "as of" when it was made.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from phone import (
    ARGS,
    PHONE,
    QuietHandler,
    answer,
    executable,
    fake_clock,
    follow,
    shot,
    start,
)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from werkzeug.serving import BaseWSGIServer, make_server

from companion.adapters import store
from companion.adapters.db import get_session
from companion.web.app import create_app

pytestmark = pytest.mark.service_worker  # the pages' own worker runs (phone.NO_WORKER)

NAMES = ["Anna", "Béla", "Cili"]
BUDGET = 60 * 1024  # every page's first load transfers under 60 KB
#: How often a phone tries its outbox again while a save waits (static/js/offline.js, ms).
RETRY = 8_000


class Table:
    """The app on 127.0.0.1 and a port of its own, which can be stopped and started again."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.httpd: BaseWSGIServer | None = None

    def up(self) -> None:
        """Serve (again) on the same port."""
        self.httpd = make_server(
            "127.0.0.1", self.port, self.app, threaded=True, request_handler=QuietHandler
        )
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def down(self) -> None:
        """Stop answering: connections are refused, as when the server or Wi-Fi is gone."""
        assert self.httpd is not None
        self.httpd.shutdown()
        self.httpd.server_close()
        self.httpd = None

    def rounds(self, board: str) -> int:
        """How many rounds the match behind this scoreboard address has stored."""
        edit = board.rstrip("/").rsplit("/", 1)[1]
        with self.app.app_context():
            match = store.get_by_edit_token(get_session(), edit)
            assert match is not None
            return len(store.result(match)["rounds"])


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """The app on a temporary SQLite file, served on a fixed port of 127.0.0.1."""
    folder = tmp_path_factory.mktemp("offline")
    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "DATABASE_URL": f"sqlite:///{folder / 'companion.sqlite3'}",
            "SECRET_KEY": "offline test secret",
        }
    )
    served = Table(app)
    served.up()
    try:
        yield served
    finally:
        if served.httpd is not None:
            served.down()
        app.extensions["companion_db"].dispose()


@pytest.fixture
def phone(browser: Any, table: Table) -> Iterator[Any]:
    """A phone whose service worker stays out of the way (page.route sees every post)."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    tab.set_default_timeout(15_000)
    yield tab
    if table.httpd is None:
        table.up()
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def until(page: Any, expression: str, seconds: float = 10) -> None:
    """Wait until ``expression`` is true in the page (wait_for_function needs eval, which the
    app's Content-Security-Policy forbids)."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(expression):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {expression}")


def fill_round(page: Any, racks: list[str]) -> None:
    """Round 1 of Rummikub: Cili went out, the others' racks."""
    answer(page, "went_out", "Cili")
    for i, rack in enumerate(racks):
        page.fill(f"#players-{i}-rack", rack)


def test_a_save_without_the_server_waits_on_the_phone_and_is_sent_when_it_is_back(
    table: Table, phone: Any
) -> None:
    fake_clock(phone)  # the outbox tries again when the test moves the phone's time on
    board = start(phone, table.url, "rummikub", NAMES, first=0)
    follow(phone, "#enter-round")
    form_url = phone.url
    fill_round(phone, ["R5", "B2 O7", ""])
    table.down()
    phone.click("#save-button")
    phone.locator("#unsaved").wait_for()
    assert phone.url == form_url  # still the form with everything typed, no error page
    assert phone.input_value("#players-1-rack") == "B2 O7"
    assert "Not saved yet" in phone.inner_text("#unsaved")
    # The note shows at once; the outbox's list is drawn once IndexedDB has kept the round.
    expect(phone.locator("#outbox")).to_contain_text("Not saved yet, kept on this phone: 1.")
    assert "Round 1, typed at" in phone.inner_text("#outbox")
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    shot(phone, "offline-not-saved-yet", full=False)
    assert table.rounds(board) == 0

    # The browser loses its session cookie meanwhile (closed and opened again): the kept CSRF
    # token no longer counts, and the outbox takes a fresh one from the form's page.
    phone.context.clear_cookies()
    table.up()
    # Sent by itself (every few seconds while one waits); then on to the scoreboard.
    phone.clock.run_for(RETRY)
    phone.wait_for_url(board)
    phone.wait_for_load_state()
    assert "Round 1 saved." in phone.inner_text("main")
    assert phone.locator("#board tbody tr[data-href]").count() == 1
    assert phone.locator("#outbox").is_hidden()
    assert table.rounds(board) == 1


def test_a_lost_answer_is_sent_again_and_stores_one_round_not_two(table: Table, phone: Any) -> None:
    board = start(phone, table.url, "rummikub", NAMES, first=0)
    follow(phone, "#enter-round")
    form_url = phone.url
    fill_round(phone, ["R5", "B2", ""])
    reached: list[int] = []

    def lose_the_answer(route: Any) -> None:
        """The post reaches the server and is stored; the answer never reaches the phone."""
        if route.request.method == "POST":
            reached.append(route.fetch(max_redirects=0).status)
            route.abort("connectionreset")
        else:
            route.continue_()

    phone.route(form_url, lose_the_answer)
    phone.click("#save-button")
    phone.locator("#unsaved").wait_for()
    assert reached == [302]  # the server stored round 1 and answered; the phone never heard
    assert table.rounds(board) == 1
    shot(phone, "offline-lost-answer", full=False)
    phone.unroute(form_url)

    # The connection is back: the save is sent again with the same key and the server answers
    # as the first time; the scoreboard shows round 1 once.
    back_online(phone)
    phone.wait_for_url(board)
    phone.wait_for_load_state()
    assert "Round 1 saved." in phone.inner_text("main")
    assert phone.locator("#board tbody tr[data-href]").count() == 1
    assert table.rounds(board) == 1


def test_a_stale_save_from_the_outbox_gets_the_conflict_screen(
    table: Table, phone: Any, browser: Any
) -> None:
    board = start(phone, table.url, "rummikub", NAMES, first=0)
    follow(phone, "#enter-round")
    fill_round(phone, ["R5 R6", "B2", ""])
    phone.context.set_offline(True)
    phone.click("#save-button")
    phone.locator("#unsaved").wait_for()

    # Meanwhile another phone saves round 1.
    other = browser.new_context(viewport=PHONE).new_page()
    other.goto(board + "/rounds/new")
    fill_round(other, ["R5", "B2 O7", ""])
    follow(other, "#save-button")
    assert table.rounds(board) == 1
    other.context.close()

    phone.context.set_offline(False)
    back_online(phone)
    refused = phone.locator("#outbox .outbox-refused")
    refused.wait_for()
    assert "Round 1 was not saved: the server refused it." in refused.inner_text()
    assert phone.locator("#unsaved").is_hidden()
    shot(phone, "offline-refused", full=False)
    follow(phone, "#outbox .outbox-refused button.primary")
    conflict = phone.locator("#conflict")
    assert conflict.is_visible()  # the server's own page: what changed, what was typed kept
    assert "Round 1 was saved on another phone" in conflict.inner_text()
    assert phone.input_value("#players-0-rack") == "R5 R6"
    follow(phone, "#keep-mine")
    assert "Round 1 saved." in phone.inner_text("main")
    assert table.rounds(board) == 1  # replaced, not added
    assert phone.locator("#outbox").is_hidden()  # the refused save is settled and gone


def test_manifest_is_valid_and_its_icons_exist(table: Table, phone: Any) -> None:
    phone.goto(table.url + "/")
    href = phone.get_attribute("link[rel=manifest]", "href")
    answer = phone.request.get(table.url + href)
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.text())
    assert manifest["name"] == "Companion"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0a6b4a"  # --accent of static/app.css
    assert manifest["background_color"] == "#f4f1ea"  # --bg
    sizes = set()
    for icon in manifest["icons"]:
        image = phone.request.get(table.url + icon["src"])
        assert image.status == 200, icon
        assert image.headers["content-type"].startswith(icon["type"])
        body = image.body()
        if icon["type"] == "image/png":
            assert body[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", body[16:24])
            assert f"{width}x{height}" == icon["sizes"]
            sizes.add(width)
    assert {192, 512} <= sizes  # what Chromium asks of an installable app
    csp = answer.headers["content-security-policy"]
    assert "manifest-src 'self'" in csp and "worker-src 'self'" in csp


def test_the_last_scoreboard_opens_offline_as_of_when_it_was_made(
    table: Table, browser: Any
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    board = start(page, table.url, "rummikub", NAMES, first=0)
    follow(page, "#enter-round")
    fill_round(page, ["R5", "B2", ""])
    follow(page, "#save-button")
    scope = page.evaluate("navigator.serviceWorker.ready.then(function (r) { return r.scope; })")
    assert scope == table.url + "/"
    view = page.get_attribute("#view-link", "value")
    page.goto(board)  # now through the service worker, which keeps this copy
    page.goto(view)
    page.goto(board + "/rounds/1")
    assert page.evaluate("!!navigator.serviceWorker.controller")

    # Round 2 is typed, and the server goes away before it is saved.
    page.goto(board + "/rounds/new")
    fill_round(page, ["B9", "R1 R2", ""])
    table.down()
    try:
        page.click("#save-button")
        page.locator("#unsaved").wait_for()
        page.goto(board)
        status = page.locator("#live-status")
        status.wait_for()
        assert status.inner_text().startswith("Not connected: the scores as of ")
        assert page.locator("#board tbody tr[data-href]").count() == 1
        unsaved = page.locator("#board tr.unsaved")
        unsaved.wait_for()
        assert unsaved.inner_text().endswith("Round 2 — not saved yet")
        assert "Not saved yet, kept on this phone: 1." in page.inner_text("#outbox")
        assert page.locator("#enter-round").is_visible()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        shot(page, "offline-scoreboard", full=False)
        page.goto(view)  # the read-only view too (live.js says it)
        page.locator("#live-status.shown").wait_for()
        assert "Not connected: the scores as of " in page.inner_text("#live-status")
        page.goto(board + "/rounds/1")
        assert "Round 1" in page.inner_text("h1")
        assert page.inner_text("#copy-status").startswith("Not connected: the scores as of ")
        # A round form is never kept (its revision and key would be old): a page says why.
        page.goto(board + "/rounds/new")
        assert page.inner_text("h1") == "No connection"
    finally:
        table.up()
    # Back: round 2 is sent (by whichever page of the app is open when the server returns),
    # and the scoreboard is the server's again, with both rounds.
    page.goto(board)  # its outbox sends round 2 at once, and the page reloads with it
    page.locator("#board tbody tr[data-href] >> nth=1").wait_for()
    assert table.rounds(board) == 2
    page.wait_for_load_state("networkidle")
    page.goto(board)
    page.locator("#board tbody tr[data-href] >> nth=1").wait_for()
    assert page.locator("#live-status").is_hidden()
    assert page.locator("#outbox").is_hidden()
    assert page.locator("#board tr.unsaved").count() == 0
    assert table.rounds(board) == 2
    context.close()
    assert not errors, errors


def back_online(page: Any) -> None:
    """Tell the page the connection is back. The browser may have told it first, and the save
    gone and the page moved on to the scoreboard: then there is no page left to tell."""
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError as err:
        if "context was destroyed" not in str(err):
            raise


def test_plain_http_on_the_network_says_what_will_not_work(table: Table, browser: Any) -> None:
    """A name that is not localhost over plain http is no secure context in Chromium: no
    service worker, no Wake Lock API, no Clipboard API. The page says so, keeps the screen on
    with NoSleep.js after a tap, and the outbox still keeps a save."""
    rules = f"--host-resolver-rules=MAP table.lan 127.0.0.1:{table.port}"
    lan_browser = browser.browser_type.launch(executable_path=executable(), args=[*ARGS, rules])
    try:
        page = lan_browser.new_context(viewport=PHONE).new_page()
        problems: list[str] = []
        page.on("pageerror", lambda err: problems.append(str(err)))
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        lan = f"http://table.lan:{table.port}"
        board = start(page, lan, "rummikub", NAMES, first=0)
        assert board.startswith(lan)
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'wakeLock' in navigator") is False
        assert page.evaluate("'serviceWorker' in navigator") is False
        hint = page.locator("#insecure")
        assert hint.is_visible()
        assert "plain http, not HTTPS" in hint.inner_text()
        assert "Playing over HTTPS on the local network" in hint.inner_text()
        until(page, "typeof window.NoSleep === 'function'")  # vendored, same origin
        shot(page, "insecure-hint", full=False)
        page.click("#insecure-ok")  # a tap: NoSleep.js starts its video
        assert hint.is_hidden()
        page.goto(board)
        assert page.locator("#insecure").is_hidden()  # said once per visit
        # The outbox needs no secure context: a save without the connection still waits.
        follow(page, "#enter-round")
        fill_round(page, ["R5", "B2", ""])
        page.context.set_offline(True)
        page.click("#save-button")
        page.locator("#unsaved").wait_for()
        page.context.set_offline(False)
        back_online(page)
        page.wait_for_url(board)
        assert table.rounds(board) == 1
    finally:
        lan_browser.close()
    assert not [m for m in problems if "Content Security Policy" in m], problems


@pytest.mark.parametrize(
    "path", ["/", "/start/rummikub", "{board}", "{view}", "{board}/rounds/new", "/offline"]
)
def test_every_page_first_load_is_light_and_stays_home(
    table: Table, browser: Any, path: str
) -> None:
    with table.app.app_context():
        match = store.create_match(
            get_session(), game="rummikub", players=NAMES, first_dealer=NAMES[0], games=None
        )
        board, view = f"/m/{match.edit_token}", f"/v/{match.view_token}"
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    responses: list[Any] = []
    context.on("response", lambda r: responses.append(r))
    page.goto(table.url + path.format(board=board, view=view), wait_until="networkidle")
    sizes = {  # a 304 (live.js asking with the ETag) and a HEAD (offline.js) carry no body
        r.url: len(r.body())
        for r in responses
        if r.request.method != "HEAD" and not 300 <= r.status < 400
    }
    context.close()
    total = sum(sizes.values())
    print(f"\n{path} first load: {total} bytes ({total / 1024:.1f} KB)")
    assert all(url.startswith(table.url) for url in sizes)  # nothing from another origin
    assert total < BUDGET


def _part_page(table: Table, game: str) -> tuple[str, str]:
    """A new match of ``game`` with its parts open: (edit token, Béla's part link)."""
    with table.app.app_context():
        session = get_session()
        match = store.create_match(
            session, game=game, players=NAMES, first_dealer="Anna", games=None
        )
        parts = store.open_parts(session, match).parts
        return match.edit_token, f"{table.url}/p/{parts[1].token}"


def test_a_part_sent_without_a_connection_waits_and_goes_when_it_is_back(
    table: Table, phone: Any
) -> None:
    fake_clock(phone)
    edit, link = _part_page(table, "rummikub")
    phone.goto(link)
    phone.fill("#players-0-rack", "R5 B2")
    table.down()
    phone.click("#save-button")
    phone.locator("#unsaved").wait_for()
    assert "Not sent yet" in phone.inner_text("#unsaved")
    # The note shows at once; the outbox's list is drawn once IndexedDB has kept the part.
    expect(phone.locator("#outbox")).to_contain_text("Béla · Round 1, typed at")
    assert phone.input_value("#players-0-rack") == "R5 B2"  # nothing typed is lost
    table.up()
    phone.clock.run_for(RETRY)
    phone.locator("#part-sent").wait_for()
    with table.app.app_context():
        match = store.get_by_edit_token(get_session(), edit)
        assert match is not None
        parts = store.open_of(get_session(), match)
        assert parts[1].part == {"rack": ["R5", "B2"]}


def test_a_part_that_waited_while_the_round_was_saved_is_told_so(table: Table, phone: Any) -> None:
    edit, link = _part_page(table, "rummikub")
    phone.goto(link)
    phone.fill("#players-0-rack", "K9")
    phone.context.set_offline(True)
    phone.click("#save-button")
    phone.locator("#unsaved").wait_for()
    with table.app.app_context():  # meanwhile the scorekeeper saves round 1
        session = get_session()
        match = store.get_by_edit_token(session, edit)
        assert match is not None
        doc = {
            "went_out": "Anna",
            "players": [
                {"name": "Anna", "rack": []},
                {"name": "Béla", "rack": ["K9", "K10"]},
                {"name": "Cili", "rack": {"points": 4}},
            ],
        }
        store.add_round(session, match, doc)
    phone.context.set_offline(False)
    back_online(phone)
    refused = phone.locator("#outbox .outbox-refused")
    refused.wait_for()
    follow(phone, "#outbox .outbox-refused button.primary")
    closed = phone.locator("#part-closed")
    assert "Round 1 was saved" in closed.inner_text()
    assert "The scorekeeper changed your part" in phone.inner_text("main")
    shot(phone, "own-hands-saved-meanwhile", full=False)
