"""`companion rescue` (contract ``rescue``): exit 0 all placed, 1 some tiles left over, 2 bad."""

from __future__ import annotations

import json

from support import run_main


def run(*args: str) -> tuple[int, dict]:
    proc = run_main(*args)
    return proc.returncode, json.loads(proc.stdout)


def test_rescue_puts_the_contract_example_back():
    code, out = run("rescue", "--game", "rummikub", "R5", "R6", "R7", "K9", "B9", "O9", "*")
    assert code == 0
    assert out["solved"] is True
    assert sorted(len(m) for m in out["melds"]) == [3, 4]


def test_rk11_rescue_exits_1_naming_what_has_no_place():
    code, out = run("rescue", "--game", "rummikub", "R5", "R6", "R7", "K1")
    assert code == 1
    assert out == {"solved": False, "melds": [["R5", "R6", "R7"]], "unplaceable": ["K1"]}


def test_dk4_rescue_refuses_a_third_copy_in_the_table_language():
    code, out = run("--lang", "hu", "rescue", "--game", "rummikub", "O3", "O3", "o3")
    assert code == 2
    assert out["error"]["card"] == "O3" and out["error"]["rule"] == "DK-4"


def test_r17_9_rescue_is_refused_for_rummy_17():
    code, out = run("rescue", "--game", "rummy17", "R5", "R6", "R7")
    assert code == 2
    assert out["error"]["code"] == "rescue-not-in-game"
