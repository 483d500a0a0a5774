"""Each language on a 390×844 phone: nothing wider than the screen, no clipped button."""

from __future__ import annotations

import json
from typing import Any

import pytest
from phone import NO_WORKER, follow, scroll_width, shot
from support import load

from companion.domain import check_meld, render
from companion.i18n.catalogues import translator

LANGUAGES = ("hu", "de", "bg")


def _match(server: Any) -> str:
    """A Rummy 17 match with one round, made over the matches API; its edit token."""
    client = server.app.test_client()
    doc = load("rummy17-round.json")
    names = [p["name"] for p in doc["players"]]
    created = client.post(
        "/api/v1/matches", json={"game": "rummy17", "players": names, "first_dealer": names[0]}
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    edit = created.get_json()["edit"]
    added = client.post(f"/api/v1/matches/{edit}/games", json=doc, headers={"If-Match": '"1"'})
    assert added.status_code == 201, added.get_data(as_text=True)
    return str(edit)


def _clipped(page: Any) -> list[str]:
    """Buttons and links styled as buttons whose words do not fit inside them."""
    found: list[str] = page.evaluate(
        """() => Array.from(document.querySelectorAll('button, .button, a.primary, th'))
             .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
             .map(e => e.textContent.trim())"""
    )
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_fit_the_phone_in_every_language(server: Any, browser: Any, lang: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=lang, service_workers=NO_WORKER
    )
    page = context.new_page()
    try:
        edit = _match(server)
        words = translator(lang)
        for path, name in [
            ("/", "home"),
            ("/start/rummy17", "start"),
            (f"/m/{edit}", "board"),
            (f"/m/{edit}/rounds/1", "breakdown"),
            (f"/m/{edit}/rounds/new", "form"),
            ("/check?game=rummy17&cards=B5+B6+*R", "check"),
            ("/referee/knock?players=Anna,Béla,Cili&current=Béla&knocks=Anna,Cili", "knock"),
            ("/referee/turn?asked=1&game=rummikub&before=R5+R6+R7&after=R5+R6&hand=K1", "turn"),
            ("/referee/turn?game=rummy17&players=Anna,Béla", "turn-rummy17"),
        ]:
            page.goto(server.url + path)  # Accept-Language: the phone's language
            assert page.get_attribute("html", "lang") == lang, path
            assert scroll_width(page) <= 390, (lang, path)
            assert _clipped(page) == [], (lang, path)
            shot(page, f"lang-{lang}-{name}")
        board = page.goto(server.url + f"/m/{edit}")
        assert board is not None
        assert words.gettext("Scoreboard") in page.inner_text("main")
        assert words.gettext("Scoreboard") != "Scoreboard"
    finally:
        context.close()


def test_the_switcher_choice_stays_on_the_device(server: Any, browser: Any) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-GB", service_workers=NO_WORKER
    )
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        assert page.get_attribute("html", "lang") == "en"
        follow(page, "footer.langs a[hreflang=de]")
        assert page.get_attribute("html", "lang") == "de"
        page.goto(server.url + "/check")  # no ?lang= any more: the cookie remembers
        assert page.get_attribute("html", "lang") == "de"
        answer = json.loads(
            page.evaluate(
                """() => fetch('/api/v1/check', {method: 'POST',
                     headers: {'Content-Type': 'application/json'},
                     body: JSON.stringify({game: 'rummy17', cards: ['B5', 'B6', '*R']})})
                   .then(r => r.text())"""
            )
        )
        english = check_meld("rummy17", ["B5", "B6", "*R"])
        assert answer["valid"] is False and answer["code"] == english["code"]
        assert answer["reason"] == render(english["code"], english["params"], translator("de"))
        assert answer["reason"] != english["reason"]
    finally:
        context.close()


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("hu", ["piros 3", "piros 4", "piros 5", "joker, piros 6 helyett"]),
        ("de", ["rote 3", "rote 4", "rote 5", "Joker als rote 6"]),
        ("bg", ["червена 3", "червена 4", "червена 5", "жокер като червена 6"]),
    ],
)
def test_the_picker_draws_what_is_picked_as_named_cards(
    server: Any, browser: Any, lang: str, names: list[str]
) -> None:
    """The picker's line shows chips, each named in the phone's language."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=lang, service_workers=NO_WORKER
    )
    page = context.new_page()
    try:
        page.goto(server.url + f"/m/{_match(server)}/rounds/new")
        page.click("[data-pick=run][data-target=players-0-melds]")
        for tap in ("[data-c=R]", "[data-v='3']", "[data-v='6']", "[data-joker]", "[data-v='6']"):
            page.click("#picker " + tap)
        picked = page.locator("#picked .card")
        assert picked.evaluate_all("cs => cs.map(c => c.dataset.card)") == ["R3", "R4", "R5", "*R6"]
        assert picked.evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))") == names
        assert picked.evaluate_all("cs => cs.map(c => c.className)") == ["card c-R"] * 3 + [
            "card c-R joker"
        ]
        shot(page, f"lang-{lang}-picked", full=False)
    finally:
        context.close()


def _walker_fits(page: Any, walker: Any) -> None:
    """No clipped words, nothing of the walker scrolled out of sight, nothing sideways."""
    assert _clipped(page) == [], walker.locator("#walk-who").inner_text()
    assert walker.evaluate("d => d.scrollHeight <= d.clientHeight")
    assert scroll_width(page) <= 390


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_walkers_actions_are_whole_in_every_language(
    server: Any, browser: Any, lang: str
) -> None:
    """The walker's actions ("Kombination fertig", "Комбинацията е готова", a player's own
    page with four of them) keep their words inside the button, and a long one-word name
    neither pushes the page sideways nor the walker past the screen's height."""
    names = ["Anna", "Maximilian-Alexander", "Szentgyörgyi"]
    client = server.app.test_client()
    made = client.post(
        "/api/v1/matches", json={"game": "rummy17", "players": names, "first_dealer": "Anna"}
    )
    assert made.status_code == 201, made.get_data(as_text=True)
    edit = made.get_json()["edit"]
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=lang, service_workers=NO_WORKER
    )
    page = context.new_page()
    try:
        page.goto(f"{server.url}/m/{edit}/rounds/new")
        page.locator("[data-walk]").first.click()
        walker = page.locator("#walker")
        for seat in range(len(names)):  # each seat's step: "On to" the next player's name
            if seat:
                walker.locator("#walk-next").click()
            _walker_fits(page, walker)
        opened = client.post(f"/api/v1/matches/{edit}/parts", headers={"If-Match": "*"})
        assert opened.status_code == 201, opened.get_data(as_text=True)
        token = opened.get_json()["seats"][1]["token"]  # Maximilian-Alexander's part
        page.goto(f"{server.url}/p/{token}")
        opener = page.locator("#walk-open")  # the walker waits to be asked for
        assert not walker.is_visible()
        box = opener.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (lang, box)
        assert opener.evaluate("b => b.scrollWidth <= b.clientWidth"), lang  # words inside
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, f"lang-{lang}-own-page", full=False)
        opener.click()
        walker.wait_for()
        assert walker.locator(".actions button:visible").count() == 4  # ⌫, meld, none, send
        _walker_fits(page, walker)
        shot(page, f"lang-{lang}-own-walker", full=False)
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_long_names_fit_the_breakdown_and_the_event_screen(
    server: Any, browser: Any, lang: str
) -> None:
    """Six long one-word names under hu, de and bg heads ("Büntetőpont") keep a game's
    breakdown on the phone's width; the event's wall screen opened on a phone held upright
    sizes its words by the width."""
    names = ["Szentgyörgyi", "Максимилиан", "Bartholomäus", "Kolbenheyer", "Цветелина", "Anna"]
    client = server.app.test_client()
    made = client.post(
        "/api/v1/matches", json={"game": "rummy17", "players": names, "first_dealer": "Anna"}
    ).get_json()
    game = {
        "bonus_cards": ["most-cards", "most-sets", "longest-run", "most-red", "highest-triple"],
        "went_out": "Anna",
        "last_discard": "Y17",
        "players": [
            {"name": n, "melds": [["R1", "R2", "R3"]], "hand": []}
            if n == "Anna"
            else {"name": n, "melds": [], "hand": {"low": i, "high": 1}}
            for i, n in enumerate(names)
        ],
    }
    added = client.post(
        f"/api/v1/matches/{made['edit']}/games", json=game, headers={"If-Match": "*"}
    )
    assert added.status_code == 201, added.get_data(as_text=True)
    event = client.post(
        "/api/v1/events",
        json={
            "game": "rummikub",
            "entrants": names + ["Gemeinschaftshaus"],
            "sessions": 2,
            "title": "Klubabend im Gemeinschaftshaus",
        },
    )
    assert event.status_code == 201, event.get_data(as_text=True)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=lang, service_workers=NO_WORKER
    )
    page = context.new_page()
    try:
        for path in (f"/m/{made['edit']}/rounds/1", f"/ev/{event.get_json()['view']}/screen"):
            page.goto(server.url + path)
            assert scroll_width(page) <= 390, (lang, path)
            assert _clipped(page) == [], (lang, path)
    finally:
        context.close()
