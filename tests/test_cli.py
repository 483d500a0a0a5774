"""The `companion` command line (contract "Commands"): formats, exit codes, the error object."""

from __future__ import annotations

import json

import pytest
from support import DATA, load, run_companion, run_main, subset

from companion.domain import EntryError, score_document


def run(*args: str, stdin: str | None = None) -> tuple[int, dict]:
    proc = run_main(*args, stdin=stdin)
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.parametrize(
    ("command", "name"),
    [("score", "rummy17-round"), ("score", "rummy17-doubled"), ("match", "rummy17-match")],
)
def test_examples_reproduce_their_expected_results_through_the_cli(command, name):
    code, out = run(command, str(DATA / f"{name}.json"))
    assert code == 0
    assert subset(load(f"{name}.expected.json"), out)


def test_the_installed_command_runs_as_a_user_runs_it():
    """The other tests call the command's ``main`` in the test process; this one starts
    ``python -m companion`` as a user's shell would, output, exit codes and all."""
    proc = run_companion("score", str(DATA / "rummy17-round.json"))
    assert proc.returncode == 0
    assert subset(load("rummy17-round.expected.json"), json.loads(proc.stdout))
    bad = run_companion("score", "-", stdin="{not json")
    assert bad.returncode == 2 and "not valid JSON" in json.loads(bad.stdout)["error"]["message"]


def test_every_award_carries_figures_rule_and_reason():
    _, out = run("score", str(DATA / "rummy17-round.json"))
    runs = next(a for a in out["awards"] if a["card"] == "most-runs")
    assert runs["figures"] == {"Zsófi": 1, "Márk": 2, "Lili": 0}
    assert runs["rule"] == "R17-B3"
    assert runs["reason"] == "Márk has the most runs: 2 (Zsófi 1, Lili 0)"


def test_score_reads_standard_input():
    text = (DATA / "rummy17-doubled.json").read_text(encoding="utf-8")
    code, out = run("score", "-", stdin=text)
    assert code == 0 and out["multiplier"] == 2


def test_check_exit_codes_and_verdicts():
    code, out = run("check", "--game", "rummy17", "r3", "R4", "*r")
    assert code == 0 and out["valid"] and len(out["readings"]) == 2
    code, out = run("check", "K16", "K17", "K1")
    assert code == 1 and out["valid"] is False and out["rule"] == "R17-9"
    code, out = run("check", "R3", "R4", "Z5")
    assert code == 2 and out["error"]["card"] == "Z5"


