"""Load benchmark: the scoreboards against a bare Flask "hello".

Starts ``companion serve`` (the real server: one worker per core, waitress in each) on SQLite in a
temporary folder holding a 6-player, 12-round Rummy 17 match, and a bare Flask app that
answers "hello", served the same way. Then, with Locust headless:

1. Throughput side by side: ``--users`` clients without pause on "hello", then on the
   read-only scoreboard, then on the edit scoreboard (each client keeps its cookies, as a
   phone does), alternately (``--rounds`` times each, so a change in the machine's load
   falls on all); prints each requests/s and the ratios to "hello" (goal: at least 0.5).
   ``--no-edit`` leaves the edit scoreboard out.
2. A club night: ``--clients`` (200) phones reloading the scoreboard about once a second
   for ``--seconds`` (60); prints requests, errors (goal 0) and the 99th percentile (goal
   under 500 ms).

3. With ``--photos N`` (4: a table's phones), the club night again, in turns without and
   with N more phones sending a rack photo to ``POST /api/v1/photos`` back to back; prints
   the scoreboard's p99 for each and the photos' own times.

``--server waitress`` serves both with waitress in one process instead (the comparison that
chose gunicorn, bench/README.md); ``gthread``, ``gevent``, ``asgi`` and ``granian`` the other
ways bench/hello.py knows (the slow-clients comparison, bench/slowloris.py).
``--against HOW`` also serves the app and "hello" that way and measures both, phase by phase,
taking turns (a before and after on a loaded machine: the load falls on both alike), the
club night too (in ``--rounds`` turns). ``--quick``: short phases, for a first look. Not a
test: run it on a machine that is otherwise idle, as the figures move with the load: it
prints the load average (``os.getloadavg``) at the start and at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import math
import os
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from common import ROOT, Server, make_matches
from PIL import Image

SERVERS = ("gunicorn", "gthread", "gevent", "asgi", "waitress", "granian")
LOCUSTFILE = ROOT / "bench" / "locustfile.py"
LOCUST = Path(sys.executable).with_name("locust")
#: The rack the photo phones send (training/validation.txt: never trained on).
RACK_PHOTO = "rummy2-34_jpeg.rf.bbb5c496490051689a54475f57ef3141.jpg"


def phase(
    url: str,
    path: str,
    users: int,
    seconds: int,
    *,
    paced: bool,
    locustfile: Path = LOCUSTFILE,
    env: dict[str, str] | None = None,
    join: float | None = None,
    settled: bool = False,
) -> dict[str, Any]:
    """Run Locust headless against ``url + path``; its aggregated figures, and under
    ``"rows"`` each request name's (another ``locustfile`` and ``env`` for other users).

    ``join``: users starting per second (None: half of them a second). ``settled``: the
    figures are counted from the moment the last one started, for ``seconds`` (Locust's
    ``--reset-stats``); else every request is, the arrivals included, and the run lasts
    ``seconds`` from the first."""
    before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        prefix = str(Path(folder) / "stats")
        env = {**os.environ, **(env or {}), "BENCH_PATH": path}
        if paced:
            env["BENCH_WAIT"] = "1"
        command = [
            str(LOCUST),
            "-f",
            str(locustfile),
            "--headless",
            "--only-summary",
            "--loglevel",
            "ERROR",
            "-u",
            str(users),
            "-r",
            str(join or max(1, users // 2)),
            "-t",
            f"{seconds + (math.ceil(users / (join or users / 2)) if settled else 0)}s",
            "--host",
            url,
            "--csv",
            prefix,
            *(["--reset-stats"] if settled else []),
        ]
        subprocess.run(
            command, env=env, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        with open(prefix + "_stats.csv", encoding="utf-8") as stats:
            rows = {r["Name"]: figures(r) for r in csv.DictReader(stats)}
        with open(prefix + "_failures.csv", encoding="utf-8") as failed:
            errors = [
                f"{r['Name']}: {r['Error']} × {r['Occurrences']}" for r in csv.DictReader(failed)
            ]
    return {**rows["Aggregated"], "load": before, "rows": rows, "errors": errors}


def figures(row: dict[str, str]) -> dict[str, Any]:
    """One row of Locust's statistics file: requests, failures, requests/s, p50, p99 (ms)."""
    return {
        "requests": int(row["Request Count"]),
        "failures": int(row["Failure Count"]),
        "rps": float(row["Requests/s"]),
        "p50": float(row["50%"] or 0),
        "p99": float(row["99%"] or 0),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--server",
        choices=SERVERS,
        default="gunicorn",
        help="gunicorn: companion serve; the others as bench/hello.py serves them",
    )
    parser.add_argument("--users", type=int, default=32, help="clients in the throughput phase")
    parser.add_argument("--phase", type=int, default=15, help="seconds per throughput phase")
    parser.add_argument("--rounds", type=int, default=2, help="hello/scoreboard alternations")
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=60, help="length of the club night")
    parser.add_argument("--against", choices=SERVERS, help="also serve the app this way")
    parser.add_argument("--quick", action="store_true", help="5 s phases, 15 s club night")
    parser.add_argument("--no-edit", action="store_true", help="leave the edit scoreboard out")
    parser.add_argument(
        "--photos",
        type=int,
        default=0,
        help="also hold each club night again with this many phones sending photos meanwhile",
    )
    args = parser.parse_args()
    if args.quick:
        args.phase, args.rounds, args.seconds = 5, 1, 15

    with tempfile.TemporaryDirectory() as folder:
        instance = Path(folder) / "instance"
        ((edit, view),) = make_matches(instance, 1, players=6, games=12)
        board, editing = f"/v/{view}", f"/m/{edit}"
        with (
            Server("hello", args.server, instance) as hello,
            Server("companion", args.server, instance) as companion,
            contextlib.ExitStack() as stack,
        ):
            servers = [(args.server, companion)]
            hellos = [(args.server, hello)]
            if args.against:
                other = Server("companion", args.against, instance)
                servers.append((args.against, stack.enter_context(other)))
                other = Server("hello", args.against, instance)
                hellos.append((args.against, stack.enter_context(other)))
            for _name, server in servers:
                with urllib.request.urlopen(server.url + board) as answer:  # warm up
                    size = len(answer.read())
            against = f" against {args.against}" if args.against else ""
            print(f"server: {args.server}{against}; scoreboard 6 × 12 Rummy 17, {size} bytes")
            print(f"load average at the start: {load_average()}")
            targets = []
            for (how, server), (_how, bare) in zip(servers, hellos, strict=True):
                label = f" ({how})" if args.against else ""
                targets.append((f"hello{label}", bare.url, "/"))
                targets.append((f"scoreboard{label}", server.url, board))
                if not args.no_edit:
                    targets.append((f"edit scoreboard{label}", server.url, editing))
            runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _url, _path in targets}
            for _ in range(args.rounds):
                for name, url, path in targets:
                    runs[name].append(phase(url, path, args.users, args.phase, paced=False))
            rps = {name: sum(p["rps"] for p in got) / len(got) for name, got in runs.items()}
            failures = sum(p["failures"] for got in runs.values() for p in got)
            print(
                f"throughput, {args.users} clients without pause, "
                f"{args.rounds} × {args.phase} s each:"
            )
            width = max(len(name) for name in rps)
            for name, value in rps.items():
                own = "hello" + name.partition(" (")[1] + name.partition(" (")[2]
                ratio = "" if name.startswith("hello") else f"   ratio {value / rps[own]:.2f}"
                print(f"  {name:{width}} {value:8.0f} requests/s{ratio}")
            print(f"  (goal: ratio >= 0.5; errors: {failures})")
            for name, got in runs.items():
                each = ", ".join(f"{p['rps']:.0f} (load {p['load']:.2f})" for p in got)
                print(f"  {name:{width}} each phase: {each}")
            turns = args.rounds if args.against else 1
            nights: dict[str, list[dict[str, Any]]] = {how: [] for how, _server in servers}
            for _ in range(turns):
                for how, server in servers:
                    seconds = args.seconds // turns
                    nights[how].append(phase(server.url, board, args.clients, seconds, paced=True))
            print(
                f"club night, {args.clients} clients reloading the scoreboard about once a "
                f"second for {args.seconds} s{against}:"
            )
            for how, got in nights.items():
                for night in got:
                    label = f"{how}: " if args.against else ""
                    print(
                        f"  {label}{night['requests']} requests ({night['rps']:.0f}/s of about "
                        f"{args.clients}/s asked for), "
                        f"errors {night['failures']} (goal 0), p50 {night['p50']:.0f} ms, "
                        f"p99 {night['p99']:.0f} ms (goal < 500 ms), load {night['load']:.2f}"
                    )
            if args.photos:
                photo_nights(companion.url, board, args, Path(folder) / "rack.jpg")
            print(f"load average at the end: {load_average()}")
    return 0


