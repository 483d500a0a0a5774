"""A photographed table's lines become melds as they lie (contract "Photos"); only a 6 or 9
read upside down is put right, and only by the game's own meld rule (RK-4, RK-5, RO-4, RO-5)."""

from __future__ import annotations

import pytest

from companion.domain import get_game
from companion.services.photos import table_melds


@pytest.mark.parametrize(("game_id", "ink"), [("rummikub", "O"), ("rummy-o", "G")])
def test_a_six_that_holds_a_run_together_only_as_a_nine_is_a_nine(game_id: str, ink: str) -> None:
    tiles = [f"{ink}7", f"{ink}8", f"{ink}6", "R1", "R2", "R3"]
    read, melds = table_melds(get_game(game_id), tiles, [(0, 1, 2), (3, 4, 5)])
    assert melds == [[f"{ink}7", f"{ink}8", f"{ink}9"], ["R1", "R2", "R3"]]
    assert read == [f"{ink}7", f"{ink}8", f"{ink}9", "R1", "R2", "R3"]


def test_a_nine_that_holds_a_group_together_only_as_a_six_is_a_six() -> None:
    _, melds = table_melds(get_game("rummikub"), ["R6", "K9", "B6"], [(0, 1, 2)])
    assert melds == [["R6", "K6", "B6"]]


def test_lines_that_are_melds_as_they_lie_are_left_alone() -> None:
    # A run in order (its 6 is a 6), a group in any order, a joker at the end (RK-12).
    tiles = ["B5", "B6", "B7", "K9", "R9", "O9", "R7", "R8", "*"]
    read, melds = table_melds(get_game("rummikub"), tiles, [(0, 1, 2), (3, 4, 5), (6, 7, 8)])
    assert read == tiles
    assert melds == [["B5", "B6", "B7"], ["K9", "R9", "O9"], ["R7", "R8", "*"]]


def test_a_line_that_is_no_meld_either_way_stays_as_it_was_read() -> None:
    # The referee then says what is wrong with it; a run laid high to low is not turned round,
    # and three copies of a tile the box has twice (a misreading) is simply no meld (RK-1).
    tiles = ["K9", "K8", "K7", "R6", "B2", "K4", "O1", "O1", "O1"]
    read, melds = table_melds(get_game("rummikub"), tiles, [(0, 1, 2), (3, 4, 5), (6, 7, 8)])
    assert read == tiles
    assert melds == [["K9", "K8", "K7"], ["R6", "B2", "K4"], ["O1", "O1", "O1"]]
