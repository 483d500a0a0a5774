"""A figure has one sign everywhere (R17-16, R17-18, RK-21): the preview, a round's breakdown,
the score sheet and the CSV write each of a game's figures alike.

The rulebooks count penalty points as a positive number taken off the bonus (R17-16: 1 or 2
per card, R17-18: score = bonus − penalty); a rack or hand is the positive count of what is
left (RK-21, RO-12, MR-11); only the score carries a sign. So a penalty of 8 is "8" in the
Penalty column of every page, sheet and spreadsheet, never −8 on one and 8 on another.
"""

from __future__ import annotations

import copy
import csv
import html
import io
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader
from test_pages import NAMES, ROUNDS, form_data, start

from companion.domain import get_game, score_document


def written(sign: str, n: int) -> str:
    """How a figure is written, said here without the app's own function: a score with its
    sign, anything else as the rulebook counts it."""
    if sign:
        assert n >= 0  # a count is never negative
        return str(n)
    return f"{n:+d}" if n else "0"


def table_cells(fragment: str) -> dict[str, list[str]]:
    """A figures table's cells per player (the figures after the name)."""
    rows = {}
    for row in re.findall(r"<tr[^>]*>\s*<td>(.*?)</tr>", fragment, re.S):
        name = html.unescape(re.sub(r"<[^>]+>", "", row.split("</td>", 1)[0])).strip(" ★")
        cells = re.findall(r'<td class="n">(.*?)</td>', row, re.S)
        rows[name] = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells]
    return rows


@pytest.mark.parametrize("game_id", list(ROUNDS))
def test_each_figure_is_written_alike_in_preview_breakdown_sheet_and_csv(
    client: FlaskClient, game_id: str
) -> None:
    doc = copy.deepcopy(ROUNDS[game_id])
    game = get_game(game_id)
    result = score_document(doc)
    expected = {
        p["name"]: [written(c.sign, p[c.key]) for c in game.columns] for p in result["players"]
    }
    if game_id == "rummy17":  # the round has a penalty to show
        assert any(p["penalty"] > 0 for p in result["players"])
    edit = start(client, NAMES, game=game_id)

    preview = form_data(doc)
    del preview["save"]
    answer = client.post(
        f"/m/{edit}/rounds/new/preview", data=preview, headers={"Accept": "application/json"}
    )
    assert answer.status_code == 200, answer.get_json()
    assert table_cells(answer.get_json()["preview"]) == expected

    assert client.post(f"/m/{edit}/rounds/new", data=form_data(doc)).status_code == 302
    page = client.get(f"/m/{edit}/rounds/1").get_data(as_text=True)
    table = page[page.index('id="scores"') : page.index("</table>", page.index('id="scores"'))]
    assert table_cells(table) == expected
    if game_id == "rummy17":  # the breakdown's own penalties table (R17-16) says the same
        penalties = page[page.index("R17-16") :]
        penalties = penalties[: penalties.index("</table>")]
        for p in result["players"]:
            cells = table_cells(penalties)[p["name"]]
            assert cells[-1] == str(p["penalty"])

    sheet = client.get(f"/m/{edit}/sheet.pdf")
    text = " ".join(
        " ".join(p.extract_text() for p in PdfReader(io.BytesIO(sheet.data)).pages).split()
    )
    totals = {p["name"]: p["score"] for p in result["players"]}
    line = " ".join(" ".join([*expected[n], str(totals[n])]) for n in NAMES)
    assert line in text, (line, text)

    body = client.get(f"/m/{edit}/export.csv").data.decode("utf-8-sig")
    head, row = list(csv.reader(io.StringIO(body)))[:2]
    for p in result["players"]:
        for c in game.columns:
            label = f"{p['name']}: {c.label}" if c.sign else p["name"]
            assert row[head.index(label)] == str(p[c.key]), (label, row)


def test_the_penalty_is_written_as_the_rulebook_counts_it_in_every_language(
    client: FlaskClient,
) -> None:
    doc: dict[str, Any] = copy.deepcopy(ROUNDS["rummy17"])
    edit = start(client, NAMES)
    assert client.post(f"/m/{edit}/rounds/new", data=form_data(doc)).status_code == 302
    penalties = [p["penalty"] for p in score_document(doc)["players"]]
    for lang in ("en", "hu", "de", "bg"):
        page = client.get(f"/m/{edit}/rounds/1?lang={lang}").get_data(as_text=True)
        table = page[page.index('id="scores"') :]
        table = table[: table.index("</table>")]
        cells = [c[0] for c in table_cells(table).values()]
        assert cells == [str(n) for n in penalties], lang
        assert "−" not in table and "-" not in "".join(cells)
