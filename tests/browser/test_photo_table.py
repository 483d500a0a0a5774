"""The table by photo (contract "Photos", ``as=table``) on the referee's pages, and a photo taken
without a connection, in Chromium at 390×844.

The photos are real (tests/data/photos, CC BY 4.0, ATTRIBUTION.md there). What the reader makes
of them is the reader's own business (tests/reader); here the pages write what the server read
into the right fields, the way the contract gives it: the melds one per line on the turn page
(RK-21 judges them), every tile on one line for the rescue (RK-11).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from phone import NO_WORKER, PHONE, scroll_width, shot

PHOTOS = Path(__file__).resolve().parent.parent / "data" / "photos"
TABLE = PHOTOS / "rummy-12_jpeg.rf.685a46f7c57563efc63a5633102d66dd.jpg"


def _read(server: Any, photo: Path) -> dict[str, Any]:
    """What the API reads off ``photo`` as a table: the page must show the same."""
    from companion.services import photos

    photos.warm()
    answer = server.app.test_client().post(
        "/api/v1/photos?game=rummikub&as=table",
        data=photo.read_bytes(),
        headers={"Content-Type": "image/jpeg"},
    )
    assert answer.status_code == 200
    body: dict[str, Any] = answer.get_json()
    assert body["melds"], "the test photo is a table with melds on it"
    return body


def _photograph(page: Any, box: Any, photo: Path) -> None:
    with page.expect_file_chooser() as chooser:
        box.locator(".photo-take").click()
    chooser.value.set_files(str(photo))
    box.locator("[data-photo-chips] .photo-chip").first.wait_for()
    unsure = box.locator(".photo-chip.unsure")
    while unsure.count():
        unsure.first.click()


def test_the_referee_photographs_the_table_before_the_turn(server: Any, browser: Any) -> None:
    read = _read(server, TABLE)
    context = browser.new_context(viewport=PHONE, service_workers=NO_WORKER)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.set_default_timeout(10_000)
        page.goto(f"{server.url}/referee/turn?game=rummikub")
        boxes = page.locator("[data-photo][data-as=table]")
        assert [boxes.nth(i).get_attribute("data-target") for i in range(boxes.count())] == [
            "before",
            "after",
        ]
        assert boxes.nth(0).locator(".photo-take").inner_text().strip() == "Photograph the table"
        _photograph(page, boxes.nth(0), TABLE)
        lines = page.locator("#before").input_value().split("\n")
        # the melds as they lie, one per line; a tile in no meld on a line of its own at the end
        melds = [" ".join(m) for m in read["melds"]]
        assert lines[: len(melds)] == melds
        assert page.locator("#after").input_value() == ""
        assert scroll_width(page) <= PHONE["width"]
        shot(page, "photo-table-turn")
        assert not errors, errors
    finally:
        context.close()


def test_the_rescue_takes_every_tile_of_a_table_photo(server: Any, browser: Any) -> None:
    read = _read(server, TABLE)
    context = browser.new_context(viewport=PHONE, service_workers=NO_WORKER)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{server.url}/rescue?game=rummikub")
        box = page.locator("[data-photo]")
        _photograph(page, box, TABLE)
        assert page.locator("#cards").input_value().split() == read["tiles"]
        # choosing a card game hides the camera; choosing Rummy-O reads Rummy-O's tiles
        page.locator("select[name=game]").select_option("manipulation")
        assert box.is_hidden()
        page.locator("select[name=game]").select_option("rummy-o")
        assert box.is_visible()
        assert "game=rummy-o" in (box.get_attribute("data-url") or "")
    finally:
        context.close()


def test_a_photo_taken_offline_waits_and_is_read_when_the_phone_is_back(
    server: Any, browser: Any
) -> None:
    read = _read(server, TABLE)
    context = browser.new_context(viewport=PHONE, service_workers=NO_WORKER)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{server.url}/rescue?game=rummikub")
        sent: list[str] = []
        page.on("request", lambda r: sent.append(r.url) if "/api/v1/photos" in r.url else None)
        context.set_offline(True)
        box = page.locator("[data-photo]")
        with page.expect_file_chooser() as chooser:
            box.locator(".photo-take").click()
        chooser.value.set_files(str(TABLE))
        status = box.locator("[data-photo-status]")
        status.get_by_text("No connection").wait_for()
        assert "waits on this phone" in status.inner_text()
        assert page.locator("#cards").input_value() == ""
        context.set_offline(False)
        box.locator("[data-photo-chips] .photo-chip").first.wait_for()
        assert len(sent) == 1
        tiles = page.locator("#cards").input_value().split()
        assert tiles == read["tiles"]
    finally:
        context.close()
