"""``companion standings`` (contract "Commands", EV-5): exit 0 with the standings, 2 for bad
input naming the session, table and player; ``--lang`` changes only the words."""

from __future__ import annotations

import json

from support import load, run_main

from companion.domain.club import standings


def run(*args: str, stdin: str | None = None) -> tuple[int, dict]:
    proc = run_main(*args, stdin=stdin)
    return proc.returncode, json.loads(proc.stdout)


def test_standings_of_the_example_event(tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(load("event.json")), encoding="utf-8")
    code, out = run("standings", str(path))
    assert code == 0
    assert out == standings(load("event.json"))
    assert list(out) == ["game", "finished", "standings"]
    assert list(out["standings"][0]) == [
        "rank", "name", "score", "sessions", "totals", "rounds_won", "missed", "provisional",
    ]  # fmt: skip


def test_standings_from_standard_input_in_another_language_keeps_the_numbers():
    code, out = run("--lang", "hu", "standings", "-", stdin=json.dumps(load("event.json")))
    assert code == 0 and out == standings(load("event.json"))


def test_a_name_at_two_tables_is_exit_2_naming_session_table_and_player():
    doc = load("event.json")
    doc["sessions"][1]["tables"][1]["players"][0] = "Anna"
    code, out = run("standings", "-", stdin=json.dumps(doc))
    assert code == 2
    error = out["error"]
    assert error["code"] in {"event-seated-twice", "first-dealer-unknown"}
    problems = error.get("problems", [error])
    twice = next(p for p in problems if p["code"] == "event-seated-twice")
    assert twice["player"] == "Anna" and twice["session"] == 2 and twice["table"] == 2
    assert twice["message"].startswith("session 2, table 2: ")


def test_bad_input_is_said_in_the_language_and_never_a_traceback():
    code, out = run("standings", "-", "--lang", "de", stdin='{"game": "rummikub", "entrants": []}')
    assert code == 2
    assert out["error"]["rule"] == "EV-1" and "EV-1" in out["error"]["message"]
    code, out = run("standings", "-", stdin="[1, 2")
    assert code == 2 and "JSON" in out["error"]["message"]
