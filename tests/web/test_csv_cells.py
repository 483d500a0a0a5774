"""Every CSV the app writes goes through one writer (``companion.web.spreadsheet``), which
writes a text cell a spreadsheet would run as a formula as text (OWASP: a leading quote)."""

from __future__ import annotations

import ast
import csv
import io
from pathlib import Path

import pytest

from companion.web.spreadsheet import cell, csv_file

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "text", ['=HYPERLINK("http://x")', "@SUM(A1)", "+1", "-2+3", "\tTab", "\rCR", "-12", "=1"]
)
def test_a_text_cell_a_spreadsheet_would_run_is_quoted(text: str) -> None:
    assert cell(text) == "'" + text


@pytest.mark.parametrize("value", [0, 7, -12, 12.5, -33.3])
def test_a_number_the_app_writes_stays_a_number(value: float) -> None:
    assert cell(value) == value


@pytest.mark.parametrize("text", ["Anna", "Béla (total)", "", "1", "A=1", "Zsófi-Márk"])
def test_plain_text_is_left_alone(text: str) -> None:
    assert cell(text) == text


def test_the_file_is_utf8_with_a_bom_and_crlf_and_every_cell_is_guarded() -> None:
    data = csv_file([["Name", "Total"], ["-2+3", -7], [None, 3]])
    assert data.startswith(b"\xef\xbb\xbf")
    text = data.decode("utf-8-sig")
    assert text.endswith("\r\n")
    assert list(csv.reader(io.StringIO(text))) == [["Name", "Total"], ["'-2+3", "-7"], ["", "3"]]


def test_only_the_one_writer_imports_csv() -> None:
    writers = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "companion").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            (alias.name if isinstance(node, ast.Import) else node.module or "") == "csv"
            for alias in node.names
        )
    )
    assert writers == ["companion/web/spreadsheet.py"]