def test_bad_input_exits_2_with_the_error_object_naming_player_meld_and_card(tmp_path):
    doc = load("rummy17-round.json")
    doc["players"][1]["melds"][1] = ["Y5", "Y6", "*Y7", "G8"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out = run("score", str(path))
    assert code == 2
    err = out["error"]
    assert err["player"] == "Márk" and err["meld"] == 2
    assert err["message"].startswith("Márk, meld 2: ")
    with pytest.raises(EntryError) as raised:
        score_document(doc)
    assert raised.value.message == err["message"]


@pytest.mark.parametrize("content", ["{not json", "", "[1, 2"])
def test_text_that_is_not_json_exits_2(tmp_path, content):
    path = tmp_path / "x.json"
    path.write_text(content, encoding="utf-8")
    code, out = run("score", str(path))
    assert code == 2 and "not valid JSON" in out["error"]["message"]


def test_a_missing_file_and_a_usage_error_exit_2():
    code, out = run("match", "/no/such/file.json")
    assert code == 2 and "cannot read" in out["error"]["message"]
    code, out = run("frobnicate")
    assert code == 2 and "error" in out


def test_every_problem_of_a_round_comes_back_at_once_with_codes(tmp_path):
    doc = load("rummy17-round.json")
    doc["players"][1]["melds"][1] = ["Y5", "Y6", "*Y7", "G8"]
    doc["players"][2]["hand"] = ["B5", "*B"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out = run("score", str(path))
    assert code == 2
    err = out["error"]
    assert [p["code"] for p in err["problems"]] == ["meld-mixed", "joker-in-hand"]
    assert err["problems"][1]["message"].startswith("Lili's hand: *B is a joker")
    assert (err["problems"][1]["player"], err["problems"][1]["field"]) == ("Lili", "hand")


def test_check_verdicts_carry_the_reason_as_a_code():
    code, out = run("check", "--game", "rummikub", "K12", "K13", "K1")
    assert code == 1
    assert (out["reason"], out["code"], out["params"]) == (
        "1 cannot follow 13 in a run",
        "run-wraps",
        {"rule": "RK-5"},
    )
    _, out = run("score", str(DATA / "rummy17-round.json"))
    runs = next(a for a in out["awards"] if a["card"] == "most-runs")
    assert runs["reason_code"] == "award-won" and runs["reason_params"]["winners"] == ["Márk"]


def test_check_reads_the_game_in_any_case_and_cards_split_at_commas():
    code, out = run("check", "--game", "Rummikub", "R1,R2,R3")
    assert code == 0 and out["cards"] == ["R1", "R2", "R3"] and out["value"] == 6
    code, out = run("check", "--game", "RUMMY-O", "R07", "r8, R9")
    assert code == 0 and out["cards"] == ["R7", "R8", "R9"]


def test_check_without_game_hints_at_game_listing_the_games():
    code, out = run("check", "AS", "2S", "3S")
    assert code == 2
    err = out["error"]
    assert (err["code"], err["card"]) == ("cli-check-which-game", "AS")
    assert "--game" in err["message"] and "manipulation" in err["message"]
    # then the reason the card is not a Rummy 17 card
    assert [p["code"] for p in err["problems"]] == [
        "cli-check-which-game",
        "not-a-card-coloured-joker",
    ]
    code, out = run("check", "--game", "manipulation", "AS", "2S", "3S")
    assert code == 0 and out["valid"]
    code, out = run("check", "--game", "rummy17", "AS", "2S", "3S")
    assert code == 2 and out["error"]["code"] == "not-a-card-coloured-joker"


def test_check_hint_is_said_in_the_tables_language():
    code, out = run("--lang", "de", "check", "AS", "2S", "3S")
    assert code == 2 and "--game" in out["error"]["message"]
    assert out["error"]["message"] != run("check", "AS", "2S", "3S")[1]["error"]["message"]


def test_R17_9_check_says_runs_do_not_wrap_and_R17_11_adds_the_note():
    code, out = run("check", "R16", "R17", "R1")
    assert code == 1 and (out["code"], out["rule"]) == ("run-no-wrap", "R17-9")
    code, out = run("check", "R5", "R6", "*R")
    assert code == 0 and out["note_code"] == "check-joker-beside-table" and "value" not in out


def test_a_round_without_game_names_what_is_missing():
    code, out = run("score", "-", stdin=json.dumps({"players": []}))
    assert code == 2
    assert (out["error"]["code"], out["error"]["field"]) == ("game-missing", "game")
    assert "None" not in out["error"]["message"]


def test_DK_4_a_bad_card_on_a_rack_carries_the_player():
    doc = {
        "game": "rummikub",
        "players": [{"name": "Anna", "rack": ["R5", "X9"]}, {"name": "Béla", "rack": []}],
        "went_out": "Béla",
    }
    code, out = run("score", "-", stdin=json.dumps(doc))
    assert code == 2
    assert (out["error"]["player"], out["error"]["card"]) == ("Anna", "X9")


def test_the_points_short_form_is_refused_past_the_limit_in_the_same_words(tmp_path):
    from companion.domain.bounds import MAX_POINTS

    doc = {
        "game": "rummy-o",
        "went_out": "Béla",
        "players": [
            {"name": "Anna", "rack": {"points": MAX_POINTS + 1}},
            {"name": "Béla", "rack": []},
        ],
    }
    path = tmp_path / "round.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out = run("score", str(path))
    assert code == 2
    assert out["error"]["message"] == (
        f"Anna's rack: points must be a whole number from 0 to {MAX_POINTS}"
    )
