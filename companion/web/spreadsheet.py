"""The one CSV writer: a match's rounds (``players``) and an event's standings (``events``)
are both written here, so no export can forget what the other guards against.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, and a
leading tab or carriage return can hide one (OWASP, "CSV injection"): ``=HYPERLINK(…)`` as
a player's name would become a link in the organiser's spreadsheet. Every text cell that
starts so is written with a leading single quote, which spreadsheets show as text. Numbers
the app itself computes (scores, totals, ranks, shares) are written as numbers: ``-12`` as
an int is a score, not a formula, and a spreadsheet must still add it up. A name that
merely looks like a number (``-2+3``, ``-12``) is text and is quoted.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

from flask import send_file
from werkzeug.wrappers import Response

#: What a spreadsheet reads as the start of a formula (OWASP).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """One cell as written: a number as it is, ``None`` empty, any text guarded."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_file(rows: Iterable[Sequence[object]]) -> bytes:
    """The rows as a CSV file: every cell through ``cell``, CRLF line ends, and UTF-8 with a
    byte order mark so spreadsheet apps read accents and Cyrillic right."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return out.getvalue().encode("utf-8-sig")


def file_name(title: str, default: str) -> str:
    """A file name from a title: letters kept (any script), separators as dashes."""
    name = re.sub(r"[\s/\\:*?\"<>|]+", "-", title).strip("-.")
    return name or default


def csv_response(rows: Iterable[Sequence[object]], title: str, default: str) -> Response:
    """The rows as a CSV download named after ``title`` (``default`` if nothing is left of
    it); never cached, since the next round changes it."""
    response = send_file(
        io.BytesIO(csv_file(rows)),
        mimetype="text/csv",
        as_attachment=True,
        download_name=f"{file_name(title, default)}.csv",
        max_age=0,
    )
    response.headers["Cache-Control"] = "no-cache"
    return response
