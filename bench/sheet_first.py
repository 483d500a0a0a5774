"""The first sheet of a match, asked for right after a save: goal ≤ 1.0 s.

Starts a fresh ``companion serve`` (gunicorn, one worker per core) on SQLite in a temporary
folder, waits until it answers, then for ``--matches`` matches of every game in turn: starts
the match and saves its first round over the matches API, and at once asks for its filled
sheet (``/v/VIEW/sheet.pdf``, then the edit link's after a second save), timing each over
HTTP. The first matches of a fresh server are the ones that used to meet cold renderers.
Prints every time with the load average beside it and the CPU seconds the server's processes
spent on the save and the sheet (what the load does not move), the slowest, and the memory
(RSS) of the server and its renderer processes at the end. Not a test: the times move with
the load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from common import ROOT, Server

sys.path.insert(0, str(ROOT / "tests" / "web"))

from samples import sample_round  # noqa: E402

from companion.domain import all_games  # noqa: E402

PLAYERS = ["Anna", "Béla", "Cili", "Dóra"]


def call(url: str, body: Any = None, method: str = "GET") -> tuple[float, int, bytes]:
    """Time one request: seconds, status, body."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as answer:
        content = answer.read()
        return time.perf_counter() - start, answer.status, content


TICKS = os.sysconf("SC_CLK_TCK")


def group_cpu(pgid: int) -> float:
    """CPU seconds (user + system) the server's processes have used so far: what a sheet
    costs whatever the load (the wall time moves with the machine's other jobs)."""
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:  # pgrp
                ticks += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            continue
    return ticks / TICKS


def group_rss_mb(pgid: int) -> tuple[int, float]:
    """Processes of the server's session and their resident memory in MB."""
    count, kb = 0, 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:  # pgrp
                continue
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    kb += int(line.split()[1])
            count += 1
        except (OSError, IndexError, ValueError):
            continue
    return count, kb / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=2, help="matches of each game")
    parser.add_argument("--pause", type=float, default=0.0, help="seconds from save to sheet")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        instance = Path(folder) / "instance"
        started = time.perf_counter()
        with Server("companion", "gunicorn", instance) as server:
            print(f"server answered after {time.perf_counter() - started:.1f} s")
            times: list[float] = []
            for n in range(args.matches):
                for game in all_games():
                    seats = PLAYERS[: max(game.seats[0], min(4, game.seats[1]))]
                    _t, status, body = call(
                        f"{server.url}/api/v1/matches",
                        {"game": game.id, "players": seats, "first_dealer": seats[0]},
                        "POST",
                    )
                    match = json.loads(body)
                    edit, view = match["edit"], match["view"]
                    for link, token in (("view", view), ("edit", edit)):
                        cpu = group_cpu(server.process.pid)
                        saved, status, _body = call(
                            f"{server.url}/api/v1/matches/{edit}/games",
                            sample_round(game.id, players=seats),
                            "POST",
                        )
                        assert status == 201, status
                        time.sleep(args.pause)
                        load = os.getloadavg()[0]
                        path = "v" if link == "view" else "m"
                        took, status, pdf = call(f"{server.url}/{path}/{token}/sheet.pdf")
                        assert status == 200 and pdf.startswith(b"%PDF"), status
                        times.append(took)
                        cpu = group_cpu(server.process.pid) - cpu
                        print(
                            f"match {n + 1} {game.id:13} round {1 if link == 'view' else 2} "
                            f"saved in {saved * 1000:4.0f} ms, sheet ({link} link) "
                            f"{took:5.2f} s (save and sheet: {cpu:4.2f} CPU s)   load {load:.2f}",
                            flush=True,
                        )
            processes, rss = group_rss_mb(server.process.pid)
            print(
                f"sheets: {len(times)}, median {statistics.median(times):.2f} s, "
                f"slowest {max(times):.2f} s (goal <= 1.0 s); "
                f"server + renderers: {processes} processes, {rss:.0f} MB resident; "
                f"load {os.getloadavg()[0]:.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
