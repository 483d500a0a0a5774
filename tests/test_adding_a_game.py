"""A fifth game that lives only under tests/games/ (Gin Rummy) goes through every shell with
no change to any file outside its folder (docs/adding-a-game.md).

It is installed the way any game is (the ``gin`` fixture, tests/conftest.py): a distribution
on ``sys.path`` whose entry point joins the ``companion.games`` group. The CLI, the JSON API,
the phone pages, the rules reference and both score sheets then serve it, in its own words,
numbers and template.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from flask import Flask
from support import GAMES, run_companion

from companion.domain import all_games, get_game
from companion.web.app import create_app

ROUND: dict[str, Any] = {
    "game": "gin",
    "went_out": "Anna",
    "players": [
        {"name": "Anna", "hand": ["5S", "2H"]},  # 7 deadwood: a knock (GR-4)
        {"name": "Béla", "hand": ["KD", "9C", "3C"]},  # 22
    ],
}


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The ``companion`` command with Gin Rummy installed (its folder on PYTHONPATH)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(GAMES), *sys.path]))
    return run_companion(*args, stdin=stdin, env=env)


def test_a_game_joins_by_being_installed_and_leaves_when_it_is_not() -> None:
    assert "gin" not in [g.id for g in all_games()]


def test_the_registry_finds_it_through_its_entry_point_after_the_rulebooks_games(gin: None) -> None:
    assert [g.id for g in all_games()] == ["rummy17", "rummikub", "rummy-o", "manipulation", "gin"]
    game = get_game("gin")
    assert game.parse_card("qh").text == "QH"
    assert game.check_meld(["7S", "7H", "7D"])["valid"] is True
    assert game.check_meld(["7S", "8H", "9D"])["valid"] is False


def test_the_command_line_scores_a_round_and_a_match(gin: None, tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(ROUND), encoding="utf-8")
    scored = companion("score", str(path))
    assert scored.returncode == 0, scored.stderr
    result = json.loads(scored.stdout)
    assert result["winners"] == ["Anna"]
    assert [p["score"] for p in result["players"]] == [22 - 7, 0]  # GR-5
    match = {"game": "gin", "players": ["Anna", "Béla"], "first_dealer": "Béla"}
    match["rounds"] = [ROUND, ROUND]
    whole = companion("match", "-", stdin=json.dumps(match))
    assert whole.returncode == 0, whole.stderr
    assert json.loads(whole.stdout)["totals"] == {"Anna": 30, "Béla": 0}
    # Its own message, in its own Hungarian words (its catalogue, not the app's).
    bad = dict(ROUND, players=[{"name": "Anna", "hand": ["KS", "QH"]}, ROUND["players"][1]])
    path.write_text(json.dumps(bad), encoding="utf-8")
    refused = companion("score", "--lang", "hu", str(path))
    assert refused.returncode != 0
    assert "20 holtfával kopogott" in refused.stdout + refused.stderr


def test_the_api_answers_for_it(gin: None, tmp_path: Path) -> None:
    client = _app(tmp_path).test_client()
    answer = client.post("/api/v1/score", json=ROUND)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["players"][0]["score"] == 15
    described = client.get("/api/v1/games/gin").get_json()
    assert described["name"] == "Gin Rummy"
    assert described["numbers"] == {"gin": 25, "undercut": 25, "knock": 10}
    undercut = dict(ROUND, players=[ROUND["players"][0], {"name": "Béla", "hand": ["4C"]}])
    assert client.post("/api/v1/score", json=undercut).get_json()["winners"] == ["Béla"]


def test_it_is_started_entered_edited_and_shown_on_the_phone_pages(
    gin: None, tmp_path: Path
) -> None:
    client = _app(tmp_path).test_client()
    home = client.get("/?lang=hu").get_data(as_text=True)
    assert "Gin römi" in home and "/start/gin" in home  # its name, in its own Hungarian
    started = client.post(
        "/start/gin", data={"names-0": "Anna", "names-1": "Béla", "first": "1", "games": ""}
    )
    assert started.status_code == 302, started.get_data(as_text=True)
    edit = started.headers["Location"].rsplit("/", 1)[1]
    form = client.get(f"/m/{edit}/rounds/new").get_data(as_text=True)  # still Hungarian
    assert "Ki kopogott?" in form and 'name="players-1-hand"' in form
    client.get("/?lang=en")
    typed = {
        "save": "1",
        "went_out": "Anna",
        "players-0-hand": "5S 2H",
        "players-1-hand": "KD 9C 3C",
    }
    assert client.post(f"/m/{edit}/rounds/new", data=typed).status_code == 302
    typed["players-1-hand"] = "KD 9C"  # corrected: Béla held 19
    saved = client.post(f"/m/{edit}/rounds/1/edit", data=typed)
    assert saved.status_code == 302, saved.get_data(as_text=True)
    board = client.get(f"/m/{edit}").get_data(as_text=True)
    assert "Gin Rummy" in board and "Anna" in board
    assert re.search(r'data-player="0">\+?12<', board), "Anna's total: 19 − 7"
    explained = client.get(f"/m/{edit}/rounds/1").get_data(as_text=True)
    # Its own template, its figures from the game's numbers (no number in the template).
    assert "gin adds 25 and an undercut 25 (" in explained
    assert 'href="/rules/gin#GR-5"' in explained
    rules = client.get("/rules/gin").get_data(as_text=True)
    assert "GR-6" in rules and "Undercut" in rules


def test_it_prints_a_filled_and_a_blank_sheet(gin: None, tmp_path: Path) -> None:
    client = _app(tmp_path).test_client()
    started = client.post(
        "/start/gin", data={"names-0": "Anna", "names-1": "Béla", "first": "0", "games": ""}
    )
    edit = started.headers["Location"].rsplit("/", 1)[1]
    typed = {"save": "1", "went_out": "Anna", "players-0-hand": "5S 2H", "players-1-hand": "KD"}
    assert client.post(f"/m/{edit}/rounds/new", data=typed).status_code == 302
    for path in (f"/m/{edit}/sheet.pdf", "/sheets/blank.pdf?game=gin"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.mimetype == "application/pdf"
        text = _pdf_text(answer.get_data(), tmp_path)
        assert "Gin Rummy" in text, path
        assert "Deadwood" in text, path
    filled = _pdf_text(client.get(f"/m/{edit}/sheet.pdf").get_data(), tmp_path)
    assert "Anna" in filled and "Béla" in filled


def _app(tmp_path: Path) -> Flask:
    """An app with its own SQLite file; sheets made in the request thread (the renderer
    processes of other tests were started before this game was installed)."""
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'gin.sqlite3'}",
            "SECRET_KEY": "test secret key",
            "WTF_CSRF_ENABLED": False,
            "SHEET_RENDERERS": 0,
        }
    )


def _pdf_text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
