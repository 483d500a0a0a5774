"""``companion serve``'s gunicorn worker: a request is read whole before a thread takes it.

gunicorn's threaded worker (``gthread``) hands a connection to a thread as soon as its first
byte arrives, and the thread then blocks until the request head is complete. A client that
sends its head a byte a second (slowloris) holds a thread for as long as it likes: 70 such
connections took every thread of ``companion serve`` and the pages stopped answering
(issue 20 §4; bench/slowloris.py).

This worker is gthread with one change: the worker's event loop, which already waits for
connections and kept-alive sockets, also reads each request into memory — its head, and a
body of at most ``MAX_BODY`` bytes — and only then gives it to a thread. The thread parses
it with gunicorn's own parser from the bytes held, so a slow client costs a socket and a
few bytes, never a thread. Everything else is gthread's: the threads, keep-alive, the
graceful stop, the limits of gunicorn's parser.

- The request must be in within ``REQUEST_SECONDS`` of its first wait; then the connection
  is closed (with 408 when part of a request came), as a slowloris' is.
- A body whose Content-Length is over ``MAX_BODY`` is not read: the request goes to a thread
  at once and the app refuses it on its Content-Length (413). A chunked body is read up to
  ``MAX_BODY`` bytes; past that the app counts it and refuses it from the bytes held.
- ``Expect: 100-continue`` is answered here when the body will be read here (and the header
  is not passed on, so gunicorn does not answer it a second time).
- What this reader cannot frame plainly (both Content-Length and Transfer-Encoding, two
  lengths, a head over gunicorn's own limits) goes to a thread at once: gunicorn's parser
  refuses it from the bytes held, as before.
- At most ``HELD_BYTES`` per worker are held at once; a request beyond that goes to a
  thread as gthread would send it.
- TLS, HTTP/2 and the PROXY protocol (none of which ``companion serve`` turns on) are left
  to gthread as they were.
"""

from __future__ import annotations

import re
import selectors
import socket
import time
from functools import partial
from typing import Any

from gunicorn import http
from gunicorn.workers.gthread import ThreadWorker

from companion.domain.bounds import MAX_BODY

#: Seconds a request has to arrive, from its first wait (a phone sends its head at once).
REQUEST_SECONDS = 30.0
#: A body still coming gets this long after each part of it, even past REQUEST_SECONDS.
BODY_IDLE_SECONDS = 10.0
#: Bytes held per worker process for requests not yet complete.
HELD_BYTES = 64 * 1024 * 1024
#: Bytes read from a socket at once.
READ_SIZE = 64 * 1024
#: How long a stopping worker waits for requests still arriving.
STOP_SECONDS = 2.0
#: How often the loop looks for requests past their time.
SWEEP_SECONDS = 0.5

CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}")
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


class Unframed(Exception):
    """The bytes cannot be framed plainly: gunicorn's parser is to judge them."""


class Arriving:
    """A request arriving on ``conn``: the bytes so far and where its body ends."""

    def __init__(self, conn: Any, held: bytes, deadline: float, limits: tuple[int, int]) -> None:
        self.conn = conn
        self.data = bytearray(held)
        self.deadline = deadline
        self.line_limit, self.head_limit = limits
        self.head_end = -1  # index just past the blank line that ends the head
        self.length: int | None = None  # body bytes awaited, when Content-Length says
        self.chunked = False
        self.scanned = 0  # a chunked body: where the next chunk's size line starts
        self.body = 0  # a chunked body: data bytes in the chunks scanned so far
        self.registered = False  # with the worker's poller

    def complete(self) -> bool:
        """Whether the request may go to a thread now (it is whole, or not for us to hold)."""
        if self.head_end < 0:
            end = self.data.find(b"\r\n\r\n")
            if end < 0:
                if len(self.data) > self.head_limit:
                    raise Unframed("head too large")
                if len(self.data) > self.line_limit and b"\r\n" not in self.data:
                    raise Unframed("request line too long")
                return False
            self.head_end = end + 4
            self.frame(bytes(self.data[: self.head_end]))
        if self.length is not None:
            return len(self.data) >= self.head_end + self.length
        if self.chunked:
            return self.scan_chunks()
        return True

    def frame(self, head: bytes) -> None:
        """Read the body's framing from the head; answer ``Expect: 100-continue``."""
        lengths: list[bytes] = []
        encodings: list[bytes] = []
        expect = -1
        lines = head.split(b"\r\n")
        for number, line in enumerate(lines[1:], start=1):
            name, colon, value = line.partition(b":")
            if not colon:
                continue
            name, value = name.lower(), value.strip()
            if name == b"content-length":
                lengths.append(value)
            elif name == b"transfer-encoding":
                encodings.append(value)
            elif name == b"expect":
                if expect >= 0 or value.lower() != b"100-continue":
                    raise Unframed("expectation")
                expect = number
        if lengths and encodings or len(lengths) > 1:
            raise Unframed("ambiguous framing")
        if encodings:
            codings = b",".join(encodings).split(b",")
            if codings[-1].strip().lower() != b"chunked":
                raise Unframed("transfer coding")
            self.chunked = True
        elif lengths:
            if not lengths[0].isdigit():
                raise Unframed("content length")
            self.length = int(lengths[0])
            if self.length > MAX_BODY:
                raise Unframed("body over the limit: the app refuses it unread")
        if expect >= 0 and (self.chunked or self.length):
            # Answered here, so the body comes to this loop; gunicorn must not answer again.
            del lines[expect]
            head = b"\r\n".join(lines)
            self.data[: self.head_end] = head
            self.head_end = len(head)
            self.conn.sock.send(CONTINUE)

    def scan_chunks(self) -> bool:
        """Walk the chunks received so far; whether the last chunk and trailers are in."""
        data = self.data
        while True:
            start = self.head_end + self.scanned
            line_end = data.find(b"\r\n", start)
            if line_end < 0:
                if len(data) - start > 1024:
                    raise Unframed("chunk size line")
                return False
            size_text = bytes(data[start:line_end]).split(b";", 1)[0].strip()
            if not CHUNK_SIZE.fullmatch(size_text):  # int() would take "-5", "0x5", "5_0"
                raise Unframed("chunk size")
            size = int(size_text, 16)
            if size == 0:  # the last chunk: then trailers, if any, and a blank line
                if data.find(b"\r\n\r\n", line_end) >= 0:
                    return True
                if len(data) - line_end > 8192:
                    raise Unframed("trailers")
                return False
            self.body += size
            if self.body > MAX_BODY:
                raise Unframed("body over the limit: the app refuses it from what is held")
            after = line_end + 2 + size + 2
            if len(data) < after:
                return False
            self.scanned = after - self.head_end


