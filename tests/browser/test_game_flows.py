"""Rummikub, Deluxe Rummy-O and Manipulation Rummy on a phone.

Each flow starts a match from the home page, enters three rounds in the game's own terms
(tiles and cards with the picker, or counted points), fixes an error shown next to its field,
deletes a round entered wrongly and enters it again, corrects an earlier round, and checks
the totals and ranks against the rules core (``companion match``) on the same documents.
Chromium at 390×844; nothing may scroll sideways.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from phone import answer, follow, picker, ranks, scroll_width, shot, start, totals

from companion.domain import get_game, match_document, score_document

NAMES = ["Anna", "Béla", "Cili"]


def expected_ranks(result: dict[str, Any], names: list[str]) -> list[str]:
    by_name = {s["name"]: s["rank"] for s in result["standings"]}
    return [f"{by_name[n]}." for n in names]


def check_board(page: Any, document: dict[str, Any]) -> dict[str, Any]:
    """The scoreboard's totals and ranks are the rules core's; the page fits the phone."""
    result = match_document(document)
    names = document["players"]
    assert totals(page) == [result["totals"][n] for n in names]
    assert ranks(page) == expected_ranks(result, names)
    assert scroll_width(page) <= 390
    return result


def preview_scores(page: Any) -> list[int]:
    """The score column of the preview, in seat order."""
    rows = page.locator("#preview tbody tr").all_inner_texts()
    return [int(r.split("\t")[-1].strip().replace("−", "-")) for r in rows]


def preview(page: Any) -> None:
    page.click("#preview-button")
    page.wait_for_selector("#preview table")


def delete_round(page: Any, board: str, number: int) -> None:
    """Open a round from the scoreboard, delete it after the confirmation page."""
    page.goto(f"{board}/rounds/{number}")
    follow(page, "text=Delete…")
    follow(page, "form button.danger")
    assert page.url == board
    assert f"Round {number} deleted." in page.inner_text("main")


def test_rummikub_with_a_pool_out_tie(server: Any, page: Any) -> None:
    # RK-2: the table chooses who starts: Béla; Anna (before him) counts as the dealer.
    board = start(page, server.url, "rummikub", NAMES, first=1)
    assert "Round 1 of 3: Béla starts." in page.inner_text("main")
    shot(page, "rk-01-board")

    # Round 1: Cili empties her rack; Anna's tiles with the picker (a joker counts 30, RK-21).
    round1 = {
        "game": "rummikub",
        "went_out": "Cili",
        "players": [
            {"name": "Anna", "rack": ["R5", "K13", "*"]},
            {"name": "Béla", "rack": ["B2", "O7"]},
            {"name": "Cili", "rack": []},
        ],
    }
    follow(page, "#enter-round")
    answer(page, "went_out", "Cili")
    picker(page, "hand", "players-0-rack", "R", "5", "K", "13", "*")
    assert page.input_value("#players-0-rack") == "R5 K13 *"
    page.fill("#players-1-rack", "B2 O7")
    preview(page)
    assert preview_scores(page) == [p["score"] for p in score_document(round1)["players"]]
    shot(page, "rk-02-preview")
    follow(page, "#save-button")
    assert page.url == board and "Round 1 saved." in page.inner_text("main")

    # Round 2: the pool runs out, Anna and Béla tie for the lowest rack (RK-22, DK-2). First
    # Béla's rack is forgotten: the preview says so next to it (DK-4), nothing else is lost.
    round2 = {
        "game": "rummikub",
        "went_out": None,
        "players": [
            {"name": "Anna", "rack": ["R3", "K2"]},
            {"name": "Béla", "rack": {"points": 5}},
            {"name": "Cili", "rack": ["O10", "O11"]},
        ],
    }
    follow(page, "#enter-round")
    assert "Cili starts." in page.inner_text("main")
    answer(page, "went_out", None)
    page.fill("#players-0-rack", "R3 K2")
    page.fill("#players-2-rack", "O10 O11")
    page.click("#preview-button")
    problem = page.locator("ul[data-live=players-1-rack] li")
    problem.first.wait_for()
    assert "pool" in problem.first.inner_text()
    shot(page, "rk-03-error")
    page.fill("#players-1-points", "5")
    preview(page)
    assert preview_scores(page) == [16, 16, -16]
    assert page.locator("#preview tr.won").count() == 2
    follow(page, "#save-button")

    # Round 3, entered for the wrong player, deleted, and entered again.
    follow(page, "#enter-round")
    answer(page, "went_out", "Béla")
    page.fill("#players-0-rack", "K1")
    page.fill("#players-2-rack", "K3")
    follow(page, "#save-button")
    assert "The match is over." in page.inner_text("main")
    delete_round(page, board, 3)
    assert "Round 3 of 3: Anna starts." in page.inner_text("main")
    round3 = {
        "game": "rummikub",
        "went_out": "Anna",
        "players": [
            {"name": "Anna", "rack": []},
            {"name": "Béla", "rack": {"points": 20}},
            {"name": "Cili", "rack": ["K1"]},
        ],
    }
    follow(page, "#enter-round")
    answer(page, "went_out", "Anna")
    page.fill("#players-1-points", "20")
    picker(page, "hand", "players-2-rack", "K", "1")
    follow(page, "#save-button")
    assert "The match is over." in page.inner_text("main")

    # Correct round 1 from its breakdown: Béla held O8, not O7.
    page.locator("#board tbody tr").first.locator("td").nth(1).click()
    page.wait_for_url("**/rounds/1")
    assert "RK-21" in page.inner_text("main")
    follow(page, "text=Edit round 1")
    assert page.input_value("#players-1-rack") == "B2 O7"
    page.fill("#players-1-rack", "B2 O8")
    follow(page, "#save-button")
    round1["players"][1]["rack"] = ["B2", "O8"]
    assert "Round 1 edited: Béla's rack: B2 O7 → B2 O8" in page.inner_text(".history")

    document = {"game": "rummikub", "players": NAMES, "first_dealer": "Anna", "games": 3}
    check_board(page, document | {"rounds": [round1, round2, round3]})
    assert page.locator("#one-more").is_visible() and page.locator("#rematch").is_visible()
    shot(page, "rk-04-board")
    page.goto(f"{board}/rounds/2")
    assert "DK-2" in page.inner_text("#explain")  # the tie, the rulebook's way
    shot(page, "rk-05-tie")


def test_rummy_o_for_two_with_one_more_round_and_a_rematch(server: Any, page: Any) -> None:
    names = ["Anna", "Béla"]
    # RO-3: whoever drew the highest tile starts: Béla.
    board = start(page, server.url, "rummy-o", names, first=1)
    assert "Round 1 of 2: Béla starts." in page.inner_text("main")

    # Round 1: Anna plays all her tiles; Béla's rack 1, 12 and a joker: 10 + 10 + 25 (RO-2).
    round1 = {
        "game": "rummy-o",
        "went_out": "Anna",
        "players": [{"name": "Anna", "rack": []}, {"name": "Béla", "rack": ["R1", "K12", "*"]}],
    }
    follow(page, "#enter-round")
    answer(page, "went_out", "Anna")
    picker(page, "hand", "players-1-rack", "R", "1", "K", "12", "*")
    preview(page)
    assert preview_scores(page) == [45, 0]
    follow(page, "#save-button")

    # Round 2: the pool runs out on a tie, counted racks: each scores the other's (DO-4).
    round2 = {
        "game": "rummy-o",
        "went_out": None,
        "players": [{"name": "Anna", "rack": {"points": 5}}, {"name": "Béla", "rack": ["B5"]}],
    }
    follow(page, "#enter-round")
    answer(page, "went_out", None)
    page.fill("#players-0-points", "5")
    page.fill("#players-1-rack", "B5")
    follow(page, "#save-button")
    assert "The match is over." in page.inner_text("main")
    assert page.locator("#enter-round").count() == 0  # D17-7, DO-5: no third round as it is

    # One more round (the series grows by one), entered wrongly, deleted, entered again.
    follow(page, "#one-more")
    assert page.url.endswith("/rounds/new")
    answer(page, "went_out", "Anna")
    page.fill("#players-1-rack", "G13")
    follow(page, "#save-button")
    delete_round(page, board, 3)
    round3 = {
        "game": "rummy-o",
        "went_out": "Béla",
        "players": [{"name": "Anna", "rack": ["G13", "G12"]}, {"name": "Béla", "rack": []}],
    }
    follow(page, "#enter-round")
    answer(page, "went_out", "Béla")
    page.fill("#players-0-rack", "G13")
    follow(page, "#save-button")

    # Correct round 3: Anna also held G12.
    page.goto(f"{board}/rounds/3/edit")
    page.fill("#players-0-rack", "G13 G12")
    follow(page, "#save-button")
    assert "Round 3 edited" in page.inner_text(".history")
    document = {"game": "rummy-o", "players": names, "first_dealer": "Anna", "games": 3}
    result = check_board(page, document | {"rounds": [round1, round2, round3]})
    assert result["finished"]
    shot(page, "ro-01-board")

    # Rematch: same seats and length, the next player deals first; a match of its own.
    follow(page, "#rematch")
    assert page.url != board
    assert "Round 1 of 3: Anna starts." in page.inner_text("main")
    assert totals(page) == [0, 0]


def test_manipulation_to_150_with_an_undercut(server: Any, page: Any) -> None:
    # MR-1: the first dealer is chosen at random.
    page.goto(server.url + "/start/manipulation")
    for i, name in enumerate(NAMES):
        page.fill(f"#names-{i}", name)
    page.click("#pick-random")
    ticked = page.locator("input[name=first]:checked")
    assert ticked.count() == 1
    dealer = NAMES[int(ticked.get_attribute("value"))]
    follow(page, "#start-button")
    board = page.url
    main = page.inner_text("main")
    assert f"Round 1: {dealer} deals" in main and "150" in main
    shot(page, "mr-01-board")

    # Round 1: Anna knocks with 4, Béla holds 2: Béla undercuts her (MR-11, MR-12). First
    # the knock is entered with a king: more than 5, refused next to who knocked (DM-6).
    round1 = {
        "game": "manipulation",
        "knocked": "Anna",
        "went_out": None,
        "players": [
            {"name": "Anna", "hand": ["4S"]},
            {"name": "Béla", "hand": ["2H"]},
            {"name": "Cili", "hand": ["KD", "QD"]},
        ],
    }
    follow(page, "#enter-round")
    answer(page, "knocked", "Anna")
    answer(page, "went_out", None)
    picker(page, "hand", "players-0-hand", "S", "13")
    page.fill("#players-1-hand", "2h")
    picker(page, "hand", "players-2-hand", "D", "13", "12")
    assert page.input_value("#players-2-hand") == "KD QD"
    follow(page, "#save-button")
    assert "5 or less" in page.inner_text("#knocked-error")
    shot(page, "mr-02-error")
    assert page.input_value("#players-2-hand") == "KD QD"  # everything typed is kept
    page.fill("#players-0-hand", "4S")
    preview(page)
    assert preview_scores(page) == [0, 30, 0]
    follow(page, "#save-button")
    assert "Round 1 saved." in page.inner_text("main")

    # Round 2: Cili goes out (MR-14); the others' hands as counted points.
    round2 = {
        "game": "manipulation",
        "knocked": None,
        "went_out": "Cili",
        "players": [
            {"name": "Anna", "hand": {"points": 60}},
            {"name": "Béla", "hand": {"points": 50}},
            {"name": "Cili", "hand": []},
        ],
    }
    follow(page, "#enter-round")
    answer(page, "knocked", None)
    answer(page, "went_out", "Cili")
    page.fill("#players-0-points", "60")
    page.fill("#players-1-points", "50")
    follow(page, "#save-button")

    # Round 3 entered wrongly and deleted; then Cili goes out again and passes 150 (MR-16).
    follow(page, "#enter-round")
    answer(page, "knocked", "Béla")
    answer(page, "went_out", None)
    page.fill("#players-0-hand", "5H")
    page.fill("#players-1-hand", "3C")
    page.fill("#players-2-hand", "9D")
    follow(page, "#save-button")
    delete_round(page, board, 3)
    round3 = {
        "game": "manipulation",
        "knocked": None,
        "went_out": "Cili",
        "players": [
            {"name": "Anna", "hand": {"points": 10}},
            {"name": "Béla", "hand": {"points": 15}},
            {"name": "Cili", "hand": []},
        ],
    }
    follow(page, "#enter-round")
    answer(page, "knocked", None)
    answer(page, "went_out", "Cili")
    page.fill("#players-0-points", "10")
    page.fill("#players-1-points", "15")
    follow(page, "#save-button")

    # Correct round 1 after the end: Cili held only the king; Béla still undercuts Anna.
    page.goto(f"{board}/rounds/1")
    assert "undercut" in page.inner_text("#explain")
    follow(page, "text=Edit round 1")
    page.fill("#players-2-hand", "KD")
    follow(page, "#save-button")
    round1 = copy.deepcopy(round1)
    round1["players"][2]["hand"] = ["KD"]

    document = {"game": "manipulation", "players": NAMES, "first_dealer": dealer}
    result = check_board(page, document | {"rounds": [round1, round2, round3]})
    assert result["finished"] and result["end_bonus"]["Cili"] == 100 + 2 * 25  # MR-16
    bonus = page.locator("tr#end-bonus td").all_inner_texts()
    assert bonus == [f"+{result['end_bonus'][n]}" if result["end_bonus"][n] else "0" for n in NAMES]
    main = page.inner_text("main")
    assert "The match is over." in main and "Cili wins" in main
    assert page.locator("#one-more").count() == 0  # MR-16: a target, no number of rounds
    assert page.locator("#rematch").is_visible()
    assert re.search(r"MR-16", page.inner_text("#end-bonus-note"))
    shot(page, "mr-03-board")
    assert get_game("manipulation").descriptor()["rounds_per_player"] is False
