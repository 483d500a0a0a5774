"""The filled and blank sheets of every game: its columns, totals, ranks, decisions."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pdfcheck import A4, LETTER, font_sizes, page_sizes, reader, same_size, text
from sheet_samples import manipulation_long, manipulation_to_150, sample_match, sample_rack_match

from companion.adapters.sheets import blank_sheet, match_sheet
from companion.domain import EntryError, get_game, match_document, score_document
from companion.domain.games import manipulation as mr
from companion.domain.games import rummikub as rk
from companion.domain.games import rummy_o as ro

URL = "https://companion.example/v/Qx7kP2mZ9aLr4TbW"

SAMPLES = {
    "rummy17-6x12": sample_match(6, 12, planned=12),
    "rummikub-4x12": sample_rack_match("rummikub", 4, 12, planned=12),
    "rummikub-3of5": sample_rack_match("rummikub", 3, 3, planned=5),
    "rummy-o-2x2": sample_rack_match("rummy-o", 2, 2),
    "rummy-o-4x8": sample_rack_match("rummy-o", 4, 8, planned=8),
    "manipulation-150": manipulation_to_150(),
    "manipulation-5x12": manipulation_long(5, 12),
}


@pytest.fixture(scope="module", params=sorted(SAMPLES))
def sample(request: pytest.FixtureRequest) -> tuple[dict[str, Any], bytes]:
    doc = SAMPLES[request.param]
    history = [{"when": "2024-05-01 20:01", "what": "Round 1 edited: who went out: Anna → Béla"}]
    return doc, match_sheet(doc, readonly_url=URL, history=history)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def expected_rows(doc: dict[str, Any]) -> list[str]:
    """Each round's figures as the sheet prints them, from the rules core's own results."""
    game = get_game(doc["game"])
    result = match_document(doc)
    rows = []
    for raw, line in zip(doc["rounds"], result["rounds"], strict=True):
        scored = score_document({"game": doc["game"], **raw})
        cells = []
        for p in scored["players"]:
            cells += [signed(p[c.key]) if not c.sign else str(p[c.key]) for c in game.columns]
            cells.append(str(line["totals"][p["name"]]))
        rows.append(" ".join(cells))
    return rows


def test_one_page_nothing_below_8_points(sample: tuple[dict, bytes]) -> None:
    _, pdf = sample
    assert len(reader(pdf).pages) == 1 and same_size(page_sizes(pdf)[0], A4)
    smallest = min(font_sizes(pdf))
    assert smallest[0] >= 7.99, f"{smallest[1]!r} is printed at {smallest[0]:.2f} pt"


def test_names_columns_and_every_rounds_figures(sample: tuple[dict, bytes]) -> None:
    doc, pdf = sample
    got = text(pdf)
    game = get_game(doc["game"])
    assert game.name in got
    for name in doc["players"]:
        assert name in got
    for number, row in enumerate(expected_rows(doc), start=1):
        assert row in got, f"round {number}: {row!r} not on the sheet"


def test_totals_and_ranks(sample: tuple[dict, bytes]) -> None:
    doc, pdf = sample
    got = text(pdf)
    result = match_document(doc)
    totals = " ".join(str(result["totals"][n]) for n in doc["players"])
    assert f"Total {totals}" in got
    heading = "Final standings" if result["finished"] else "Standings after round"
    standings = " ".join(f"{s['rank']}. {s['name']} {s['total']}" for s in result["standings"])
    assert heading in got and standings in got


def test_house_decisions_history_and_link(sample: tuple[dict, bytes]) -> None:
    doc, pdf = sample
    got = text(pdf)
    for decision in get_game(doc["game"]).decisions:
        assert f"{decision.rule} {decision.text}" in got
    assert "Round 1 edited: who went out: Anna → Béla" in got and URL in got
    assert len(reader(pdf).pages[0].images) == 1  # the QR code


def test_letter_paper_for_the_widest_grid() -> None:
    pdf = match_sheet(SAMPLES["manipulation-5x12"], paper="letter", readonly_url=URL)
    assert len(reader(pdf).pages) == 1 and same_size(page_sizes(pdf)[0], LETTER)
    assert min(font_sizes(pdf))[0] >= 7.99


def test_manipulation_shows_the_end_bonuses_in_the_totals() -> None:
    doc = manipulation_to_150()
    result = match_document(doc)
    assert result["finished"] and result["end_bonus"]
    got = text(match_sheet(doc))
    bonuses = " ".join(signed(result["end_bonus"][n]) for n in doc["players"])
    assert f"150 reached: end bonus (MR-16) {bonuses} Total" in got
    last = result["rounds"][-1]["totals"]
    for name in doc["players"]:  # MR-16: the totals are the running totals plus the bonus
        assert result["totals"][name] == last[name] + result["end_bonus"][name]
    assert "7 rounds · to 150 (MR-16) · finished" in got
    assert "Nobody knocked (MR-15)" in got and "Went out: Jörg Weiß" in got


def test_manipulation_in_progress_has_no_end_bonus_row() -> None:
    got = text(match_sheet(SAMPLES["manipulation-5x12"]))
    assert "150 reached" not in got and "in progress — next: round 13" in got


def test_rack_games_name_who_starts_and_the_pool_running_out() -> None:
    doc = SAMPLES["rummikub-3of5"]
    result = match_document(doc)
    got = text(match_sheet(doc))
    assert "Starts" in got and "first to start: Márk Űrös" in got
    assert "The pool ran out" in got  # round 3 (RK-22, DK-2: two tied winners)
    assert f"Won: {', '.join(result['rounds'][2]['winners'])}" in got
    for line in result["rounds"]:
        assert f"{line['number']} {line['starts']} " in got
    assert f"4 {result['next']['starts']} " in got  # rounds still to play name who starts
    assert f"3 of 5 rounds · in progress — next: round 4, {result['next']['starts']} starts" in got


@pytest.mark.parametrize("game", ["rummy17", "rummikub", "rummy-o", "manipulation"])
def test_blank_sheet_of_each_game_at_its_seat_limits(game: str) -> None:
    kind = get_game(game)
    low, high = kind.seats
    for players in (low, high):
        for paper, size in (("a4", A4), ("letter", LETTER)):
            pdf = blank_sheet(players, paper=paper, game=game)
            assert len(reader(pdf).pages) == 1, (players, paper)
            assert same_size(page_sizes(pdf)[0], size)
            assert min(font_sizes(pdf))[0] >= 7.99
    got = text(blank_sheet(high, game=game))
    assert f"{kind.name} — score sheet" in got and "Total" in got and "Rank" in got
    for column in kind.columns:
        assert column.label in got
    for seats in (low - 1, high + 1):
        with pytest.raises(EntryError, match=f"{low} to {high} players"):
            blank_sheet(seats, game=game)


def test_blank_rows_one_per_player_or_eight_towards_150() -> None:
    got = text(blank_sheet(3, game="rummikub"))
    assert re.search(r"\b3 Starts\b", got) and not re.search(r"\b4 Starts\b", got)
    got = text(blank_sheet(3, game="manipulation"))
    assert "8 Dealer Who knocked? Who played all their cards?" in got and "9 Dealer" not in got
    assert "End bonus" in got


def test_rummikub_reference_tile_values() -> None:
    got = text(blank_sheet(4, game="rummikub"))
    assert f"1–13 joker its number {rk.RACK_JOKER}" in got  # RK-21
    assert "Pool ran out (RK-22)" in got


def test_rummy_o_reference_point_values() -> None:
    got = text(blank_sheet(4, game="rummy-o"))
    tens = ", ".join(str(v) for v in sorted(ro.TENS))
    assert f"2–10 {tens} joker its number {ro.TENS[1]} {ro.JOKER}" in got  # RO-2


def test_manipulation_reference_values_knock_undercut_going_out_and_150() -> None:
    got = text(blank_sheet(5, game="manipulation"))
    assert "joker J, Q, K 2–10 ace 25 10 its number 1" in got  # MR-8
    assert f"hand worth {mr.KNOCK_LIMIT} or less" in got  # MR-9
    assert f"+{mr.UNDERCUT} to a winner who did not knock" in got  # MR-12
    assert f"+{mr.WENT_OUT_BONUS} to a winner with no cards left" in got  # MR-14
    assert f"someone has {mr.TARGET} or more {mr.TARGET}" in got  # MR-16
    assert f"+{mr.TARGET_BONUS}" in got and f"+{mr.ROUND_WON_BONUS}" in got
    assert "H Hand · U Undercut · G Going out · S Score · Σ Total" in got


@pytest.mark.parametrize("lang", ["en", "hu", "de", "bg"])
def test_six_players_twelve_rounds_and_a_long_correction_fit_one_a4_page(lang: str) -> None:
    """The corrections stand under the standings, beside the house decisions (the column has
    room there): six players' twelve games, every hand counted, and a correction of every
    hand stay one A4 page in every language (hu, de and bg took two when the corrections were
    printed below both columns)."""
    from companion.i18n.catalogues import translator

    names = ["Anna", "Béla", "Cili", "Dani", "Emő", "Feri"]
    bonus = ["most-cards", "most-sets", "longest-run", "most-red", "highest-triple"]

    def game(n: int) -> dict[str, Any]:
        hands = [
            {"name": p, "melds": [], "hand": {"low": n + i, "high": 0}} for i, p in enumerate(names)
        ]
        return {"bonus_cards": bonus, "went_out": None, "players": hands}

    doc = {"game": "rummy17", "players": names, "first_dealer": "Anna", "games": 12}
    doc["rounds"] = [game(n) for n in range(3, 15)]
    hands = "; ".join(
        f"{name}'s hand: Cards 1–9: {n}, Cards 10–17: 0 → Cards 1–9: {n + 6}, Cards 10–17: 0"
        for n, name in enumerate(names, start=3)
    )
    history = [{"when": "2026-11-27 20:52", "what": f"Game 2 edited: {hands}"}]
    pdf = match_sheet(doc, readonly_url=URL, history=history, tr=translator(lang))
    assert len(reader(pdf).pages) == 1
    assert "Game 2 edited" in text(pdf)
