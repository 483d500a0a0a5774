"""The edit scoreboard is rendered once per revision too: it is kept with holes
for its form token, its idempotency key and the time it was made, filled in on every load.

What must hold: a second load costs no render; no page shows another session's token, and the
token shown posts; every load has its own key; a save (here or in another process) shows on
the next load; a flash and a draft to clear show once; the history's Undo is there exactly
while it can be done.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask, template_rendered
from samples import PLAYERS, sample_round

from companion.adapters import cache, store
from companion.adapters.db import get_session
from companion.adapters.store import matches
from companion.web.pages import matches as pages

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

GAME = "rummikub"


@pytest.fixture(autouse=True)
def empty_caches() -> None:
    cache.results.clear()
    cache.pages.clear()


def start(app: Flask, rounds: int = 2, games: int | None = None) -> str:
    """A match of ``rounds`` rounds (of ``games``; finished when equal); its edit token."""
    with app.app_context():
        session = get_session()
        match = store.create_match(
            session, game=GAME, players=PLAYERS, first_dealer="Anna", games=games or rounds + 2
        )
        for n in range(rounds):
            store.add_round(session, match, sample_round(GAME, points=n + 1))
        return match.edit_token


def renders(app: Flask) -> list[str]:
    """The names of the templates ``app`` renders from now on."""
    names: list[str] = []

    def seen(_sender: object, template: Any, **_: object) -> None:
        names.append(template.name)

    template_rendered.connect(seen, app, weak=False)
    return names


INPUT = re.compile(r"<input\b[^>]*>")
ATTRIBUTE = re.compile(r'(\w[\w-]*)="([^"]*)"')


def hidden(page: str, name: str) -> list[str]:
    """The values of the page's hidden inputs called ``name``, in order."""
    found = []
    for tag in INPUT.findall(page):
        attributes = dict(ATTRIBUTE.findall(tag))
        if attributes.get("name") == name and attributes.get("type") == "hidden":
            found.append(attributes["value"])
    return found


def form_of(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the page's form posting to ``action``."""
    start = page.index(f'action="{action}"')
    body = page[start : page.index("</form>", start)]
    fields = {name: hidden(body, name) for name in ("csrf_token", "revision", "key")}
    return {name: values[0] for name, values in fields.items() if values}


def same_but_per_request(page: str) -> str:
    """The page with what differs per load (token, key, time made) blanked out."""
    page = re.sub(r'(name="(?:csrf_token|key)" type="hidden" value=")[^"]*"', r'\1"', page)
    return re.sub(r'data-rendered="[^"]*"', 'data-rendered=""', page)


def test_a_second_load_is_served_from_the_cache_with_its_own_key(app, client):
    edit = start(app, rounds=2, games=2)  # finished: "One more round" and "Rematch" forms
    names = renders(app)
    first = client.get(f"/m/{edit}").get_data(as_text=True)
    second = client.get(f"/m/{edit}").get_data(as_text=True)
    assert names.count("match.html") == 1
    assert same_but_per_request(first) == same_but_per_request(second)
    # One key per load, shared by the page's forms, as one ConfirmForm gives.
    keys = hidden(first, "key"), hidden(second, "key")
    assert len(keys[0]) == 2 and len(set(keys[0])) == 1 and len(set(keys[1])) == 1
    assert keys[0][0] != keys[1][0] and all(store.TOKEN.fullmatch(k[0]) for k in keys)
    for hole in ("csrf", "key", "rendered"):
        assert pages.HOLES[hole] not in second
    assert re.search(r'data-rendered="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00"', second)


def test_each_language_and_history_page_is_its_own_entry(app, client):
    edit = start(app)
    names = renders(app)
    for _ in range(2):
        client.get(f"/m/{edit}")
        german = client.get(f"/m/{edit}", headers={"Accept-Language": "de"})
        client.get(f"/m/{edit}?history=1")
    assert names.count("match.html") == 3
    assert german.headers["Content-Language"] == "de" and "Runde" in german.get_data(as_text=True)


def test_the_token_differs_per_session_and_posts_only_in_its_own(csrf_app):
    edit = start(csrf_app, rounds=2, games=2)
    names = renders(csrf_app)
    anna, bela = csrf_app.test_client(), csrf_app.test_client()
    action = f"/m/{edit}/lengthen"
    first = form_of(anna.get(f"/m/{edit}").get_data(as_text=True), action)
    again = form_of(anna.get(f"/m/{edit}").get_data(as_text=True), action)
    other = form_of(bela.get(f"/m/{edit}").get_data(as_text=True), action)
    assert names.count("match.html") == 1  # three loads, two sessions, one render
    assert first["csrf_token"] and other["csrf_token"] != first["csrf_token"]
    assert first["key"] != again["key"] != other["key"]
    # Anna's token is no good in Béla's session: nothing is saved.
    refused = bela.post(action, data={**other, "csrf_token": first["csrf_token"]})
    assert refused.status_code == 400
    # Béla's own token, from a page served from the cache, posts.
    done = bela.post(action, data=other)
    assert done.status_code == 302 and done.headers["Location"].endswith(f"/m/{edit}/rounds/new")
    with csrf_app.app_context():
        match = store.get_by_edit_token(get_session(), edit)
        assert match is not None and match.games == 3 and match.revision == 4


def test_a_kept_page_sets_the_session_cookie_as_a_fresh_one_did(csrf_app):
    """Every load gives the session its own CSRF token, the kept page as the fresh one did
    (its one form, "Everyone enters their own", carries it), and says that the answer varies
    with the cookie."""
    edit = start(csrf_app)  # not finished, nothing deleted: the own-parts form only
    first = csrf_app.test_client().get(f"/m/{edit}")
    kept = csrf_app.test_client().get(f"/m/{edit}")
    tokens = [
        re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', a.get_data(as_text=True))
        for a in (first, kept)
    ]
    assert len(tokens[0]) == len(tokens[1]) == 1 and tokens[0] != tokens[1]
    for answer in (first, kept):
        assert "session=" in answer.headers.get("Set-Cookie", "")
        assert "Cookie" in answer.headers["Vary"]


def test_a_save_shows_on_the_next_load(app, client):
    edit = start(app)
    names = renders(app)
    before = client.get(f"/m/{edit}").get_data(as_text=True)
    assert hidden(before, "revision") == [] and "/rounds/3" not in before
    response = client.post(
        f"/api/v1/matches/{edit}/games",
        json=sample_round(GAME, points=5),
        headers={"If-Match": "*"},
    )
    assert response.status_code in (200, 201), response.get_json()
    after = client.get(f"/m/{edit}").get_data(as_text=True)
    assert names.count("match.html") == 2 and "/rounds/3" in after
    client.get(f"/m/{edit}")
    assert names.count("match.html") == 2


def test_another_process_save_shows_on_the_next_load_at_once(app_factory, monkeypatch):
    """The edit page never trusts a revision for a while (the read-only page does for 0.25 s):
    the save of another process, which cannot tell this one, shows on the very next load."""
    first, second = app_factory(), app_factory()
    edit = start(first)
    reader = first.test_client()
    assert "/rounds/3" not in reader.get(f"/m/{edit}").get_data(as_text=True)
    monkeypatch.setattr(matches, "forget_revision", lambda match: None)  # another process
    saved = second.test_client().post(
        f"/api/v1/matches/{edit}/games",
        json=sample_round(GAME, points=6),
        headers={"If-Match": "*"},
    )
    assert saved.status_code in (200, 201)
    assert "/rounds/3" in reader.get(f"/m/{edit}").get_data(as_text=True)


def test_a_flash_and_a_draft_to_clear_show_once(app, client):
    edit = start(app)
    names = renders(app)
    client.get(f"/m/{edit}")
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "Round 9 saved.")]
        session["clear_draft"] = "companion:draft"
    shown = client.get(f"/m/{edit}").get_data(as_text=True)
    assert shown.count("Round 9 saved.") == 1 and 'data-clear-draft="companion:draft"' in shown
    assert names.count("match.html") == 2  # rendered afresh, and not kept
    later = client.get(f"/m/{edit}").get_data(as_text=True)
    assert "Round 9 saved." not in later and "data-clear-draft" not in later
    assert names.count("match.html") == 2  # the page kept before the flash


