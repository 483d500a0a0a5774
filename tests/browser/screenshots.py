"""Photograph the app on a phone for the README: ``python tests/browser/screenshots.py docs``.

Seeds a 4-player match halfway through on a temporary SQLite file, serves it on 127.0.0.1
and writes tour.png (the scoreboard) and game-form.png (the card picker) in light mode, plus
``-dark`` variants with ``--dark``. Needs Debian's Chromium, like the browser tests.
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import WSGIRequestHandler, make_server

from companion.adapters import store
from companion.adapters.db import get_session
from companion.web.app import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
TAPS = ("[data-c=R]", "[data-v='3']", "[data-v='6']", "[data-joker]", "[data-v='5']")
NAMES = ["Anna", "Béla", "Cili", "Dávid"]
GAME1 = {
    "game": "rummy17",
    "bonus_cards": ["most-runs", "longest-set", "most-8-16", "fewest-blue", "went-out"],
    "went_out": "Béla",
    "last_discard": "B11",
    "players": [
        {"name": "Anna", "melds": [["G7", "G8", "G9", "G10"]], "hand": ["R1", "G13"]},
        {"name": "Béla", "melds": [["R16", "B16", "Y16"], ["K2", "K3", "K4"]], "hand": []},
        {"name": "Cili", "melds": [["R12", "B12", "G12", "K12"]], "hand": {"low": 2, "high": 1}},
        {"name": "Dávid", "melds": [["Y5", "Y6", "*Y7", "Y8"]], "hand": ["B5"]},
    ],
}
GAME2 = {
    "game": "rummy17",
    "bonus_cards": ["most-cards", "most-red", "fewest-jokers", "highest-triple", "most-1-2-3"],
    "went_out": "Cili",
    "last_discard": "G17",
    "players": [
        {"name": "Anna", "melds": [["R1", "R2", "R3"]], "hand": {"low": 1, "high": 2}},
        {"name": "Béla", "melds": [["B9", "B10", "B11"]], "hand": ["K15"]},
        {"name": "Cili", "melds": [["K14", "Y14", "*G"], ["R5", "R6", "R7", "R8"]], "hand": []},
        {"name": "Dávid", "melds": [], "hand": {"low": 4, "high": 3}},
    ],
}


class QuietHandler(WSGIRequestHandler):
    """No access log."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Say nothing."""


def main(folder: Path, schemes: list[str]) -> None:
    """Write the README's phone screenshots into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp()
    app = create_app(
        {"INSTANCE_PATH": tmp, "DATABASE_URL": f"sqlite:///{tmp}/c.sqlite3", "SECRET_KEY": "x"}
    )
    with app.app_context():
        session = get_session()
        match = store.create_match(
            session,
            game="rummy17",
            players=NAMES,
            first_dealer="Anna",
            games=4,
            title="Friday at Anna's",
        )
        store.add_round(session, match, GAME1)
        store.add_round(session, match, GAME2)
        edit = match.edit_token
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for scheme in schemes:
            suffix = "" if scheme == "light" else f"-{scheme}"
            context = browser.new_context(
                viewport=PHONE, color_scheme=scheme, device_scale_factor=2
            )
            page = context.new_page()
            page.goto(f"{base}/m/{edit}")
            page.screenshot(path=str(folder / f"tour{suffix}.png"))
            page.goto(f"{base}/m/{edit}/rounds/new")
            page.evaluate("document.querySelector('fieldset.player').scrollIntoView()")
            page.fill("#players-0-melds", "K10 K11 K12")
            page.click("[data-pick=run][data-target=players-0-melds]")
            for tap in TAPS:  # a red run 3–6 with the joker as R5
                page.click(f"#picker {tap}")
            page.screenshot(path=str(folder / f"game-form{suffix}.png"))
            context.close()
        browser.close()
    httpd.shutdown()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    schemes = ["light", "dark"] if "--dark" in sys.argv else ["light"]
    main(Path(args[0] if args else "docs"), schemes)
