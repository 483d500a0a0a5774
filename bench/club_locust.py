"""Locust users for bench/two_servers.py: a club night of tables, each with its phones.

``BENCH_TABLES``: a JSON file listing the tables' Rummikub matches (``[{"edit": …, "view":
…, "players": […]}]``).

- ``Phone``: a phone at a table reading its read-only scoreboard about once a second
  (0.5–1.5 s between requests, bench/load.py's club night), with the ETag of the page it
  shows as ``static/js/live.js`` does, so an unchanged match is a bare 304 and a changed one
  the new page. ``BENCH_RELOAD=1``: whole reloads without the ETag (bench/load.py's model).
- ``Scorekeeper`` (one per table, ``fixed_count``): after a pause of up to ``BENCH_EVERY``
  seconds, and then every ``BENCH_EVERY`` seconds (±50 %),
  opens the round form, saves a round through it (CSRF token, idempotency key and revision
  as the page gives them, the browser's ``Origin``) and opens the scoreboard it is sent to.
  Behind a proxy that takes turns, the form and its save usually reach different servers.

Each user keeps its cookies, as a phone does. Every answer but the expected one is an error.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
from typing import Any

import gevent.ssl
from locust import FastHttpUser, between, task

TABLES: list[dict[str, str]] = json.loads(open(os.environ["BENCH_TABLES"], encoding="utf-8").read())
RELOAD = bool(os.environ.get("BENCH_RELOAD"))
EVERY = float(os.environ.get("BENCH_EVERY", "20"))
HIDDEN = re.compile(r'<input id="[^"]*" name="([^"]*)" type="hidden" value="([^"]*)"')

#: One TLS context for all users. Locust would make one per user, each loading the CA bundle
#: (about 30 ms of its one core on a loaded machine): 250 users queued seconds of the load
#: generator's own work in front of the phones' first requests. A phone makes its own.
TLS = gevent.ssl.SSLContext(gevent.ssl.PROTOCOL_TLS_CLIENT)
TLS.check_hostname = False
TLS.verify_mode = gevent.ssl.CERT_NONE  # Caddy's local authority (deploy/Caddyfile.two)


def shared_tls(*_args: Any, **_kwargs: Any) -> gevent.ssl.SSLContext:
    return TLS


_phones = itertools.count()
_keepers = itertools.count()


class Phone(FastHttpUser):
    wait_time = between(0.5, 1.5)
    ssl_context_factory = staticmethod(shared_tls)

    def on_start(self) -> None:
        self.view = TABLES[next(_phones) % len(TABLES)]["view"]
        self.tag = ""

    @task
    def read(self) -> None:
        headers = {"If-None-Match": self.tag} if self.tag and not RELOAD else {}
        with self.client.get(
            f"/v/{self.view}", headers=headers, name="phone: page", catch_response=True
        ) as answer:
            if answer.status_code == 200:
                first = not self.tag
                self.tag = answer.headers.get("ETag", "")
                if RELOAD:
                    answer.request_meta["name"] = "phone: page (reloaded)"
                elif first:
                    answer.request_meta["name"] = "phone: page (opened)"
                else:
                    answer.request_meta["name"] = "phone: page (changed)"
            elif answer.status_code == 304:
                answer.request_meta["name"] = "phone: page (304)"  # unchanged
            else:
                answer.failure(f"status {answer.status_code}")


class Scorekeeper(FastHttpUser):
    fixed_count = len(TABLES)
    ssl_context_factory = staticmethod(shared_tls)
    wait_time = between(EVERY * 0.5, EVERY * 1.5)

    def on_start(self) -> None:
        table = TABLES[next(_keepers) % len(TABLES)]
        self.edit, self.players = table["edit"], table["players"]
        self.rng = random.Random(self.edit)
        self.origin = self.host.rstrip("/")
        time.sleep(self.rng.uniform(0, EVERY))  # the tables do not all save at once

    @task
    def save_round(self) -> None:
        with self.client.get(
            f"/m/{self.edit}/rounds/new", name="scorekeeper: round form", catch_response=True
        ) as answer:
            if answer.status_code != 200:
                answer.failure(f"status {answer.status_code}")
                return
            fields = dict(HIDDEN.findall(answer.text or ""))
            if "csrf_token" not in fields:
                answer.failure("no CSRF token on the form")
                return
        form = {**fields, **self.typed(), "save": "1"}
        # What a browser sends with the form: where it comes from (Flask-WTF checks the
        # Referer of a post over HTTPS; the app checks Origin).
        sent = {"Origin": self.origin, "Referer": f"{self.origin}/m/{self.edit}/rounds/new"}
        with self.client.post(
            f"/m/{self.edit}/rounds/new",
            data=form,
            headers=sent,
            allow_redirects=False,
            name="scorekeeper: save",
            catch_response=True,
        ) as answer:
            if answer.status_code != 302:
                answer.failure(f"status {answer.status_code}")
                return
        with self.client.get(
            f"/m/{self.edit}", name="scorekeeper: scoreboard", catch_response=True
        ) as answer:
            if answer.status_code != 200:
                answer.failure(f"status {answer.status_code}")

    def typed(self) -> dict[str, Any]:
        """A Rummikub round as typed: who went out, the others' points."""
        out = self.rng.randrange(len(self.players))
        typed: dict[str, Any] = {"went_out": self.players[out]}
        for seat in range(len(self.players)):
            typed[f"players-{seat}-points"] = "" if seat == out else self.rng.randint(1, 60)
        return typed
