"""companion.web.worker's reader: when a request held by the event loop is whole.

In-process, on bytes alone. Whatever it cannot frame plainly goes to gunicorn's parser
(``Unframed``): that parser stays the judge of the request, this reader only says when
there is enough to give it.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.domain.bounds import MAX_BODY
from companion.web.worker import CONTINUE, Arriving, Unframed

LIMITS = (4096, 800_000)


class Sock:
    def __init__(self) -> None:
        self.sent = b""

    def send(self, data: bytes) -> int:
        self.sent += data
        return len(data)


def arriving(*parts: bytes) -> tuple[Arriving, list[bool]]:
    """The request after each part arrived, and whether it was whole after each."""
    request = Arriving(SimpleNamespace(sock=Sock()), b"", 0.0, LIMITS)
    states = []
    for part in parts:
        request.data += part
        states.append(request.complete())
    return request, states


def test_a_get_is_whole_when_its_head_ends():
    _request, states = arriving(b"GET / HTTP/1.1\r\n", b"Host: x\r\n", b"\r\n")
    assert states == [False, False, True]


def test_a_body_of_a_given_length_is_waited_for():
    head = b"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n"
    _request, states = arriving(head, b"12345", b"67890")
    assert states == [False, False, True]


def test_a_chunked_body_is_whole_after_its_last_chunk_and_trailers():
    head = b"POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    _request, states = arriving(head, b"5\r\nhel", b"lo\r\n", b"0\r\n", b"\r\n")
    assert states == [False, False, False, False, True]
    _request, states = arriving(head + b"3;x=y\r\nabc\r\n0\r\nX-T: 1\r\n", b"\r\n")
    assert states == [False, True]


def test_a_body_announced_over_the_limit_goes_on_unread():
    head = f"POST /a HTTP/1.1\r\nContent-Length: {MAX_BODY + 1}\r\n\r\n".encode()
    with pytest.raises(Unframed):
        arriving(head)


def test_a_chunked_body_over_the_limit_goes_on_when_it_passes_it():
    head = b"POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    chunk = b"%x\r\n" % (MAX_BODY // 2) + b"x" * (MAX_BODY // 2) + b"\r\n"
    request, states = arriving(head, chunk, chunk)
    assert states == [False, False, False]
    with pytest.raises(Unframed):
        request.data += b"1\r\n"
        request.complete()


@pytest.mark.parametrize(
    "head",
    [
        b"POST /a HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
        b"POST /a HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n",
        b"POST /a HTTP/1.1\r\nContent-Length: -3\r\n\r\n",
        b"POST /a HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
        b"POST /a HTTP/1.1\r\nExpect: something-else\r\nContent-Length: 3\r\n\r\n",
        b"POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\n",
        b"POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\n",
    ],
)
def test_what_cannot_be_framed_plainly_goes_to_gunicorns_parser(head):
    with pytest.raises(Unframed):
        arriving(head)


def test_a_head_or_line_over_gunicorns_limits_goes_on_to_be_refused():
    with pytest.raises(Unframed):
        arriving(b"GET /" + b"a" * LIMITS[0])
    with pytest.raises(Unframed):
        arriving(b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * (LIMITS[1] // 6))


def test_expect_100_continue_is_answered_here_and_not_passed_on():
    head = b"POST /a HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 3\r\nHost: x\r\n\r\n"
    request, states = arriving(head, b"abc")
    assert states == [False, True]
    assert request.conn.sock.sent == CONTINUE
    assert bytes(request.data) == b"POST /a HTTP/1.1\r\nContent-Length: 3\r\nHost: x\r\n\r\nabc"


def test_a_pipelined_request_after_a_whole_one_waits_for_its_turn():
    request, states = arriving(b"GET /1 HTTP/1.1\r\n\r\nGET /2 HT")
    assert states == [True]
    assert request.head_end == len(b"GET /1 HTTP/1.1\r\n\r\n")
