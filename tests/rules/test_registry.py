"""The registry finds the games through the ``companion.games`` entry points that
``importlib.metadata`` reads from every distribution on ``sys.path``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from companion.domain.game import ENTRY_POINTS, all_games, forget_games, get_game


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    """The registry asks the entry points again before and after the test."""
    forget_games()
    yield
    forget_games()


def test_the_games_built_in_are_installed_under_companion_games() -> None:
    assert {p.name: p.value for p in entry_points(group=ENTRY_POINTS)} == {
        "rummy17": "companion.domain.games.rummy17:GAME",
        "rummikub": "companion.domain.games.rummikub:GAME",
        "rummy-o": "companion.domain.games.rummy_o:GAME",
        "manipulation": "companion.domain.games.manipulation:GAME",
    }
    assert [g.id for g in all_games()] == ["rummy17", "rummikub", "rummy-o", "manipulation"]


def test_a_distribution_on_sys_path_joins_and_the_first_of_a_name_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    for folder in ("one", "two"):
        module = f"tiny_{folder}"
        tmp_path.joinpath(folder).mkdir()
        tmp_path.joinpath(folder, f"{module}.py").write_text(
            "from companion.domain.games.rummikub import Rummikub\n\n\n"
            f"class Tiny(Rummikub):\n    id = 'tiny'\n    name = '{folder}'\n\n\n"
            "GAME = Tiny()\n",
            encoding="utf-8",
        )
        info = tmp_path / folder / "tiny_game-1.0.dist-info"
        info.mkdir()
        info.joinpath("METADATA").write_text("Name: tiny-game\nVersion: 1.0\n", encoding="utf-8")
        info.joinpath("entry_points.txt").write_text(
            f"# a comment\n[other]\nx = y:z\n\n[{ENTRY_POINTS}]\ntiny = {module}:GAME\n",
            encoding="utf-8",
        )
        monkeypatch.syspath_prepend(str(tmp_path / folder))
        monkeypatch.delitem(sys.modules, module, raising=False)
    forget_games()
    assert get_game("tiny").name == "two"  # prepended last: first on the path
    assert [g.id for g in all_games()].count("tiny") == 1


def test_an_entry_point_that_names_no_game_of_its_id_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    info = tmp_path / "wrong_game-1.0.dist-info"
    info.mkdir()
    info.joinpath("METADATA").write_text("Name: wrong-game\nVersion: 1.0\n", encoding="utf-8")
    info.joinpath("entry_points.txt").write_text(
        f"[{ENTRY_POINTS}]\nwrong = companion.domain.games.rummikub:GAME\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(TypeError, match="is no game wrong"):
        all_games()
