"""The Flask application factory: ``create_app`` reads as the table of contents of the app."""

from __future__ import annotations

import os
import re
from functools import cached_property
from pathlib import Path
from types import TracebackType
from typing import Any

import click
import jinja2
from flask import Flask, Response, current_app, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect
from jinja2 import TemplateNotFound
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from companion import web
from companion.adapters import db
from companion.domain.bounds import MAX_BODY
from companion.i18n.resources import template_loader
from companion.web import language as i18n
from companion.web import ratelimit, security
from companion.web.api import events as _events  # noqa: F401  (adds the events' routes to api.bp)
from companion.web.api import matches as api
from companion.web.api import photos as _photos  # noqa: F401  (its route joins the API's blueprint)
from companion.web.pages import sheets as sheet_views
from companion.web.pages import tools

csrf = CSRFProtect()

HERE = Path(__file__).resolve().parents[1]  # the package: templates/ and static/ beside it or in it


def _folder(name: str) -> str:
    """templates/ or static/: in the package when installed, at the repository top in a checkout."""
    for candidate in (HERE / name, HERE.parent / name):
        if candidate.is_dir():
            return str(candidate)
    return str(HERE.parent / name)


#: A path segment that may be a link token: never written to a log.
TOKEN_SEGMENT = re.compile(r"(?<=/)[A-Za-z0-9_-]{16,}")


def redact(path: str) -> str:
    """A request path as logs may show it: ``/m/<token>/sheet.pdf`` → ``/m/…/sheet.pdf``."""
    return TOKEN_SEGMENT.sub("…", path)


class Companion(Flask):
    """The app: Flask, except that a logged error never shows a link token, templates come
    from the installed games' folders too, and static files are served under content-hashed
    names too (companion/web/assets.py)."""

    @cached_property
    def jinja_loader(self) -> jinja2.BaseLoader | None:
        """The app's templates, then those the installed games bring (``Game.folder``)."""
        return template_loader(Path(self.root_path, str(self.template_folder)))

    def send_static_file(self, filename: str) -> Response:
        """A static file by its plain or its content-hashed name (web/assets.py)."""
        from companion.web import assets

        return assets.send_static(self, filename)

    def log_exception(
        self,
        exc_info: tuple[type, BaseException, TracebackType] | tuple[None, None, None],
    ) -> None:
        """Log an unhandled error with the path redacted (tokens are in the path)."""
        self.logger.error(
            "Exception on %s [%s]", redact(request.path), request.method, exc_info=exc_info
        )


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; ``test_config`` overrides the configuration (and the environment)."""
    test_config = dict(test_config or {})
    instance = test_config.pop("INSTANCE_PATH", None) or os.environ.get("COMPANION_INSTANCE_PATH")
    static = test_config.pop("STATIC_FOLDER", None) or _folder("static")  # tests: a changed copy
    app = Companion(
        "companion",  # instance folder: instance/ in a checkout, <prefix>/var/companion-instance
        template_folder=_folder("templates"),
        static_folder=static,
        instance_path=str(Path(instance).resolve()) if instance else None,
        instance_relative_config=True,
    )
    configure(app, test_config)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    ratelimit.init_app(app, handle_http_error)  # the views that start something: ``creating``
    register_commands(app)
    return app


def configure(app: Flask, test_config: dict[str, Any]) -> None:
    """Defaults, then ``COMPANION_*`` environment variables, then the test configuration."""
    app.config.from_mapping(
        DATABASE_URL=None,
        MAX_CONTENT_LENGTH=MAX_BODY,
        SESSION_COOKIE_SAMESITE="Lax",
        # A game form may lie open on the table for hours; it must still save.
        WTF_CSRF_TIME_LIMIT=None,
        JSON_SORT_KEYS=False,
    )
    # Keep the contract's field order, and names readable (no \u escapes).
    assert isinstance(app.json, DefaultJSONProvider)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.config.from_prefixed_env("COMPANION")
    app.config.update(test_config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)


def register_extensions(app: Flask) -> None:
    """Secret key and headers, the database, CSRF protection, translations and the static
    files' hashed names."""
    from companion.web import assets

    assets.init_app(app)
    security.init_app(app)
    db.init_app(app)
    csrf.init_app(app)
    i18n.init_app(app)


