"""Fixtures for the browser tests: the real app in a thread, and Debian's Chromium at 390×844.

The app runs with CSRF on and a temporary SQLite file, served by werkzeug on 127.0.0.1 and
a free port; Playwright drives Debian's Chromium (never a downloaded browser): its headless
shell when installed, else /usr/bin/chromium (tests/browser/phone.py).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from phone import NO_WORKER, PHONE, QuietHandler, executable, launch
from support import unavailable
from werkzeug.serving import make_server

from companion.web.app import create_app


@dataclass
class Server:
    """The running app: its Flask object and its address."""

    app: Flask
    url: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app on a temporary SQLite file, served on 127.0.0.1 in a thread."""
    folder = tmp_path_factory.mktemp("browser")
    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "DATABASE_URL": f"sqlite:///{folder / 'companion.sqlite3'}",
            "SECRET_KEY": "browser test secret",
        }
    )
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield Server(app, f"http://127.0.0.1:{httpd.server_port}")
    finally:
        httpd.shutdown()
        app.extensions["companion_db"].dispose()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright's driver, started once per test process (its sync API runs one at a time)."""
    if executable() is None:
        unavailable("Chromium is not installed (apt-get install chromium-headless-shell)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright is not installed (pip install playwright)")
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """Debian's Chromium, headless: one per test process; every test has a context of its
    own (cookies, storage, service workers), so nothing one test did is seen by the next."""
    chromium = launch(playwright)
    yield chromium
    chromium.close()


@pytest.fixture(params=["light"])
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A fresh phone-sized page (its own cookies and storage); page errors fail the test.
    Without the service worker (``phone.NO_WORKER``) unless the test is marked
    ``service_worker``."""
    workers = "allow" if request.node.get_closest_marker("service_worker") else NO_WORKER
    context = browser.new_context(
        viewport=PHONE, color_scheme=request.param, service_workers=workers
    )
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    tab.set_default_timeout(10_000)
    yield tab
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
