"""Slow clients do not take the real ``companion serve`` down.

300 connections send a request head a byte at a time (slowloris) while other clients load
pages: every one of those requests is answered, each within a generous 10 s (with gunicorn's
plain threaded worker, 70 such connections held every thread and the pages timed out). The
test waits on what it can see, never on the clock: each byte of the slow heads is sent once
the server has read the one before (its receive queue in /proc/net/tcp is empty), and the
pages are loaded while the server holds all 300 heads unfinished. How fast they are answered
is bench/slowloris.py's to measure, not a test's: the machine may be loaded. Then requests
that arrive in pieces still work: the server holds them until whole (companion/web/server.py).
"""

from __future__ import annotations

import http.client
import json
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_server import WITHOUT_SHEETS, Server, serving

pytestmark = pytest.mark.server  # companion serve, started for real

SLOW = 300
#: Rounds of one more byte on every slow connection, the pages loaded after each.
ROUNDS = 3
READERS = 4
PAGES = 5
TIMEOUT = 10
#: COMPANION_STOP_SECONDS for the graceful stop below.
STOP_WINDOW = 10


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    instance: Path = tmp_path_factory.mktemp("slow") / "instance"
    with serving(
        {"COMPANION_INSTANCE_PATH": str(instance), "COMPANION_WORKERS": "2", **WITHOUT_SHEETS}
    ) as live:
        yield live


def create_match(server: Server) -> str:
    body = {"game": "rummikub", "players": ["Anna", "Béla"], "first_dealer": "Anna"}
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    conn.request("POST", "/api/v1/matches", json.dumps(body), {"Content-Type": "application/json"})
    answer = conn.getresponse()
    assert answer.status == 201
    view: str = json.loads(answer.read())["view"]
    conn.close()
    return view


def read_pages(server: Server, paths: list[str], outcomes: list[str]) -> None:
    """Load ``PAGES`` pages, a new connection each (a phone coming back to the page)."""
    for turn in range(PAGES):
        path = paths[turn % len(paths)]
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
        try:
            conn.request("GET", path)
            answer = conn.getresponse()
            answer.read()
            outcomes.append(f"{path} {answer.status}")
        except (OSError, http.client.HTTPException) as err:
            outcomes.append(f"{path} {type(err).__name__}")
        finally:
            conn.close()


def unread(server_port: int) -> dict[int, int]:
    """Bytes the server has not read yet, by client port, on its connections (Linux)."""
    theirs = f":{server_port:04X}"
    waiting: dict[int, int] = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, queues = fields[1], fields[2], fields[4]
        if local.endswith(theirs):
            waiting[int(remote.rsplit(":", 1)[1], 16)] = int(queues.split(":")[1], 16)
    return waiting


def taken_up(server_port: int, *client_ports: int) -> None:
    """Wait until the server has read everything these clients sent: its side of each
    connection has nothing left in its receive queue (and so was accepted), not for a time
    that a loaded machine may not keep."""
    for _ in range(100_000):
        waiting = unread(server_port)
        if all(waiting.get(port) == 0 for port in client_ports):
            return
        time.sleep(0.01)  # a poll of what the server did, not a wait for it to do it
    raise AssertionError("the server never read the requests")


def test_pages_answer_while_300_connections_trickle_their_heads(server):
    view = create_match(server)
    paths = ["/", f"/v/{view}"]
    warm: list[str] = []
    for _ in range(2):  # each page drawn once before (the first drawing is no slow client's)
        read_pages(server, paths, warm)
    slow = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(SLOW)]
    ports = [sock.getsockname()[1] for sock in slow]
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100
    try:
        outcomes: list[str] = []
        for sent in range(ROUNDS):  # one more byte on every slow connection, then pages
            for sock in slow:
                sock.sendall(head[sent : sent + 1])
            taken_up(server.port, *ports)  # all 300 heads begun and held, none finished
            readers = [
                threading.Thread(target=read_pages, args=(server, paths, outcomes))
                for _ in range(READERS)
            ]
            for reader in readers:
                reader.start()
            for reader in readers:
                reader.join(timeout=PAGES * TIMEOUT + 5)
        failed = [o for o in outcomes if not o.endswith(" 200")]
        assert failed == [], f"{len(failed)} of {len(outcomes)}: {failed[:5]}"
        assert len(outcomes) == ROUNDS * READERS * PAGES
        # The slow heads are unfinished: none of them was answered.
        for sock in slow:
            sock.setblocking(False)
            try:
                assert sock.recv(1) == b""  # closed (silent too long), never answered
            except BlockingIOError:
                pass  # still open
    finally:
        for sock in slow:
            sock.close()


