"""Own hands — every player enters their own part on their own phone.

Four player phones and the scorekeeper's, each its own browser context at 390×844 on the same
app. The parts are entered with the bench's own per-player driver (bench/taps.py: the walker on
a player's page, then "No cards left" or the count chips, which send the part); the scorekeeper
taps the rest and saves once every part shows in the form. Every phone runs on Playwright's
fake clock, paused: a joker is its card held down while the clock moves on past walk.js's
450 ms, and static/js/parts.js asks the server when the test moves the clock on a poll (1.5 s
on the scorekeeper's form and on a player's page), so a loaded machine changes nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from phone import NO_WORKER, PHONE, fake_clock, scroll_width, shot
from playwright.sync_api import expect

from bench.taps import (
    Counter,
    board_totals,
    enter_ending,
    enter_part,
    new_match,
    open_parts,
    until_shown,
    wait_filled,
    wait_saved,
)
from companion.domain import score_document

DATA = Path(__file__).resolve().parent.parent / "data"


def _expected(doc: dict[str, Any]) -> list[int]:
    return [p["score"] for p in score_document(doc)["players"]]


@pytest.fixture
def phone(browser: Any) -> Iterator[Callable[[], Any]]:
    """Makes phones: each a page in its own browser context (its own cookies and storage),
    390×844; a JavaScript error on any of them fails the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def new() -> Any:
        context = browser.new_context(viewport=PHONE, service_workers=NO_WORKER)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.set_default_timeout(10_000)
        fake_clock(page)
        page.fake_clock = True  # bench.taps: holds and polls move this clock on
        return page

    yield new
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def _save(keeper: Counter) -> None:
    keeper.tap(keeper.page.get_by_role("button", name=re.compile("^Save game")), "save")
    wait_saved(keeper.page)


def test_four_phones_enter_their_own_parts_and_the_scorekeeper_the_rest(
    server: Any, phone: Callable[[], Any]
) -> None:
    doc = json.loads((DATA / "dense-round.json").read_text(encoding="utf-8"))
    players = doc["players"]
    keeper = Counter(phone())
    keeper.page.goto(f"{server.url}/m/{new_match(server.app, doc)}")
    links = open_parts(keeper)
    assert len(links) == len(players)
    assert keeper.page.locator("#parts .qr svg").count() == len(players)  # a QR code per seat
    # Every player opens their link at once: the walker stays closed until they tap "Tap in
    # my melds and hand" (one who types has nothing to close); then it is for them alone.
    phones = [Counter(phone()) for _ in players]
    for own, link in zip(phones, links, strict=True):
        own.open(link, "the link")
    for own, player in zip(phones, players, strict=True):
        page = own.page
        walker = page.locator("#walker")
        page.locator("#walk-open").wait_for()
        assert not walker.is_visible()
        page.locator("#players-0-melds").fill("R1 R2 R3")  # typed at once, nothing in the way
        page.locator("#players-0-melds").fill("")
        page.locator("#walk-open").click()
        walker.wait_for()
        assert page.locator("h1.part-name").inner_text() == player["name"]
        assert walker.locator("#walk-who .walk-name").inner_text() == player["name"]
        assert walker.locator("#walk-next").inner_text() == "Send my part"
        # The whole walker on the 390×844 screen, nothing scrolled away, nothing sideways.
        assert walker.evaluate("d => d.scrollHeight") <= PHONE["height"]
        box = walker.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        assert scroll_width(page) <= PHONE["width"]
    shot(phones[1].page, "own-hands-walker", full=False)
    for own, player in zip(phones, players, strict=True):
        own.page.locator("#walker [data-act=close]").click()  # as opened: enter_part opens it
        enter_part(own, doc["game"], player)
        own.page.locator("#part-sent").wait_for()  # sent, and the page says so
        assert own.taps <= 16, (player["name"], own.taps, own.log)
    for seat, player in enumerate(players):  # each fills in on the scorekeeper's form
        wait_filled(keeper.page, seat, player)
        assert "sent" in (
            keeper.page.locator(f"[data-part-seat='{seat}']").get_attribute("class") or ""
        )
    # Anna went out: "No cards left" sent her counts as 0.
    assert phones[0].log[-1] == "no cards left"
    assert keeper.page.locator("#players-0-low").input_value() == "0"
    assert not keeper.page.locator("#walker").is_visible()  # the walk did not open by itself
    enter_ending(keeper, doc, exact_last=False)
    assert not keeper.page.locator("#walker").is_visible()
    _save(keeper)
    assert keeper.taps <= 15, keeper.log
    assert board_totals(keeper.page) == _expected(doc)
    # Each player's page asks whether its round is open; once saved it says so.
    for own in phones:
        closed = own.page.locator("#part-closed")
        until_shown(own.page, lambda page=own.page: page.locator("#part-closed").count() > 0, 1500)
        assert "was saved" in closed.inner_text()
        assert own.page.get_by_role("heading", name="Saved as you sent it").is_visible()
        assert scroll_width(own.page) <= PHONE["width"]


