"""``companion turn``, ``knock`` and ``redeal`` (contract "Commands"): output and exit codes."""

from __future__ import annotations

import json

from support import run_companion

TURN = {
    "game": "rummikub",
    "opened": True,
    "before": [["R5", "R6", "R7"], ["K9", "B9", "O9"]],
    "after": [["R5", "R6", "R7", "R8"], ["K9", "B9", "O9"], ["B10", "B11", "B12"]],
    "hand": ["R8", "B10", "B11", "B12", "K1"],
}


def run(*args: str, stdin: str | None = None) -> tuple[int, dict]:
    proc = run_companion(*args, stdin=stdin)
    return proc.returncode, json.loads(proc.stdout)


def test_turn_legal_exits_0(tmp_path):
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(TURN), encoding="utf-8")
    code, out = run("turn", str(path))
    assert code == 0
    assert out["valid"] is True
    assert out["played"] == ["R8", "B10", "B11", "B12"]


def test_turn_illegal_exits_1_with_every_problem_in_the_language():
    doc = {**TURN, "after": [["R5", "R6", "R7"], ["K9", "B9"]]}
    code, out = run("turn", "-", "--lang", "de", stdin=json.dumps(doc))
    assert code == 1
    assert [p["rule"] for p in out["problems"]] == ["RK-4", "RK-9", "RK-8"]
    assert "O9" in out["problems"][1]["reason"]
    assert "never goes back" not in out["problems"][1]["reason"]


def test_turn_bad_input_exits_2_naming_the_meld():
    # Contract "Games and cards": asked where the initial meld's worth depends on the joker.
    doc = {**TURN, "opened": False, "before": [], "after": [["R5", "R6", "R7", "*"]]}
    code, out = run("turn", stdin=json.dumps(doc))
    assert code == 2
    assert out["error"]["meld"] == 1
    assert out["error"]["field"] == "after"


def test_knock_contract_command():
    code, out = run(
        "knock",
        "--players",
        "Anna,Béla,Cili,Dani",
        "--current",
        "Béla",
        "--knocks",
        "Dani,Cili",
        "--discarded-by",
        "Anna",
    )
    assert code == 0
    assert out["gets"] == "Cili"
    assert out["reason"] == "Cili knocked and comes first after Béla"
    assert out["refused"] == {}


def test_knock_refusals_and_bad_names():
    code, out = run("knock", "--players", "Anna,Béla,Cili", "--current", "Béla", "--knocks", "Anna")
    assert code == 0
    assert out["gets"] is None
    assert "Anna" in out["refused"]
    code, out = run("knock", "--players", "Anna,Béla", "--current", "Zoé", "--knocks", "Anna")
    assert code == 2
    assert out["error"]["field"] == "current"


def test_redeal_rk3():
    tiles = "R1 R1 K2 K2 B3 B3 O1 O2 O3 O4 O5 O6 O7 *".split()
    code, out = run("redeal", *tiles)
    assert code == 0
    assert out["redeal"] is True
    assert out["rule"] == "RK-3"
    code, out = run("redeal", "R1", "R1")
    assert code == 2
