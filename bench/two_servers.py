"""A room of tables on two servers: PostgreSQL is the shared state.

Starts two ``companion serve`` (A and B: their own ports and instance folders, one secret
key, ``COMPANION_PROXY=1``, ``--workers`` each) at once on a new schema of one PostgreSQL
database, and Caddy in front of both with ``deploy/Caddyfile.two`` (HTTPS from its local
authority, taking turns between the two), every address on loopback. Then:

1. Balancing: 20 requests through Caddy, counted by the server that answered (a header the
   bench adds to its copy of the config; the deploy file has none).
2. A club night through Caddy (Locust, bench/club_locust.py): ``--phones`` (200) phones
   spread over ``--tables`` (50) tables, each reading its table's read-only scoreboard about
   once a second with the page's ETag (as live.js does), and a scorekeeper per table saving
   a round through the round form every ``--every`` seconds (20; the form and its save
   usually reach different servers), for ``--seconds`` (60). ``--reload``: then the same
   night again with the phones reloading whole pages (bench/load.py's model). Goal: no
   error, p99 under 200 ms.
3. From server to server: meanwhile, and again once the night is over, a round is saved
   through A directly and B's read-only page polled directly (``If-None-Match``) until it
   shows it; prints the delay (a phone sees it within that plus its 1.5 s poll).

``--postgres URL`` (default ``$COMPANION_TEST_POSTGRES_URL``, else
``$COMPANION_DATABASE_URL``): the database; the bench makes a schema of its own and drops it.
``--join N``: the phones arrive N a second (as people sit down; without it half of them
arrive in each of the first two seconds); ``--settled``: the figures are those of the
``--seconds`` after the last one arrived, else of the ``--seconds`` from the first.
``--quick``: a 15 s night of 50 phones. Not a test: the figures move with the machine's load,
printed beside them (``/proc/loadavg``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import resource
import secrets
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from common import ROOT, Server, free_port, stop_group
from load import phase

CADDYFILE = ROOT / "deploy" / "Caddyfile.two"
LOCUSTFILE = ROOT / "bench" / "club_locust.py"
PLAYERS = ["Anna", "Béla", "Cili", "Dani"]
#: The phones' poll (static/js/live.js, EVERY).
POLL_S = 1.5
#: The longest a probe waits for B to show A's save before counting it as missed.
PROBE_WAIT_S = 10.0


def load_average() -> str:
    """/proc/loadavg's three averages (1, 5, 15 minutes)."""
    return ", ".join(f"{figure:.2f}" for figure in os.getloadavg())


