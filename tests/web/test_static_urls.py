"""Scripts and styles by content-hashed names (companion/web/assets.py): every page names them
so, they are kept for good under those names, and the service worker's precache list and
cache version come from the same hashes, so a changed script is a new worker."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from flask import Flask

from companion.web.app import create_app
from companion.web.assets import DIGITS, PRECACHE

ROOT = Path(__file__).resolve().parents[2]
STATIC_URL = re.compile(r"""(?:src|href|data-nosleep)="(/static/[^"]+)\"""")
HASHED = re.compile(r"^/static/.+\.[0-9a-f]{" + str(DIGITS) + r"}\.[A-Za-z0-9]+$")


def app_on(static: Path, instance: Path) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(instance),
            "DATABASE_URL": f"sqlite:///{instance / 'companion.sqlite3'}",
            "SECRET_KEY": "test secret key",
            "STATIC_FOLDER": str(static),
        }
    )


def worker(app: Flask) -> tuple[str, list[str]]:
    """The service worker's cache version and precache list, as served."""
    script = app.test_client().get("/sw.js").get_data(as_text=True)
    version = re.search(r'var VERSION = "([0-9a-f]+)";', script)
    precache = re.search(r"var PRECACHE = \[FALLBACK\]\.concat\((\[[^\]]*\])\);", script)
    assert version and precache, script[:400]
    return version.group(1), re.findall(r'"([^"]+)"', precache.group(1))


def test_every_template_names_static_files_through_static_url():
    """A template writing url_for('static', …) would name a file by its plain name, which
    a phone revalidates, and which an old service worker may answer with an old copy."""
    for template in (ROOT / "templates").rglob("*"):
        if template.is_file():
            text = template.read_text(encoding="utf-8")
            assert not re.search(r"url_for\(\s*['\"]static['\"]", text), template
            assert "/static/" not in text or template.name == "sw.js", template


@pytest.mark.parametrize("path", ["/", "/start/rummikub", "/check", "/sheets/blank"])
def test_pages_name_scripts_and_styles_by_hashed_urls_kept_for_good(client, path):
    page = client.get(path)
    assert page.status_code == 200
    urls = STATIC_URL.findall(page.get_data(as_text=True))
    assert any(u.endswith(".js") for u in urls) and any(u.endswith(".css") for u in urls)
    for url in urls:
        assert HASHED.match(url), url
        answer = client.get(url)
        assert answer.status_code == 200, url
        control = answer.headers["Cache-Control"]
        assert "immutable" in control and "max-age=31536000" in control and "public" in control
    # The plain name still answers (a page kept from before an update), checked each time.
    assert client.get("/static/app.css").headers["Cache-Control"] == "no-cache"


def test_a_changed_script_is_a_new_address_and_a_new_worker(tmp_path):
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static)
    before = app_on(static, tmp_path / "one")
    (static / "js" / "util.js").write_text(
        (static / "js" / "util.js").read_text(encoding="utf-8") + '\nwindow.changed = "yes";\n',
        encoding="utf-8",
    )
    after = app_on(static, tmp_path / "two")  # the server started again
    old_page = before.test_client().get("/").get_data(as_text=True)
    new_page = after.test_client().get("/").get_data(as_text=True)
    old_urls, new_urls = STATIC_URL.findall(old_page), STATIC_URL.findall(new_page)
    changed = sorted(set(old_urls) ^ set(new_urls))
    assert len(changed) == 2 and all("/js/util." in url for url in changed)
    new_util = next(u for u in new_urls if "/js/util." in u)
    assert after.test_client().get(new_util).data.endswith(b'window.changed="yes";')
    old_version, old_precache = worker(before)
    new_version, new_precache = worker(after)
    assert new_version != old_version  # the worker changes: it drops the older caches
    assert new_util in new_precache and new_util not in old_precache
    assert len(new_precache) == len(PRECACHE)  # after the offline page (FALLBACK)
    for url in new_precache:
        assert after.test_client().get(url).status_code == 200, url
    for app in (before, after):
        app.extensions["companion_db"].dispose()


def test_a_hashed_script_or_style_is_served_without_its_comments(client):
    page = client.get("/").get_data(as_text=True)
    for url in STATIC_URL.findall(page):
        if not url.endswith((".js", ".css")) or "/vendor/" in url:
            continue
        name = re.sub(r"\.[0-9a-f]{" + str(DIGITS) + r"}\.", ".", url.removeprefix("/static/"))
        source = (ROOT / "static" / name).read_bytes()
        served = client.get(url)
        assert b"/*" in source or b"//" in source, name  # each of them has notes to drop
        assert len(served.data) < len(source) * 0.9, name
        assert b"\n//" not in served.data and b"/* " not in served.data, name
        again = client.get(url, headers={"If-None-Match": served.headers["ETag"]})
        assert again.status_code == 304  # a phone that has it is told so
        # the plain name is the file as it is
        assert client.get("/static/" + name).data == source
