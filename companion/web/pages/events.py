"""Club nights and tournaments (EV-1…EV-7): start an event, seat its sessions, the live
standings for every phone and for a projector, table cards, sheets and the standings as PDF
and CSV.

Views parse the request and hand a command to ``services.handlers.handle`` (the one way to
write); a table is an ordinary match with its own pages. The live standings ask the server for
a fresh fragment every few seconds (``static/js/event.js``) and get 304 while nothing changed,
so any server process can answer (the fragment's tag is the tables' revisions, from the
database).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    abort,
    copy_current_request_context,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.adapters import store
from companion.adapters.cache import LRU
from companion.adapters.db import get_session
from companion.adapters.models import Event
from companion.adapters.sheets.event import standings_sheet
from companion.adapters.store import events
from companion.domain import EntryError, all_games, get_game
from companion.domain.names import spelled
from companion.services import saving
from companion.services.commands import (
    AddEntrant,
    Command,
    CreateEvent,
    Redraw,
    SeatSession,
    WithdrawEntrant,
)
from companion.services.handlers import handle
from companion.web.language import gw, select_locale, translator
from companion.web.pages import sheets as sheet_views
from companion.web.pages.common import descriptor, qr_svg, sentence
from companion.web.ratelimit import creating
from companion.web.spreadsheet import csv_response

bp = Blueprint("events", __name__)

#: How often a live standings page asks for news (milliseconds).
POLL_MS = 3000
#: How long a read-only standings page, once drawn, is served as it is (seconds). With fifty
#: tables saving every few seconds the standings change many times a second; every phone and
#: the projector still see each save within POLL_MS + FRESH, and each process draws a page
#: at most once per FRESH (bench/event_load.py). Keys hold the event's random read-only token
#: and the language, so a cached page never shows another event or language.
FRESH = 2.0
PAGES: LRU[tuple[int, str, bytes]] = LRU(256)
_DRAWING: dict[tuple[Any, ...], threading.Lock] = {}
_GUARD = threading.Lock()


def _fresh(key: tuple[Any, ...], draw: Callable[[], tuple[str, str]]) -> tuple[str, bytes]:
    """(tag, page) drawn at most once per FRESH seconds per process for this key.

    When a window ends, the request that notices it starts one drawing in the background and,
    like every request meanwhile, gets the last page at once: no reader waits for a drawing
    but the very first. ``draw`` reads everything it needs itself (its own database session).
    """
    if FRESH <= 0:
        tag, page = draw()
        return tag, page.encode("utf-8")
    window = int(time.monotonic() // FRESH)
    found = PAGES.get(key)
    if found is not None and found[0] == window:
        return found[1], found[2]
    with _GUARD:
        lock = _DRAWING.setdefault(key, threading.Lock())
    if found is not None:
        if lock.acquire(blocking=False):  # one drawing at a time; the others serve the last
            worker = threading.Thread(
                target=copy_current_request_context(_redraw),
                args=(key, window, draw, lock),
                daemon=True,
            )
            worker.start()
        return found[1], found[2]
    with lock:  # the first page of this key: drawn here, once
        again = PAGES.get(key)
        if again is not None:
            return again[1], again[2]
        tag, page = draw()
        PAGES.put(key, (window, tag, page.encode("utf-8")))
        return tag, page.encode("utf-8")


def _redraw(
    key: tuple[Any, ...], window: int, draw: Callable[[], tuple[str, str]], lock: threading.Lock
) -> None:
    """Draw a page in the background (its own app context and session) and keep it."""
    try:
        tag, page = draw()
        PAGES.put(key, (window, tag, page.encode("utf-8")))
    finally:
        lock.release()


def _edit(token: str) -> Event:
    event = events.by_edit_token(get_session(), token)
    if event is None:
        abort(404, description=_("There is no event at this link."))
    return event


def _view(token: str) -> Event:
    event = events.by_view_token(get_session(), token)
    if event is None:
        abort(404, description=_("There is no event at this link."))
    return event


def _live(event: Event) -> dict[str, Any]:
    """What the live part of an event's pages shows: standings and the last session's tables."""
    session = get_session()
    rows = events.table_rows(session, event)
    return {
        "result": events.result(session, event, rows),
        "tables": events.table_states(session, rows),
    }


def _int(raw: str | None) -> int | None | str:
    """A whole number from a form field; None when empty; the text itself when not a number."""
    raw = (raw or "").strip()
    if not raw:
        return None
    return int(raw) if raw.isdigit() else raw


@bp.route("/events/new", methods=["GET", "POST"])
@creating
def new() -> str | Response:
    """Start an event: the game, the entrants (one per line), sessions, rounds, table size."""
    choices = [descriptor(g) for g in all_games()]
    typed: dict[str, Any] = {
        "game": request.values.get("game", choices[0].id),
        "title": request.form.get("title", ""),
        "entrants": request.form.get("entrants", ""),
        "sessions": request.form.get("sessions", "3"),
        "rounds": request.form.get("rounds", ""),
        "size": request.form.get("size", "4"),
        "seating": request.form.get("seating", "draw"),
    }
    problems: list[str] = []
    if request.method == "POST":
        names = [line.strip() for line in typed["entrants"].splitlines() if line.strip()]
        try:
            game = get_game(typed["game"])
            created = CreateEvent(
                game=game.id,
                entrants=names,
                sessions=_int(typed["sessions"]),
                rounds=_int(typed["rounds"]),
                size=_int(typed["size"]) or 4,
                seating=typed["seating"],
                title=typed["title"],
            )
            saved = handle(get_session(), created)
            assert isinstance(saved, saving.Done)  # no key: nothing to replay
            event = saved.value
        except EntryError as err:
            problems = [sentence(p.message(translator())) for p in err.problems]
        else:
            flash(_("The event is ready. Keep the organiser's link; share the standings link."))
            return redirect(url_for("events.organise", edit=event.edit_token))
    page = render_template("events/new.html", choices=choices, typed=typed, problems=problems)
    return make_response(page, 422 if problems else 200)


def _page_context(event: Event, editable: bool) -> dict[str, Any]:
    session = get_session()
    view_url = url_for("events.standings_page", view=event.view_token, _external=True)
    live = _live(event)
    seated = live["result"]["seated"]
    return {
        "event": event,
        "game": descriptor(get_game(event.game)),
        "editable": editable,
        **live,
        "seated_count": seated,
        "last_started": any(t["played"] for t in live["tables"]),
        "present": events.present(event),
        "view_url": view_url,
        "edit_url": url_for("events.organise", edit=event.edit_token, _external=True)
        if editable
        else None,
        "view_qr": qr_svg(view_url),
        "history": events.history(session, event, translator()),
        "poll_ms": POLL_MS,
        "live_url": url_for("events.live", view=event.view_token),
    }


@bp.get("/e/<edit>")
def organise(edit: str) -> str:
    """The organiser's page: seat the next session, re-draw, entrants, links, standings."""
    return render_template("events/event.html", **_page_context(_edit(edit), editable=True))


