"""The server's own CPU time per request, two ways of serving side by side.

Requests per second move by ±30 % on a shared machine (bench/README.md); the CPU time the
server's processes spend per request moves far less, as other jobs only delay it. This
serves the app as ``companion serve`` does (``gunicorn``) and as ``--against`` (default
``gthread``, how it ran before waitress), then in ``--rounds`` turns sends each the same
``--requests`` GETs of each page from ``--clients`` threads (kept-alive connections, and
a new connection per request) and reads the workers' CPU time from /proc (Linux). Prints
microseconds of server CPU per request, each turn's and the median, with the load average.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import tempfile
import threading
from pathlib import Path

from common import Server, make_matches


def cpu_seconds(pid: int) -> float:
    """CPU time of ``pid`` and its children now alive (the arbiter and its workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def drive(port: int, path: str, count: int, clients: int, keep_alive: bool) -> int:
    """``count`` GETs of ``path`` from ``clients`` threads; how many were not 200."""
    failures = [0]

    def client(share: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _ in range(share):
            try:
                headers = {} if keep_alive else {"Connection": "close"}
                conn.request("GET", path, headers=headers)
                answer = conn.getresponse()
                answer.read()
                failures[0] += answer.status != 200
            except (OSError, http.client.HTTPException):
                failures[0] += 1
            if not keep_alive:
                conn.close()
        conn.close()

    threads = [threading.Thread(target=client, args=(count // clients,)) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--against", default="gthread")
    parser.add_argument("--requests", type=int, default=2000, help="per page, per turn")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        instance = Path(folder) / "instance"
        ((edit, view),) = make_matches(instance, 1, players=6, games=12)
        pages = [
            ("scoreboard", f"/v/{view}", True),
            ("edit scoreboard", f"/m/{edit}", True),
            ("home, new connections", "/", False),
        ]
        hows = ["gunicorn", args.against]
        servers = [Server("companion", how, instance) for how in hows]
        try:
            figures: dict[tuple[str, str], list[float]] = {}
            loads = []
            for _ in range(args.rounds):
                loads.append(os.getloadavg()[0])
                for how, server in zip(hows, servers, strict=True):
                    for name, path, keep_alive in pages:
                        drive(server.port, path, 200, args.clients, keep_alive)  # warm
                        before = cpu_seconds(server.process.pid)
                        failed = drive(server.port, path, args.requests, args.clients, keep_alive)
                        spent = cpu_seconds(server.process.pid) - before
                        per = 1e6 * spent / args.requests
                        figures.setdefault((how, name), []).append(per)
                        if failed:
                            print(f"  {how} {name}: {failed} requests failed")
            loads.append(os.getloadavg()[0])
        finally:
            for server in servers:
                server.stop()
    print(
        f"server CPU per request (µs), {args.requests} requests per page and turn, "
        f"{args.clients} clients; load average {min(loads):.2f}–{max(loads):.2f}"
    )
    for (how, name), values in figures.items():
        each = ", ".join(f"{v:.0f}" for v in values)
        print(f"  {how:10} {name:24} median {statistics.median(values):6.0f}   ({each})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
