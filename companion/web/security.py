"""Secrets and response headers: the secret key, and a strict Content-Security-Policy.

Link tokens travel in URLs, so no page may leak its address to another site (a referrer is
sent only within the app: same-origin),
and no script or style may come from anywhere but the app itself.

Every security header is set here, in one place. Not Flask-Talisman: it would be one more
dependency for six headers, its default ``force_https`` would break the plain-HTTP address
phones on the table's Wi-Fi use, and what may be cached (``TOKEN_FREE``) and when a cookie is
``Secure`` depend on this app's links and on the proxy setting below.

``COMPANION_PUBLIC_URL`` (``https://club.example``) is the address every absolute link is
built from, whatever host a request named (``PublicAddress``); without it, links use the
address the client used (a server at the table: the phone's).

Behind an HTTPS reverse proxy (``COMPANION_PROXY=1``, the number of proxies in front),
Werkzeug's ``ProxyFix`` takes the scheme, host and client address from the proxy's
``X-Forwarded-*`` headers; a request that arrived over HTTPS then gets ``Secure`` cookies
and ``Strict-Transport-Security``. Without the setting those headers are ignored (anyone
could send them).
"""

from __future__ import annotations

import io
import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFError
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.domain.bounds import BODY_LIMITS

SECRET_FILE = "secret_key"

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data: blob:",  # blob: a photo shrunk on the phone's canvas (photo.js)
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
        "match_json.match_json_view",
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

#: Sent only on a request that came over HTTPS: browsers then refuse plain HTTP for a year.
HSTS = "max-age=31536000"


def secure_cookies(response: Response) -> None:
    """Over HTTPS, every cookie the response sets is ``Secure`` (never sent over plain HTTP)."""
    cookies = response.headers.getlist("Set-Cookie")
    if not cookies:
        return
    response.headers.remove("Set-Cookie")
    for cookie in cookies:
        attributes = {part.strip().lower() for part in cookie.split(";")[1:]}
        response.headers.add(
            "Set-Cookie", cookie if "secure" in attributes else cookie + "; Secure"
        )


def add_headers(response: Response) -> Response:
    """Set the security headers on every response (a view may set its own first); no copy
    is kept anywhere of a response an edit token may have reached (the token is in the URL,
    the page's links or the JSON): ``Cache-Control: no-store``."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if request.endpoint not in TOKEN_FREE:
        response.headers["Cache-Control"] = "no-store"
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
        secure_cookies(response)
    return response


def same_origin() -> None:
    """Refuse a form post sent from another site, even with a valid CSRF token.

    A browser names the page a post comes from in ``Origin``; it must be this host.
    ``null`` (sandboxed or privacy-sensitive places) passes only when the browser itself
    says the post is same-origin (``Sec-Fetch-Site``, which no page can set). Posts without
    ``Origin`` (older browsers, scripts) rely on the CSRF token alone. The JSON API (one
    blueprint, ``api``: every route under /api/v1) uses no cookies and is not checked. Only
    the host is compared: behind a proxy that ends TLS the app may see http where the
    browser saw https.
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


class ChunkedLimit:
    """WSGI middleware: a body without Content-Length (chunked) gets one, or a 413.

    Flask refuses a body on its Content-Length before reading it (MAX_CONTENT_LENGTH), but a
    chunked body announces no length, and Werkzeug reads it only up to the limit and hands
    the view a truncated body. So a chunked body is read here, at most one byte past the
    limit: within it, it is passed on with its length; past it, the rest is never read and
    the request goes on announcing one byte too many, so the view's first read is a 413.
    (``companion serve``'s waitress passes a chunked body on with its length already; this
    is for any other server. tests/web/test_body_limit.py shows Werkzeug cutting it short.)
    """

    def __init__(self, wsgi_app: Any, app: Flask) -> None:
        self.wsgi_app = wsgi_app
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if limit is not None:  # a photo may be larger (bounds.BODY_LIMITS)
            limit = BODY_LIMITS.get(environ.get("PATH_INFO", ""), limit)
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if limit is not None and chunked and not environ.get("CONTENT_LENGTH"):
            stream = environ["wsgi.input"]
            body = b""
            while len(body) <= limit:
                part = stream.read(min(65536, limit + 1 - len(body)))
                if not part:
                    break
                body += part
            environ["CONTENT_LENGTH"] = str(len(body))
            environ["wsgi.input"] = io.BytesIO(b"" if len(body) > limit else body)
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.wsgi_app(environ, start_response)


