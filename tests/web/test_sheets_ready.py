"""Sheets ready when asked, from one render queue every server process shares
(companion/adapters/render_queue.py): drawn by the render process outside the request
threads, at a lower priority, warm; the same sheet asked for by twenty requests in two
processes drawn once; a saved round's sheet queued ahead; an event's sheets drawn in parts
and merged in table order; the newest sheets kept, the older dropped by the storage. No time
is asserted.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from pypdf import PdfReader
from samples import PLAYERS, sample_round
from test_event_pages import NAMES, seat, start, tables

from companion.adapters import render_queue, store
from companion.adapters.db import get_session
from companion.adapters.render_queue import NICENESS, RenderQueue, queue_for

GAME = "rummikub"
ROOT = Path(__file__).resolve().parents[2]
BLANK = [("blank", {"players": 3, "game": GAME, "paper": "a4"})]


def new_match(app: Flask) -> tuple[str, str]:
    with app.app_context():
        match = store.create_match(
            get_session(), game=GAME, players=PLAYERS, first_dealer="Anna", games=4
        )
        return match.edit_token, match.view_token


def page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def until(condition: object, seconds: float = 120) -> None:
    """Wait until ``condition()`` holds (state another process changes: no fixed sleep)."""
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "never came true"
        time.sleep(0.02)


@pytest.fixture
def render_process(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """The render process ``companion serve`` starts, for the instance folder of the apps
    the test makes (make_app: ``tmp_path / "instance"``), with one worker."""
    process = render_queue.start(tmp_path / "instance", 1, wait=120)
    yield process
    render_queue.stop(process)


def children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_a_saved_rounds_sheet_is_queued_ahead_and_the_download_reads_it(
    app_factory, render_process
):
    app = app_factory(SHEET_QUEUE=True)  # as companion serve sets it: sheets made ahead
    queue = queue_for(app)
    assert not queue.inline
    client = app.test_client()
    edit, view = new_match(app)
    saved = client.post(
        f"/api/v1/matches/{edit}/games",
        json=sample_round(GAME, points=7),
        headers={"If-Match": "*"},
    )
    assert saved.status_code == 201
    assert queue.idle()
    before = queue.renders
    assert before == 1  # made without anyone asking, by the render process
    sheet = client.get(f"/v/{view}/sheet.pdf")
    assert sheet.status_code == 200 and queue.renders == before  # read, not drawn
    assert "1 of 4 rounds" in page_texts(sheet.data)[0]
    # The next save queues the next revision's sheet: the download is that one.
    client.post(
        f"/api/v1/matches/{edit}/games",
        json=sample_round(GAME, points=3),
        headers={"If-Match": "*"},
    )
    newer = client.get(f"/m/{edit}/sheet.pdf")
    assert queue.idle() and queue.renders == before + 1  # the one made ahead, none more
    assert "2 of 4 rounds" in page_texts(newer.data)[0]


def test_without_sheets_ahead_a_save_makes_no_sheet(app, client):
    edit, _view = new_match(app)
    queue = queue_for(app)
    assert "SHEETS_AHEAD" not in app.config and queue.inline  # off unless serve or asked
    client.post(f"/api/v1/matches/{edit}/games", json=sample_round(GAME), headers={"If-Match": "*"})
    assert queue.renders == 0 and queue.huey.pending_count() == 0


def test_sheets_made_ahead_are_limited_over_all_processes(app_factory, monkeypatch):
    """A storm of saves does not keep the renderers busy: beyond AHEAD_LIMIT in AHEAD_PER
    seconds, a sheet is left to be made when asked for."""
    monkeypatch.setattr(render_queue, "AHEAD_LIMIT", 2)
    monkeypatch.setattr(render_queue, "AHEAD_PER", 10**9)  # one window: no edge to straddle
    app = app_factory(SHEET_QUEUE=True, SHEETS_AHEAD=True)  # no render process: they wait
    client = app.test_client()
    edit, _view = new_match(app)
    for points in (1, 2, 3):
        client.post(
            f"/api/v1/matches/{edit}/games",
            json=sample_round(GAME, points=points),
            headers={"If-Match": "*"},
        )
    assert queue_for(app).huey.pending_count() == 2


def test_the_render_process_draws_warm_and_below_the_pages(tmp_path, render_process):
    """Its workers are forked from the warm render process and run NICENESS below the
    server; a sheet asked for here is drawn there, never in this process."""
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    lowered = min(ours + NICENESS, 19)
    assert os.getpriority(os.PRIO_PROCESS, render_process.pid) == lowered
    until(lambda: children(render_process.pid))  # Huey's scheduler and worker
    for pid in children(render_process.pid):
        assert os.getpriority(os.PRIO_PROCESS, pid) == lowered
    queue = RenderQueue(tmp_path / "instance", inline=False)
    made = queue.document("blank in German", "de", BLANK)
    assert made.startswith(b"%PDF") and "Spieler" in page_texts(made)[0]
    assert queue.idle() and queue.renders == 1
    assert queue.document("blank in German", "de", BLANK) == made and queue.renders == 1


ASKER = """
import sys, threading
from pathlib import Path
from companion.adapters.render_queue import RenderQueue
queue = RenderQueue(Path(sys.argv[1]), inline=False)
answers = []
def ask():
    answers.append(queue.document("blank", "hu", [("blank", {"players": 3, "game": "rummikub"})]))