def test_a_part_the_scorekeeper_changed_is_shown_to_its_player(
    server: Any, phone: Callable[[], Any]
) -> None:
    doc = {
        "game": "rummy17",
        "bonus_cards": ["most-cards", "most-sets", "longest-run", "most-red", "went-out"],
        "went_out": None,
        "players": [
            {"name": "Ada", "melds": [["R1", "R2", "R3"]], "hand": {"low": 2, "high": 1}},
            {"name": "Bo", "melds": [["G9", "B9", "Y9"]], "hand": {"low": 0, "high": 4}},
        ],
    }
    keeper = Counter(phone())
    keeper.page.goto(f"{server.url}/m/{new_match(server.app, doc)}")
    links = open_parts(keeper)
    ada = Counter(phone())
    ada.open(links[0], "the link")
    enter_part(ada, doc["game"], doc["players"][0])
    ada.page.locator("#part-sent").wait_for()
    form = keeper.page
    wait_filled(form, 0, doc["players"][0])
    assert form.locator("#players-0-melds").input_value() == "R1 R2 R3"
    # The part came; the scorekeeper counts Ada's hand again and changes it. The form's own
    # polling does not put the part back over it.
    form.locator("#players-0-low").fill("3")
    # Bo has no phone at hand: the scorekeeper types his part.
    form.locator("#players-1-melds").fill("G9 B9 Y9")
    form.locator("#players-1-low").fill("0")
    form.locator("#players-1-high").fill("4")
    enter_ending(keeper, doc, exact_last=False)
    with form.expect_response(re.compile(r"/parts\.json$")):  # the next poll (every 1.5 s) …
        form.clock.run_for(1500)
    form.wait_for_timeout(200)  # … and its answer read
    assert form.locator("#players-0-low").input_value() == "3"
    _save(keeper)
    saved = {
        **doc,
        "players": [{**doc["players"][0], "hand": {"low": 3, "high": 1}}, doc["players"][1]],
    }
    assert board_totals(form) == _expected(saved)
    ada.page.reload()
    assert "was saved" in ada.page.locator("#part-closed").inner_text()
    changed = ada.page.get_by_role("heading", name="The scorekeeper changed your part")
    assert changed.is_visible()
    shown = ada.page.locator("dl.part-shown")
    assert shown.count() == 2  # what Ada sent, and what was saved
    assert "Cards 1–9: 2" in shown.nth(0).inner_text()
    assert "Cards 1–9: 3" in shown.nth(1).inner_text()
    assert scroll_width(ada.page) <= PHONE["width"]
    # Bo never opened his link: it says the round was saved, and what the scorekeeper saved
    # for him (never "as you sent it").
    bo = phone()
    bo.goto(links[1])
    assert "was saved" in bo.locator("#part-closed").inner_text()
    assert bo.get_by_role("heading", name="Saved", exact=True).is_visible()
    assert bo.locator("dl.part-shown").count() == 1
    assert "as you sent it" not in bo.inner_text("main")


#: The live-update time: a change shows on every phone holding the page within 2 s (the
#: read-only scoreboard's promise). The scorekeeper's form sends a change 300 ms after the
#: last key; a player's page asks every 1.5 s.
LIVE_MS = 2000
KEEP_MS = 300


def _two_player_round() -> dict[str, Any]:
    return {
        "game": "rummy17",
        "bonus_cards": ["most-cards", "most-sets", "longest-run", "most-red", "went-out"],
        "went_out": None,
        "players": [
            {"name": "Ada", "melds": [["R1", "R2", "R3"]], "hand": {"low": 2, "high": 1}},
            {"name": "Bo", "melds": [["G9", "B9", "Y9"]], "hand": {"low": 0, "high": 4}},
        ],
    }


def _asks(page: Any, pattern: str, ms: int) -> None:
    """Move the page's clock on ``ms`` and wait for the request it makes meanwhile."""
    with page.expect_response(re.compile(pattern)):
        page.clock.run_for(ms)
    page.wait_for_timeout(50)  # its answer handled


