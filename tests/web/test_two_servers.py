"""Two servers on one PostgreSQL: the database is the shared state.

A club that outgrows one computer runs ``companion serve`` on two (docs/server.md: "A club on two
computers"), each with its own instance folder and the same secret key, behind one proxy.
Nothing a page shows may then depend on which server answers: every revision comes from
the database, and a process keeps only caches keyed by it. So, with two real ``companion
serve`` processes (A and B, one worker each) started at once on one empty schema:

- a round saved through A is a conflict through B for a phone that still had the older
  revision (the API's 412 with ``If-Match``; the round form's conflict screen, 409);
- B's read-only JSON and its polled read-only page (ETag) show the round saved on A;
- a round form opened on A saves on B (the session and CSRF token are signed with the
  shared key).

Also: several processes migrating one empty database at once each succeed (one migrates,
the others wait for its lock and find the schema up to date). Waits are bounded; no time
is asserted.
"""

from __future__ import annotations

import http.cookiejar
import json
import multiprocessing
import re
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from live_server import WITHOUT_SHEETS, Server, free_port
from support import postgres_schema
from test_pages import totals_shown

from companion.adapters import db

pytestmark = pytest.mark.server  # companion serve, started for real

MIGRATORS = 3
PLAYERS = ["Anna", "Béla", "Cili", "Dani"]
#: How often B's read-only page is asked again, at most, until it shows A's save (its
#: process trusts a revision it read for store.REVISION_TTL, a quarter of a second).
POLLS = 200


class Answer:
    """An HTTP answer, whatever its status."""

    def __init__(self, status: int, headers: Any, body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.body)


class Phone:
    """A client keeping its cookies, as a browser does, for whichever server it asks."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def ask(
        self,
        url: str,
        method: str = "GET",
        *,
        body: Any = None,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        data, sent = None, dict(headers or {})
        if body is not None:
            data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(url, data=data, method=method, headers=sent)
        try:
            with self.opener.open(request, timeout=30) as answer:
                return Answer(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as refused:
            with refused:
                return Answer(refused.code, refused.headers, refused.read())


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer to look at (where a form's save leads), not to follow."""

    def redirect_request(self, *_args: Any, **_kwargs: Any) -> None:
        return None


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    """A and B: ``companion serve`` twice on one new PostgreSQL schema, started at once,
    each with its own instance folder, both with one secret key."""
    folder = tmp_path_factory.mktemp("two_servers")
    key = secrets.token_hex(32)
    with postgres_schema("two_servers") as url:
        pair = [
            Server(
                {
                    "COMPANION_DATABASE_URL": url,
                    "COMPANION_INSTANCE_PATH": str(Path(folder, name)),
                    "COMPANION_SECRET_KEY": key,
                    "COMPANION_WORKERS": "1",
                    **WITHOUT_SHEETS,
                },
                free_port(),
            )
            for name in ("a", "b")
        ]
        try:
            with ThreadPoolExecutor(2) as starting:  # both migrate the empty schema at once
                for started in [starting.submit(server.start) for server in pair]:
                    started.result()
            yield pair[0], pair[1]
        finally:
            for server in pair:
                server.stop()


def new_match(server: Server) -> dict[str, Any]:
    answer = Phone().ask(
        f"{server.url}/api/v1/matches",
        "POST",
        body={"game": "rummikub", "players": PLAYERS, "first_dealer": "Anna", "games": 8},
    )
    assert answer.status == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def a_round(points: int) -> dict[str, Any]:
    """A Rummikub round: Anna went out, the others hold ``points``, +1, +2."""
    return {
        "went_out": "Anna",
        "players": [
            {"name": name, "rack": [] if i == 0 else {"points": points + i - 1}}
            for i, name in enumerate(PLAYERS)
        ],
    }


def test_a_round_saved_on_one_server_is_a_conflict_on_the_other(servers) -> None:
    a, b = servers
    phone = Phone()
    edit = new_match(a)["edit"]
    seen = phone.ask(f"{b.url}/api/v1/matches/{edit}")
    assert seen.status == 200 and seen.json()["revision"] == 1
    games = f"/api/v1/matches/{edit}/games"

    saved = phone.ask(a.url + games, "POST", body=a_round(10), headers={"If-Match": '"1"'})
    assert saved.status == 201 and saved.headers["ETag"] == '"2"'
    # Through B, a phone that still had revision 1: nothing stored, told the revision now.
    late = phone.ask(b.url + games, "POST", body=a_round(20), headers={"If-Match": '"1"'})
    assert late.status == 412, late.text
    assert late.headers["ETag"] == '"2"' and late.json()["revision"] == 2
    changed = phone.ask(f"{b.url}{games}/1", "PUT", body=a_round(30), headers={"If-Match": '"1"'})
    assert changed.status == 412 and changed.headers["ETag"] == '"2"'

    match = phone.ask(f"{b.url}/api/v1/matches/{edit}").json()
    assert match["revision"] == 2
    assert [r["players"][1]["rack"] for r in match["document"]["rounds"]] == [{"points": 10}]
    # With the revision B now gives, B saves; A reads it at once.
    again = phone.ask(b.url + games, "POST", body=a_round(20), headers={"If-Match": '"2"'})
    assert again.status == 201 and again.headers["ETag"] == '"3"'
    assert phone.ask(f"{a.url}/api/v1/matches/{edit}").json()["revision"] == 3