def test_undo_is_offered_from_the_cache_exactly_while_it_can_be_done(app, client):
    edit = start(app, rounds=3)
    client.get(f"/m/{edit}")
    deleted = client.post(f"/m/{edit}/rounds/2/delete", data={"revision": "4"})
    assert deleted.status_code == 302
    flashed = client.get(f"/m/{edit}").get_data(as_text=True)
    assert "Round 2 deleted." in flashed
    names = renders(app)
    page = client.get(f"/m/{edit}").get_data(as_text=True)  # kept now
    assert client.get(f"/m/{edit}").get_data(as_text=True).count('class="undo"') == 1
    assert names.count("match.html") == 1 and "Round 2 deleted." not in page
    undo = re.search(rf'action="(/m/{edit}/history/\d+/undo)"', page)
    assert undo is not None
    back = client.post(undo.group(1), data=form_of(page, undo.group(1)))
    assert back.status_code == 302
    assert "Round 2 is back." in client.get(f"/m/{edit}").get_data(as_text=True)
    now = client.get(f"/m/{edit}").get_data(as_text=True)
    assert 'class="undo"' not in now and "/rounds/3" in now


def test_a_conflict_page_is_filled_in_too(app, client):
    edit = start(app, rounds=2, games=2)
    stale = client.post(f"/m/{edit}/lengthen", data={"revision": "1", "key": "k" * 22})
    page = stale.get_data(as_text=True)
    assert stale.status_code == 409 and "Someone else changed this match" in page
    assert pages.HOLES["key"] not in page and pages.HOLES["rendered"] not in page
    assert store.TOKEN.fullmatch(hidden(page, "key")[0])


def test_a_retired_or_unknown_edit_link_is_still_refused(client):
    assert client.get("/m/" + "x" * 32).status_code == 404
    assert client.get("/m/not-a-token").status_code == 404


def test_the_marks_are_per_process_and_nothing_typed_is_taken_for_one(app, client):
    """A mark is random per process; a name that looks like one is written as typed."""
    with app.app_context():
        match = store.create_match(
            get_session(),
            game=GAME,
            players=["hole0csrf", "Béla", "Cili"],
            first_dealer="Béla",
            games=None,
            title="holekey rendered",
        )
    page = client.get(f"/m/{match.edit_token}").get_data(as_text=True)
    page = client.get(f"/m/{match.edit_token}").get_data(as_text=True)
    assert "hole0csrf" in page and "holekey rendered" in page
    assert cache.Marks("a")["a"] != cache.Marks("a")["a"]


def test_a_stencil_fills_each_value_once_and_only_when_asked() -> None:
    marks = cache.Marks("token", "unused")
    stencil = marks.stencil(f"<a {marks['token']}> <b {marks['token']}>")
    made: list[str] = []

    def token() -> str:
        made.append("t")
        return "T"

    def unused() -> str:
        raise AssertionError("no hole asks for it")

    assert stencil.fill({"token": token, "unused": unused}) == "<a T> <b T>"
    assert made == ["t"]
    assert marks.stencil("plain").fill({}) == "plain"
