"""What the browser tests do on the phone: tap, follow, pick cards, read the scoreboard."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from werkzeug.serving import WSGIRequestHandler

SHOTS = os.environ.get("COMPANION_SHOTS")  # a folder: save a screenshot at each step
PHONE = {"width": 390, "height": 844}  # the phone every browser test holds
CHROMIUM = "/usr/bin/chromium"  # Debian's; never a downloaded browser
#: Debian's chromium-headless-shell: the same Chromium build as CHROMIUM (one source package,
#: one version) without the desktop browser around Blink, and what Playwright itself runs for
#: headless pages. It draws the same pages for 40 % of the CPU (docs/adr/0008), so the tests
#: hold it when it is installed (scripts/test installs it); otherwise CHROMIUM.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
#: A context's ``service_workers``: pages run without the service worker, as a phone on the
#: README's Wi-Fi address does (plain http is no secure context: offline.js registers none).
#: Installing it (its precache fetched) cost every context a second of Chromium; the tests
#: of the worker itself are marked ``service_worker`` (tests/browser/conftest.py's ``page``).
NO_WORKER = "block"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


#: The moment a page's fake clock stands at (any fixed one will do; a Saturday's club night).
CLOCK = datetime(2026, 11, 28, 19, 0, tzinfo=UTC)


def executable() -> str | None:
    """The Chromium the tests drive: COMPANION_CHROMIUM when it names one, else Debian's
    headless shell, else Debian's browser, else whatever ``chromium`` is on PATH."""
    for path in (os.environ.get("COMPANION_CHROMIUM", ""), HEADLESS_SHELL, CHROMIUM):
        if path and Path(path).exists():
            return path
    return shutil.which("chromium")


def launch(playwright: Any, *args: str) -> Any:
    """Debian's Chromium, headless, with the flags of ``ARGS`` and ``args``."""
    return playwright.chromium.launch(executable_path=executable(), args=[*ARGS, *args])


def fake_clock(page: Any) -> None:
    """Give the page Playwright's fake clock, stopped, before it loads anything.

    ``clock.install`` alone leaves the fake clock running along with the real one, so a test
    that took longer (a loaded machine: a reload of several seconds) saw its page's time run
    on. Paused, the page's time moves only by ``page.clock.run_for``, ``fast_forward`` or
    ``pause_at``, and stays so across reloads and navigations (Playwright replays the clock's
    log in every new document of the page). Call it before ``goto``. The pause is set a
    minute after the install time: the clock may have run a little in between, and it can
    only be paused forward.
    """
    page.clock.install(time=CLOCK)
    page.clock.pause_at(CLOCK + timedelta(minutes=1))


class QuietHandler(WSGIRequestHandler):
    """No access log on the test output."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Say nothing."""


def shot(page: Any, name: str, full: bool = True) -> None:
    """Keep a picture of this step when COMPANION_SHOTS names a folder."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full)


def totals(page: Any) -> list[int]:
    """The scoreboard's totals row, in seat order."""
    cells = page.locator("tfoot td[data-player]").all_inner_texts()
    return [int(c.strip().replace("−", "-")) for c in cells]


def ranks(page: Any) -> list[str]:
    """The scoreboard's rank row, in seat order."""
    return [r.strip() for r in page.locator("tfoot tr.rank td").all_inner_texts()]


def follow(page: Any, selector: str) -> None:
    """Tap a link or button that loads a page, and wait until its scripts have run.

    A round save is posted by static/js/offline.js (so that a dropped connection keeps it in
    the outbox) before the next page loads: wait until it has moved on.
    """
    page.click(selector)
    page.locator("html:not([data-sending])").wait_for(state="attached")
    page.wait_for_load_state()


def picker(page: Any, pick: str, target: str, *taps: str) -> None:
    """Open the card picker for a field, tap through it, and add the result.

    A tap is a colour or suit letter, a value as a number (an ace is 1, a queen 12), or
    ``*`` for the joker.
    """
    page.click(f"[data-pick={pick}][data-target={target}]")
    for tap in taps:
        if tap == "*":
            page.click("#picker [data-joker]")
        elif tap.isdigit():
            page.click(f"#picker [data-v='{tap}']")
        else:
            page.click(f"#picker [data-c={tap}]")
    if pick != "last":  # the last card adds itself once its value is tapped
        page.click("#picker [data-act=done]")
    assert not page.locator("#picker").is_visible()


def answer(page: Any, question: str, name: str | None) -> None:
    """Tick the answer to one of the round's ending questions (None: nobody)."""
    page.check(f"input[name={question}][value='{name or '-'}']")


def start(page: Any, base: str, game: str, names: list[str], first: int | None) -> str:
    """Choose the game on the home page and start a match; the scoreboard's address."""
    page.goto(base + "/")
    follow(page, f"a[data-game={game}]")
    for i, name in enumerate(names):
        page.fill(f"#names-{i}", name)
    if first is not None:
        page.check(f"input[name=first][value='{first}']")
    follow(page, "#start-button")
    return str(page.url)


def overflowing(page: Any) -> list[str]:
    """The elements that reach past the phone's right edge, for a failing width's message."""
    found: list[str] = page.evaluate(
        """w => Array.from(document.querySelectorAll("body *"))
          .filter(e => e.getBoundingClientRect().right > w)
          .slice(0, 5).map(e => e.outerHTML.slice(0, 160))""",
        PHONE["width"],
    )
    return found


def scroll_width(page: Any) -> int:
    """How wide the page is: more than 390 means sideways scrolling on the phone."""
    return int(page.evaluate("document.scrollingElement.scrollWidth"))
