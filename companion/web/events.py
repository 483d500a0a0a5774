"""Club nights and tournaments (EV-1…EV-7): start an event, seat its sessions, the live
standings for every phone and for a projector, table cards, sheets and the standings as PDF
and CSV.

Views parse the request and call ``companion.events`` (the one place that writes an event);
a table is an ordinary match with its own pages. The live standings ask the server for a
fresh fragment every few seconds (``static/js/event.js``) and get 304 while nothing changed,
so any server process can answer (the fragment's tag is the tables' revisions, from the
database).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion import events, store
from companion.db import get_session
from companion.i18n import translator
from companion.models import Event
from companion.rules import EntryError, games, get_game
from companion.web.common import descriptor, qr_svg, sentence

bp = Blueprint("events", __name__)

#: How often a live standings page asks for news (milliseconds).
POLL_MS = 3000


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


def _tables(event: Event) -> list[dict[str, Any]]:
    seated = events.sessions_of(event)
    return events.table_states(seated[-1]) if seated else []


def _int(raw: str | None) -> int | None | str:
    """A whole number from a form field; None when empty; the text itself when not a number."""
    raw = (raw or "").strip()
    if not raw:
        return None
    return int(raw) if raw.isdigit() else raw


@bp.route("/events/new", methods=["GET", "POST"])
def new() -> str | Response:
    """Start an event: the game, the entrants (one per line), sessions, rounds, table size."""
    choices = [descriptor(g) for g in games()]
    typed: dict[str, Any] = {
        "game": request.values.get("game", choices[0]["id"]),
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
            event = events.create_event(
                get_session(),
                game=game.id,
                entrants=names,
                sessions=_int(typed["sessions"]),
                rounds=_int(typed["rounds"]),
                size=_int(typed["size"]) or 4,
                seating=typed["seating"],
                title=typed["title"],
            )
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
    seated = events.sessions_of(event)
    return {
        "event": event,
        "game": descriptor(get_game(event.game)),
        "editable": editable,
        "result": events.result(session, event),
        "seated": seated,
        "tables": events.table_states(seated[-1]) if seated else [],
        "last_started": bool(seated) and events.started(seated[-1]),
        "present": events.present(event),
        "view_url": view_url,
        "edit_url": url_for("events.organise", edit=event.edit_token, _external=True)
        if editable
        else None,
        "view_qr": qr_svg(view_url),
        "history": events.history(event, translator()),
        "poll_ms": POLL_MS,
        "live_url": url_for("events.live", view=event.view_token),
    }


@bp.get("/e/<edit>")
def organise(edit: str) -> str:
    """The organiser's page: seat the next session, re-draw, entrants, links, standings."""
    return render_template("events/event.html", **_page_context(_edit(edit), editable=True))


@bp.get("/ev/<view>")
def standings_page(view: str) -> str:
    """The standings for everyone (read-only), updating by itself."""
    return render_template("events/event.html", **_page_context(_view(view), editable=False))


@bp.get("/ev/<view>/screen")
def screen(view: str) -> str:
    """The standings for a projector or TV: large type, updating by itself."""
    event = _view(view)
    return render_template(
        "events/screen.html",
        event=event,
        game=descriptor(get_game(event.game)),
        result=events.result(get_session(), event),
        tables=_tables(event),
        poll_ms=POLL_MS,
        live_url=url_for("events.live", view=event.view_token, screen=1),
    )


@bp.get("/ev/<view>/live")
def live(view: str) -> Response:
    """The standings fragment the live pages swap in; 304 while nothing has changed."""
    event = _view(view)
    tag = events.version(get_session(), event)
    if request.if_none_match.contains(tag):
        return Response(status=304, headers={"ETag": f'"{tag}"', "Cache-Control": "no-cache"})
    fragment = render_template(
        "events/_live.html",
        event=event,
        game=descriptor(get_game(event.game)),
        result=events.result(get_session(), event),
        tables=_tables(event),
        big=bool(request.args.get("screen")),
    )
    response = make_response(fragment)
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _act(edit: str, action: Any, done: str) -> Response:
    """Run one organiser's action on the revision the page showed; say why if refused."""
    event = _edit(edit)
    revision = _int(request.form.get("revision"))
    try:
        action(get_session(), event, revision if isinstance(revision, int) else None)
    except store.StaleRevision:
        flash(_("Someone else changed this event meanwhile; nothing was changed. Look again."))
    except EntryError as err:
        for problem in err.problems:
            flash(sentence(problem.message(translator())))
    else:
        flash(done)
    return redirect(url_for("events.organise", edit=edit))


@bp.post("/e/<edit>/seat")
def seat(edit: str) -> Response:
    """Seat the next session with one tap (EV-2, EV-3)."""
    return _act(edit, events.seat_next, _("The session is seated: each table has its link."))


@bp.post("/e/<edit>/redraw")
def redraw(edit: str) -> Response:
    """Draw the last session again, before any table has saved a round (EV-3)."""
    return _act(edit, events.redraw, _("Drawn again. The old table links now point here."))


@bp.post("/e/<edit>/entrants")
def join(edit: str) -> Response:
    """A late arrival joins from the next session on (EV-1)."""
    name = request.form.get("name", "")
    return _act(
        edit,
        lambda s, e, r: events.add_entrant(s, e, name, r),
        _("%(name)s takes part from the next session.", name=name.strip()),
    )


@bp.post("/e/<edit>/withdraw")
def withdraw(edit: str) -> Response:
    """An entrant leaves before the next session (EV-1); their results stay."""
    name = request.form.get("name", "")
    return _act(
        edit,
        lambda s, e, r: events.withdraw(s, e, name, r),
        _("%(name)s sits out the next sessions.", name=name.strip()),
    )


# --- the event on paper and in a spreadsheet ------------------------------------------------


def _standings_rows(event: Event) -> tuple[list[str], list[list[object]]]:
    result = events.result(get_session(), event)
    head = [_("Rank"), _("Name"), _("Score, per cent")]
    head += [_("Session %(n)s", n=n) for n in range(1, result["seated"] + 1)]
    head += [_("Total points"), _("Rounds won"), _("Missed"), _("Provisional")]
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
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(head)
    writer.writerows(rows)
    data = io.BytesIO(out.getvalue().encode("utf-8-sig"))
    name = (event.title or _("Standings")).replace("/", "-")
    return send_file(data, mimetype="text/csv", as_attachment=True, download_name=f"{name}.csv")


def _pdf(data: bytes, name: str) -> Response:
    response = make_response(data)
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


@bp.get("/ev/<view>/standings.pdf")
def standings_pdf(view: str) -> Response:
    """The standings on paper (EV-6), final once the event is finished (EV-7)."""
    from companion.sheets.event import standings_sheet

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
    from companion.sheets.event import table_cards

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
    data = table_cards(
        title=event.title or _(game.name),
        game=descriptor(game),
        session=number,
        cards=cards,
        tr=translator(),
        paper=request.args.get("paper", "a4"),
    )
    return _pdf(data, f"tables-{number}")


@bp.get("/e/<edit>/sheets.pdf")
def sheets_pdf(edit: str) -> Response:
    """Every table's filled score sheet of a session, in one PDF."""
    from companion.sheets.filled import match_sheets

    event = _edit(edit)
    number = _session_number(event)
    matches = [t.match for t in events.sessions_of(event)[number - 1] if t.match is not None]
    data = match_sheets(
        [(store.as_document(m), store.result(m)) for m in matches],
        paper=request.args.get("paper", "a4"),
        tr=translator(),
    )
    return _pdf(data, f"sheets-{number}")
