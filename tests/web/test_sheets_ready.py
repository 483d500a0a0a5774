"""Sheets ready when asked (issue 26 §2): a saved round's sheet is made in the background, a
sheet in flight elsewhere is waited for and read, renderers start warm, and an event's sheets
come in parts from several renderers, merged in table order. No time is asserted.
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
from pathlib import Path

from flask import Flask
from pypdf import PdfReader
from samples import PLAYERS, sample_round
from test_event_pages import NAMES, seat, start, tables

from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.renderer import NICENESS, Renderer, _exclusive, keep, renderer

GAME = "rummikub"


def new_match(app: Flask) -> tuple[str, str]:
    with app.app_context():
        match = store.create_match(
            get_session(), game=GAME, players=PLAYERS, first_dealer="Anna", games=4
        )
        return match.edit_token, match.view_token


def kept(app: Flask) -> list[Path]:
    return sorted((Path(app.instance_path) / "sheets").glob("*.pdf"))


def page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def test_a_saved_rounds_sheet_is_made_in_the_background_and_the_download_reads_it(
    app_factory,
):
    app = app_factory(SHEETS_AHEAD=True)
    client = app.test_client()
    edit, view = new_match(app)
    assert not kept(app)
    saved = client.post(f"/api/v1/matches/{edit}/games", json=sample_round(GAME, points=7))
    assert saved.status_code == 201
    assert renderer.idle()
    assert len(kept(app)) == 1  # made without anyone asking
    before = renderer.renders
    sheet = client.get(f"/v/{view}/sheet.pdf")
    assert sheet.status_code == 200 and renderer.renders == before  # read, not rendered
    assert sheet.data == kept(app)[0].read_bytes()
    assert "1 of 4 rounds" in page_texts(sheet.data)[0]
    # The next save makes the next revision's sheet: the download is that one.
    client.post(f"/api/v1/matches/{edit}/games", json=sample_round(GAME, points=3))
    assert renderer.idle() and len(kept(app)) == 2
    newer = client.get(f"/m/{edit}/sheet.pdf")
    assert renderer.renders == before + 1  # the one made ahead, none for the download
    assert "2 of 4 rounds" in page_texts(newer.data)[0]


def test_without_sheets_ahead_a_save_makes_no_sheet(app, client):
    edit, _view = new_match(app)
    assert "SHEETS_AHEAD" not in app.config and not renderer.warm  # off unless serve or asked
    client.post(f"/api/v1/matches/{edit}/games", json=sample_round(GAME))
    assert renderer.idle() and not kept(app)


def test_a_newer_job_for_the_same_match_replaces_one_still_waiting():
    ahead = Renderer()
    busy, release = threading.Event(), threading.Event()
    ran: list[str] = []

    def blocking() -> None:
        busy.set()
        release.wait(30)

    ahead.ahead("other", blocking)
    assert busy.wait(30)  # the background thread is taken: the next jobs wait
    ahead.ahead("match", lambda: ran.append("revision 2"))
    ahead.ahead("match", lambda: ran.append("revision 3"))
    release.set()
    assert ahead.idle()
    assert ran == ["revision 3"]


def test_a_sheet_another_process_is_making_is_waited_for_and_read(tmp_path):
    """The maker holds the sheet's lock file; another asker (a second server process: its
    own Renderer and its own file handle) waits, then reads what was kept: no second render."""
    folder = tmp_path / "sheets"
    other = Renderer()
    path = folder / (hashlib.sha256(b"key").hexdigest() + ".pdf")
    asked: list[bytes] = []
    rendered: list[str] = []

    def parts() -> list[tuple[str, dict[str, object]]]:
        rendered.append("twice")
        return []

    def second() -> None:
        asked.append(other.document(folder, "key", "en", parts, renderers=0))

    with _exclusive(path):
        waiter = threading.Thread(target=second)
        waiter.start()
        keep(path, b"%PDF-made once")
    waiter.join(60)
    assert asked == [b"%PDF-made once"] and rendered == []


def test_warm_renderers_start_before_the_first_sheet_and_then_give_way(tmp_path):
    warm = Renderer()
    try:
        assert warm.start(1, wait=120)
        assert warm._counts is not None and list(warm._counts) == [1, 1]  # started, warm
        pids = list(warm._pool._processes) if warm._pool is not None else []
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        assert {os.getpriority(os.PRIO_PROCESS, pid) for pid in pids} == {min(ours + NICENESS, 19)}
        made = warm.sheet(
            tmp_path, "blank", "blank", "de", {"players": 3, "game": GAME}, renderers=1
        )
        assert made.startswith(b"%PDF") and warm._counts[0] == 1  # the same renderer
    finally:
        warm.shutdown()


def test_the_event_sheets_are_one_page_per_table_in_order_and_kept(app, client):
    edit = start(client, NAMES)
    seat(client, edit, 1)
    session = tables(app, edit)[0]
    assert len(session) >= 3  # more tables than one part: drawn in parts and merged
    before = renderer.renders
    answer = client.get(f"/e/{edit}/sheets.pdf")
    assert answer.status_code == 200
    pages = page_texts(answer.data)
    assert len(pages) == len(session)
    for page, table in zip(pages, session, strict=True):
        assert all(name in page for name in table["players"])
        others = [n for t in session if t is not table for n in t["players"]]
        assert not any(name in page for name in others)
    made = renderer.renders - before
    assert made > 1  # several parts (and their merge)
    again = client.get(f"/e/{edit}/sheets.pdf")
    assert again.data == answer.data and renderer.renders - before == made


def test_the_table_cards_are_kept_and_a_bad_paper_is_a_400(app, client):
    edit = start(client, NAMES)
    seat(client, edit, 1)
    before = renderer.renders
    first = client.get(f"/e/{edit}/cards.pdf")
    assert first.status_code == 200 and first.data.startswith(b"%PDF")
    assert client.get(f"/e/{edit}/cards.pdf").data == first.data
    assert renderer.renders == before + 1
    assert client.get(f"/e/{edit}/cards.pdf?paper=a3").status_code == 400
    assert client.get(f"/e/{edit}/sheets.pdf?paper=a3").status_code == 400
