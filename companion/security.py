"""Secrets and response headers: the secret key, and a strict Content-Security-Policy.

Link tokens travel in URLs, so no page may leak its address to another site (no-referrer),
and no script or style may come from anywhere but the app itself.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, Response

SECRET_FILE = "secret_key"

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "style-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
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


def add_headers(response: Response) -> Response:
    """Set the security headers on every response (a view may set its own first)."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    """Give the app a secret key (unless configured) and the security headers."""
    key = app.config.get("SECRET_KEY")
    if not key:
        key = secret_key(app.instance_path)
    # COMPANION_SECRET_KEY=12345 arrives as a number through from_prefixed_env.
    app.config["SECRET_KEY"] = key if isinstance(key, str | bytes) else str(key)
    app.after_request(add_headers)
