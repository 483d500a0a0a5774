"""A rack by photo (contract "Photos") on a player's own page, in Chromium at 390×844.

Anna photographs her rack (a real photo: tests/data/photos, CC BY 4.0, ATTRIBUTION.md there),
confirms each tile marked ? with one tap and sends; the scorekeeper's form fills in, Béla
went out, the round is saved and the scoreboard shows what the rules core scores for the
rack as read. The taps (photograph, use the photo, a tap per unsure tile, send) are counted
with bench/taps.py's own driver; the seconds from the shutter to the chips are printed, not
asserted (bench/taps.py --photo measures them). The scorekeeper can photograph any rack on
the round form itself, too.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from phone import NO_WORKER, PHONE, overflowing, scroll_width, shot
from playwright.sync_api import expect

from bench.taps import Counter, board_totals, new_match, open_parts, photo_part
from companion.domain import get_game, score_document

PHOTOS = Path(__file__).resolve().parent.parent / "data" / "photos"
#: Ten tiles on a rack, seen from the player's seat (training/validation.txt: never trained
#: on); the shipped reader reads them all right, with its K5 marked unsure for the player to
#: confirm.
RACK = PHOTOS / "rummy3-12_jpeg.rf.993c1f8073fb7f5142a11420bfc46a76.jpg"


def test_a_rack_photographed_on_a_players_page_scores_as_the_rack_says(
    server: Any, browser: Any
) -> None:
    doc: dict[str, Any] = {
        "game": "rummikub",
        "went_out": "Béla",
        "players": [{"name": "Anna", "rack": []}, {"name": "Béla", "rack": []}],
    }
    keeper_context = browser.new_context(viewport=PHONE, service_workers=NO_WORKER)
    anna_context = browser.new_context(viewport=PHONE, service_workers=NO_WORKER)
    errors: list[str] = []
    try:
        # ``companion serve`` loads the reader as each worker starts (server.py); this server
        # runs the app in a thread, so its reader is loaded the same way before the phones come.
        from companion.services import photos

        photos.warm()
        keeper = Counter(keeper_context.new_page())
        keeper.page.on("pageerror", lambda err: errors.append(str(err)))
        keeper.page.set_default_timeout(10_000)
        keeper.page.goto(f"{server.url}/m/{new_match(server.app, doc)}")
        links = open_parts(keeper)
        anna = Counter(anna_context.new_page())
        anna.page.on("pageerror", lambda err: errors.append(str(err)))
        # the photo is shrunk on a canvas from a blob: image, which the page's policy allows
        anna.page.on(
            "console",
            lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
        )
        anna.page.set_default_timeout(10_000)
        anna.open(links[0], "the link")
        anna.taps, anna.log = 0, []
        take = anna.page.locator(".photo-take")
        assert take.inner_text().strip().endswith("Photograph the rack")
        camera = anna.page.locator(".photo input[type=file]")
        assert camera.get_attribute("accept") == "image/*"
        assert camera.get_attribute("capture") == "environment"
        rack, seconds = photo_part(anna, RACK)
        read_ms = anna.read_ms
        print(
            f"shutter to chips: {seconds:.2f} s (sent and read: {read_ms} ms); "
            f"taps: {anna.taps} ({', '.join(anna.log)})"
        )
        shot(anna.page, "photo-rack-sent")
        confirmed = anna.log.count("confirm a tile")
        assert confirmed >= 1  # an unsure tile was confirmed with one tap
        assert anna.taps == 3 + confirmed, anna.log
        assert 5 <= len(rack) <= 20
        anna.page.wait_for_load_state()
        assert scroll_width(anna.page) <= PHONE["width"], overflowing(anna.page)
        # The scorekeeper's form shows the rack as sent; Béla went out; saved.
        form = keeper.page
        form.wait_for_function(
            "want => (document.getElementById('players-0-rack') || {}).value === want",
            arg=" ".join(rack),
            polling=100,
        )
        for question in get_game("rummikub").describe().endings:  # who went out: Béla
            group = form.locator("#ending").get_by_role("radiogroup", name=question.question)
            keeper.tap(group.get_by_role("radio", name="Béla", exact=True), "Béla went out")
        keeper.tap(form.get_by_role("button", name=re.compile("^Save (round|game)")), "save")
        form.wait_for_url(re.compile(r"/m/[^/]+$"))
        saved = {**doc, "players": [{"name": "Anna", "rack": rack}, {"name": "Béla", "rack": []}]}
        want = [p["score"] for p in score_document(saved)["players"]]
        assert board_totals(form) == want
        assert want[0] < 0 < want[1]
    finally:
        keeper_context.close()
        anna_context.close()
    assert not errors, errors


def test_the_scorekeeper_photographs_a_rack_on_the_round_form(server: Any, browser: Any) -> None:
    doc: dict[str, Any] = {
        "game": "rummikub",
        "went_out": "Béla",
        "players": [{"name": "Anna", "rack": []}, {"name": "Béla", "rack": []}],
    }
    context = browser.new_context(viewport=PHONE, service_workers=NO_WORKER)
    errors: list[str] = []
    try:
        from companion.services import photos

        photos.warm()
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.set_default_timeout(10_000)
        page.goto(f"{server.url}/m/{new_match(server.app, doc)}")
        page.get_by_role("link", name=re.compile(r"^Enter round")).click()
        # one camera button per rack, each writing into its own player's rack (counted once
        # the form has loaded: the click does not wait for the next page)
        page.wait_for_url(re.compile(r"/rounds/new$"))
        boxes = page.locator("[data-photo]")
        expect(boxes).to_have_count(2)
        assert [boxes.nth(i).get_attribute("data-target") for i in range(2)] == [
            "players-0-rack",
            "players-1-rack",
        ]
        with page.expect_file_chooser() as chooser:
            boxes.nth(0).locator(".photo-take").click()
        chooser.value.set_files(str(RACK))
        chips = boxes.nth(0).locator("[data-photo-chips] .photo-chip")
        chips.first.wait_for()
        unsure = boxes.nth(0).locator(".photo-chip.unsure")
        while unsure.count():
            unsure.first.click()
        rack = page.locator("#players-0-rack").input_value().split()
        assert len(rack) == chips.count() and 5 <= len(rack) <= 20
        assert page.locator("#players-1-rack").input_value() == ""  # Béla's rack untouched
        assert scroll_width(page) <= PHONE["width"]
        shot(page, "photo-rack-round-form")
        for question in get_game("rummikub").describe().endings:  # who went out: Béla
            group = page.locator("#ending").get_by_role("radiogroup", name=question.question)
            group.get_by_role("radio", name="Béla", exact=True).click()
        page.get_by_role("button", name=re.compile("^Save round")).click()
        page.wait_for_url(re.compile(r"/m/[^/]+$"))
        saved = {**doc, "players": [{"name": "Anna", "rack": rack}, {"name": "Béla", "rack": []}]}
        want = [p["score"] for p in score_document(saved)["players"]]
        assert board_totals(page) == want
    finally:
        context.close()
    assert not errors, errors
