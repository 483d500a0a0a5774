"""The registry reads the installed entry points itself (issue 15 items 1 and 6): it must
agree with ``importlib.metadata`` on every group of this environment."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest

from companion.domain.game import ENTRY_POINTS, installed


@pytest.mark.parametrize("group", [ENTRY_POINTS, "console_scripts", "pytest11", "babel.extractors"])
def test_the_registry_reads_entry_points_as_importlib_metadata_does(group: str) -> None:
    expected = sorted((p.name, p.value) for p in entry_points(group=group))
    assert sorted(installed(group)) == expected


def test_the_games_built_in_are_installed_under_companion_games() -> None:
    assert dict(installed(ENTRY_POINTS)) == {
        "rummy17": "companion.domain.games.rummy17:GAME",
        "rummikub": "companion.domain.games.rummikub:GAME",
        "rummy-o": "companion.domain.games.rummy_o:GAME",
        "manipulation": "companion.domain.games.manipulation:GAME",
    }


def test_a_distribution_on_sys_path_joins_and_the_first_of_a_name_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for folder, value in (("one", "first:GAME"), ("two", "second:GAME")):
        info = tmp_path / folder / "gin_game-1.0.dist-info"
        info.mkdir(parents=True)
        info.joinpath("entry_points.txt").write_text(
            f"# a comment\n[other]\nx = y:z\n\n[{ENTRY_POINTS}]\ngin = {value}\n",
            encoding="utf-8",
        )
        monkeypatch.syspath_prepend(str(tmp_path / folder))
    assert ("gin", "second:GAME") in installed(ENTRY_POINTS)  # prepended last: first on the path
    assert ("gin", "first:GAME") not in installed(ENTRY_POINTS)
    assert sorted(installed(ENTRY_POINTS)) == sorted(
        (p.name, p.value) for p in entry_points(group=ENTRY_POINTS)
    )