class BufferedWorker(ThreadWorker):  # type: ignore[misc]
    """gthread whose event loop reads each request whole before a thread takes it."""

    def init_process(self) -> None:
        self.arriving: dict[Any, Arriving] = {}  # by connection, oldest first
        self.held = 0
        self.next_sweep = 0.0
        cfg = self.cfg
        self.buffering = not (cfg.is_ssl or cfg.proxy_protocol != "off")
        self.buffering = self.buffering and list(cfg.http_protocols) == ["h1"]
        self.buffering = self.buffering and getattr(cfg, "protocol", "http") == "http"
        line, fields, size = (
            cfg.limit_request_line,
            cfg.limit_request_fields,
            cfg.limit_request_field_size,
        )
        # gunicorn's parser refuses more than these (0: its own maximum); past them, so
        # does this reader, by passing the bytes on for gunicorn to refuse.
        line = line or 8190
        self.limits = (line + 2, line + 2 + (fields or 32768) * ((size or 8190) + 2) + 2)
        super().init_process()

    def enqueue_req(self, conn: Any) -> None:
        """Every request comes here (a new connection, a kept-alive one that became readable,
        one with a pipelined request already read): hold it until it is whole."""
        if not self.buffering or (conn.parser is not None and conn.is_http2):
            self.dispatch(conn)
            return
        held = conn.parser.unreader.take_buffered() if conn.parser is not None else b""
        request = Arriving(conn, held, time.monotonic() + REQUEST_SECONDS, self.limits)
        self.held += len(held)
        self.arriving[conn] = request
        conn.sock.setblocking(False)
        # Most requests are there already (a kept-alive socket polled readable; a phone's
        # head is one packet): no round through the poller for them.
        if (held and self.settled(request)) or self.receive(request):
            return
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_bytes, request))
        request.registered = True

    def on_bytes(self, request: Arriving, _sock: socket.socket) -> None:
        """The poller says bytes (or the end) arrived for an incomplete request."""
        self.receive(request)

    def receive(self, request: Arriving) -> bool:
        """Read what arrived; whether the request has left the loop (to a thread, or closed)."""
        try:
            data = request.conn.sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            data = b""
        if not data:
            self.drop(request)
            return True
        request.data += data
        self.held += len(data)
        if request.head_end >= 0:  # a body still coming: give it time
            request.deadline = max(request.deadline, time.monotonic() + BODY_IDLE_SECONDS)
        return self.settled(request)

    def settled(self, request: Arriving) -> bool:
        """Send the request to a thread if it is whole (or not ours to hold); whether it went."""
        try:
            whole = request.complete() or self.held > HELD_BYTES
        except Unframed:
            whole = True
        except OSError:  # the 100 Continue could not be sent: the client is gone
            self.drop(request)
            return True
        if not whole:
            return False
        self.release(request)
        conn = request.conn
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        conn.initialized = conn.data_ready = True  # gthread's own wait and set-up are done
        conn.parser.unreader.unread(bytes(request.data))
        self.dispatch(conn)
        return True

    def release(self, request: Arriving) -> bool:
        """The request leaves the loop: no longer polled, held or timed. Whether it was here."""
        if request.registered:
            self.poller.unregister(request.conn.sock)
            request.registered = False
        if self.arriving.pop(request.conn, None) is None:
            return False
        self.held -= len(request.data)
        return True

    def drop(self, request: Arriving, answer: bytes = b"") -> None:
        """Close a connection whose request will not come."""
        if self.release(request):
            self.nr_conns -= 1
        if answer:
            try:
                request.conn.sock.send(answer)
            except OSError:
                pass
        request.conn.close()

    def dispatch(self, conn: Any) -> None:
        """To a thread (gthread's ``enqueue_req``)."""
        super().enqueue_req(conn)

    def murder_pending(self) -> None:
        """Besides gthread's own: close the connections whose request did not come in time."""
        super().murder_pending()
        now = time.monotonic()
        if now < self.next_sweep and self.alive:
            return
        self.next_sweep = now + SWEEP_SECONDS
        if not self.alive:  # stopping: a request on its way gets STOP_SECONDS at most
            for request in self.arriving.values():
                request.deadline = min(request.deadline, now + STOP_SECONDS)
        for request in [r for r in self.arriving.values() if r.deadline <= now]:
            started = bool(request.data.strip())
            self.drop(request, TIMEOUT if started else b"")
