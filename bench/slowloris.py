"""Slow clients against ``companion serve``: do the other pages still answer?

Starts ``companion serve`` (the real server, SQLite in a temporary folder holding a 6-player,
12-round Rummy 17 match), or takes ``--url`` of one already running on 127.0.0.1. Then two
phases of ``--seconds`` each, the same pages timed in both:

1. calm: ``--readers`` clients each GET the match's read-only scoreboard and the home page in
   turn, a new connection per request (as a phone coming back to the page), pausing
   ``--pause`` s between requests; every request has ``--timeout`` s to answer;
2. slowloris: the same, while ``--slow`` connections (300) send a request head a byte a
   second and never finish it. One the server closes is opened again at once, as an
   attacker would.

Prints for each phase the requests, errors (no answer in time, refused, or not 200), p50,
p99 and slowest, and the load average at its start and end. Bounded: at most
``--slow`` × 2 connections open at once, and 2 × ``--seconds`` plus the server's start.

``--server`` serves the app another way for the comparison in bench/README.md: ``gthread``
(gunicorn's threaded worker, how ``companion serve`` ran before waitress), ``gevent``,
``asgi`` (gunicorn's asyncio worker, the app behind a2wsgi), ``waitress``, ``granian``; the
default ``gunicorn`` is ``companion serve`` itself. Only loopback is ever targeted.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import socket
import statistics
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from common import Server, make_matches

SERVERS = ("gunicorn", "gthread", "gevent", "asgi", "waitress", "granian")


def load_average() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


@dataclass
class Trickle:
    """A slow connection: its socket, the head it trickles, how much of it was sent."""

    sock: socket.socket
    head: bytes
    sent: int = 0


class Slowloris:
    """``count`` connections that trickle a request head, one byte per ``interval`` s each."""

    def __init__(self, host: str, port: int, count: int, interval: float = 1.0) -> None:
        self.host, self.port, self.count, self.interval = host, port, count, interval
        self.stop = threading.Event()
        self.opened = 0  # connections opened in all (reopened ones included)
        self.closed_by_server = 0
        self.failed_connects = 0
        self.bytes_sent = 0
        self.thread = threading.Thread(target=self.run, name="slowloris", daemon=True)

    def head(self) -> bytes:
        """A request head that never ends: a header of a byte per second, then another."""
        start = f"GET /?slow={random.getrandbits(32)} HTTP/1.1\r\nHost: {self.host}\r\n"
        return start.encode() + b"X-Slow: " + b"a" * 100_000

    def connect(self) -> Trickle | None:
        try:
            conn = socket.create_connection((self.host, self.port), timeout=5)
        except OSError:
            self.failed_connects += 1
            return None
        conn.setblocking(False)
        self.opened += 1
        return Trickle(conn, self.head())

    def run(self) -> None:
        conns: list[Trickle | None] = []
        for _ in range(self.count):
            if self.stop.is_set():
                break
            conns.append(self.connect())
        while not self.stop.wait(self.interval):
            for index, slow in enumerate(conns):
                if self.stop.is_set():
                    break
                if slow is None:
                    conns[index] = self.connect()
                    continue
                try:
                    slow.sock.send(slow.head[slow.sent : slow.sent + 1])
                    slow.sent += 1
                    self.bytes_sent += 1
                    slow.sock.recv(1024)  # an answer (400, 408) or b"" (closed): it is over
                except BlockingIOError:
                    continue  # nothing to read: the server is still waiting for the head
                except OSError:
                    pass
                self.closed_by_server += 1
                slow.sock.close()
                conns[index] = self.connect()
        for slow in conns:
            if slow is not None:
                slow.sock.close()

    def __enter__(self) -> Slowloris:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


def reader(
    host: str,
    port: int,
    paths: list[str],
    until: float,
    timeout: float,
    pause: float,
    times: list[float],
    errors: list[str],
) -> None:
    """GET each of ``paths`` in turn until ``until``, a new connection per request."""
    turn = 0
    while time.monotonic() < until:
        path = paths[turn % len(paths)]
        turn += 1
        start = time.monotonic()
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
        try:
            conn.request("GET", path)
            answer = conn.getresponse()
            answer.read()
            if answer.status != 200:
                errors.append(f"{path}: status {answer.status}")
            else:
                times.append(time.monotonic() - start)
        except (OSError, http.client.HTTPException) as err:
            errors.append(f"{path}: {type(err).__name__}")
        finally:
            conn.close()
        time.sleep(pause)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(args: argparse.Namespace, host: str, port: int, paths: list[str], slow: int) -> None:
    times: list[float] = []
    errors: list[str] = []
    before = load_average()
    with Slowloris(host, port, slow) as attack:
        if slow:
            time.sleep(args.settle)  # the slow connections are open and have sent their first byte
        until = time.monotonic() + args.seconds
        threads = [
            threading.Thread(
                target=reader,
                args=(host, port, paths, until, args.timeout, args.pause, times, errors),
            )
            for _ in range(args.readers)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    after = load_average()
    total = len(times) + len(errors)
    name = f"{slow} slow connections" if slow else "calm (no slow connection)"
    print(f"{name}, {args.readers} readers for {args.seconds} s:")
    print(
        f"  {total} requests, errors {len(errors)}, "
        f"p50 {1000 * statistics.median(times) if times else float('nan'):.0f} ms, "
        f"p99 {1000 * percentile(times, 0.99):.0f} ms, "
        f"slowest {1000 * max(times, default=float('nan')):.0f} ms"
    )
    if slow:
        print(
            f"  slow connections: {attack.opened} opened, {attack.closed_by_server} closed by "
            f"the server, {attack.failed_connects} connects failed, {attack.bytes_sent} bytes"
        )
    if errors:
        kinds: dict[str, int] = {}
        for error in errors:
            kinds[error] = kinds.get(error, 0) + 1
        print("  errors: " + ", ".join(f"{k} × {n}" for k, n in sorted(kinds.items())))
    print(f"  load average: {before} at the start, {after} at the end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", help="a server already running on 127.0.0.1 (its home page)")
    parser.add_argument("--page", default="/", help="with --url: another page to time")
    parser.add_argument("--server", choices=SERVERS, default="gunicorn")
    parser.add_argument("--slow", type=int, default=300, help="slow connections")
    parser.add_argument("--seconds", type=int, default=30, help="length of each phase")
    parser.add_argument("--readers", type=int, default=4, help="clients timing the pages")
    parser.add_argument("--pause", type=float, default=0.05, help="s between their requests")
    parser.add_argument("--timeout", type=float, default=10.0, help="s a request may take")
    parser.add_argument("--settle", type=float, default=3.0, help="s before timing starts")
    parser.add_argument("--no-calm", action="store_true", help="the slowloris phase only")
    args = parser.parse_args()
    args.slow = min(args.slow, 2000)
    args.seconds = min(args.seconds, 120)

    def run(host: str, port: int, paths: list[str]) -> None:
        print(f"load average at the start: {load_average()}")
        if not args.no_calm:
            measure(args, host, port, paths, 0)
        measure(args, host, port, paths, args.slow)

    if args.url:
        address = urllib.parse.urlsplit(args.url)
        host, port = address.hostname or "127.0.0.1", address.port or 80
        if host not in {"127.0.0.1", "localhost"}:
            parser.error("only a server on 127.0.0.1 may be targeted")
        run("127.0.0.1", port, sorted({"/", args.page}))
        return 0

    with tempfile.TemporaryDirectory() as folder:
        instance = Path(folder) / "instance"
        ((_edit, view),) = make_matches(instance, 1, players=6, games=12)
        with Server("companion", args.server, instance) as server:
            print(f"server: {args.server}; pages: the home page and a 6 × 12 scoreboard")
            run("127.0.0.1", server.port, ["/", f"/v/{view}"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