threads = [threading.Thread(target=ask) for _ in range(10)]
for thread in threads:
    thread.start()
print("asked", flush=True)
for thread in threads:
    thread.join()
print(len(answers), len(set(answers)), flush=True)
"""


def test_twenty_requests_in_two_processes_wait_on_one_drawing(tmp_path):
    """Ten request threads here and ten in another server process ask for the same sheet
    before any renderer runs: one task is queued, the sheet is drawn once, all get it."""
    folder = tmp_path / "instance"
    queue = RenderQueue(folder, inline=False)
    blank = [("blank", {"players": 3, "game": GAME})]
    answers: list[bytes] = []
    threads = [
        threading.Thread(target=lambda: answers.append(queue.document("blank", "hu", blank)))
        for _ in range(10)
    ]
    for thread in threads:
        thread.start()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    other = subprocess.Popen(
        [sys.executable, "-c", ASKER, str(folder)], env=env, stdout=subprocess.PIPE, text=True
    )
    assert other.stdout is not None
    assert other.stdout.readline().strip() == "asked"
    until(lambda: queue.huey.pending_count() == 1)
    process = render_queue.start(folder, 2, wait=120)
    try:
        for thread in threads:
            thread.join(120)
        assert other.stdout.readline().split() == ["10", "1"]  # ten answers, all the same
        assert other.wait(60) == 0
    finally:
        render_queue.stop(process)
    assert len(answers) == 10 and len(set(answers)) == 1
    assert queue.idle() and queue.renders == 1 and queue.huey.pending_count() == 0


def test_a_claim_whose_render_process_died_is_taken_over(tmp_path):
    queue = RenderQueue(tmp_path / "instance", inline=True)
    name = render_queue._name("blank")
    queue.huey.put_if_empty("claim:" + name, time.time() - render_queue.CLAIM_STALE - 1)
    assert queue.document("blank", "en", BLANK).startswith(b"%PDF")
    assert queue.renders == 1 and queue.idle(0.1)  # drawn, the claim gone with it


def test_the_storage_keeps_the_newest_sheets(tmp_path, monkeypatch):
    """Every TRIM_EVERY-th drawing drops the sheets beyond the newest KEEP: no folder is
    listed, no file unlinked."""
    monkeypatch.setattr(render_queue, "KEEP", 2)
    monkeypatch.setattr(render_queue, "TRIM_EVERY", 1)
    queue = RenderQueue(tmp_path / "instance", inline=True)
    for n in range(4):
        queue.document(f"blank {n}", "en", BLANK)
    assert [queue.kept(f"blank {n}") for n in range(4)] == [False, False, True, True]
    assert queue.renders == 4


def test_the_event_sheets_are_one_page_per_table_in_order_and_kept(app, client):
    edit = start(client, NAMES)
    seat(client, edit, 1)
    session = tables(app, edit)[0]
    assert len(session) >= 3  # more tables than one part: drawn in parts and merged
    queue = queue_for(app)
    before = queue.renders
    answer = client.get(f"/e/{edit}/sheets.pdf")
    assert answer.status_code == 200
    pages = page_texts(answer.data)
    assert len(pages) == len(session)
    for page, table in zip(pages, session, strict=True):
        assert all(name in page for name in table["players"])
        others = [n for t in session if t is not table for n in t["players"]]
        assert not any(name in page for name in others)
    made = queue.renders - before
    assert made > 1  # several parts (and their merge)
    again = client.get(f"/e/{edit}/sheets.pdf")
    assert again.data == answer.data and queue.renders - before == made


def test_the_table_cards_are_kept_and_a_bad_paper_is_a_400(app, client):
    edit = start(client, NAMES)
    seat(client, edit, 1)
    queue = queue_for(app)
    before = queue.renders
    first = client.get(f"/e/{edit}/cards.pdf")
    assert first.status_code == 200 and first.data.startswith(b"%PDF")
    assert client.get(f"/e/{edit}/cards.pdf").data == first.data
    assert queue.renders == before + 1
    assert client.get(f"/e/{edit}/cards.pdf?paper=a3").status_code == 400
    assert client.get(f"/e/{edit}/sheets.pdf?paper=a3").status_code == 400


def running(pid: int) -> bool:
    """Alive, and not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.server
