"""A body over the limit is refused, by the real ``companion serve``.

The server reads a body (up to ``server.READ_LIMIT``, 17 MiB: a photo, and more) before the app
runs, and the app refuses one over its own limit (``MAX_BODY``, 1 MiB: Flask's
MAX_CONTENT_LENGTH) in its own words: the API's error object, or the error page. A body
announced or sent over the read limit is refused by the server at once: a client announcing 10
GB and sending a few bytes gets its 413 without the server waiting for the rest, and a chunked
body, which announces no length, is counted as it arrives. Raw sockets, so the test sends
exactly what an attacker would; no timing is asserted (a server that waited for the announced
body would make the read time out and the test fail).
"""

from __future__ import annotations

import io
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_server import WITHOUT_SHEETS, Server, serving
from werkzeug.test import EnvironBuilder, run_wsgi_app
from werkzeug.wrappers import Request

from companion.domain.bounds import MAX_BODY
from companion.web.server import READ_LIMIT

pytestmark = pytest.mark.server  # companion serve, started for real

HUGE = 10 * 1024**3
LIMIT = MAX_BODY


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    instance: Path = tmp_path_factory.mktemp("body") / "instance"
    with serving(
        {"COMPANION_INSTANCE_PATH": str(instance), "COMPANION_WORKERS": "1", **WITHOUT_SHEETS}
    ) as live:
        yield live


