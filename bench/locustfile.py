"""Locust users for bench/load.py: each reads one page (``BENCH_PATH``) again and again.

``BENCH_WAIT=1``: a phone at the table, reloading about once a second (0.5–1.5 s between
requests); otherwise no pause at all (the server's throughput).
"""

from __future__ import annotations

import os

from locust import FastHttpUser, between, constant, task

PATH = os.environ.get("BENCH_PATH", "/")


class Reader(FastHttpUser):
    wait_time = between(0.5, 1.5) if os.environ.get("BENCH_WAIT") else constant(0)

    @task
    def read(self) -> None:
        with self.client.get(PATH, name="page", catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"status {answer.status_code}")