def register_blueprints(app: Flask) -> None:
    """The JSON API, the pages, the referee and the score sheets."""
    app.register_blueprint(api.bp)  # /api/v1: all of the JSON API
    csrf.exempt(api.bp)  # once: it uses no cookies (nor the Origin check, security.py)
    app.register_blueprint(api.match_json_bp)
    web.register_blueprints(app)
    app.register_blueprint(sheet_views.bp)
    app.register_blueprint(tools.bp)


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path.endswith(".json")


def _friendly(code: int) -> tuple[str, str]:
    """A title and a sentence for the people at the table."""
    if code == 404:
        return _("Not found"), _(
            "There is nothing at this address. If someone shared a link with you, "
            "check that it was copied whole."
        )
    if code == 400:
        return _("Something was wrong with that request"), _(
            "Go back, reload the page and try again."
        )
    if code == 405:
        return _("Not allowed"), _("This address cannot be used that way.")
    if code == 413:
        return _("Too much data"), _("That was more than a score sheet can hold.")
    if code == 429:
        return _("Too many new matches"), _("Try again later.")
    if code == 503:
        return _("Busy"), _("The app is busy. Try again in a moment.")
    if code >= 500:
        return _("Something went wrong"), _(
            "The app ran into a problem. Your earlier games are safe; please try again."
        )
    return _("Something went wrong"), _("Go back and try again.")


def handle_http_error(err: HTTPException) -> tuple[Response | str, int, dict[str, str]]:
    """Every HTTP error as a friendly page, or as a JSON error object under /api/ and .json."""
    code = err.code or 500
    title, message = _friendly(code)
    if isinstance(err, CSRFError):
        message = _(
            "This form was open too long or came from elsewhere, so it was not saved. "
            "Go back, reload the page and send it again."
        )
    elif (code < 500 or code == 503) and err.description != type(err).description:
        message = err.description or message  # a view's own words (abort(404, description=…))
    # 503, 429: when to come back (ServiceUnavailable(retry_after=…), companion.web.ratelimit).
    retry = getattr(err, "retry_after", None)
    headers = {"Retry-After": str(retry)} if code in (429, 503) and retry is not None else {}
    if _wants_json():
        body = {"error": {"message": message if code < 500 else title, "status": code}}
        return jsonify(body), code, headers
    try:
        page = render_template("error.html", code=code, title=title, message=message)
    except Exception as failure:  # an error page must never fail: plain text instead
        if not isinstance(failure, TemplateNotFound):
            current_app.logger.exception("error page %s could not be rendered", code)
        page = f"{code} {title}\n\n{message}\n"
        return page, code, {**headers, "Content-Type": "text/plain; charset=utf-8"}
    return page, code, headers


#: When to try again after the database was in the way (seconds).
BUSY_RETRY_AFTER = 1


def handle_busy_database(err: OperationalError) -> tuple[Response | str, int, dict[str, str]]:
    """A transaction another one got in the way of (``adapters.db.transient``): 503, try again
    in a moment; nothing was changed. Any other database error stays a 500."""
    if not db.transient(err):
        raise err
    return handle_http_error(ServiceUnavailable(retry_after=BUSY_RETRY_AFTER))


def register_errorhandlers(app: Flask) -> None:
    """Friendly error pages: never a traceback."""
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(OperationalError, handle_busy_database)


def register_commands(app: Flask) -> None:
    """``flask --app companion.web.app upgrade-db`` (the app also migrates when it starts)."""

    @app.cli.command("upgrade-db")
    def upgrade_db() -> None:
        """Bring the database schema up to date (alembic upgrade head)."""
        db.upgrade(db.get_engine(app))
        click.echo(_("The database is up to date: %(url)s", url=db.get_engine(app).url))
