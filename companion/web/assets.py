"""Static files under content-hashed names, and the service worker made from their list.

Every file under static/ is also served as ``/static/<stem>.<hash><suffix>`` (``app.css`` →
``/static/app.3f9c2a1b07.css``), the hash taken from its contents when the app starts (a
checkout needs no build step; the few dozen files take milliseconds). Pages name them so
through ``static_url`` (a Jinja global: every template uses it, tests/web/test_static_urls.py
checks), and such a name is answered ``Cache-Control: public, max-age=31536000, immutable``:
a phone keeps it for good, and a changed file is a new name, so a page never runs an older
script than the one it was made with. The plain names still answer, revalidated each time
(a page kept from before an update names them).

A hashed script or style sheet is served without its comments and spare white space (rjsmin,
rcssmin: made once as the app starts, a few milliseconds), so a phone's first load carries the
code, not the notes written for whoever reads it next; the plain names serve the files as they
are. Files under ``vendor/`` are already small and served as they come.

The service worker (``templates/sw.js``, served at ``/sw.js``) gets its precache list and its
cache version from the same list: any changed file changes the worker, which installs, takes
over and drops the older caches.
"""

from __future__ import annotations

import hashlib
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import rcssmin
import rjsmin
from flask import Flask, Response, current_app, request, send_from_directory, url_for

#: How long a hashed name may be kept (a year: browsers' ceiling).
FOREVER = 31536000
#: Hex digits of the content hash in a file's name.
DIGITS = 10
#: What the service worker fetches as it installs: the page shown offline, and the scripts,
#: styles and icon of every page (base.html), so the app opens without a connection.
PRECACHE = ("app.css", "js/util.js", "app.js", "js/offline.js", "icons/icon-192.png")

#: How a script or a style sheet is made small for the wire, by suffix.
SHRINK: dict[str, Callable[[str], str]] = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}

#: A hashed name in the service worker's words (a JavaScript RegExp): its stem, its suffix.
HASHED = r"^(.+)\.[0-9a-f]{" + str(DIGITS) + r"}(\.[A-Za-z0-9]+)$"


@dataclass
class Manifest:
    """The static files' hashed names: ``hashed["app.css"] == "app.3f9c2a1b07.css"``."""

    hashed: dict[str, str] = field(default_factory=dict)
    logical: dict[str, str] = field(default_factory=dict)  # the other way round
    shrunk: dict[str, bytes] = field(default_factory=dict)  # scripts and styles made small
    version: str = ""  # changes with any file

    @classmethod
    def of(cls, folder: Path) -> Manifest:
        """Hash every file under ``folder`` (dotfiles aside)."""
        made = cls()
        whole = hashlib.sha256()
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            name = path.relative_to(folder).as_posix()
            if any(part.startswith(".") for part in name.split("/")):
                continue
            data = path.read_bytes()
            digest = hashlib.sha256(data).hexdigest()[:DIGITS]
            shrink = SHRINK.get(path.suffix)
            if shrink is not None and not name.startswith("vendor/"):
                made.shrunk[name] = shrink(data.decode("utf-8")).encode("utf-8")
            stem, dot, suffix = name.rpartition(".")
            hashed = f"{stem}.{digest}.{suffix}" if dot and "/" not in suffix else name
            made.hashed[name], made.logical[hashed] = hashed, name
            whole.update(f"{name}\0{digest}\n".encode())
        made.version = whole.hexdigest()[:DIGITS]
        return made


def manifest(app: Flask | None = None) -> Manifest:
    """The app's manifest (made when the app was)."""
    found: Manifest = (app or current_app).extensions["companion_assets"]
    return found


def static_url(filename: str) -> str:
    """The address of static ``filename`` under its content-hashed name (templates)."""
    return url_for("static", filename=manifest().hashed.get(filename, filename))


def send_static(app: Flask, filename: str) -> Response:
    """Flask's static view: a hashed name is the file it names, kept for good; a plain name
    is the file as it is now, revalidated each time."""
    folder = app.static_folder
    assert folder is not None
    made = manifest(app)
    real = made.logical.get(filename)
    if real is None:
        return send_from_directory(folder, filename, max_age=None)
    if real in made.shrunk:
        answer = Response(made.shrunk[real], mimetype=mimetypes.guess_type(real)[0])
        answer.set_etag(filename)  # the name is the content's hash
        answer.cache_control.max_age = FOREVER
        answer.make_conditional(request)
    else:
        answer = send_from_directory(folder, real, max_age=FOREVER)
    answer.cache_control.public = True
    answer.cache_control.immutable = True
    return answer


def init_app(app: Flask) -> None:
    """Hash the static files now, and give the templates ``static_url``."""
    assert app.static_folder is not None
    app.extensions["companion_assets"] = Manifest.of(Path(app.static_folder))
    app.jinja_env.globals["static_url"] = static_url