def photo_nights(url: str, board: str, args: argparse.Namespace, photo: Path) -> None:
    """The club night without and with ``args.photos`` phones sending a rack photo (a real
    one, tests/data/photos, at the 1,600 px a phone shrinks it to) back to back, in
    ``args.rounds`` turns, so the load falls on both alike."""
    source = ROOT / "tests" / "data" / "photos" / RACK_PHOTO
    with Image.open(source) as im:
        im.convert("RGB").resize((1600, 1600), Image.Resampling.LANCZOS).save(
            photo, "JPEG", quality=85
        )
    env = {"BENCH_PHOTO": str(photo)}
    nights: dict[int, list[dict[str, Any]]] = {0: [], args.photos: []}
    for _ in range(args.rounds):
        for senders in nights:
            users = args.clients + senders
            night = phase(
                url,
                board,
                users,
                args.seconds // args.rounds,
                paced=True,
                env={**env, "BENCH_PHOTOS": str(senders)},
            )
            nights[senders].append(night)
    print(
        f"club night, {args.clients} clients reloading the scoreboard, without and with "
        f"{args.photos} phones sending a {photo.stat().st_size // 1024} KB rack photo "
        "back to back:"
    )
    for senders, got in nights.items():
        for night in got:
            page = night["rows"]["page"]
            line = (
                f"  {senders} photo phones: scoreboard {page['requests']} requests, errors "
                f"{page['failures']}, p50 {page['p50']:.0f} ms, p99 {page['p99']:.0f} ms "
                f"(goal < 500 ms)"
            )
            if senders:
                sent = night["rows"]["photo"]
                line += (
                    f"; photos {sent['requests']} read, errors {sent['failures']}, "
                    f"p50 {sent['p50']:.0f} ms, p99 {sent['p99']:.0f} ms"
                )
            print(f"{line}; load {night['load']:.2f}")
        for error in (e for n in got for e in n["errors"]):
            print(f"    {error}")


def load_average() -> str:
    """The machine's load averages over 1, 5 and 15 minutes, as ``uptime`` prints them."""
    return ", ".join(f"{figure:.2f}" for figure in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