def ask(
    url: str, method: str = "GET", body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One request on a connection of its own: status, headers, body (any status)."""
    parts = urllib.parse.urlsplit(url)
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        unverified = ssl.create_default_context()
        unverified.check_hostname, unverified.verify_mode = False, ssl.CERT_NONE
        connection = http.client.HTTPSConnection(parts.netloc, timeout=30, context=unverified)
    else:
        connection = http.client.HTTPConnection(parts.netloc, timeout=30)
    sent = dict(headers or {})
    data = None
    if body is not None:
        data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
    try:
        connection.request(method, parts.path or "/", body=data, headers=sent)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


@contextmanager
def schema(base: str) -> Iterator[str]:
    """A new schema in the database at ``base``, as a URL using it; dropped afterwards."""
    from sqlalchemy import create_engine, text

    name = f"bench_two_{secrets.token_hex(4)}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{name}"'))
    joiner = "&" if "?" in base else "?"
    try:
        yield f"{base}{joiner}options={urllib.parse.quote(f'-csearch_path={name}')}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{name}" CASCADE'))
        admin.dispose()


def reverse_proxies(node: Any) -> Iterator[dict[str, Any]]:
    """Every reverse_proxy handler in a Caddy JSON config."""
    if isinstance(node, dict):
        if node.get("handler") == "reverse_proxy":
            yield node
        for value in node.values():
            yield from reverse_proxies(value)
    elif isinstance(node, list):
        for value in node:
            yield from reverse_proxies(value)


class Caddy:
    """Caddy running deploy/Caddyfile.two on loopback in front of ``upstreams``."""

    def __init__(self, folder: Path, upstreams: list[int]) -> None:
        caddy = shutil.which("caddy")
        if caddy is None:
            raise SystemExit("caddy is not installed (apt install caddy)")
        self.port, http_port = free_port(), free_port()
        env = {
            **os.environ,
            "COMPANION_LAN_IP": "127.0.0.1",
            "COMPANION_HTTPS_PORT": str(self.port),
            "COMPANION_HTTP_PORT": str(http_port),
            "COMPANION_UPSTREAM_A": f"127.0.0.1:{upstreams[0]}",
            "COMPANION_UPSTREAM_B": f"127.0.0.1:{upstreams[1]}",
            "CADDY_ADMIN": f"127.0.0.1:{free_port()}",
            # Its local certificate authority in the bench's folder, not the user's.
            "XDG_DATA_HOME": str(folder / "data"),
            "XDG_CONFIG_HOME": str(folder / "config"),
        }
        adapted = subprocess.run(
            [caddy, "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            env=env,
            capture_output=True,
            check=True,
        )
        config = json.loads(adapted.stdout)
        http_app = config["apps"]["http"]
        http_app["http_port"], http_app["https_port"] = http_port, self.port
        for server in http_app["servers"].values():  # ":PORT" listens everywhere: loopback only
            server["listen"] = [f"127.0.0.1{where}" for where in server["listen"]]
        for proxy in reverse_proxies(config):  # which server answered, for the bench alone
            proxy["headers"] = {
                "response": {"set": {"X-Upstream": ["{http.reverse_proxy.upstream.hostport}"]}}
            }
        path = folder / "caddy.json"
        path.write_text(json.dumps(config), encoding="utf-8")
        self.log = open(folder / "caddy.log", "w", encoding="utf-8")  # noqa: SIM115
        self.process = subprocess.Popen(
            [caddy, "run", "--config", str(path)],
            env=env,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )
        self.url = f"https://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if ask(self.url + "/api/v1/games")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"Caddy did not start (see {folder / 'caddy.log'})")

    def stop(self) -> None:
        stop_group(self.process, self.log)


TICK = os.sysconf("SC_CLK_TCK")


def group_cpu(group: int) -> float:
    """CPU seconds used so far by the live processes of process group ``group``."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # pgrp; then utime and stime are fields 11 and 12
            total += int(fields[11]) + int(fields[12])
    return total / TICK


def machine_cpu() -> float:
    """CPU seconds the whole machine has been busy (every core), from /proc/stat."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(
        int, Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]
    )
    return (user + nice + system + irq + softirq + steal) / TICK


class Meter:
    """Where the cores went during a phase: the two servers, Caddy, Locust (a child process
    the phase waited for), this script, and everything else (PostgreSQL, other people's
    jobs)."""

    def __init__(self, groups: dict[str, int]) -> None:
        self.groups = groups
        self.start = self.read()
        self.began = time.monotonic()

    def read(self) -> dict[str, float]:
        got = {name: group_cpu(group) for name, group in self.groups.items()}
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        got["Locust"] = children.ru_utime + children.ru_stime
        itself = resource.getrusage(resource.RUSAGE_SELF)
        got["this script (probes)"] = itself.ru_utime + itself.ru_stime
        got["machine"] = machine_cpu()
        return got

    def said(self) -> str:
        end = self.read()
        used = {name: end[name] - self.start[name] for name in end}
        wall = time.monotonic() - self.began
        ours = sum(value for name, value in used.items() if name != "machine")
        parts = [f"{name} {value:.0f}" for name, value in used.items() if name != "machine"]
        parts.append(f"everything else {used['machine'] - ours:.0f}")
        cores = os.cpu_count() or 1
        return f"CPU seconds of {cores} × {wall:.0f} s: " + ", ".join(parts)


def new_match(url: str, games: int) -> dict[str, Any]:
    status, _headers, body = ask(
        url + "/api/v1/matches",
        "POST",
        {"game": "rummikub", "players": PLAYERS, "first_dealer": "Anna", "games": games},
    )
    if status != 201:
        raise RuntimeError(f"no match: {status} {body[:200]!r}")
    made: dict[str, Any] = json.loads(body)
    return made


def cross_server(
    a: str, b: str, rounds: int, interval: float, stop: threading.Event | None = None
) -> list[float | None]:
    """Save a round through A ``rounds`` times; after each, how long until B's read-only page
    (polled every ``interval`` s with the ETag it showed before) shows it (None: not within
    PROBE_WAIT_S)."""
    match = new_match(a, games=rounds + 1)
    page = f"{b}/v/{match['view']}"
    delays: list[float | None] = []
    for number in range(rounds):
        if stop is not None and stop.is_set():
            break
        status, headers, _ = ask(page)
        tag = headers["etag"]
        body = {
            "went_out": "Anna",
            "players": [
                {"name": n, "rack": [] if n == "Anna" else {"points": number + 1}} for n in PLAYERS
            ],
        }
        saved, _, answer = ask(
            f"{a}/api/v1/matches/{match['edit']}/games", "POST", body, {"If-Match": "*"}
        )
        if saved != 201:
            raise RuntimeError(f"probe save refused: {saved} {answer[:200]!r}")
        saved_at = time.monotonic()
        delay = None
        while time.monotonic() - saved_at < PROBE_WAIT_S:
            status, headers, _ = ask(page, headers={"If-None-Match": tag})
            if status == 200 and headers["etag"] != tag:
                delay = time.monotonic() - saved_at
                break
            time.sleep(interval)
        delays.append(delay)
        time.sleep(0.5)
    return delays


def warm_up(caddy: Caddy, tables: list[dict[str, Any]], workers: int) -> None:
    """Every table's read-only page and a few round forms asked for through Caddy, as the
    first phones of the evening would: each server draws and keeps them (the page cache is
    per process and per address, the proxy's)."""
    for _ in range(2 * workers):  # Caddy takes turns; each worker takes what comes
        for table in tables:
            ask(f"{caddy.url}/v/{table['view']}")
        for table in tables[:4]:
            ask(f"{caddy.url}/m/{table['edit']}/rounds/new")


def describe(delays: list[float | None]) -> str:
    got = [d * 1000 for d in delays if d is not None]
    missed = len(delays) - len(got)
    if not got:
        return f"{len(delays)} saves, none shown within {PROBE_WAIT_S:.0f} s"
    return (
        f"{len(delays)} saves: median {statistics.median(got):.0f} ms, "
        f"max {max(got):.0f} ms, missed {missed}"
    )


def night(
    caddy: Caddy, tables_file: Path, args: argparse.Namespace, *, reload: bool
) -> dict[str, Any]:
    env = {"BENCH_TABLES": str(tables_file), "BENCH_EVERY": str(args.every)}
    if reload:
        env["BENCH_RELOAD"] = "1"
    users = args.phones + args.tables
    return phase(
        caddy.url,
        "/",
        users,
        args.seconds,
        paced=True,
        locustfile=LOCUSTFILE,
        env=env,
        join=args.join,
        settled=args.settled,
    )


def report(title: str, figures: dict[str, Any], loads: tuple[str, str]) -> None:
    print(f"{title} (load average {loads[0]} at the start, {loads[1]} at the end):")
    for name, row in figures["rows"].items():
        print(
            f"  {name:28} {row['requests']:6d} requests, errors {row['failures']}, "
            f"p50 {row['p50']:.0f} ms, p99 {row['p99']:.0f} ms"
        )
    for error in figures["errors"]:
        print(f"  error: {error}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--postgres",
        default=os.environ.get("COMPANION_TEST_POSTGRES_URL")
        or os.environ.get("COMPANION_DATABASE_URL"),
    )
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--every", type=float, default=20.0, help="seconds between a table's saves")
    parser.add_argument("--seconds", type=int, default=60, help="length of the club night")
    parser.add_argument("--workers", type=int, default=1, help="worker processes per server")
    parser.add_argument("--reload", action="store_true", help="a second night of whole reloads")
    parser.add_argument("--quick", action="store_true", help="15 s, 50 phones, 12 tables")
    parser.add_argument(
        "--join",
        type=float,
        help="phones (and scorekeepers) arriving per second (default: half of them a second)",
    )
    parser.add_argument(
        "--settled",
        action="store_true",
        help="count the --seconds after the last one arrived (default: from the first)",
    )
    args = parser.parse_args()
    if not args.postgres:
        parser.error("give --postgres URL (or set COMPANION_TEST_POSTGRES_URL)")
    if args.quick:
        args.seconds, args.phones, args.tables = 15, 50, 12

    with tempfile.TemporaryDirectory() as folder, schema(args.postgres) as url:
        env = {
            "COMPANION_DATABASE_URL": url,
            "COMPANION_SECRET_KEY": secrets.token_hex(32),
            "COMPANION_PROXY": "1",
            "COMPANION_WORKERS": str(args.workers),
        }
        print(f"load average at the start: {load_average()}")
        for name in ("a", "b"):
            Path(folder, name).mkdir()
        with ThreadPoolExecutor(2) as starting:  # at once, on the empty schema: both migrate
            started = [
                starting.submit(Server, "companion", "gunicorn", Path(folder, name, "i"), env)
                for name in ("a", "b")
            ]
            a, b = (s.result() for s in started)
        caddy = None
        try:
            caddy = Caddy(Path(folder), [a.port, b.port])
            print(
                f"servers A :{a.port} and B :{b.port} ({args.workers} worker(s) each) on one "
                f"PostgreSQL schema; Caddy https://127.0.0.1:{caddy.port} (deploy/Caddyfile.two)"
            )
            answered = Counter(
                ask(caddy.url + "/api/v1/games")[1].get("x-upstream", "?") for _ in range(20)
            )
            print(f"20 requests through Caddy answered by: {dict(sorted(answered.items()))}")
            # As long as a table's evening needs (both nights' saves and some to spare), not
            # longer: a sheet made ahead has a row per planned round, and a match of 400
            # rounds (as this bench had) made each sheet ten times the work of a real one.
            length = 4 + 2 * math.ceil((args.seconds + 30) / args.every)
            tables = []
            for _ in range(args.tables):
                made = new_match(caddy.url, games=length)
                tables.append({"edit": made["edit"], "view": made["view"], "players": PLAYERS})
            warm_up(caddy, tables, args.workers)
            tables_file = Path(folder, "tables.json")
            tables_file.write_text(json.dumps(tables), encoding="utf-8")

            stop = threading.Event()
            probes: list[float | None] = []
            rounds = max(1, args.seconds // 3)
            prober = threading.Thread(
                target=lambda: probes.extend(cross_server(a.url, b.url, rounds, 0.05, stop)),
                daemon=True,
            )
            groups = {"A": a.process.pid, "B": b.process.pid, "Caddy": caddy.process.pid}
            start_load = load_average()
            meter = Meter(groups)
            prober.start()
            figures = night(caddy, tables_file, args, reload=False)
            cpu = meter.said()
            stop.set()
            prober.join(timeout=PROBE_WAIT_S + 30)
            report(
                f"club night through Caddy: {args.phones} phones polling with the ETag about "
                f"once a second, {args.tables} scorekeepers saving a round every "
                f"{args.every:.0f} s, {args.seconds} s"
                + (f", arriving {args.join:g} a second" if args.join else "")
                + (", counted after the last arrived" if args.settled else ""),
                figures,
                (start_load, load_average()),
            )
            print(f"  {cpu}")
            print(
                f"A's save on B's read-only page, during the night (polled every 50 ms): "
                f"{describe(probes)}"
            )
            if args.reload:
                start_load = load_average()
                meter = Meter(groups)
                figures = night(caddy, tables_file, args, reload=True)
                cpu = meter.said()
                report(
                    "the same night, phones reloading whole pages (bench/load.py's model)",
                    figures,
                    (start_load, load_average()),
                )
                print(f"  {cpu}")
            quiet_load = load_average()
            quiet = cross_server(a.url, b.url, 10, 0.01)
            print(
                f"A's save on B's read-only page, after the night (polled every 10 ms; load "
                f"average {quiet_load}): {describe(quiet)}; a phone polls every {POLL_S} s"
            )
        finally:
            if caddy is not None:
                caddy.stop()
            a.stop()
            b.stop()
        print(f"load average at the end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