class PublicAddress:
    """WSGI middleware: every request as if it came to ``COMPANION_PUBLIC_URL``.

    Share links, QR codes (on pages and sheets) and every other absolute address are built
    from the request's scheme and host. On a public server those come from the client (the
    ``Host`` header, or the proxy's ``X-Forwarded-Host``): ``Host: evil.example`` would make
    the app hand out ``http://evil.example/m/…``. With the setting, each request's scheme
    and host are the configured ones whatever the client sent, so no link is ever built from
    another host, and a form's ``Origin`` is compared with the configured host too. Without
    it (a server on the table's Wi-Fi) links use the address the phone used.
    """

    def __init__(self, wsgi_app: Any, public_url: str) -> None:
        self.wsgi_app = wsgi_app
        self.scheme, self.host, self.port = public_address(public_url)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        environ["wsgi.url_scheme"] = self.scheme
        environ["HTTP_HOST"] = self.host
        environ["SERVER_NAME"] = self.host.rsplit(":", 1)[0] if self.port else self.host
        environ["SERVER_PORT"] = self.port or ("443" if self.scheme == "https" else "80")
        return self.wsgi_app(environ, start_response)


def public_address(public_url: str) -> tuple[str, str, str]:
    """``COMPANION_PUBLIC_URL`` read: its scheme, host (with a port, if it has one) and port.

    :raises ValueError: it is not an address like ``https://club.example``.
    """
    parts = urlsplit(public_url.strip())
    try:
        port = parts.port
    except ValueError:
        port = -1
    if (
        parts.scheme not in {"http", "https"}
        or not parts.hostname
        or parts.path not in {"", "/"}
        or parts.query
        or parts.fragment
        or parts.username is not None
        or (port is not None and port <= 0)
    ):
        raise ValueError(
            f"COMPANION_PUBLIC_URL: {public_url!r} is not an address like https://club.example"
        )
    return parts.scheme, parts.netloc.lower(), str(port) if port else ""


class SessionCookies(SecureCookieSessionInterface):
    """Flask's signed session cookie, ``Secure`` whenever the request came over HTTPS (the
    session is saved after the ``after_request`` hooks, so ``secure_cookies`` cannot)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        """``SESSION_COOKIE_SECURE``, or the request came over HTTPS."""
        configured = bool(super().get_cookie_secure(app))
        return configured or (has_request_context() and request.is_secure)


def proxies(app: Flask) -> int:
    """How many reverse proxies stand in front (``COMPANION_PROXY``); 0: none, trust no
    ``X-Forwarded-*`` header."""
    raw = app.config.get("PROXY") or 0
    if isinstance(raw, bool):
        return int(raw)
    try:
        return max(0, int(str(raw).strip() or 0))
    except ValueError:
        return 1 if str(raw).strip().lower() in {"true", "yes", "on"} else 0


def init_app(app: Flask) -> None:
    """Give the app a secret key (unless configured), the proxy setting and the headers."""
    public_url = str(app.config.get("PUBLIC_URL") or "").strip()
    if public_url:
        app.wsgi_app = PublicAddress(app.wsgi_app, public_url)  # type: ignore[method-assign]
    hops = proxies(app)  # outside it: the client's address still comes from the proxy
    if hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops
        )
    app.wsgi_app = ChunkedLimit(app.wsgi_app, app)  # type: ignore[method-assign]
    app.session_interface = SessionCookies()
    key = app.config.get("SECRET_KEY")
    if not key:
        key = secret_key(app.instance_path)
    # COMPANION_SECRET_KEY=12345 arrives as a number through from_prefixed_env.
    app.config["SECRET_KEY"] = key if isinstance(key, str | bytes) else str(key)
    app.after_request(add_headers)
    app.before_request(same_origin)