@bp.get("/ev/<view>")
def standings_page(view: str) -> Response:
    """The standings for everyone (read-only), updating by itself."""
    event = _view(view)

    def draw() -> tuple[str, str]:  # the event read again: it may run in another thread
        page = render_template("events/event.html", **_page_context(_view(view), editable=False))
        return "", page

    _, page = _fresh(("page", event.view_token, select_locale()), draw)
    return Response(page, mimetype="text/html")


@bp.get("/ev/<view>/screen")
def screen(view: str) -> str:
    """The standings for a projector or TV: large type, updating by itself."""
    event = _view(view)
    return render_template(
        "events/screen.html",
        event=event,
        game=descriptor(get_game(event.game)),
        **_live(event),
        poll_ms=POLL_MS,
        live_url=url_for("events.live", view=event.view_token, screen=1),
    )


@bp.get("/ev/<view>/live")
def live(view: str) -> Response:
    """The standings fragment the live pages swap in; 304 while nothing has changed."""
    event = _view(view)
    big = bool(request.args.get("screen"))

    def draw() -> tuple[str, str]:  # the event read again: it may run in another thread
        session = get_session()
        current = _view(view)
        rows = events.table_rows(session, current)
        fragment = render_template(
            "events/_live.html",
            event=current,
            game=descriptor(get_game(current.game)),
            result=events.result(session, current, rows),
            tables=events.table_states(session, rows),
            big=big,
        )
        return events.version(rows, current), fragment

    tag, fragment = _fresh(("live", event.view_token, select_locale(), big), draw)
    headers = {"ETag": f'"{tag}"', "Cache-Control": "no-cache"}
    if request.if_none_match.contains(tag):
        return Response(status=304, headers=headers)
    return Response(fragment, mimetype="text/html", headers=headers)


def _act(edit: str, command: Callable[[Event, int | None], Command], done: str) -> Response:
    """Handle one organiser's command on the revision the page showed; say why if refused."""
    event = _edit(edit)
    revision = _int(request.form.get("revision"))
    try:
        handle(get_session(), command(event, revision if isinstance(revision, int) else None))
    except store.ConflictError:  # a stale revision, or a race lost (store.claiming)
        flash(_("Someone else changed this event meanwhile; nothing was changed. Look again."))
    except EntryError as err:
        for problem in err.problems:
            flash(sentence(problem.message(translator())))
    else:
        flash(done)
    return redirect(url_for("events.organise", edit=edit))


