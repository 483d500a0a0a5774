"""Every link the app offers is shown as text and copies on plain http, as at the table.

The README's own Wi-Fi address (``http://192.168.…``) is no secure context: no Clipboard API,
no share sheet, and 127.0.0.1 would count as secure. So Chromium here maps a name to the test
server (``--host-resolver-rules``) and opens the app at ``http://companion.test:PORT``, which
it treats like any other plain-http address. Each link — a seat's part link, the read-only
link, the edit link — must be on the page as visible, selectable text, and its Copy button
must really put it on the clipboard: the test pastes it back (Ctrl+V into a field).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone import NO_WORKER, PHONE, launch, scroll_width, shot

from bench.taps import new_match

HOST = "companion.test"
DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(scope="module")
def plain_http_browser(playwright: Any) -> Iterator[Any]:
    """Debian's Chromium, headless, with companion.test resolving to 127.0.0.1."""
    chromium = launch(playwright, f"--host-resolver-rules=MAP {HOST} 127.0.0.1")
    yield chromium
    chromium.close()


@pytest.fixture(params=["light", "dark"])
def phone(request: pytest.FixtureRequest, plain_http_browser: Any) -> Iterator[Any]:
    context = plain_http_browser.new_context(
        viewport=PHONE, color_scheme=request.param, service_workers=NO_WORKER
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(10_000)
    page.scheme = request.param
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def pasted(page: Any) -> str:
    """What the clipboard holds: pasted with Ctrl+V into a new field on the page."""
    page.evaluate(
        """() => {
          const f = document.createElement("textarea");
          f.id = "paste-here";
          document.body.appendChild(f);
        }"""
    )
    field = page.locator("#paste-here")
    field.focus()
    page.keyboard.press("Control+V")
    value = str(field.input_value())
    page.evaluate("() => document.getElementById('paste-here').remove()")
    return value


def selected_by_tap(page: Any, selector: str) -> str:
    """What one tap on the link selects (a text field: all of it; a text: all of it)."""
    page.locator(selector).click()
    return str(
        page.evaluate(
            """(sel) => {
              const node = document.querySelector(sel);
              if (node.select) {
                node.select();
                return node.value.slice(node.selectionStart, node.selectionEnd);
              }
              return window.getSelection().toString();
            }""",
            selector,
        )
    )


def copies(page: Any, selector: str, url: str) -> None:
    """The link is visible as text, selectable, and its Copy button puts it on the clipboard."""
    node = page.locator(selector)
    assert node.is_visible()
    shown = node.input_value() if node.evaluate("n => !!n.select") else node.inner_text()
    assert shown.strip() == url
    assert node.evaluate("n => getComputedStyle(n).userSelect") != "none"
    assert selected_by_tap(page, selector).strip() == url
    page.evaluate("() => window.getSelection().removeAllRanges()")
    page.locator(f"[data-copy='{node.get_attribute('id')}']").click()
    assert pasted(page) == url


def test_every_link_shows_as_text_and_copies_on_plain_http(server: Any, phone: Any) -> None:
    doc = json.loads((DATA / "dense-round.json").read_text(encoding="utf-8"))
    base = server.url.replace("127.0.0.1", HOST)
    edit = new_match(server.app, doc)
    phone.goto(f"{base}/m/{edit}")
    assert phone.evaluate("window.isSecureContext") is False
    assert phone.evaluate("typeof navigator.clipboard") == "undefined"

    copies(phone, "#edit-link", f"{base}/m/{edit}")
    view = phone.input_value("#view-link")
    assert view.startswith(f"{base}/v/")
    copies(phone, "#view-link", view)
    assert phone.locator("#qr .qr-box svg").count() == 1  # its QR code, beside it

    phone.click("#parts-open-board")
    phone.locator("#parts[data-news]").wait_for()
    # Its stylesheets loaded too: a box asked for before parts.css arrives (a loaded machine)
    # is laid out without it, which a phone never shows (the sheet blocks its drawing).
    phone.wait_for_load_state()
    seats = phone.locator("[data-part-seat]")
    assert seats.count() == len(doc["players"])
    for seat in range(seats.count()):
        card = seats.nth(seat)
        link = card.locator(".part-link")
        url = link.inner_text().strip()
        assert url.startswith(f"{base}/p/")
        assert card.locator(".qr svg").is_visible()  # the link beside its QR code
        box, qr = link.bounding_box(), card.locator(".qr").bounding_box()
        assert box["x"] >= qr["x"] - 1 and box["x"] + box["width"] <= qr["x"] + qr["width"] + 1
        copies(phone, f"#part-link-{seat}", url)
        # No share sheet on plain http: no button that would do nothing.
        assert not card.locator("[data-share]").is_visible()
    assert scroll_width(phone) <= PHONE["width"]
    phone.evaluate("() => document.getElementById('parts').scrollIntoView()")
    shot(phone, f"parts-links-http-{phone.scheme}", full=False)
    # The link copied opens that player's page.
    phone.goto(phone.locator("#part-link-1").inner_text().strip())
    assert phone.locator("h1.part-name").inner_text() == doc["players"][1]["name"]