def test_the_read_only_link_on_one_server_shows_a_save_made_on_the_other(servers) -> None:
    a, b = servers
    phone = Phone()
    made = new_match(a)
    board = f"{b.url}/v/{made['view']}"
    first = phone.ask(board)  # B renders and keeps the page of revision 1, trusts revision 1
    assert first.status == 200
    tag = first.headers["ETag"]
    assert phone.ask(board, headers={"If-None-Match": tag}).status == 304

    games = f"{a.url}/api/v1/matches/{made['edit']}/games"
    saved = phone.ask(games, "POST", body=a_round(17), headers={"If-Match": '"1"'})
    assert saved.status == 201

    as_json = phone.ask(board + ".json")
    assert as_json.status == 200 and as_json.headers["ETag"] == '"2"'
    assert as_json.json()["revision"] == 2
    assert as_json.json()["totals"] == {"Anna": 17 + 18 + 19, "Béla": -17, "Cili": -18, "Dani": -19}

    # The page's poll (live.js: If-None-Match with the tag it shows) on B: 304 until B's
    # process reads the new revision, then the new page.
    for _ in range(POLLS):
        polled = phone.ask(board, headers={"If-None-Match": tag})
        if polled.status != 304:
            break
        time.sleep(0.05)
    assert polled.status == 200, "B's read-only page never showed the round saved on A"
    assert polled.headers["ETag"] != tag and polled.headers["ETag"].startswith('"2-')
    assert totals_shown(polled.text) == [17 + 18 + 19, -17, -18, -19]
    assert phone.ask(board, headers={"If-None-Match": polled.headers["ETag"]}).status == 304


def hidden(page: str) -> dict[str, str]:
    """A round form's hidden fields (CSRF token, idempotency key, revision, round)."""
    return dict(re.findall(r'<input id="[^"]*" name="([^"]*)" type="hidden" value="([^"]*)"', page))


def form_round(fields: dict[str, str], points: int) -> dict[str, str]:
    """What a scorekeeper types into a Rummikub round form: Anna out, the others' points."""
    typed = {**fields, "went_out": "Anna", "players-0-points": "", "save": "1"}
    for i in range(1, len(PLAYERS)):
        typed[f"players-{i}-points"] = str(points + i - 1)
    return typed


def test_a_round_form_opened_on_one_server_saves_on_the_other(servers) -> None:
    a, b = servers
    made = new_match(a)
    edit = made["edit"]
    phone = Phone()
    opened = phone.ask(f"{a.url}/m/{edit}/rounds/new")
    assert opened.status == 200
    fields = hidden(opened.text)
    assert fields["csrf_token"] and fields["revision"] == "1"

    saved = phone.ask(f"{b.url}/m/{edit}/rounds/new", "POST", form=form_round(fields, 5))
    assert saved.status == 302, saved.text[:500]
    assert saved.headers["Location"].endswith(f"/m/{edit}")
    assert phone.ask(f"{a.url}/api/v1/matches/{edit}").json()["revision"] == 2

    # A form opened on B at revision 2; meanwhile a round is saved on A: posting the form
    # to A is the conflict screen (409), and nothing is stored.
    stale = hidden(phone.ask(f"{b.url}/m/{edit}/rounds/new").text)
    assert stale["revision"] == "2"
    other = Phone().ask(
        f"{a.url}/api/v1/matches/{edit}/games", "POST", body=a_round(7), headers={"If-Match": "*"}
    )
    assert other.status == 201
    conflict = phone.ask(f"{a.url}/m/{edit}/rounds/new", "POST", form=form_round(stale, 9))
    assert conflict.status == 409, conflict.text[:500]
    rounds = phone.ask(f"{b.url}/api/v1/matches/{edit}").json()["document"]["rounds"]
    assert [r["players"][1]["rack"] for r in rounds] == [{"points": 5}, {"points": 7}]


def _migrate(url: str, barrier: Any, answers: Any) -> None:
    """One server's start: its own engine, then the migrations, the moment all are ready."""
    engine = db.make_engine(url)
    try:
        barrier.wait(timeout=60)
        db.upgrade(engine)
        answers.put("ok")
    except Exception as err:  # reported to the test, which names it
        answers.put(f"{type(err).__name__}: {err}".splitlines()[0])
    finally:
        engine.dispose()


def test_processes_migrating_one_empty_database_at_once_all_succeed() -> None:
    """Without the migration lock, all but one failed here (a table made twice)."""
    # Spawned, not forked: a fork of this multi-threaded test process (pytest-xdist's threads)
    # may copy a lock some other thread holds, and the child then waits on it for ever.
    spawned = multiprocessing.get_context("spawn")
    with postgres_schema("migrate_at_once") as url:
        barrier, answers = spawned.Barrier(MIGRATORS), spawned.Queue()
        workers = [
            spawned.Process(target=_migrate, args=(url, barrier, answers)) for _ in range(MIGRATORS)
        ]
        for worker in workers:
            worker.start()
        try:
            got = [answers.get(timeout=180) for _ in workers]
        finally:
            for worker in workers:
                worker.join(timeout=30)
                if worker.is_alive():  # stuck: it must not keep a lock on the schema
                    worker.kill()
                    worker.join()
        assert got == ["ok"] * MIGRATORS
        engine = db.make_engine(url)
        try:
            with engine.connect() as connection:
                versions = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
                assert len(versions.all()) == 1
        finally:
            engine.dispose()
