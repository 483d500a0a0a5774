"""A club night on real phones and a projector: the organiser starts an event of ten
at 390×844, seats two sessions, three tables enter rounds on their own phones (separate
browser contexts), and the standings on a 1920×1080 screen update without a reload and match
``companion standings`` on the same documents.

The projector's clock is Playwright's fake one, stopped (``fake_clock``): it asks for news when
the test moves its time on by one poll (3 s), never after real seconds; and the server draws
the standings afresh on every ask (no 2 s window), so one ask brings every save."""

from __future__ import annotations

import re
from typing import Any

import pytest
from phone import NO_WORKER, PHONE, answer, fake_clock, follow, scroll_width, shot
from playwright.sync_api import expect

from companion.adapters.db import get_session
from companion.adapters.store import events
from companion.domain.club import standings
from companion.web.pages import events as events_web

NAMES = ["Anna", "Béla", "Cili", "Dani", "Emil", "Feri", "Gabi", "Hanna", "Ildi", "Jenő"]
SCREEN = {"width": 1920, "height": 1080}


def test_a_club_night_of_ten_on_phones_and_a_projector(
    server: Any, page: Any, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events_web, "FRESH", 0)  # every ask gets the standings as they are
    page.goto(server.url + "/")
    follow(page, "#event-link")
    page.check("input[name=game][value=rummikub]")
    page.fill("#entrants", "\n".join(NAMES))
    page.fill("#sessions", "2")
    follow(page, "#start-event")
    assert scroll_width(page) <= PHONE["width"]
    follow(page, "#seat")
    links = page.locator(".event-links a")
    assert links.count() == 3  # 10 at tables of four: 4 + 3 + 3 (EV-2)
    table_urls = [server.url + links.nth(i).get_attribute("href") for i in range(3)]
    seated = [  # "Table 1 Anna, Béla, Cili, Dani; Anna starts": the seats in order
        item.split(" ", 2)[2].split(";")[0].split(", ")
        for item in page.locator(".event-links li").all_inner_texts()
    ]
    shot(page, "event-organiser")
    view = page.input_value("#view-link")

    screen = browser.new_context(
        viewport=SCREEN, color_scheme="dark", service_workers=NO_WORKER
    ).new_page()
    fake_clock(screen)
    screen.goto(view + "/screen")
    screen.evaluate("window.stayed = true")  # gone if the page reloads
    assert "100.0" not in screen.inner_text("#live")

    for url, players in zip(table_urls, seated, strict=True):  # each table on its own phone
        phone = browser.new_context(viewport=PHONE, service_workers=NO_WORKER).new_page()
        phone.goto(url)
        follow(phone, "#enter-round")
        answer(phone, "went_out", players[0])
        for i in range(1, len(players)):
            phone.fill(f"#players-{i}-rack", f"R{i + 2} K{i + 5}")
        follow(phone, "#save-button")
        assert "/rounds" not in phone.url
        phone.context.close()

    # Each table's winner shows at 100 % once the screen has asked again (every 3 s).
    winners = screen.locator("#live tbody tr td:nth-child(3)", has_text=re.compile(r"^100\.0$"))
    expect(winners).to_have_count(0)
    screen.clock.run_for(int(screen.locator("#live").get_attribute("data-poll")))
    expect(winners).to_have_count(3)
    assert screen.evaluate("window.stayed === true")
    shot(screen, "event-projector", full=False)
    shown = [
        (row[1].replace("*", "").replace("−", "").strip(), float(row[2]))
        for row in (r.split("\t") for r in screen.locator("#live tbody tr").all_inner_texts())
    ]
    with server.app.app_context():
        event = events.by_view_token(get_session(), view.rsplit("/", 1)[-1])
        expected = standings(events.document(event))["standings"]
    assert shown == [(line["name"], line["score"]) for line in expected]

    page.reload()
    follow(page, "#seat")  # the tables of session 1 have rounds to enter: asked first (EV-4)
    ask = page.locator("#seat-ask")
    for number in (1, 2, 3):
        expect(ask).to_contain_text(f"Table {number}: ")
    assert page.locator(".event-links a").count() == 3  # still session 1's
    assert scroll_width(page) <= PHONE["width"]
    shot(page, "event-seat-ask")
    follow(page, "#seat-anyway")  # session 2: new tables, pairs who met kept apart if possible
    assert page.locator(".event-links a").count() == 3
    assert "Session 2" in page.inner_text("#organise")
    screen.context.close()
