"""How many matches and events one address may start: a public server's guard (Flask-Limiter).

On the internet (``deploy/Caddyfile.public``) anybody could start matches and events in a
loop until the disk is full. Starting one (the start page, a rematch, ``POST
/api/v1/matches``, a new event on its page or over the API) is limited per client address,
``COMPANION_CREATE_LIMIT`` (default ``120/hour``: a club night of 50 tables behind one
address, each starting a match and a rematch within the hour, still fits), counted over a
moving hour. Everything else is never limited: the scoreboards, saving rounds, seating an
event's sessions (which makes its tables' matches), so 200 phones behind one address at a
busy club night play on. ``COMPANION_CREATE_LIMIT=off`` turns it off.

The views that start something carry the ``creating`` decorator (Flask-Limiter's shared
limit). Flask-Limiter counts a start before the view runs, in one step that also checks the
limit (the storage takes its write lock), so a burst of 100 starts from one address with a
limit of 5 makes 5, not the 56 that checking first and counting after made. When the view
made nothing (a form sent back with a mistake, any refusal), the start is given back after
the answer (``give_back``): a mistake costs nothing. Giving back is the storage's own method
(``SqliteStorage.give_back``); another storage (``COMPANION_CREATE_LIMIT_STORAGE``) counts a
start that made nothing too.

The client address is the one ``ProxyFix`` took from the proxy's ``X-Forwarded-For`` when
``COMPANION_PROXY`` is set (without it, the connection's: the proxy's own address would
count for everybody, and an unset proxy setting would let anybody name any address). An
IPv6 address counts by its /64 network, which one household or phone is given whole.

The counts live in a small SQLite file in the instance folder (``limits.sqlite3``,
``companion.adapters.ratelimit_storage``), shared by every server process on the machine.
Several machines in front of one database each count their own
(``COMPANION_CREATE_LIMIT_STORAGE`` takes any storage the ``limits`` package knows, e.g.
``redis://host``, to share them). The decision: docs/adr/0002-create-limit.md.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request
from flask_babel import ngettext
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import parse_many

from companion.adapters.ratelimit_storage import SqliteStorage

#: The default limit: matches and events one address may start in a moving hour.
DEFAULT_LIMIT = "120/hour"
#: Values of COMPANION_CREATE_LIMIT that turn the limit off.
OFF = {"", "0", "off", "no", "false", "none"}
#: The scope all starts are counted in together.
SCOPE = "create"
#: The answers that mean something was made (a redirect to it, or 201 Created).
MADE = frozenset({201, 302, 303})


def client_address() -> str:
    """Whose starts are counted together: the client's address, an IPv6 one by its /64."""
    raw = request.remote_addr or "unknown"
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # an IPv4 client on a dual-stack socket
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


def create_limit(app: Flask) -> str | None:
    """``COMPANION_CREATE_LIMIT`` as the limits package reads it, or None when it is off."""
    raw = app.config.get("CREATE_LIMIT", DEFAULT_LIMIT)
    text = "" if raw is None or raw is False else str(raw).strip()
    if text.lower() in OFF:
        return None
    try:
        parse_many(text)
    except ValueError as err:
        raise ValueError(f"COMPANION_CREATE_LIMIT: {text!r} is not a limit like 60/hour") from err
    return text


def configured_limit() -> str:
    """The app's limit, read at each request (each app has its own configuration)."""
    return create_limit(current_app) or DEFAULT_LIMIT


#: The app's one limiter (Flask-Limiter's way with an application factory: ``init_app``).
limiter = Limiter(
    client_address,
    strategy="moving-window",
    headers_enabled=False,
    key_prefix="companion",
)


@limiter.request_filter
def reading() -> bool:
    """Only a POST may start something: any other request skips the limiter at once."""
    return request.method != "POST"


#: The decorator of every view that starts a match or an event: all count together.
creating = limiter.shared_limit(configured_limit, scope=SCOPE, methods=["POST"])


def give_back(response: Response) -> Response:
    """A request that was counted and made nothing gives its start back."""
    if response.status_code in MADE:
        return response
    storage = limiter.storage
    if not isinstance(storage, SqliteStorage):
        return response
    for counted in limiter.current_limits:
        if not counted.breached and SCOPE in counted.request_args:
            storage.give_back(counted.key)
    return response


def init_app(app: Flask, answer: Callable[[Any], Any]) -> None:
    """Limit the views that start something (``creating``), unless the limit is off.

    ``answer`` is the app's error handler: a refusal is answered as every other error is (a
    page, or the API's JSON error object), with ``Retry-After`` and a sentence saying when.
    """
    limit = create_limit(app)
    app.config["RATELIMIT_ENABLED"] = limit is not None
    if limit is None:
        limiter.init_app(app)  # switched off for this app: its decorated views run unlimited
        return
    app.config["RATELIMIT_STORAGE_URI"] = str(
        app.config.get("CREATE_LIMIT_STORAGE")
        or f"companion+sqlite:///{Path(app.instance_path, 'limits.sqlite3')}"
    )
    limiter.init_app(app)
    app.extensions["companion_limiter"] = limiter
    app.after_request(give_back)

    def too_many(err: RateLimitExceeded) -> Any:
        seconds = retry_after()
        minutes = math.ceil(seconds / 60)
        err.description = ngettext(
            "This address has started as many matches and events as it may for now. "
            "Try again in %(num)s minute.",
            "This address has started as many matches and events as it may for now. "
            "Try again in %(num)s minutes.",
            minutes,
        )
        err.retry_after = seconds
        return answer(err)

    app.register_error_handler(RateLimitExceeded, too_many)


def retry_after() -> int:
    """Whole seconds until this address may start something again (at least 1)."""
    current = limiter.current_limit
    storage = limiter.storage
    now = storage.clock() if isinstance(storage, SqliteStorage) else time.time()
    if current is None:
        return 60
    return max(1, math.ceil(current.window.reset_time - now))
