"""Score sheets over the web: a match's filled sheet from either link, blank sheets, and an
event session's sheets and table cards (the views are in web/events.py).

Sheets are made by the render queue (companion/adapters/render_queue.py): outside the
request threads, at most a few at a time, and kept per match revision, language and paper so
a second download costs nothing. A saved round's sheet is queued ahead in the language of the
request that saved it, on A4 (``SHEETS_AHEAD``; on under ``companion serve``), so the download
finds it ready.
"""

from __future__ import annotations

import io
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import Any, TypeVar

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    has_request_context,
    request,
    send_file,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.exceptions import ServiceUnavailable
from werkzeug.routing import BuildError

from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.models import Match
from companion.adapters.render_queue import (
    Parts,
    SheetRefused,
    SheetsBusy,
    queue_for,
    queued,
    renderers,
)
from companion.adapters.sheets import MAX_BLANK_GAMES, PAPERS, default_players
from companion.adapters.store.matches import SAVED
from companion.domain import Description, EntryError, Translator, all_games, get_game
from companion.web.language import select_locale, translator

bp = Blueprint("sheets", __name__)

WHOLE = re.compile(r"[0-9]{1,9}")

T = TypeVar("T")


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


def _app() -> Flask:
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return app


def _made(key: str, kind: str, arguments: dict[str, Any]) -> bytes:
    """The sheet under ``key``, made once by the render queue."""
    return _document(key, [(kind, arguments)])


def _document(key: str, parts: Parts | Callable[[], Parts]) -> bytes:
    """The PDF under ``key``, made of ``parts`` by the render queue's workers at once."""
    try:
        return queue_for(_app()).document(key, select_locale(), parts)
    except SheetsBusy:
        raise ServiceUnavailable(
            _("Many score sheets are being made right now. Try again in a moment."),
            retry_after=5,
        ) from None


def _match_key(
    match: Match, lang: str, paper: str, readonly_url: str, rules_url: str | None
) -> str:
    """Everything a match's sheet shows is fixed by the match's revision, the language, the
    paper and the addresses on it: made once, then read from the instance folder."""
    return f"match|{match.view_token}|{match.revision}|{lang}|{paper}|{readonly_url}|{rules_url}"


def _match_parts(
    match: Match, paper: str, readonly_url: str, rules_url: str | None, tr: Translator
) -> Parts:
    created = match.created if isinstance(match.created, datetime) else None
    arguments = {
        "doc": store.as_document(match),
        "result": store.result(match),  # with the dealers as played, kept by the store
        "paper": paper,
        "title": match.title,
        "created": created,
        "history": _history(match, tr),
        "readonly_url": readonly_url,
        "rules_url": rules_url,
    }
    return [("match", arguments)]


def _sheet(match: Match | None) -> Response:
    if match is None:
        abort(404)
    paper = _paper()
    readonly_url = _view_url(match)
    rules_url = _rules_url()
    key = _match_key(match, select_locale(), paper, readonly_url, rules_url)
    tr = translator()
    pdf = _document(key, lambda: _match_parts(match, paper, readonly_url, rules_url, tr))
    stem = _slug(match.title or "") or match.game
    created = match.created if isinstance(match.created, datetime) else None
    day = created.strftime("%Y-%m-%d") if created else "match"
    return _pdf(pdf, f"{stem}-{day}-sheet.pdf")


def _ahead_on(app: Flask) -> bool:
    """Sheets are made ahead where ``companion serve`` started the render process, unless
    ``SHEETS_AHEAD`` says otherwise (tests, in-process benchmarks: off unless asked)."""
    return bool(app.config.get("SHEETS_AHEAD", queued(app))) and renderers(app) > 0


def _saved(match: Match) -> None:
    """A round was saved (store.SAVED): queue the new revision's sheet now, behind the
    downloads, as the download that usually follows asks for it: in the saving request's
    language, on A4, with this host's addresses. A download before it is done waits for it."""
    if not has_request_context() or not _ahead_on(current_app):
        return
    lang, paper = select_locale(), "a4"
    readonly_url, rules_url = _view_url(match), _rules_url()
    key = _match_key(match, lang, paper, readonly_url, rules_url)
    tr = translator()
    queue_for(_app()).ahead(
        key, lang, lambda: _match_parts(match, paper, readonly_url, rules_url, tr)
    )


SAVED.append(_saved)


def _chunks(items: Sequence[T], count: int) -> list[list[T]]:
    """``items`` in ``count`` runs of nearly equal length, in order (at least one run)."""
    count = max(1, min(count, len(items)))
    size, extra = divmod(len(items), count)
    runs, start = [], 0
    for n in range(count):
        end = start + size + (1 if n < extra else 0)
        runs.append(list(items[start:end]))
        start = end
    return runs


def _refused(make: Callable[[], bytes]) -> bytes:
    try:
        return make()
    except SheetRefused as err:
        abort(400, description=err.message)


def tables_pdf(event_token: str, session: int, matches: Sequence[Match]) -> Response:
    """A session's filled sheets, a table's after the other, each with its own page numbers:
    drawn in runs by the render queue's workers at once and merged, kept per revision of
    every table's match, language, paper and day (the sheets are dated)."""
    paper = _paper()
    tables = ",".join(f"{m.view_token}:{m.revision}" for m in matches)
    key = f"tables|{event_token}|{session}|{select_locale()}|{paper}|{date.today()}|{tables}"
    runs = max(1, renderers(_app())) * 2  # two runs a renderer: one slower renderer holds less up

    def parts() -> Parts:
        pairs = [(store.as_document(m), store.result(m)) for m in matches]
        return [("tables", {"matches": run, "paper": paper}) for run in _chunks(pairs, runs)]

    return _pdf(_refused(lambda: _document(key, parts)), f"sheets-{session}.pdf")


def cards_pdf(
    *, title: str, game: Description, session: int, cards: list[dict[str, Any]]
) -> Response:
    """A session's table cards, kept by everything they show (language and paper too)."""
    paper = _paper()
    arguments = {"title": title, "game": game, "session": session, "cards": cards, "paper": paper}
    shown = json.dumps([title, game.id, game.name, session, cards], ensure_ascii=False)
    key = f"cards|{select_locale()}|{paper}|{shown}"
    return _pdf(_refused(lambda: _made(key, "cards", arguments)), f"tables-{session}.pdf")


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
    raw = request.args.get("game", "").strip() or all_games()[0].id
    try:
        return get_game(raw).id
    except EntryError:
        abort(
            400,
            description=_(
                "game must be one of %(games)s.", games=", ".join(g.id for g in all_games())
            ),
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