def exchange(server: Server, parts: list[bytes]) -> bytes:
    """Send ``parts`` one by one, each once the server has read the one before; all that came
    back until the server closed."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as conn:
        for index, part in enumerate(parts):
            if index:
                taken_up(server.port, conn.getsockname()[1])
            conn.sendall(part)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


BODY = b'{"game": "rummikub", "players": ["Anna", "Cili"], "first_dealer": "Cili"}'


def post_head(extra: str) -> bytes:
    return (
        "POST /api/v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Connection: close\r\n{extra}\r\n"
    ).encode()


def test_a_head_and_a_body_trickled_in_pieces_are_served(server):
    head = post_head(f"Content-Length: {len(BODY)}\r\n")
    parts = [head[:10], head[10:40], head[40:], BODY[:7], BODY[7:30], BODY[30:]]
    assert exchange(server, parts).startswith(b"HTTP/1.1 201")


def test_a_chunked_body_trickled_in_pieces_is_served(server):
    chunks = [b"%x\r\n" % len(p) + p + b"\r\n" for p in (BODY[:20], BODY[20:])]
    parts = [post_head("Transfer-Encoding: chunked\r\n"), *chunks, b"0\r\n", b"\r\n"]
    assert exchange(server, parts).startswith(b"HTTP/1.1 201")


def test_expect_100_continue_gets_one_100_then_the_answer(server):
    head = post_head(f"Expect: 100-continue\r\nContent-Length: {len(BODY)}\r\n")
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as conn:
        conn.sendall(head)
        assert conn.recv(64) == b"HTTP/1.1 100 Continue\r\n\r\n"
        conn.sendall(BODY)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 201")
    assert b"100 Continue" not in answer


def test_pipelined_and_kept_alive_requests_are_answered_in_turn(server):
    first = b"GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    last = b"GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    # Two at once, then (on the same kept-alive connection) one more in pieces.
    answer = exchange(server, [first + first[:20], first[20:], last[:15], last[15:]])
    assert answer.count(b"HTTP/1.1 200 OK") == 3


def test_a_graceful_stop_answers_a_request_on_its_way_and_ends_despite_slow_clients(tmp_path):
    # The rest of the body is sent once every process has stopped accepting: on a loaded
    # machine that can take a few seconds after the first worker stopped, so the
    # window for requests on their way is widened here (the test then lasts that long).
    env = {
        "COMPANION_INSTANCE_PATH": str(tmp_path / "instance"),
        "COMPANION_WORKERS": "2",
        "COMPANION_STOP_SECONDS": str(STOP_WINDOW),
        **WITHOUT_SHEETS,
    }
    with serving(env) as live:
        assert live.process is not None
        slow = [socket.create_connection(("127.0.0.1", live.port)) for _ in range(SLOW)]
        try:
            for sock in slow:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
            head = post_head(f"Content-Length: {len(BODY)}\r\n")
            with socket.create_connection(("127.0.0.1", live.port), timeout=TIMEOUT) as conn:
                conn.sendall(head + BODY[:10])
                taken_up(live.port, conn.getsockname()[1])  # the worker holds it now
                live.process.send_signal(signal.SIGTERM)  # gunicorn's graceful stop
                refused(live.port)  # every process has stopped accepting
                conn.sendall(BODY[10:])
                answer = b""
                while chunk := conn.recv(65536):
                    answer += chunk
            assert answer.startswith(b"HTTP/1.1 201")
            # The slow connections do not hold the stop up for ever (a worker gives requests
            # on their way STOP_WINDOW seconds, and answers being made ANSWERING more).
            assert live.process.wait(timeout=3 * STOP_WINDOW) == 0
        finally:
            for sock in slow:
                sock.close()


def refused(port: int) -> None:
    """Wait until a new connection to ``port`` is refused: the arbiter and every worker have
    closed their listening sockets (a connection accepted meanwhile is closed at once)."""
    for _ in range(100_000):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT).close()
        except ConnectionRefusedError:
            return
        time.sleep(0.01)  # a poll, as above
    raise AssertionError("the server never stopped accepting")
