"""What the service worker and the installed app rely on: the worker at the top
of the site, the manifest, and the mark on the pages it may keep a copy of: never a round form,
whose revision and idempotency key would be old in a copy."""

from __future__ import annotations

import json

from flask import Flask
from flask.testing import FlaskClient

from companion.adapters import store
from companion.adapters.db import get_session


def tokens(app: Flask) -> tuple[str, str]:
    with app.app_context():
        match = store.create_match(
            get_session(), game="rummikub", players=["Anna", "Béla"], first_dealer="Anna", games=2
        )
        return match.edit_token, match.view_token


def test_service_worker_is_served_from_the_top_so_it_controls_every_page(
    client: FlaskClient,
) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("text/javascript")
    assert answer.headers["Cache-Control"] == "no-cache"  # a new version is seen at once
    assert "Service-Worker-Allowed" not in answer.headers  # scope "/" is its own folder
    assert b'var PAGES = "companion-pages-v1"' in answer.data
    csp = answer.headers["Content-Security-Policy"]
    assert "worker-src 'self'" in csp and "manifest-src 'self'" in csp


def test_manifest_names_the_app_and_its_icons_exist(client: FlaskClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.headers["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.data)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon
    hungarian = json.loads(client.get("/manifest.webmanifest?lang=hu").data)
    assert hungarian["description"] != manifest["description"]


def test_only_pages_without_a_form_key_are_marked_for_an_offline_copy(
    app: Flask, client: FlaskClient
) -> None:
    edit, view = tokens(app)
    kept = ["/", f"/m/{edit}", f"/v/{view}", "/offline"]
    never = [f"/m/{edit}/rounds/new", "/start/rummikub", "/sw.js", "/manifest.webmanifest"]
    for path in kept:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers.get("X-Companion-Offline") == "copy", path
    for path in never:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert "X-Companion-Offline" not in answer.headers, path
    assert "X-Companion-Offline" not in client.get("/m/nosuchtoken0000000000").headers


def test_every_page_says_when_it_was_made_for_the_as_of_status(
    app: Flask, client: FlaskClient
) -> None:
    edit, _ = tokens(app)
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    assert 'data-rendered="20' in page
    assert 'id="live-status"' in page  # the edit scoreboard says "as of" too
    assert 'rel="manifest"' in page
