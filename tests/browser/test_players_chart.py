"""The players page and the chart of totals on a 390×844 phone, light and dark."""

from __future__ import annotations

from typing import Any

import pytest
from phone import follow, scroll_width, shot, start
from support import load

from companion.adapters import store
from companion.adapters.db import get_session

NAMES = ["Zsófi", "Márk", "Krisztina-Borbála", "Лили"]


def play(server: Any, board: str, rounds: list[dict[str, Any]]) -> None:
    """Store rounds as the round form would (each checked by the rules core)."""
    with server.app.app_context():
        session = get_session()
        match = store.get_by_edit_token(session, board.rsplit("/", 1)[-1])
        assert match is not None
        for doc in rounds:
            store.add_round(session, match, doc)


def rummy17_round(seed: int) -> dict[str, Any]:
    """A Rummy 17 round of NAMES: each lays one run of their colour, hands as counts."""
    colours = ["R", "B", "G", "Y"]
    return {
        "game": "rummy17",
        "bonus_cards": ["most-cards", "most-sets", "longest-run", "most-red", "highest-triple"],
        "went_out": None,
        "players": [
            {
                "name": name,
                "melds": [[f"{colours[i]}{v}" for v in range(3, 6 + (i + seed) % 3)]],
                "hand": {"low": 1 + (i * seed) % 4, "high": (i + seed) % 3},
            }
            for i, name in enumerate(NAMES)
        ],
    }


def colour(page: Any, selector: str, prop: str) -> str:
    return str(page.eval_on_selector(selector, f"e => getComputedStyle(e).{prop}"))


@pytest.mark.parametrize("page", ["light", "dark"], indirect=True)
def test_players_page_and_chart_fit_a_phone(page: Any, server: Any) -> None:
    board = start(page, server.url, "rummy17", NAMES, first=0)
    play(server, board, [rummy17_round(seed) for seed in range(1, 4)])
    match = load("rummy17-match.json")
    other = start(page, server.url, "rummy17", match["players"], first=1)
    play(server, other, [{"game": "rummy17", **r} for r in match["rounds"]])

    page.goto(board)
    chart = page.locator("#totals-chart")
    chart.scroll_into_view_if_needed()
    assert chart.is_visible()
    assert page.locator("#totals-chart polyline").count() == len(NAMES)
    for name in NAMES:
        points = page.locator(f"#totals-chart polyline[data-player='{name}']").get_attribute(
            "points"
        )
        assert points is not None and len(points.split()) == 3  # one point per round
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    # The lines are drawn in the scheme's own colours, never the page's background.
    background = colour(page, "body", "backgroundColor")
    assert colour(page, "#totals-chart polyline", "stroke") not in (background, "none")
    assert page.locator(".chart-legend li").all_inner_texts() == NAMES
    assert scroll_width(page) <= 390
    scheme = (
        "dark" if page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") else "light"
    )
    shot(page, f"chart-{scheme}")

    page.goto(server.url + "/")
    follow(page, "#players-link")
    assert page.url.endswith("/players")
    cards = page.locator("li.player")
    assert cards.count() == len(NAMES)  # Zsófi and Márk of both matches are one each
    assert page.locator("li.player[data-player='Márk'] [data-figure=rounds]").inner_text() == "5"
    assert scroll_width(page) <= 390
    for tap in page.locator("li.player [data-figure=best] a").all():
        tap_box = tap.bounding_box()
        assert tap_box is not None and tap_box["height"] >= 44
    shot(page, f"players-{scheme}")
