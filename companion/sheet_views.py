"""Score sheets over the web: a match's filled sheet from either link, and blank sheets."""

from __future__ import annotations

import io
import re
import unicodedata
from datetime import datetime

from flask import Blueprint, Response, abort, request, send_file, url_for
from flask_babel import gettext as _
from werkzeug.routing import BuildError

from companion import store
from companion.db import get_session
from companion.models import Match
from companion.rules import EntryError
from companion.sheets import MAX_BLANK_GAMES, PAPERS, blank_sheet, match_sheet

bp = Blueprint("sheets", __name__)


def _paper() -> str:
    paper = request.args.get("paper", "a4").strip().lower()
    if paper not in PAPERS:
        abort(400, description=_("Paper must be a4 or letter."))
    return paper


def _slug(text: str) -> str:
    """An ASCII file-name part: ``Klubabend — Péntek`` → ``klubabend-pentek``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:40]


def _pdf(data: bytes, name: str) -> Response:
    response = send_file(
        io.BytesIO(data), mimetype="application/pdf", download_name=name, as_attachment=False
    )
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _view_url(match: Match) -> str:
    """The absolute read-only link the sheet's QR code points to."""
    try:
        return url_for("pages.view", view=match.view_token, _external=True)
    except BuildError:  # the pages blueprint is not registered (API-only app)
        return request.url_root.rstrip("/") + f"/v/{match.view_token}"


def _sheet(match: Match | None) -> Response:
    if match is None:
        abort(404)
    paper = _paper()
    created = match.created if isinstance(match.created, datetime) else None
    pdf = match_sheet(
        store.as_document(match),
        paper=paper,
        title=match.title,
        created=created,
        history=store.history(match),
        readonly_url=_view_url(match),
    )
    stem = _slug(match.title or "") or "rummy17"
    day = created.strftime("%Y-%m-%d") if created else "match"
    return _pdf(pdf, f"{stem}-{day}-sheet.pdf")


@bp.get("/m/<edit_token>/sheet.pdf")
def edit_sheet(edit_token: str) -> Response:
    """The filled sheet, from the edit link."""
    return _sheet(store.get_by_edit_token(get_session(), edit_token))


@bp.get("/v/<view_token>/sheet.pdf")
def view_sheet(view_token: str) -> Response:
    """The filled sheet, from the read-only link."""
    return _sheet(store.get_by_view_token(get_session(), view_token))


def _whole(name: str, low: int, high: int, default: int | None) -> int | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        abort(
            400,
            description=_(
                "%(name)s must be a whole number from %(low)d to %(high)d.",
                name=name,
                low=low,
                high=high,
            ),
        )
    return int(raw)


@bp.get("/sheets/blank.pdf")
def blank() -> Response:
    """A blank Rummy 17 sheet: ``?players=2..6&games=1..24&paper=a4|letter&names=A,B``."""
    paper = _paper()
    count = _whole("players", 2, 6, None)
    games = _whole("games", 1, MAX_BLANK_GAMES, None)
    raw_names = request.args.get("names", "").strip()
    players: int | list[str] = count if count is not None else 4
    if raw_names:
        players = [n.strip() for n in raw_names.split(",")]
        if count is not None and count != len(players):
            abort(400, description=_("players and names do not agree."))
    try:
        pdf = blank_sheet(players, games, paper=paper)
    except EntryError as err:
        abort(400, description=err.message)
    size = len(players) if isinstance(players, list) else players
    return _pdf(pdf, f"rummy17-blank-{size}-players.pdf")
