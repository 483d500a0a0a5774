"""`companion pdf` (contract "Commands") and `companion blank`: exit codes, files, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pdfcheck import A4, LETTER, page_sizes, reader, same_size, text
from sheet_samples import manipulation_to_150, sample_rack_match
from support import DATA, load, run_main

from companion.domain import all_games, get_game, match_document

run = run_main


def test_pdf_of_the_example_match(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    proc = run("pdf", str(DATA / "rummy17-match.json"), "-o", str(out))
    assert proc.returncode == 0
    pdf = out.read_bytes()
    assert len(reader(pdf).pages) == 1 and same_size(page_sizes(pdf)[0], A4)
    got = text(pdf)
    result = match_document(load("rummy17-match.json"))
    for s in result["standings"]:
        assert f"{s['rank']}. {s['name']} {s['total']}" in got


def test_pdf_from_standard_input_on_letter(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    doc = (DATA / "rummy17-match.json").read_text(encoding="utf-8")
    proc = run("pdf", "-", "-o", str(out), "--paper", "letter", stdin=doc)
    assert proc.returncode == 0
    assert same_size(page_sizes(out.read_bytes())[0], LETTER)


def test_bad_match_exits_2_with_the_error_object_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    doc = load("rummy17-match.json")
    doc["rounds"][1]["players"][0]["hand"] = ["R1"]  # R1 already lies in Márk's meld
    proc = run("pdf", "-", "-o", str(out), stdin=json.dumps(doc))
    assert proc.returncode == 2
    error = json.loads(proc.stdout)["error"]
    assert error["message"].startswith("game 2: ") and error["card"] == "R1"  # Rummy 17's word
    assert not out.exists()


def test_not_json_and_unwritable_output_exit_2(tmp_path: Path) -> None:
    proc = run("pdf", "-", "-o", str(tmp_path / "x.pdf"), stdin="{not json")
    assert proc.returncode == 2 and "not valid JSON" in json.loads(proc.stdout)["error"]["message"]
    proc = run("pdf", str(DATA / "rummy17-match.json"), "-o", str(tmp_path / "no" / "x.pdf"))
    assert proc.returncode == 2 and "cannot write" in json.loads(proc.stdout)["error"]["message"]
    proc = run("pdf", str(DATA / "rummy17-match.json"), "-o", "x.pdf", "--paper", "a5")
    assert proc.returncode == 2


def test_blank_sheet_with_names(tmp_path: Path) -> None:
    out = tmp_path / "blank.pdf"
    proc = run("blank", "--names", "Anna,Béla,Жанна", "--games", "4", "-o", str(out))
    assert proc.returncode == 0
    pdf = out.read_bytes()
    assert len(reader(pdf).pages) == 1
    got = text(pdf)
    assert "Anna Béla Жанна" in got and "4 Dealer" in got and "5 Dealer" not in got


@pytest.mark.parametrize(
    "doc",
    [
        sample_rack_match("rummikub", 4, 4),
        sample_rack_match("rummy-o", 3, 3),
        manipulation_to_150(),
    ],
    ids=lambda d: d["game"],
)
def test_pdf_of_every_game(tmp_path: Path, doc: dict) -> None:
    out = tmp_path / "sheet.pdf"
    proc = run("pdf", "-", "-o", str(out), stdin=json.dumps(doc))
    assert proc.returncode == 0, proc.stdout
    pdf = out.read_bytes()
    assert len(reader(pdf).pages) == 1
    got = text(pdf)
    result = match_document(doc)
    for s in result["standings"]:
        assert f"{s['rank']}. {s['name']} {s['total']}" in got


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_blank_of_every_game_and_its_seats(tmp_path: Path, game: str) -> None:
    out = tmp_path / "blank.pdf"
    kind = get_game(game)
    proc = run("blank", "--game", game, "-o", str(out))
    assert proc.returncode == 0, proc.stdout
    got = text(out.read_bytes())
    assert f"{kind.name} — score sheet" in got and "Seat 4" in got  # four seats by default
    low, high = kind.seats
    proc = run("blank", "--game", game, "--players", str(high + 1), "-o", str(out))
    assert proc.returncode == 2
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "sheet-seats" and error["rule"] == kind.seats_rule
    assert f"{low} to {high} players" in error["message"]


def test_a_bad_match_of_another_game_exits_2(tmp_path: Path) -> None:
    doc = sample_rack_match("rummikub", 3, 2)
    doc["rounds"][0]["players"][1]["rack"] = []  # empty, but someone else went out (DK-4)
    proc = run("pdf", "-", "-o", str(tmp_path / "x.pdf"), stdin=json.dumps(doc))
    assert proc.returncode == 2
    error = json.loads(proc.stdout)["error"]
    assert error["message"].startswith("round 1: ") and error["rule"] == "DK-4"
    assert not (tmp_path / "x.pdf").exists()
    proc = run("blank", "--game", "chess", "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 2 and "invalid choice: 'chess'" in proc.stdout


def test_lang_before_or_after_the_command_and_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "sheet.pdf"
    match = str(DATA / "rummy17-match.json")
    for args in (["--lang", "hu", "pdf", match], ["pdf", match, "--lang", "bg"]):
        assert run(*args, "-o", str(out)).returncode == 0, args
    assert run("blank", "--lang", "de", "-o", str(out)).returncode == 0
    proc = run("--lang", "xx", "blank", "-o", str(out))
    assert proc.returncode == 2 and "--lang" in json.loads(proc.stdout)["error"]["message"]
    monkeypatch.setenv("COMPANION_LANG", "fr")  # the command inherits the environment
    proc = run("pdf", match, "-o", str(out))
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error"]["code"] == "cli-language"
    assert run("pdf", match, "-o", str(out), "--lang", "en").returncode == 0  # --lang wins
    monkeypatch.setenv("COMPANION_LANG", "hu")
    assert run("pdf", match, "-o", str(out)).returncode == 0


def test_blank_sheet_bad_sizes_exit_2(tmp_path: Path) -> None:
    for args in (
        ["--players", "7"],
        ["--players", "2", "--games", "0"],
        ["--players", "3", "--names", "Anna,Béla"],
    ):
        proc = run("blank", *args, "-o", str(tmp_path / "b.pdf"))
        assert proc.returncode == 2, args
        assert json.loads(proc.stdout)["error"]["message"]
