"""A Rummy 17 series on a phone: start, three rounds, an error fixed, a draft, an edit.

Chromium at 390×844 drives the real app. The totals on the scoreboard must equal what the
rules core (``companion match``) makes of the same round documents.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from phone import answer, follow, picker, shot, totals

from companion.domain import match_document, score_document

NAMES = ["Zsófi", "Márk", "Лили"]


def bonus(page: Any, cards: list[str]) -> None:
    """Tick exactly these five bonus cards."""
    for box in page.locator("input[name=bonus_cards]").all():
        box.uncheck()
    for card in cards:
        page.check(f"input[name=bonus_cards][value={card}]")
    assert page.locator("#bonus-count").inner_text().startswith("5 ")


def went_out(page: Any, name: str | None) -> None:
    answer(page, "went_out", name)


GAME1 = {
    "game": "rummy17",
    "bonus_cards": ["most-runs", "longest-set", "most-8-16", "fewest-blue", "went-out"],
    "went_out": "Zsófi",
    "last_discard": "B11",
    "players": [
        {"name": "Zsófi", "melds": [["G7", "G8", "G9", "G10"], ["R16", "B16", "Y16"]], "hand": []},
        {"name": "Márk", "melds": [["K2", "K3", "K4"], ["Y5", "Y6", "*Y7"]], "hand": ["R1", "G13"]},
        {"name": "Лили", "melds": [["R12", "B12", "G12", "K12"]], "hand": {"low": 2, "high": 1}},
    ],
}
GAME2 = {  # RUMMY 17: Márk goes out on G17, everything doubles (R17-15a)
    "game": "rummy17",
    "bonus_cards": ["most-cards", "most-red", "fewest-jokers", "highest-triple", "most-1-2-3"],
    "went_out": "Márk",
    "last_discard": "G17",
    "players": [
        {"name": "Zsófi", "melds": [["R1", "R2", "R3"]], "hand": {"low": 1, "high": 2}},
        {"name": "Márk", "melds": [["B9", "B10", "B11"], ["K14", "Y14", "*G"]], "hand": []},
        {"name": "Лили", "melds": [["K5", "K6", "K7"]], "hand": ["B5"]},
    ],
}
GAME3 = {  # ties: most cards (all three), longest run (Zsófi, Márk), fewest blue
    "game": "rummy17",
    "bonus_cards": ["most-cards", "most-sets", "longest-run", "most-red", "fewest-blue"],
    "went_out": "Лили",
    "last_discard": "R9",
    "players": [
        {"name": "Zsófi", "melds": [["R5", "R6", "R7"]], "hand": ["G1"]},
        {"name": "Márk", "melds": [["B5", "B6", "B7"]], "hand": ["Y2", "K15"]},
        {"name": "Лили", "melds": [["G10", "Y10", "K10"]], "hand": []},
    ],
}


def test_a_three_round_rummy17_series_on_a_phone(server: Any, page: Any) -> None:
    base = server.url
    # Start: choose the game, three names in seat order, Márk deals first, no length (D17-7).
    page.goto(base + "/")
    shot(page, "01-home")
    follow(page, "a[data-game=rummy17]")
    for i, name in enumerate(NAMES):
        page.fill(f"#names-{i}", name)
    page.check("input[name=first][value='1']")
    follow(page, "text=Start the match")
    assert re.search(r"/m/[\w-]+$", page.url)
    board = page.url
    edit = board.rsplit("/", 1)[1]
    assert "Game 1 of 3: Márk deals, Лили starts." in page.inner_text("main")

    # Round 1, entered with the picker; a joker at an open end is asked about only where a
    # drawn bonus card depends on it (D17-6): Y4 or Y7 count alike for these five.
    follow(page, "text=Enter game 1")
    assert "Márk deals, Лили starts" in page.inner_text("main")
    page.click("#draw")
    assert page.locator("input[name=bonus_cards]:checked").count() == 5
    bonus(page, GAME1["bonus_cards"])
    picker(page, "run", "players-0-melds", "G", "7", "10")
    picker(page, "set", "players-0-melds", "16", "R", "B", "Y")
    assert page.input_value("#players-0-melds") == "G7 G8 G9 G10\nR16 B16 Y16"
    page.fill("#players-1-melds", "K2 K3 K4\nY5 Y6 *Y")
    page.locator("#players-1-melds").blur()
    page.wait_for_load_state("networkidle")  # the meld check answered …
    assert page.locator("[data-readings=players-1-melds]").is_hidden()  # … and asks nothing
    page.fill("#players-1-melds", "K2 K3 K4\nY5 Y6 *Y7")  # the table says it all the same
    picker(page, "hand", "players-1-hand", "R", "1", "G", "13")
    assert page.input_value("#players-1-hand") == "R1 G13"
    page.fill("#players-2-melds", "R12 B12 G12 K12")
    page.fill("#players-2-low", "2")
    page.fill("#players-2-high", "1")
    went_out(page, "Zsófi")
    picker(page, "last", "last_discard", "B", "11")
    assert page.input_value("#last_discard") == "B11"
    assert page.locator("#r17").is_hidden()
    # The preview is the engine's score of exactly this round, before anything is saved.
    page.click("#preview-button")
    page.wait_for_selector("#preview table")
    expected = score_document(GAME1)
    rows = page.locator("#preview tbody tr").all_inner_texts()
    for row, player in zip(rows, expected["players"], strict=True):
        assert row.split("\t")[0] == player["name"]
        assert int(row.split("\t")[-1].replace("−", "-").strip()) == player["score"]  # "+4" too
    assert expected["awards"][0]["reason"] in page.inner_text("#preview")
    shot(page, "02-round-1-preview")
    follow(page, "#save-button")
    assert page.url == board
    assert "Game 1 saved." in page.inner_text("main")

    # Round 2: an inline error, fixed without losing anything typed; a 17 doubles (R17-15a).
    follow(page, "text=Enter game 2")
    assert "Лили deals, Zsófi starts" in page.inner_text("main")
    bonus(page, GAME2["bonus_cards"])
    page.fill("#players-0-melds", "R1 R2 R3")
    page.fill("#players-0-low", "1")
    page.fill("#players-0-high", "2")
    page.fill("#players-1-melds", "B9 B10 B11\nK14 Y14 *G")
    page.fill("#players-2-melds", "K5 K6 K8")
    page.fill("#players-2-hand", "B5")
    went_out(page, "Márk")
    page.fill("#last_discard", "G17")
    page.locator("#r17").wait_for(state="visible")  # R17-15a, asked of the server
    assert "RUMMY 17" in page.inner_text("#r17")
    follow(page, "#save-button")
    page.wait_for_load_state()
    lili = page.locator("fieldset.player[data-name='Лили']")
    # D17-8: the check shows next to Лили's melds, in plain words, with the rule.
    assert "Meld 1: K7 is missing between K5 and K8" in lili.locator(".errors").first.inner_text()
    shot(page, "03-round-2-error")
    assert page.input_value("#players-0-melds") == "R1 R2 R3"
    assert page.input_value("#players-1-melds") == "B9 B10 B11\nK14 Y14 *G"
    assert page.input_value("#players-2-hand") == "B5"
    assert page.input_value("#last_discard") == "G17"
    assert page.locator("input[name=bonus_cards]:checked").count() == 5
    assert page.is_checked("input[name=went_out][value='Márk']")
    page.fill("#players-2-melds", "K5 K6 K7")
    follow(page, "#save-button")
    assert page.url == board

    # Round 3, with ties; a reload keeps the draft on the device.
    follow(page, "text=Enter game 3")
    bonus(page, GAME3["bonus_cards"])
    page.fill("#players-0-melds", "R5 R6 R7")
    page.fill("#players-0-hand", "G1")
    page.fill("#players-1-melds", "B5 B6 B7")
    page.reload()
    assert page.locator("#restored").is_visible()
    assert page.input_value("#players-0-melds") == "R5 R6 R7"
    assert page.input_value("#players-0-hand") == "G1"
    assert page.input_value("#players-1-melds") == "B5 B6 B7"
    assert page.locator("input[name=bonus_cards]:checked").count() == 5
    page.goto(board)
    follow(page, "text=Enter game 3")
    assert page.input_value("#players-1-melds") == "B5 B6 B7"  # and so does leaving the page
    page.fill("#players-1-hand", "Y2 K15")
    page.fill("#players-2-melds", "G10 Y10 K10")
    went_out(page, "Лили")
    page.fill("#last_discard", "R9")
    draft = page.locator("#round-form").get_attribute("data-draft")
    assert page.evaluate("key => localStorage.getItem(key) !== null", draft)
    follow(page, "#save-button")
    assert page.url == board
    # Saved: the saving page drops its draft as offline.js reports the save (drafts.js).
    page.wait_for_function("key => localStorage.getItem(key) === null", arg=draft, timeout=15000)
    assert page.evaluate("key => localStorage.getItem(key)", draft) is None
    assert "The match is over." in page.inner_text("main")

    # Correct round 1 from its breakdown (tap the row).
    page.locator("#board tbody tr").first.locator("td").nth(2).click()
    page.wait_for_url("**/rounds/1")
    assert "R17-B12" in page.inner_text("main")
    follow(page, "text=Edit game 1")
    assert page.input_value("#players-2-low") == "2"
    page.fill("#players-2-low", "4")
    follow(page, "#save-button")
    assert page.url == board
    game1 = copy.deepcopy(GAME1)
    game1["players"][2]["hand"] = {"low": 4, "high": 1}
    assert "Game 1 edited: Лили's hand" in page.inner_text(".history")

    # The totals are the rules core's on the same data (what `companion match` prints).
    document = {
        "game": "rummy17",
        "players": NAMES,
        "first_dealer": "Márk",
        "games": 3,
        "rounds": [game1, GAME2, GAME3],
    }
    result = match_document(document)
    assert totals(page) == [result["totals"][n] for n in NAMES]
    ranks = page.locator("tfoot tr.rank td").all_inner_texts()
    assert ranks == [
        f"{next(s['rank'] for s in result['standings'] if s['name'] == n)}." for n in NAMES
    ]
    assert page.locator("#board tbody tr").nth(1).locator(".x2").count() == 1
    assert page.locator("#board .x2").count() == 1
    shot(page, "04-scoreboard")
    shot(page, "tour", full=False)  # docs/tour.png

    # The read-only link shows everything and can change nothing.
    view = page.input_value("#view-link")
    page.goto(view)
    assert totals(page) == [result["totals"][n] for n in NAMES]
    assert page.locator("form").count() == 0
    assert page.locator("button:not([type=button])").count() == 0
    assert edit not in page.content()
    page.locator("#board tbody tr").nth(2).locator("td").nth(1).click()
    page.wait_for_url("**/v/*/rounds/3")
    assert page.locator("form").count() == 0 and edit not in page.content()
    for path in ("", "/rounds/1", "/rounds/new", "/rounds/1/edit", "/rounds/1/delete"):
        assert page.request.post(view + path).status in (404, 405)
    page.goto(board)
    assert totals(page) == [result["totals"][n] for n in NAMES]  # nothing changed
