"""Durable by design: SIGKILL ``companion serve`` during writes; nothing acknowledged is lost.

Writers post rounds through the JSON API, each with its own Idempotency-Key, while the whole
server (arbiter, workers, renderers) is SIGKILLed twice (``KILLS``) and started again. Then:
every write that got its 201 is stored, exactly once; a write whose answer was lost, sent
again with its key, is stored once too; and SQLite's ``PRAGMA integrity_check`` says ok.
The same runs on PostgreSQL. No timing is asserted.
"""

from __future__ import annotations

import http.client
import itertools
import json
import random
import sqlite3
import stat
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from live_server import Server, free_port
from samples import PLAYERS, sample_round
from support import postgres_schema

pytestmark = pytest.mark.server  # companion serve, started for real

GAME = "rummikub"
WRITERS = 4
KILLS = 2
ROUNDS_PER_MATCH = 40
#: What a client sees when the server dies under its request: no answer, or half of one.
LOST = (OSError, http.client.HTTPException)


def call(server: Server, method: str, path: str, body: object, key: str) -> dict[str, Any]:
    """One API write; raises OSError (or URLError) when no answer came."""
    request = urllib.request.Request(
        server.url + path,
        data=json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", "Idempotency-Key": key},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


class Table:
    """The writes of a run: what was acknowledged, and what was sent without an answer."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counter = itertools.count(1)
        self.acknowledged: dict[str, tuple[str, int]] = {}  # key → (edit token, points)
        self.unanswered: dict[str, tuple[str, int]] = {}
        self.edits: set[str] = set()
        self.refused: list[str] = []  # answers other than 201 (there must be none)


def new_match(server: Server, table: Table) -> str:
    key = f"create-{next(table.counter)}-{random.getrandbits(32)}"
    body = {"game": GAME, "players": PLAYERS, "first_dealer": "Anna", "games": ROUNDS_PER_MATCH}
    answer = call(server, "POST", "/api/v1/matches", body, key)
    with table.lock:
        table.edits.add(answer["edit"])
    return str(answer["edit"])


def writer(server: Server, table: Table, stop: threading.Event) -> None:
    """Add rounds until the server dies under it (each round's points are unique)."""
    try:
        edit = new_match(server, table)
    except LOST:
        return
    written = 0
    while not stop.is_set():
        if written == ROUNDS_PER_MATCH:
            try:
                edit, written = new_match(server, table), 0
            except LOST:
                return
        with table.lock:
            points = 10 * next(table.counter)
        key = f"round-{points}"
        doc = sample_round(GAME, points=points)
        try:
            call(server, "POST", f"/api/v1/matches/{edit}/games", doc, key)
        except urllib.error.HTTPError as refused:
            with table.lock:
                table.refused.append(f"{refused.code} {refused.read()!r}")
            return
        except LOST:
            with table.lock:
                table.unanswered[key] = (edit, points)
            return
        with table.lock:
            table.acknowledged[key] = (edit, points)
        written += 1


def stored_points(server: Server, edit: str) -> list[int]:
    with urllib.request.urlopen(f"{server.url}/api/v1/matches/{edit}", timeout=10) as answer:
        match = json.loads(answer.read())
    # sample_round: the first player is left with ``points`` (the others with points + i).
    return [r["players"][0]["rack"]["points"] for r in match["document"]["rounds"]]


#: Writes acknowledged in each life of the server before it is killed.
ACKNOWLEDGED_BEFORE_KILL = 12


def crash_and_check(env: dict[str, str]) -> Server:
    server = Server(env, free_port())
    table = Table()
    for _ in range(KILLS):
        server.start()
        stop = threading.Event()
        threads = [
            threading.Thread(target=writer, args=(server, table, stop)) for _ in range(WRITERS)
        ]
        for thread in threads:
            thread.start()
        # Kill once a known number of new writes were acknowledged, however long a loaded
        # machine takes for them, so every run crashes in the middle of writing (a writer
        # stops only when an answer was lost: then there is nothing left to wait for).
        target = len(table.acknowledged) + ACKNOWLEDGED_BEFORE_KILL
        while len(table.acknowledged) < target and any(t.is_alive() for t in threads):
            time.sleep(0.02)
        server.kill()  # mid-write: every process of the server at once
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    server.start()
    try:
        # A write whose answer was lost is sent again with its key: stored once, or now.
        for key, (edit, points) in table.unanswered.items():
            call(server, "POST", f"/api/v1/matches/{edit}/games", sample_round(GAME, points), key)
            table.acknowledged[key] = (edit, points)
        assert table.refused == []
        assert table.acknowledged, "no write was acknowledged: the server never got going"
        stored = {edit: stored_points(server, edit) for edit in table.edits}
        for edit, points in stored.items():
            assert len(points) == len(set(points)), f"a round was stored twice in {edit}"
        for key, (edit, points) in table.acknowledged.items():
            assert points in stored[edit], f"acknowledged write {key} was lost"
    finally:
        server.stop()
    return server


def test_sigkill_during_writes_loses_no_acknowledged_write_on_sqlite(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    crash_and_check({"COMPANION_INSTANCE_PATH": str(instance), "COMPANION_WORKERS": "2"})
    database = instance / "companion.sqlite3"
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    db.close()


def test_sigkill_during_writes_loses_no_acknowledged_write_on_postgresql(tmp_path: Path) -> None:
    with postgres_schema("crash") as url:
        env = {
            "COMPANION_INSTANCE_PATH": str(tmp_path / "instance"),
            "COMPANION_DATABASE_URL": url,
            "COMPANION_WORKERS": "2",
        }
        crash_and_check(env)


@pytest.fixture(autouse=True)
def _seeded() -> None:
    random.seed(9)
