"""Secrets and response headers: the secret key, and a strict Content-Security-Policy.

Link tokens travel in URLs, so no page may leak its address to another site (a referrer is
sent only within the app: same-origin),
and no script or style may come from anywhere but the app itself.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, Response, request
from flask_wtf.csrf import CSRFError

SECRET_FILE = "secret_key"

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "style-src 'self'",
        "script-src 'self'",
        # The service worker (/sw.js) and the web app manifest come from the app itself.
        "worker-src 'self'",
        "manifest-src 'self'",
        # static/vendor/NoSleep.min.js keeps the screen on with a tiny looping video it
        # carries as a data: URI, where the Wake Lock API is missing (plain http).
        "media-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


def secret_key(instance_path: str | Path) -> str:
    """``COMPANION_SECRET_KEY``, or a key generated once into the instance folder and reused."""
    from_env = os.environ.get("COMPANION_SECRET_KEY")
    if from_env:
        return from_env
    path = Path(instance_path) / SECRET_FILE
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    try:
        # O_EXCL: if two workers start at once, the second reads the first one's key.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(key + "\n")
    return key


#: Endpoints no edit token ever reaches (read-only links, games, referee, blank sheets):
#: the only ones a browser or proxy may keep a copy of. Everything else is ``no-store``.
TOKEN_FREE = frozenset(
    {
        "static",
        "pages.view",
        "rounds.view",
        "sheets.view_sheet",
        "sheets.blank",
        "api.match_json_view",
        "api.game_list",
        "api.game_descriptor",
        "tools.check",
        "tools.blank",
        "timer.standalone",
        "timer.by_view_link",
        "offline.service_worker",
        "offline.manifest",
        "offline.fallback",
    }
)

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def add_headers(response: Response) -> Response:
    """Set the security headers on every response (a view may set its own first); no copy
    is kept anywhere of a response an edit token may have reached (the token is in the URL,
    the page's links or the JSON): ``Cache-Control: no-store``."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if request.endpoint not in TOKEN_FREE:
        response.headers["Cache-Control"] = "no-store"
    return response


def same_origin() -> None:
    """Refuse a form post sent from another site, even with a valid CSRF token.

    A browser names the page a post comes from in ``Origin``; it must be this host.
    ``null`` (sandboxed or privacy-sensitive places) passes only when the browser itself
    says the post is same-origin (``Sec-Fetch-Site``, which no page can set). Posts without
    ``Origin`` (older browsers, scripts) rely on the CSRF token alone. The JSON API uses no
    cookies and is not checked. Only the host is compared: behind a proxy that ends TLS the
    app may see http where the browser saw https.
    """
    if request.method not in WRITES or request.blueprint == "api":
        return
    origin = request.headers.get("Origin")
    if origin is None:
        return
    if origin == "null" and request.headers.get("Sec-Fetch-Site") == "same-origin":
        return
    if urlsplit(origin).netloc.lower() != request.host.lower():
        raise CSRFError("The form was sent from another site.")


def init_app(app: Flask) -> None:
    """Give the app a secret key (unless configured) and the security headers."""
    key = app.config.get("SECRET_KEY")
    if not key:
        key = secret_key(app.instance_path)
    # COMPANION_SECRET_KEY=12345 arrives as a number through from_prefixed_env.
    app.config["SECRET_KEY"] = key if isinstance(key, str | bytes) else str(key)
    app.after_request(add_headers)
    app.before_request(same_origin)