def test_companion_serve_runs_one_render_process_for_all_its_workers(tmp_path):
    """Two server processes, one render process; it draws their sheets, and it ends with
    every process it forked when the server is gone, even SIGKILLed (then nothing told it)."""
    from live_server import serving

    folder = tmp_path / "instance"
    env = {"COMPANION_INSTANCE_PATH": str(folder), "COMPANION_WORKERS": "2"}
    with serving(env) as server:
        assert server.process is not None
        arbiter = server.process.pid
        until(lambda: len(children(arbiter)) == 3)  # the second server process may be late
        kids = children(arbiter)
        command = {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in kids}
        renderers = [pid for pid in kids if b"companion.adapters.render_queue" in command[pid]]
        assert len(renderers) == 1 and len(kids) == 3  # and the two server processes
        (render,) = renderers
        with urllib.request.urlopen(server.url + "/sheets/blank.pdf?game=rummikub") as answer:
            assert answer.read().startswith(b"%PDF")
        assert RenderQueue(folder, inline=False).renders == 1
        forked = children(render)  # Huey's scheduler and the two workers
        assert len(forked) == 3
        os.kill(arbiter, signal.SIGKILL)
        server.process.wait(30)
        for pid in (render, *forked):  # none is left behind
            until(lambda pid=pid: not running(pid))


def test_a_failed_drawing_is_told_to_its_waiters_and_asked_again_by_the_next(tmp_path):
    queue = RenderQueue(tmp_path / "instance", inline=True)
    broken = [("blank", {"players": 3, "game": GAME, "no such argument": 1})]
    with pytest.raises(render_queue.SheetFailed):
        queue.document("blank", "en", broken)
    assert queue.document("blank", "en", BLANK).startswith(b"%PDF")  # not the old failure
    assert queue.renders == 2 and queue.idle(0.1)


def test_a_killed_render_process_leaves_no_worker_behind(tmp_path):
    """Its scheduler and workers each watch it: SIGKILLed (an OOM kill), they end too."""
    process = render_queue.start(tmp_path / "instance", 2, wait=120)
    try:
        until(lambda: len(children(process.pid)) == 3)
        forked = children(process.pid)
        process.kill()
        process.wait(30)
        for pid in forked:
            until(lambda pid=pid: not running(pid))
    finally:
        render_queue.stop(process)
