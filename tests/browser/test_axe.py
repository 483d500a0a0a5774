"""axe-core on the phone: the main pages in light and dark mode, each dialog open in
turn (the card picker, the walker), report no violation of serious or critical impact.

Lighthouse runs with every dialog closed and in light mode only; axe here also sees the picker's
keys and the walker's cards, and the dark palette. One server and one browser for the module;
one page per colour scheme, reused from page to page.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from phone import NO_WORKER, PHONE, shot
from support import unavailable

from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.store import events

NAMES = ["Zsófi", "Márk", "Lili"]
#: One round of each game, with cards left over (drawn as chips on the breakdown).
ROUNDS: dict[str, dict[str, Any]] = {
    "rummy17": {
        "game": "rummy17",
        "bonus_cards": ["most-runs", "longest-set", "most-8-16", "fewest-blue", "went-out"],
        "went_out": "Zsófi",
        "last_discard": "B17",  # RUMMY 17: the scoreboard's ×2 mark
        "players": [
            {"name": "Zsófi", "melds": [["G7", "G8", "G9", "G10"], ["R16", "B16", "Y16"]]},
            {"name": "Márk", "melds": [["Y5", "Y6", "*Y7", "Y8"]], "hand": ["R1", "K13", "B9"]},
            {"name": "Lili", "melds": [], "hand": {"low": 2, "high": 1}},
        ],
    },
    "rummikub": {
        "game": "rummikub",
        "went_out": "Lili",
        "players": [
            {"name": "Zsófi", "rack": ["K1", "R2", "*"]},
            {"name": "Márk", "rack": ["O12", "B7"]},
            {"name": "Lili", "rack": []},
        ],
    },
    "rummy-o": {
        "game": "rummy-o",
        "went_out": "Márk",
        "players": [
            {"name": "Zsófi", "rack": ["G3", "K11"]},
            {"name": "Márk", "rack": []},
            {"name": "Lili", "rack": ["R9", "B1"]},
        ],
    },
    "manipulation": {
        "game": "manipulation",
        "knocked": "Márk",
        "went_out": None,
        "players": [
            {"name": "Zsófi", "hand": ["AH", "2C"]},
            {"name": "Márk", "hand": ["4D"]},
            {"name": "Lili", "hand": ["QS", "3H"]},
        ],
    },
}
#: What opens each dialog a page has (its buttons are shown by the page's scripts).
PICKER = "[data-pick]:visible >> nth=0"
WALKER = "#walk-open"
SERIOUS = ("serious", "critical")


@pytest.fixture(scope="module")
def pages(server: Any) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each page to check: its address and the buttons that open its dialogs."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {
        "home": ("/", ()),
        "start": ("/start/rummy17", ()),
        "turn": (
            "/referee/turn?game=rummikub&asked=1&opened=1&before=R1+R2+R3&after=R1+R2+R3+R4",
            (PICKER,),
        ),
        "rescue": ("/rescue?game=rummikub&cards=R5+R6+R7+K9+B9+O9+*+O13", (PICKER,)),
    }
    with server.app.app_context():
        session = get_session()
        for game, doc in ROUNDS.items():
            match = store.create_match(
                session,
                game=game,
                players=NAMES,
                first_dealer=NAMES[0],
                games=None if game == "manipulation" else 3,  # MR-16: played to 150
            )
            store.add_round(session, match, doc)
            edit = match.edit_token
            dialogs = (PICKER, WALKER) if game == "rummy17" else (PICKER,)
            out[f"form-{game}"] = (f"/m/{edit}/rounds/new", dialogs)
            out[f"breakdown-{game}"] = (f"/m/{edit}/rounds/1", ())
            if game == "rummy17":
                out["scoreboard"] = (f"/m/{edit}", ())
        # Own hands: the round form with the parts open, a player's own page (its
        # walker opened with its button), a tile game's, and one whose round was saved meanwhile.
        own = store.create_match(
            session, game="rummy17", players=NAMES, first_dealer=NAMES[0], games=3
        )
        mine = store.open_parts(session, own).parts
        out["parts-form"] = (f"/m/{own.edit_token}/rounds/new", (PICKER,))
        out["part-rummy17"] = (f"/p/{mine[0].token}", (WALKER,))
        racks = store.create_match(
            session, game="rummikub", players=NAMES, first_dealer=NAMES[0], games=3
        )
        out["part-rummikub"] = (f"/p/{store.open_parts(session, racks).parts[1].token}", (PICKER,))
        done = store.create_match(
            session, game="rummikub", players=NAMES, first_dealer=NAMES[0], games=3
        )
        closed = store.open_parts(session, done).parts[1]
        store.put_part(session, closed, {"rack": ["O12"]})
        store.add_round(session, done, ROUNDS["rummikub"])
        out["part-closed"] = (f"/p/{closed.token}", ())
        event = events.create_event(
            session, game="rummikub", entrants=["Anna", "Béla", "Cili", "Dani", "Emil"], sessions=2
        )
        events.seat_next(session, event)
        out["event"] = (f"/e/{event.edit_token}", ())
    return out


@pytest.fixture(scope="module", params=["light", "dark"])
def tab(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A phone in one colour scheme, for every page of the module."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        unavailable("axe-playwright-python is not installed (pip install -e '.[test]')")
    context = browser.new_context(
        viewport=PHONE, color_scheme=request.param, service_workers=NO_WORKER
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.axe = Axe()
    page.scheme = request.param
    yield page
    context.close()


def serious(page: Any, state: str) -> list[str]:
    """axe's violations of serious or critical impact on the page as it is now, one line each."""
    results = page.axe.run(page)
    out = []
    for v in results.response["violations"]:
        if v["impact"] not in SERIOUS:
            continue
        for node in v["nodes"]:
            summary = node.get("failureSummary", "").replace("\n", " ")
            out.append(f"{state}: {v['id']} ({v['impact']}) {node['target']}: {summary}")
    return out


@pytest.mark.parametrize(
    "name",
    [
        "home",
        "start",
        "form-rummy17",
        "form-rummikub",
        "form-rummy-o",
        "form-manipulation",
        "scoreboard",
        "breakdown-rummy17",
        "breakdown-manipulation",
        "turn",
        "rescue",
        "event",
        "parts-form",
        "part-rummy17",
        "part-rummikub",
        "part-closed",
    ],
)
def test_axe_finds_nothing_serious_with_each_dialog_open(
    server: Any, tab: Any, pages: dict[str, tuple[str, tuple[str, ...]]], name: str
) -> None:
    path, dialogs = pages[name]
    tab.goto(server.url + path)
    tab.wait_for_load_state()
    found = serious(tab, f"{name} {tab.scheme}")
    for opener in dialogs:
        tab.click(opener)
        dialog = tab.locator("dialog[open]")
        dialog.wait_for()
        shot(tab, f"axe-{name}-{tab.scheme}-{dialog.get_attribute('id')}", full=False)
        found += serious(tab, f"{name} {tab.scheme} #{dialog.get_attribute('id')} open")
        tab.keyboard.press("Escape")
        tab.wait_for_selector("dialog[open]", state="detached")
    assert not found, "\n".join(found)