@bp.post("/e/<edit>/seat")
def seat(edit: str) -> Response | tuple[str, int]:
    """Seat the next session (EV-2, EV-3): with one tap once every table of this one is
    finished; while a table still has rounds to enter (its result provisional, EV-4), the
    organiser is asked first, the tables named, and "anyway" seats it."""
    event = _edit(edit)
    if not request.form.get("anyway"):
        context = _page_context(event, editable=True)
        playing = [t for t in context["tables"] if not t["finished"]]
        if playing and context["seated_count"] < event.sessions:
            revision = _int(request.form.get("revision"))
            if revision == event.revision:  # a stale page is told so by the seating itself
                html = render_template("events/event.html", **context, playing=playing)
                return html, 409
    return _act(
        edit,
        lambda e, r: SeatSession(event=e, revision=r),
        _("The session is seated: each table has its link."),
    )


@bp.post("/e/<edit>/redraw")
def redraw(edit: str) -> Response:
    """Draw the last session again, before any table has saved a round (EV-3)."""
    return _act(
        edit,
        lambda e, r: Redraw(event=e, revision=r),
        _("Drawn again. The old table links now point here."),
    )


@bp.post("/e/<edit>/entrants")
def join(edit: str) -> Response:
    """A late arrival joins from the next session on (EV-1)."""
    name = request.form.get("name", "")
    return _act(
        edit,
        lambda e, r: AddEntrant(event=e, name=name, revision=r),
        _("%(name)s takes part from the next session.", name=spelled(name)),
    )


@bp.post("/e/<edit>/withdraw")
def withdraw(edit: str) -> Response:
    """An entrant leaves before the next session (EV-1); their results stay."""
    name = request.form.get("name", "")
    return _act(
        edit,
        lambda e, r: WithdrawEntrant(event=e, name=name, revision=r),
        _("%(name)s sits out the next sessions.", name=name.strip()),
    )


# --- the event on paper and in a spreadsheet ------------------------------------------------


def _standings_rows(event: Event) -> tuple[list[str], list[list[object]]]:
    result = events.result(get_session(), event)
    head = [_("Rank"), _("Name"), _("Sum of session percentages")]  # EV-6
    head += [_("Session %(n)s", n=n) for n in range(1, result["seated"] + 1)]
    head += [_("Total points"), gw(event.game, "Rounds won"), _("Missed"), _("Provisional")]
    rows: list[list[object]] = []
    for line in result["standings"]:
        row: list[object] = [line["rank"], line["name"], line["score"]]
        row += ["" if s is None else s for s in line["sessions"]]
        row += [line["totals"], line["rounds_won"], line["missed"]]
        row += [_("yes") if line["provisional"] else ""]
        rows.append(row)
    return head, rows


@bp.get("/ev/<view>/standings.csv")
def standings_csv(view: str) -> Response:
    """The standings as a spreadsheet (EV-6)."""
    event = _view(view)
    head, rows = _standings_rows(event)
    return csv_response([head, *rows], event.title or _("Standings"), "standings")


def _pdf(data: bytes, name: str) -> Response:
    response = make_response(data)
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


@bp.get("/ev/<view>/standings.pdf")
def standings_pdf(view: str) -> Response:
    """The standings on paper (EV-6), final once the event is finished (EV-7)."""
    event = _view(view)
    head, rows = _standings_rows(event)
    result = events.result(get_session(), event)
    game = get_game(event.game)
    data = standings_sheet(
        title=event.title or _(game.name),
        game_name=_(game.name),
        head=head,
        rows=rows,
        finished=result["finished"],
        tr=translator(),
        paper=request.args.get("paper", "a4"),
        game=game.id,
    )
    return _pdf(data, "standings")


def _session_number(event: Event) -> int:
    seated = events.sessions_of(event)
    if not seated:
        abort(404, description=_("No session is seated yet."))
    raw = _int(request.args.get("session"))
    number = raw if isinstance(raw, int) else len(seated)
    if not 1 <= number <= len(seated):
        abort(404, description=_("There is no such session."))
    return number


@bp.get("/e/<edit>/cards.pdf")
def cards_pdf(edit: str) -> Response:
    """One card per table of a session: seats in order, who deals first, a QR of its link."""
    event = _edit(edit)
    number = _session_number(event)
    game = get_game(event.game)
    cards = []
    for table in events.sessions_of(event)[number - 1]:
        assert table.match is not None
        players = list(table.match.players)
        first = game.first_seat_of(players, table.match.first_dealer)
        url = url_for("pages.scoreboard", edit=table.match.edit_token, _external=True)
        cards.append({"number": table.number, "players": players, "first": first, "url": url})
    return sheet_views.cards_pdf(
        title=event.title or _(game.name), game=descriptor(game), session=number, cards=cards
    )


@bp.get("/e/<edit>/sheets.pdf")
def sheets_pdf(edit: str) -> Response:
    """Every table's filled score sheet of a session, in one PDF."""
    event = _edit(edit)
    number = _session_number(event)
    matches = [t.match for t in events.sessions_of(event)[number - 1] if t.match is not None]
    return sheet_views.tables_pdf(event.edit_token, number, matches)
