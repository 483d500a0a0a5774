"""After an update, a phone runs the new scripts at once (companion/web/assets.py).

The service worker used to keep one version for ever and answer /static/app.js from its
cache first, so a phone ran old scripts against new pages until a second load. Now pages name
scripts by content-hashed URLs and the worker is made from those hashes: a phone holding the
old worker runs a changed script on its very next load, the new worker takes over, and the
older caches are dropped.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from phone import PHONE
from test_offline import Table

from companion.web.app import create_app
from companion.web.assets import manifest

pytestmark = pytest.mark.service_worker

ROOT = Path(__file__).resolve().parents[2]

#: Resolves when the browser's caches hold ``names[0]`` and not ``names[1]`` (true), or after
#: about twenty seconds without (false): the new worker installed, took over, dropped the old.
CACHES = """(names) => new Promise((resolve) => {
  var tries = 0;
  (function look() {
    caches.keys().then((keys) => {
      if (keys.includes(names[0]) && !keys.includes(names[1])) resolve(true);
      else if (++tries > 400) resolve(false);
      else setTimeout(look, 50);
    });
  })();
})"""


def with_probe(static: Path, mark: str) -> None:
    """static/app.js, marking the page with ``data-probe`` when it runs."""
    script = (ROOT / "static" / "app.js").read_text(encoding="utf-8")
    probe = f'document.documentElement.setAttribute("data-probe", "{mark}");\n'
    (static / "app.js").write_text(script + probe, encoding="utf-8")


def made(folder: Path, static: Path) -> Flask:
    """The app as `companion serve` would start it again: the same database and instance."""
    return create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "DATABASE_URL": f"sqlite:///{folder / 'companion.sqlite3'}",
            "SECRET_KEY": "worker update test secret",
            "STATIC_FOLDER": str(static),
        }
    )


def static_cache(app: Flask) -> str:
    return "companion-static-" + manifest(app).version


def test_a_phone_holding_the_old_worker_runs_a_changed_script_on_its_next_load(
    browser: Any, tmp_path: Path
) -> None:
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static)
    with_probe(static, "1")
    first = made(tmp_path, static)
    table = Table(first)
    table.up()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(20_000)
    second = None
    try:
        page.goto(table.url + "/")
        page.locator("html[data-probe='1']").wait_for(state="attached")
        page.evaluate("navigator.serviceWorker.ready.then(function () { return true; })")
        page.goto(table.url + "/")  # now through the worker, which keeps the scripts
        page.locator("html[data-probe='1']").wait_for(state="attached")
        assert page.evaluate("!!navigator.serviceWorker.controller")
        assert page.evaluate(CACHES, [static_cache(first), "none"])

        # The script changes and the server starts again, on the same address.
        table.down()
        with_probe(static, "2")
        second = made(tmp_path, static)
        assert static_cache(second) != static_cache(first)
        table.app = second
        table.up()

        page.goto(table.url + "/")  # answered by the old worker, which this phone still holds
        page.locator("html[data-probe='2']").wait_for(state="attached")
        assert page.evaluate(CACHES, [static_cache(second), static_cache(first)])
        assert page.evaluate("!!navigator.serviceWorker.controller")
        page.reload()  # and the new worker serves the new script from its own cache
        page.locator("html[data-probe='2']").wait_for(state="attached")
    finally:
        context.close()
        if table.httpd is not None:
            table.down()
        for app in (first, second):
            if app is not None:
                app.extensions["companion_db"].dispose()
    assert not errors, errors
