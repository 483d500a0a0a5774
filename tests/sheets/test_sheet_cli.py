"""`companion pdf` (contract "Commands") and `companion blank`: exit codes, files, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

from pdfcheck import A4, LETTER, page_sizes, reader, same_size, text
from support import DATA, load, run_companion

from companion.rules import match_document

run = run_companion


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
    assert error["message"].startswith("round 2: ") and error["card"] == "R1"
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


def test_blank_sheet_bad_sizes_exit_2(tmp_path: Path) -> None:
    for args in (
        ["--players", "7"],
        ["--players", "2", "--games", "0"],
        ["--players", "3", "--names", "Anna,Béla"],
    ):
        proc = run("blank", *args, "-o", str(tmp_path / "b.pdf"))
        assert proc.returncode == 2, args
        assert json.loads(proc.stdout)["error"]["message"]
