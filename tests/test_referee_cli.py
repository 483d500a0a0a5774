"""``companion turn``, ``knock`` and ``redeal`` (contract "Commands"): output and exit codes."""

from __future__ import annotations

import json

from support import run_main

TURN = {
    "game": "rummikub",
    "opened": True,
    "before": [["R5", "R6", "R7"], ["K9", "B9", "O9"]],
    "after": [["R5", "R6", "R7", "R8"], ["K9", "B9", "O9"], ["B10", "B11", "B12"]],
    "hand": ["R8", "B10", "B11", "B12", "K1"],
}


def run(*args: str, stdin: str | None = None) -> tuple[int, dict]:
    proc = run_main(*args, stdin=stdin)
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
    # Contract "Games and cards": asked where the readings differ on reaching the initial meld
    # (RK-6: R8 R9 R10 is 27, R9 R10 R11 is 30).
    doc = {**TURN, "opened": False, "before": [], "after": [["R9", "R10", "*"]]}
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


# --- the rulings: check's copies, D17-6, D17-11, DO-8, the initial meld's worth ------------


def test_check_more_copies_than_the_box_has_exits_2():
    code, out = run("check", "--game", "rummikub", "*", "*", "*")
    assert code == 2
    assert (out["error"]["rule"], out["error"]["card"]) == ("DK-4", "*")
    assert out["error"]["message"] == "more than 2 jokers; the game has 2 (DK-4)"
    code, out = run("check", "--game", "rummy17", "K9", "K9", "K10")
    assert code == 2 and out["error"]["rule"] == "R17-1"


def test_D17_6_a_card_in_a_hand_makes_score_ask_which_card_the_joker_is():
    doc = {
        "game": "rummy17",
        "bonus_cards": ["most-8-16", "most-cards", "most-sets", "most-runs", "longest-run"],
        "went_out": None,
        "players": [
            {"name": "Anna", "melds": [["K14", "K15", "*K"]], "hand": ["G2"]},
            {"name": "Béla", "melds": [["B7", "B8", "B9"]], "hand": ["K16"]},
        ],
    }
    code, out = run("score", "-", stdin=json.dumps(doc))
    assert code == 2
    assert (out["error"]["player"], out["error"]["meld"], out["error"]["rule"]) == (
        "Anna",
        1,
        "D17-6",
    )
    assert out["error"]["params"]["could"] == ["K13", "K16"]


def test_D17_11_melding_the_whole_hand_exits_1():
    doc = {
        "game": "rummy17",
        "player": "Anna",
        "opened": False,
        "before": {"Anna": [], "Béla": []},
        "after": {"Anna": [["R3", "R4", "R5"]], "Béla": []},
        "hand": ["R3", "R4", "R5"],
    }
    code, out = run("turn", "-", stdin=json.dumps(doc))
    assert code == 1 and [p["rule"] for p in out["problems"]] == ["D17-11"]


def test_DO_8_a_joker_freed_by_rearranging_exits_1():
    doc = {
        "game": "rummy-o",
        "before": [["R3", "R4", "R5"], ["R6", "R7", "*R8"]],
        "after": [["R3", "R4", "R5", "R6", "R7"], ["B10", "B11", "*B12"]],
    }
    code, out = run("turn", "-", stdin=json.dumps(doc))
    assert code == 1 and [p["rule"] for p in out["problems"]] == ["DO-8"]
    code, out = run("turn", "-", stdin=json.dumps({**doc, "game": "rummikub"}))
    assert code == 0


def test_RK_6_a_joker_whose_readings_all_reach_30_is_judged_at_the_least_worth():
    doc = {"game": "rummikub", "opened": False, "before": [], "after": [["R11", "R12", "*"]]}
    code, out = run("turn", "-", stdin=json.dumps(doc))
    assert (code, out["valid"], out["value"]) == (0, True, 33)
    assert out["melds"][0]["could"] == ["R10", "R13"]