def exchange(server: Server, head: str, body_parts: list[bytes]) -> tuple[int, bytes]:
    """Send a request head and body parts; the status and whatever came back."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(head.encode("latin-1"))
        try:
            for part in body_parts:
                conn.sendall(part)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused and closed before everything was sent: the point of the test
        answer = b""
        try:
            while b"\r\n\r\n" not in answer or len(answer) < 12:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except ConnectionResetError:
            pass
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return status, answer


def head(path: str, content_type: str, length: str | None) -> str:
    lines = [
        f"POST {path} HTTP/1.1",
        "Host: 127.0.0.1",
        f"Content-Type: {content_type}",
        f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked",
        "",
        "",
    ]
    return "\r\n".join(lines)


def test_a_huge_content_length_with_a_small_body_is_refused_without_waiting(server):
    status, answer = exchange(
        server, head("/api/v1/matches", "application/json", str(HUGE)), [b"{}"]
    )
    assert status == 413
    assert b"\r\nconnection: close" in answer.split(b"\r\n\r\n", 1)[0].lower()


def test_a_body_over_the_apps_limit_gets_the_apis_error_object(server):
    body = b'{"game": "' + b"x" * LIMIT + b'"}'
    assert LIMIT < len(body) <= READ_LIMIT
    status, answer = exchange(
        server, head("/api/v1/matches", "application/json", str(len(body))), [body]
    )
    assert status == 413
    headers = answer.split(b"\r\n\r\n", 1)[0].lower()
    assert b"content-type: application/json" in headers  # the API's error object, not HTML


def test_a_chunked_body_over_the_apps_limit_gets_the_apis_error_object(server):
    piece = b"x" * 65536
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    parts = [chunk] * (LIMIT // len(piece) + 1) + [b"0\r\n\r\n"]
    status, answer = exchange(server, head("/api/v1/matches", "application/json", None), parts)
    assert status == 413
    headers = answer.split(b"\r\n\r\n", 1)[0].lower()
    assert b"content-type: application/json" in headers


def test_a_form_post_announcing_too_much_gets_the_friendly_413(server):
    status, _answer = exchange(
        server,
        head("/start/rummy17", "application/x-www-form-urlencoded", str(HUGE)),
        [b"names-0=Anna"],
    )
    assert status == 413


def test_a_chunked_body_over_the_read_limit_is_refused(server):
    piece = b"x" * 65536
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    parts = [b'{"game": "'] + [chunk] * (READ_LIMIT // len(piece) + 2) + [b"0\r\n\r\n"]
    # The first chunk carries the start of the JSON; the rest are all x's.
    parts[0] = f"{len(parts[0]):x}\r\n".encode() + parts[0] + b"\r\n"
    status, _answer = exchange(server, head("/api/v1/matches", "application/json", None), parts)
    assert status == 413


def whole_answer(conn: socket.socket) -> tuple[bytes, bytes]:
    """One response read whole from ``conn``: its head (lower case) and its body."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = conn.recv(65536)
        assert chunk, f"closed before the head was complete: {answer!r}"
        answer += chunk
    head, body = answer.split(b"\r\n\r\n", 1)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = conn.recv(65536)
        assert chunk, "closed before the body was complete"
        body += chunk
    return head.lower(), body


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/api/v1/matches", "application/json"),
        ("/start/rummy17", "application/x-www-form-urlencoded"),
    ],
)
def test_a_refused_body_says_connection_close_and_closes_it(server, path, content_type):
    """A body announced over the read limit is never read, so the next request's start on
    this connection is unknown: the answer says ``Connection: close`` (a client then opens a
    new connection for its next request instead of failing on a dropped one) and the server
    closes it."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(head(path, content_type, str(HUGE)).encode("latin-1") + b"{}")
        answer_head, _body = whole_answer(conn)
        assert answer_head.startswith(b"http/1.1 413")
        assert b"\r\nconnection: close" in answer_head
        assert b"keep-alive" not in answer_head
        assert conn.recv(65536) == b""  # closed by the server, as it said


def test_a_refused_chunked_body_says_connection_close_too(server):
    piece = b"x" * 65536
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(head("/api/v1/matches", "application/json", None).encode("latin-1"))
        try:
            for _ in range(READ_LIMIT // len(piece) + 2):
                conn.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer_head, _body = whole_answer(conn)
        assert answer_head.startswith(b"http/1.1 413")
        assert b"\r\nconnection: close" in answer_head


def test_a_kept_alive_connection_serves_the_next_request(server):
    """The other side of the coin: an accepted request keeps its connection for the next."""
    body = b'{"game": "rummikub", "players": ["Anna", "Cili"], "first_dealer": "Cili"}'
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        for _ in range(2):
            conn.sendall(head("/api/v1/matches", "application/json", str(len(body))).encode())
            conn.sendall(body)
            answer_head, _body = whole_answer(conn)
            assert answer_head.startswith(b"http/1.1 201")
            assert b"connection: close" not in answer_head  # HTTP/1.1: kept alive


def test_a_body_under_the_limit_is_still_read(server):
    body = b'{"game": "rummikub", "players": ["Anna", "B\\u00e9la"], "first_dealer": "Anna"}'
    status, answer = exchange(
        server, head("/api/v1/matches", "application/json", str(len(body))), [body]
    )
    assert status == 201, answer[:300]


def test_a_chunked_body_under_the_limit_is_read_whole(server):
    body = b'{"game": "rummikub", "players": ["Anna", "Cili"], "first_dealer": "Cili"}'
    parts = [f"{len(p):x}\r\n".encode() + p + b"\r\n" for p in (body[:20], body[20:])]
    status, answer = exchange(
        server, head("/api/v1/matches", "application/json", None), [*parts, b"0\r\n\r\n"]
    )
    assert status == 201, answer[:300]


def chunked_environ(body: bytes) -> dict[str, object]:
    """A POST of ``body`` without Content-Length (chunked), from a server that ends the stream
    itself (``wsgi.input_terminated``, as gunicorn and Werkzeug's own server set it)."""
    environ = EnvironBuilder(
        path="/api/v1/matches",
        method="POST",
        input_stream=io.BytesIO(body),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
    ).get_environ()
    environ.pop("CONTENT_LENGTH", None)
    environ["wsgi.input_terminated"] = True
    return environ


DOCUMENT = b'{"game": "rummikub", "players": ["Anna", "Cili"], "first_dealer": "Cili"}'


def test_werkzeug_alone_hands_the_view_a_chunked_body_cut_at_the_limit():
    """Why ``security.ChunkedLimit`` stays: Werkzeug does not refuse a chunked body over
    MAX_CONTENT_LENGTH when it is read whole (``get_data``, as the API reads JSON); it stops
    at the limit and hands the view the first MAX_CONTENT_LENGTH bytes, so a document one
    byte too long would be read cut short. (When this fails, Werkzeug refuses it itself, and
    ChunkedLimit may go.)"""
    body = DOCUMENT + b" " * (LIMIT + 1 - len(DOCUMENT))
    request = Request(chunked_environ(body))  # type: ignore[arg-type]
    request.max_content_length = LIMIT
    assert len(request.get_data()) == LIMIT < len(body)


@pytest.mark.parametrize(("size", "status"), [(LIMIT, 201), (LIMIT + 1, 413)])
def test_the_app_refuses_a_chunked_body_over_the_limit_in_its_own_words(app, size, status):
    """With ``ChunkedLimit`` the app reads a chunked body one byte past the limit at most:
    within it, it is read whole; past it, refused (413, the API's error object)."""
    body = DOCUMENT + b" " * (size - len(DOCUMENT))  # JSON allows the trailing spaces
    chunks, answer, _headers = run_wsgi_app(app, chunked_environ(body), buffered=True)
    assert answer.startswith(str(status)), b"".join(chunks)[:300]
    if status == 413:
        assert json.loads(b"".join(chunks))["error"]["status"] == 413
