"""Form posts from another site are refused even with a valid
CSRF token; nothing an edit token reaches may be kept by a browser or a proxy."""

from __future__ import annotations

import re

import pytest
from samples import PLAYERS, sample_round

from companion.adapters import store
from companion.adapters.db import get_session


@pytest.fixture
def match(csrf_app):
    with csrf_app.app_context():
        found = store.create_match(
            get_session(), game="rummikub", players=PLAYERS, first_dealer="Anna", games=5
        )
        store.add_round(get_session(), found, sample_round("rummikub", 1))
        return found


def token_and_form(client, url):
    page = client.get(url).get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    revision = re.search(r'name="revision" type="hidden" value="(\d+)"', page).group(1)
    return {"csrf_token": token, "revision": revision}


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://localhost.evil"])
def test_a_valid_token_from_another_origin_is_refused(csrf_app, match, origin):
    client = csrf_app.test_client()
    form = token_and_form(client, f"/m/{match.edit_token}/rounds/1/delete")
    response = client.post(
        f"/m/{match.edit_token}/rounds/1/delete", data=form, headers={"Origin": origin}
    )
    assert response.status_code in (400, 403)
    with csrf_app.app_context():
        assert len(store.get_by_edit_token(get_session(), match.edit_token).rounds) == 1


@pytest.mark.parametrize(
    ("origin", "site"), [(None, None), ("http://localhost", None), ("null", "same-origin")]
)
def test_same_origin_or_no_origin_is_accepted(csrf_app, match, origin, site):
    """``null`` passes when the browser says same-origin (Sec-Fetch-Site; pages cannot set it)."""
    client = csrf_app.test_client()
    form = token_and_form(client, f"/m/{match.edit_token}/rounds/1/delete")
    headers = {"Origin": origin} if origin else {}
    if site:
        headers["Sec-Fetch-Site"] = site
    response = client.post(f"/m/{match.edit_token}/rounds/1/delete", data=form, headers=headers)
    assert response.status_code == 302


def test_the_api_has_no_origin_check(client):
    response = client.post(
        "/api/v1/check",
        json={"game": "rummikub", "cards": ["R3", "R4", "R5"]},
        headers={"Origin": "https://evil.example"},
    )
    assert response.status_code == 200


def test_every_part_of_the_api_is_exempted_once_the_events_too(csrf_app):
    """The API is one blueprint at /api/v1: no CSRF token and no Origin check anywhere in
    it, the events' routes included (they used to be a blueprint of their own, exempted from
    the token but not from the Origin check)."""
    rules = list(csrf_app.url_map.iter_rules())
    api = {rule.rule for rule in rules if rule.endpoint.startswith("api.")}
    assert api == {rule.rule for rule in rules if rule.rule.startswith("/api/")}
    assert "/api/v1/events" in api and "/api/v1/matches" in api
    client = csrf_app.test_client()
    entrants = ["Anna", "Béla", "Cili", "Dani"]
    made = client.post(
        "/api/v1/events",
        json={"game": "rummikub", "entrants": entrants},
        headers={"Origin": "https://evil.example"},
    )
    assert made.status_code == 201, made.get_json()
    seated = client.post(
        f"/api/v1/events/{made.get_json()['edit']}/sessions",
        headers={"Origin": "https://elsewhere.example", "If-Match": "*"},
    )
    assert seated.status_code == 201, seated.get_json()


def test_no_copy_is_kept_of_what_an_edit_token_reaches(app, client):
    with app.app_context():
        match = store.create_match(
            get_session(), game="rummikub", players=PLAYERS, first_dealer="Anna", games=5
        )
        store.add_round(get_session(), match, sample_round("rummikub", 1))
    edit = match.edit_token
    for url in [
        "/",
        f"/m/{edit}",
        f"/m/{edit}/rounds/new",
        f"/m/{edit}/rounds/1",
        f"/m/{edit}/rounds/1/edit",
        f"/m/{edit}/rounds/1/delete",
        f"/m/{edit}/sheet.pdf",
        f"/api/v1/matches/{edit}",
        "/m/no-such-token",
    ]:
        response = client.get(url)
        assert response.headers["Cache-Control"] == "no-store", url
    posted = client.post(
        "/api/v1/matches", json={"game": "rummikub", "players": PLAYERS, "first_dealer": "Anna"}
    )
    assert posted.status_code == 201 and posted.headers["Cache-Control"] == "no-store"
    started = client.post("/start/rummikub", data={"names-0": "A", "names-1": "B", "first": "0"})
    assert started.status_code == 302 and started.headers["Cache-Control"] == "no-store"
    # The read-only link, the games and the blank pages may be kept.
    view = client.get(f"/v/{match.view_token}")
    assert view.headers.get("Cache-Control") != "no-store"
    assert "no-store" not in client.get("/api/v1/games").headers.get("Cache-Control", "")