def test_the_scorekeepers_change_shows_on_the_players_phone_within_the_live_time(
    server: Any, phone: Callable[[], Any]
) -> None:
    doc = _two_player_round()
    keeper = Counter(phone())
    keeper.page.goto(f"{server.url}/m/{new_match(server.app, doc)}")
    links = open_parts(keeper)
    ada = Counter(phone())
    ada.open(links[0], "the link")
    enter_part(ada, doc["game"], doc["players"][0])
    page = ada.page
    page.locator("#part-sent").wait_for()
    assert page.locator("#players-0-low").input_value() == "2"
    form = keeper.page
    wait_filled(form, 0, doc["players"][0])
    # The scorekeeper counts Ada's hand again (3 low cards); 1.8 s later her phone has it.
    form.locator("#players-0-low").fill("3")
    _asks(form, r"/parts/0$", KEEP_MS)
    _asks(page, r"/news\.json$", LIVE_MS - KEEP_MS - 200)
    assert page.locator("#players-0-low").input_value() == "3"
    kept = page.locator("#part-kept")
    expect(kept).to_be_visible()
    expect(kept).to_contain_text("The scorekeeper changed your part")
    expect(kept).to_contain_text("Cards 1–9: 3")
    assert not page.locator("#part-sent").is_visible()  # no "Sent ✓ … You can still change it"
    assert scroll_width(page) <= PHONE["width"]
    shot(page, "own-hands-kept", full=False)
    # While Ada is changing her melds, a further change is offered, not typed over hers.
    page.locator("#players-0-melds").fill("R1 R2 R3 R4")
    form.locator("#players-0-high").fill("2")
    _asks(form, r"/parts/0$", KEEP_MS)
    _asks(page, r"/news\.json$", 1500)
    assert page.locator("#players-0-melds").input_value() == "R1 R2 R3 R4"
    assert page.locator("#players-0-high").input_value() == "1"
    page.locator("#use-kept").click()
    assert page.locator("#players-0-high").input_value() == "2"
    assert page.locator("#players-0-melds").input_value() == "R1 R2 R3"


def test_a_card_in_two_parts_is_flagged_on_the_seat_and_the_second_phone(
    server: Any, phone: Callable[[], Any]
) -> None:
    doc = _two_player_round()
    keeper = Counter(phone())
    keeper.page.goto(f"{server.url}/m/{new_match(server.app, doc)}")
    links = open_parts(keeper)
    ada, bo = Counter(phone()), Counter(phone())
    ada.open(links[0], "the link")
    bo.open(links[1], "the link")
    enter_part(ada, doc["game"], doc["players"][0])
    ada.page.locator("#part-sent").wait_for()
    # Bo's part holds R2 too (Ada's run): sent, and his phone says so at once, naming Ada.
    bo.page.locator("#players-0-melds").fill("R2 G2 Y2")
    bo.page.locator("#players-0-high").fill("4")
    bo.page.locator("#save-button").click()
    bo.page.locator("#part-sent").wait_for()
    flags = bo.page.locator("#part-flags")
    expect(flags).to_be_visible()
    expect(flags).to_contain_text("R2 appears twice (also in Ada's meld 1)")
    assert scroll_width(bo.page) <= PHONE["width"]
    shot(bo.page, "own-hands-flagged", full=False)
    assert not ada.page.locator("#part-flags").is_visible()  # hers came first
    # The scorekeeper's seat panel, at the next ask, names both.
    _asks(keeper.page, r"/parts\.json$", 1500)
    seat = keeper.page.locator("[data-part-seat='1'] [data-part-flags]")
    expect(seat).to_contain_text("Bo, meld 1: R2 appears twice (also in Ada's meld 1)")
    assert not keeper.page.locator("[data-part-seat='0'] [data-part-flags]").is_visible()


def test_stop_says_whose_parts_were_not_sent_and_the_phone_keeps_the_typing(
    server: Any, phone: Callable[[], Any]
) -> None:
    doc = _two_player_round()
    keeper = Counter(phone())
    keeper.page.goto(f"{server.url}/m/{new_match(server.app, doc)}")
    links = open_parts(keeper)
    ada, bo = Counter(phone()), Counter(phone())
    ada.open(links[0], "the link")
    bo.open(links[1], "the link")
    enter_part(ada, doc["game"], doc["players"][0])
    ada.page.locator("#part-sent").wait_for()
    bo.page.locator("#players-0-melds").fill("G9 B9 Y9")  # typed, not sent yet
    form = keeper.page
    form.locator("#parts-drop").click()
    form.wait_for_load_state()
    stopped = form.locator("#parts-stopped")
    expect(stopped).to_contain_text("Not sent from their phones: Bo.")
    assert form.locator("#players-0-melds").input_value() == "R1 R2 R3"  # Ada's is in
    expect(form.locator("[data-part-unsent='1']")).to_be_visible()
    assert scroll_width(form) <= PHONE["width"]
    form.locator("#parts-stopped").scroll_into_view_if_needed()
    shot(form, "own-hands-stopped", full=False)
    # Bo's phone, at its next ask: the scorekeeper enters his part; what he typed stays.
    _asks(bo.page, r"/news\.json$", 1500)
    expect(bo.page.locator("#part-dropped")).to_be_visible()
    expect(bo.page.locator("#part-dropped")).to_contain_text("entering your part")
    assert bo.page.locator("#players-0-melds").input_value() == "G9 B9 Y9"
    assert not bo.page.locator("#save-button").is_visible()
    assert scroll_width(bo.page) <= PHONE["width"]
    shot(bo.page, "own-hands-dropped", full=False)
    # Reloaded later, the page still shows what this phone kept as typed.
    bo.page.reload()
    draft = bo.page.locator("#part-draft")
    expect(draft).to_be_visible()
    expect(draft).to_contain_text("G9 B9 Y9")
