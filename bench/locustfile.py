"""Locust users for bench/load.py: each reads one page (``BENCH_PATH``) again and again.

``BENCH_WAIT=1``: a phone at the table, reloading about once a second (0.5–1.5 s between
requests); otherwise no pause at all (the server's throughput). ``BENCH_PHOTOS=N`` with
``BENCH_PHOTO=FILE``: N more phones send that photo to ``POST /api/v1/photos`` one after
another without pause (the most a table's phones can ask of the reader), counted apart as
"photo".
"""

from __future__ import annotations

import os
from pathlib import Path

from locust import FastHttpUser, between, constant, task

PATH = os.environ.get("BENCH_PATH", "/")
PHOTOS = int(os.environ.get("BENCH_PHOTOS", "0"))
PHOTO = Path(os.environ["BENCH_PHOTO"]).read_bytes() if PHOTOS else b""


class Reader(FastHttpUser):
    wait_time = between(0.5, 1.5) if os.environ.get("BENCH_WAIT") else constant(0)

    @task
    def read(self) -> None:
        with self.client.get(PATH, name="page", catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"status {answer.status_code}")


class PhotoSender(FastHttpUser):
    abstract = not PHOTOS  # no photo phones unless asked for
    fixed_count = PHOTOS
    wait_time = constant(0)

    @task
    def send(self) -> None:
        with self.client.post(
            "/api/v1/photos?game=rummikub&as=rack",
            data=PHOTO,
            headers={"Content-Type": "image/jpeg"},
            name="photo",
            catch_response=True,
        ) as answer:
            if answer.status_code != 200 or not answer.json().get("tiles"):
                answer.failure(f"status {answer.status_code}")
