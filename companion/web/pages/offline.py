"""Installable and usable offline: the web app manifest, the service worker, the page shown
when a page that needs the server is opened without a connection, and the mark on the pages
the service worker may keep a copy of.

The service worker (``templates/sw.js``) is served from ``/sw.js`` so that its scope is the
whole app, its precache list and version filled in from the static files' content-hashed names
(``web/assets.py``); it keeps the last good copy of the pages marked here
(``X-Companion-Offline: copy``) and nothing else. Round forms are never kept: an old copy
would carry an old revision and an idempotency key that may already be used, and a round
typed into it could be taken for the round saved with that key. Saves made without a
connection wait in the page's outbox (``static/js/offline.js``); scores are computed by the
server only.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from flask_babel import gettext as _

from companion.web import assets

bp = Blueprint("offline", __name__)

#: Pages the service worker may keep the last good copy of, to open them offline.
OFFLINE_COPY = frozenset(
    {
        "pages.index",
        "pages.scoreboard",
        "pages.view",
        "rounds.show",
        "rounds.view",
        "offline.fallback",
    }
)

#: The theme colours of static/app.css (--accent in light mode, --bg).
THEME = "#0a6b4a"
BACKGROUND = "#f4f1ea"


@bp.app_context_processor
def rendered() -> dict[str, Any]:
    """When a page was made: a copy opened offline says "as of" this time."""
    return {"rendered": datetime.now(UTC).isoformat(timespec="seconds")}


@bp.after_app_request
def mark_copyable(response: Response) -> Response:
    """Tell the service worker which answers it may keep (a page, answered 200)."""
    if request.endpoint in OFFLINE_COPY and response.status_code == 200:
        response.headers["X-Companion-Offline"] = "copy"
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the top of the site so that it controls every page: its cache
    version and precache list from the static files' hashes, so a changed file is a new
    worker, which drops the older caches."""
    made = assets.manifest()
    script = render_template(
        "sw.js",
        version=made.version,
        fallback=url_for("offline.fallback"),
        precache=[assets.static_url(name) for name in assets.PRECACHE],
        current={name: assets.static_url(name) for name in made.hashed},
        hashed=assets.HASHED,
    )
    answer = Response(script, content_type="text/javascript; charset=utf-8")
    # Checked for a new version on every visit (browsers cap a worker's cache at 24 h anyway).
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The app's icon where a browser looks for it without asking the page (a projector's)."""
    answer = current_app.send_static_file("icons/icon-192.png")
    answer.headers["Cache-Control"] = "public, max-age=86400"
    return answer


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: "Add to home screen" opens the app full screen at the home page."""
    answer = jsonify(
        {
            "name": _("Companion"),
            "short_name": _("Companion"),
            "description": _("Score pad and referee for rummy games at the table."),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME,
            "background_color": BACKGROUND,
            "icons": [
                {
                    "src": assets.static_url("icons/icon-192.png"),
                    "sizes": "192x192",
                    "type": "image/png",
                    "purpose": "any maskable",
                },
                {
                    "src": assets.static_url("icons/icon-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "any maskable",
                },
                {
                    "src": assets.static_url("icons/icon.svg"),
                    "sizes": "any",
                    "type": "image/svg+xml",
                },
            ],
        }
    )
    answer.headers["Content-Type"] = "application/manifest+json"
    return answer


@bp.get("/offline")
def fallback() -> str:
    """Shown by the service worker for a page that needs the server and has no copy."""
    return render_template("offline.html")
