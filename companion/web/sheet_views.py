"""Score sheets over the web: a match's filled sheet from either link, and blank sheets.

Sheets are made by companion/renderer.py: outside the request threads, at most a few at a
time, and kept per match revision, language and paper so a second download costs nothing.
"""

from __future__ import annotations

import io
import re
import unicodedata
from datetime import datetime
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, request, send_file, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import ServiceUnavailable
from werkzeug.routing import BuildError

from companion import store
from companion.db import get_session
from companion.i18n import select_locale, translator
from companion.models import Match
from companion.renderer import SheetRefused, SheetsBusy, renderer
from companion.rules import EntryError, Translator, games, get_game
from companion.sheets import MAX_BLANK_GAMES, PAPERS, default_players

bp = Blueprint("sheets", __name__)

#: Where made sheets are kept, in the instance folder.
SHEETS = "sheets"

WHOLE = re.compile(r"[0-9]{1,9}")


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
    response.headers["Cache-Control"] = "private, no-cache"  # no-store where an edit link led
    return response


def _view_url(match: Match) -> str:
    """The absolute read-only link the sheet's QR code points to."""
    try:
        return url_for("pages.view", view=match.view_token, _external=True)
    except BuildError:  # the pages blueprint is not registered (API-only app)
        return request.url_root.rstrip("/") + f"/v/{match.view_token}"


def _rules_url() -> str | None:
    """The absolute address of the rules pages, which the sheets' clause ids link to."""
    try:
        return url_for("reference.index", _external=True)
    except BuildError:  # the pages blueprints are not registered
        return None


def _history(match: Match, tr: Translator) -> list[dict[str, Any]]:
    """The match's corrections in the request's language, oldest first (new rounds are no
    corrections: the grid shows them)."""
    return [
        {"when": e["when"], "what": store.describe(e, tr, match.game)}
        for e in store.history(match)
        if store.is_correction(e["code"])
    ]


def _made(key: str, kind: str, arguments: dict[str, Any]) -> bytes:
    """The sheet under ``key``, made outside this thread once (companion/renderer.py)."""
    try:
        return _render(key, kind, arguments)
    except SheetsBusy:
        raise ServiceUnavailable(
            _("Many score sheets are being made right now. Try again in a moment."),
            retry_after=5,
        ) from None


def _render(key: str, kind: str, arguments: dict[str, Any]) -> bytes:
    return renderer.sheet(
        Path(current_app.instance_path) / SHEETS,
        key,
        kind,
        select_locale(),
        arguments,
        renderers=int(current_app.config.get("SHEET_RENDERERS", 1)),
    )


def _sheet(match: Match | None) -> Response:
    if match is None:
        abort(404)
    paper = _paper()
    lang = select_locale()
    created = match.created if isinstance(match.created, datetime) else None
    readonly_url = _view_url(match)
    # Everything the sheet shows is fixed by the match's revision, the language, the paper
    # and the address in its QR code: made once, then read from the instance folder.
    rules_url = _rules_url()
    key = f"match|{match.view_token}|{match.revision}|{lang}|{paper}|{readonly_url}|{rules_url}"
    arguments = {
        "doc": store.as_document(match),
        "result": store.result(match),  # with the dealers as played, kept by the store
        "paper": paper,
        "title": match.title,
        "created": created,
        "history": _history(match, translator()),
        "readonly_url": readonly_url,
        "rules_url": rules_url,
    }
    pdf = _made(key, "match", arguments)
    stem = _slug(match.title or "") or match.game
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
    # ASCII digits only: "²".isdigit() is True, and int() of 5,000 digits fails.
    if not WHOLE.fullmatch(raw) or not low <= int(raw) <= high:
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


def _game_id() -> str:
    raw = request.args.get("game", "").strip() or games()[0].id
    try:
        return get_game(raw).id
    except EntryError:
        abort(
            400,
            description=_("game must be one of %(games)s.", games=", ".join(g.id for g in games())),
        )


@bp.get("/sheets/blank.pdf")
def blank() -> Response:
    """A blank sheet of any game.

    ``?game=<id>`` (default the first game, Rummy 17), ``players`` (the game's seats),
    ``games`` (rounds, 1–24; default one per player, or 8 rows for a game played to a
    target), ``names=A,B,…`` (optional, seat order) and ``paper=a4|letter``.
    """
    game = get_game(_game_id())
    paper = _paper()
    low, high = game.seats
    count = _whole("players", low, high, None)
    rounds = _whole("games", 1, MAX_BLANK_GAMES, None)
    raw_names = request.args.get("names", "").strip()
    players: int | list[str] = count if count is not None else default_players(game.id)
    if raw_names:
        players = [n.strip() for n in raw_names.split(",")]
        if count is not None and count != len(players):
            abort(400, description=_("players and names do not agree."))
    rules_url = _rules_url()
    key = f"blank|{game.id}|{players!r}|{rounds}|{paper}|{select_locale()}|{rules_url}"
    arguments = {
        "players": players,
        "games": rounds,
        "paper": paper,
        "game": game.id,
        "rules_url": rules_url,
    }
    try:
        pdf = _made(key, "blank", arguments)
    except SheetRefused as err:
        abort(400, description=err.message)
    size = len(players) if isinstance(players, list) else players
    return _pdf(pdf, f"{game.id}-blank-{size}-players.pdf")
