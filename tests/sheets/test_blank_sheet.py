"""Blank Rummy 17 sheets for paper play: 2–6 players, reference panel, one page."""

from __future__ import annotations

import pytest
from pdfcheck import A4, LETTER, font_sizes, page_sizes, reader, same_size, text

from companion.adapters.sheets import blank_sheet
from companion.domain import EntryError
from companion.domain.games.rummy17 import BONUS_CARDS


@pytest.mark.parametrize("players", [2, 6])
@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)])
def test_blank_sheet_is_one_page_of_the_right_size(players: int, paper: str, size) -> None:
    pdf = blank_sheet(players, paper=paper)
    assert len(reader(pdf).pages) == 1
    assert same_size(page_sizes(pdf)[0], size)
    assert min(font_sizes(pdf))[0] >= 7.99


def test_one_game_row_per_player_by_default_then_as_asked() -> None:
    # D17-7: a match defaults to one game per player.
    got = text(blank_sheet(3))
    assert "Round" in got and "3 Dealer" in got and "4 Dealer" not in got
    got = text(blank_sheet(3, 5))
    assert "5 Dealer" in got and "6 Dealer" not in got
    assert got.count("Bonus card 5") == 5


def test_names_are_printed_in_seat_order() -> None:
    names = ["Őrs", "Weiß", "Жанна", "Ümit"]
    got = text(blank_sheet(names))
    assert " ".join(names) in got
    assert "Seat 1" not in got
    assert "Seat 1 Seat 2" in text(blank_sheet(2))


def test_reference_panel_lists_the_twelve_cards_and_the_penalty_table() -> None:
    got = text(blank_sheet(4))
    for number, card in enumerate(BONUS_CARDS.values(), start=1):
        assert f"B{number} {card.name} {card.condition}" in got
    assert "card of 1–9 in hand 1" in got and "card of 10–17 in hand 2" in got  # R17-16
    assert "RUMMY 17" in got and "×2" in got  # R17-15a
    assert "Total" in got and "Rank" in got and "Dealer" in got


def test_many_games_flow_onto_more_pages_with_the_header_repeated() -> None:
    pdf = blank_sheet(6, 24)
    pages = reader(pdf).pages
    assert len(pages) > 1
    assert all("Σ" in p.extract_text() for p in pages[:-1])


@pytest.mark.parametrize(
    ("players", "games", "message"),
    [
        (1, None, "2 to 6"),
        (7, None, "2 to 6"),
        (["A"] * 7, None, "2 to 6"),
        (4, 0, "1 to 24"),
        (4, 25, "1 to 24"),
        (["x" * 41, "B"], None, "longer than 40"),
    ],
)
def test_bad_sizes_are_refused(players, games, message: str) -> None:
    with pytest.raises(EntryError, match=message):
        blank_sheet(players, games)
