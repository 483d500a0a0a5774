"""Issue 11 §1: a Rummy 17 round in at most 50 taps with the walking picker (bench/taps.py).

The bench's own driver enters each round from the scoreboard through what a person sees, and
the scores the scoreboard then shows must be the rules core's (``score_document``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from phone import shot

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.taps import board_totals, measure, meld_taps, new_match  # noqa: E402
from companion.rules import score_document  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "data"
GOAL = 50


def _doc(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _expected(doc: dict[str, Any]) -> list[int]:
    return [p["score"] for p in score_document(doc)["players"]]


def test_r17_15a_taps_round_in_at_most_50_taps_with_the_rules_core_scores(
    server: Any, page: Any
) -> None:
    doc = _doc("taps-round.json")
    taps = measure(page, server.app, server.url, doc)
    assert board_totals(page) == _expected(doc)
    assert score_document(doc)["rummy17"] is True  # a 17 went out: one tap, still doubled
    assert taps <= 44, taps  # issue 18: the walk opens by itself, its last step saves
    assert taps <= GOAL, taps


def test_dense_rounds_take_no_more_taps_than_measured(server: Any, page: Any) -> None:
    bench = ROOT / "bench"
    for name, most in (("dense-round.json", 54), ("dense-round-2.json", 59)):
        doc = json.loads((bench / name).read_text(encoding="utf-8"))
        taps = measure(page, server.app, server.url, doc)
        assert board_totals(page) == _expected(doc)
        assert taps <= most, (name, taps)


@pytest.mark.parametrize("name", ["rummy17-round.json", "rummy17-doubled.json"])
def test_d17_8_other_rounds_through_the_walking_picker_score_as_the_rules_core(
    server: Any, page: Any, name: str
) -> None:
    doc = _doc(name)
    taps = measure(page, server.app, server.url, doc)
    assert board_totals(page) == _expected(doc)
    assert 0 < taps <= GOAL


def test_r17_16_a_hand_of_more_than_13_is_typed_and_the_pile_ran_out(
    server: Any, page: Any
) -> None:
    doc = {
        "game": "rummy17",
        "bonus_cards": ["most-cards", "most-sets", "longest-run", "most-red", "went-out"],
        "went_out": None,
        "players": [
            {"name": "Ada", "melds": [["R1", "R2", "R3"]], "hand": {"low": 15, "high": 2}},
            {"name": "Bo", "melds": [["G9", "B9", "Y9", "K9", "R9"]], "hand": ["K17"]},
        ],
    }
    measure(page, server.app, server.url, doc)
    assert board_totals(page) == _expected(doc)


def test_d17_6_walking_picker_joker_undo_and_meld_done(server: Any, page: Any) -> None:
    doc = _doc("taps-round.json")
    edit = new_match(server.app, doc)
    page.goto(f"{server.url}/m/{edit}/rounds/new")
    page.get_by_role("radio", name="Cili", exact=True).click()
    walker = page.locator("#walker")
    assert not walker.is_visible()  # no last card yet: the ending is not given
    page.locator("fieldset.player").nth(0).get_by_role("button", name="Tap in").click()
    assert walker.locator("#walk-who").inner_text() == "Anna"

    def taps(*keys: str) -> None:
        for key in keys:
            if key == "*":
                walker.get_by_role("button", name="joker").click()
            elif key.isdigit():
                walker.locator(f".values [data-v='{key}']").click()
            else:
                walker.locator(f".colours [data-c={key}]").click()

    taps("Y", "3", "3")  # the first value tapped again is taken back
    assert walker.locator("#walk-now").inner_text().strip() == ""
    taps("5", "*", "7", "8")  # a run with its joker inside: it adds itself
    taps("15", "R", "Y")  # a set stays open for more colours …
    assert walker.locator("#walk-now").inner_text() == "R15 Y15"
    walker.get_by_role("button", name="Meld done").click()  # … until it is done
    taps("4", "R", "G", "*", "B")  # a joker in a set: its own colour (D17-3)
    taps("9", "K", "Y", "G", "B", "R")  # a new value ends that set; five colours end this one
    area = page.locator("#players-0-melds")
    assert area.input_value().splitlines() == [
        "Y5 Y6 *Y7 Y8",
        "R15 Y15",
        "R4 *B G4",
        "R9 B9 G9 Y9 K9",
    ]
    taps("12")
    walker.get_by_role("button", name="Undo").click()  # the open set goes first …
    walker.get_by_role("button", name="Undo").click()  # … then the last meld
    assert area.input_value().splitlines() == ["Y5 Y6 *Y7 Y8", "R15 Y15", "R4 *B G4"]
    walker.locator("[data-count='0'] [data-n='2']").click()
    walker.locator("[data-count='1'] [data-n='0']").click()  # both counts: on to Béla
    assert walker.locator("#walk-who").inner_text() == "Béla"
    walker.get_by_role("button", name="On to Cili").click()
    assert walker.locator("#walk-out").is_visible()  # Cili went out: no counts asked
    assert not walker.locator("#walk-counts").is_visible()
    # The walk goes round from the player after Cili and ends with her: her step saves.
    assert walker.locator("#walk-next").inner_text() == "Save game 1"
    walker.get_by_role("button", name="Previous player").click()
    walker.get_by_role("button", name="Previous player").click()
    assert walker.locator("#walk-who").inner_text() == "Anna"
    assert "Y5 Y6 *Y7 Y8" in walker.locator("#walk-melds").inner_text()
    assert page.locator("#players-0-low").input_value() == "2"
    assert page.locator("#players-0-high").input_value() == "0"
    taps("R", "3", "4")  # two cards are no run: the server says so, in the walker (R17-9)
    errors = walker.locator("#walk-errors li")
    errors.filter(has_text="Meld 4:").wait_for()
    assert "R17-9" in errors.filter(has_text="Meld 4:").inner_text()
    assert errors.filter(has_text="Meld 2:").count() == 1  # R15 Y15 was ended at two cards
    walker.get_by_role("button", name="Undo").click()
    errors.filter(has_text="Meld 4:").wait_for(state="detached")
    walker.get_by_role("button", name="Close").click()
    assert not walker.is_visible()


@pytest.mark.parametrize("page", ["light", "dark"], indirect=True)
def test_walking_picker_fits_the_phone_with_big_targets(server: Any, page: Any) -> None:
    doc = _doc("taps-round.json")
    edit = new_match(server.app, doc)
    page.goto(f"{server.url}/m/{edit}/rounds/new")
    quick = page.locator("#last-field [data-last]")
    assert quick.count() == 5
    page.get_by_role("radio", name="Cili", exact=True).click()
    page.get_by_role("button", name="K17").click()
    assert page.locator("#last_discard").input_value() == "K17"
    walker = page.locator("#walker")
    # The ending is given: the walk opened by itself at Dani, the player after Cili.
    assert walker.is_visible()
    assert walker.locator("#walk-who").inner_text() == "Dani"
    walker.get_by_role("button", name="Close").click()
    page.locator("#r17").wait_for()  # the server says it doubles (R17-15a)
    page.get_by_role("button", name="Tap in melds and hands, player by player").click()
    # The whole walker is on the 390×844 screen, nothing scrolled out of sight.
    box = walker.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844 and box["width"] <= 390
    for button in walker.locator("button").all():
        b = button.bounding_box()
        if b is None:  # hidden (the counts of a player who went out)
            continue
        assert b["width"] >= 44 and b["height"] >= 44, button.inner_text()
    for button in quick.all():
        b = button.bounding_box()
        assert b["width"] >= 44 and b["height"] >= 44
    shot(page, "walking-picker", full=False)


def test_meld_taps_read_runs_sets_and_jokers() -> None:
    assert meld_taps(["B2", "B3", "B4", "B5"]) == ["c:B", "v:2", "v:5"]
    assert meld_taps(["R4", "G4", "K4", "*B"]) == ["v:4", "c:R", "c:G", "c:K", "*", "c:B"]
    assert meld_taps(["Y5", "Y6", "*Y7", "Y8"]) == ["c:Y", "v:5", "*", "v:7", "v:8"]
    assert meld_taps(["R3", "R4", "R5", "*R"]) == ["c:R", "v:3", "*", "v:6", "v:5"]
