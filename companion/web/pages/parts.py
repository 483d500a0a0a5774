"""Own hands on the phones: a player's own page, and what the scorekeeper's form shows of it.

A player's page (``/p/<token>``) is the round form cut down to one player: their name in large
type, their melds and hand (Rummy 17) or their rack or hand (the others), the walking picker
for them alone, and one button that sends the part. It is sent as a form post, so a part typed
without a connection waits in the outbox like a round (static/js/offline.js). The part token
reaches that part only, while its round is open; afterwards the page says the round was saved
(and shows what the scorekeeper changed) or that the scorekeeper enters it.

The scorekeeper's round form opens the parts ("Everyone enters their own", rounds.py), shows
one QR code and link per seat, and asks ``/m/<edit>/parts.json`` every 1.5 s which parts
came; static/js/parts.js fills them into the form's own fields (the server writes the field
values: the form reads them as it reads what was typed).
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.models import Match, Part
from companion.domain import EntryError
from companion.web.api import models as api_models
from companion.web.pages.common import (
    by_edit,
    cards_and_counts,
    descriptor,
    device,
    example_cards,
    example_run,
    game_of,
    merge,
    place,
    qr_svg,
    remember_device,
    summary,
)
from companion.web.pages.forms import RoundForm, round_form_class

bp = Blueprint("parts", __name__)

#: How often the scorekeeper's form and a player's page ask for news (ms; parts.js).
EVERY_MS = 1500


# --- The scorekeeper's side ------------------------------------------------------------------


def panel(match: Match, filled: frozenset[int] = frozenset()) -> dict[str, Any] | None:
    """The open parts as the round form shows them: per seat the name, the link and its QR
    code, whether the part came, and whether the form was filled in from it (``filled``: the
    seats ``fill_sent`` filled; parts.js then takes them for the part's, not typed by hand).
    None: no parts are open."""
    rows = store.open_of(get_session(), match)
    if not rows:
        return None
    seats = []
    for row in rows:
        url = url_for("parts.page", token=row.token, _external=True)
        seats.append(
            {
                "name": row.name,
                "seat": row.seat,
                "url": url,
                "qr": qr_svg(url),
                "sent": row.part is not None,
                "filled": row.seat in filled,
                "status": _status(row),
            }
        )
    return {"round": store.next_number(match), "seats": seats, "news": _news(match)}


def _status(row: Part) -> str:
    return str(_("Sent ✓") if row.part is not None else _("Waiting for their phone…"))


def _news(match: Match) -> str:
    return str(url_for("parts.news", edit=match.edit_token))


def _sent_doc(rows: list[Part]) -> dict[str, Any]:
    """The parts that came, as a round document's players (for ``RoundForm.fill``)."""
    return {"players": [{"name": r.name, **r.part} for r in rows if r.part is not None]}


def fill_sent(form: RoundForm, match: Match) -> frozenset[int]:
    """A new round's form, loaded while parts are open: the parts that came, filled in; the
    seats filled."""
    rows = store.open_of(get_session(), match)
    if any(r.part is not None for r in rows):
        form.fill(_sent_doc(rows))
    return frozenset(r.seat for r in rows if r.part is not None)


@bp.get("/m/<edit>/parts.json")
def news(edit: str) -> Response:
    """Which parts came, and the round form's field values for each (parts.js fills them in)."""
    match = by_edit(edit)
    rows = store.open_of(get_session(), match)
    if not rows:
        return jsonify(open=False)
    game = game_of(match)
    form = round_form_class(game.id)(names=list(match.players), formdata=None)
    form.fill(_sent_doc(rows))
    seats = []
    for row in rows:
        entry = form.players[row.seat].form
        fields = {} if row.part is None else {f.id: _value(f.data) for f in entry}
        seats.append(
            {
                "seat": row.seat,
                "sent": row.updated.isoformat() if row.part is not None else None,
                "status": _status(row),
                "fields": fields,
            }
        )
    return jsonify(open=True, round=store.next_number(match), seats=seats)


def _value(data: object) -> str:
    return "" if data is None else str(data)


# --- The player's own page -------------------------------------------------------------------


def _part(token: str) -> tuple[Part, Match]:
    session = get_session()
    part = store.part_by_token(session, token)
    match = session.get(Match, part.match_id) if part is not None else None
    if part is None or match is None:
        abort(404, description=_("There is no part at this link."))
    return part, match


@bp.route("/p/<token>", methods=["GET", "POST"])
def page(token: str) -> Response | tuple[str, int]:
    """One player's part of the open round: their melds and hand (or rack), sent from here."""
    part, match = _part(token)
    game = game_of(match)
    form = round_form_class(game.id)(names=[part.name])
    placed: dict[str, list[str]] = {}
    sent: dict[str, Any] | None = None
    if request.method == "POST":
        form.validate()
        placed = merge(form.fields_with_errors(), cards_and_counts(form))
        if not placed:
            entry = form.round_document()["players"][0]
            sent = {k: v for k, v in entry.items() if k != "name"}
    if part.state != "open":  # what this post brings waited, say, in the outbox meanwhile
        return _closed(part, match, tried=sent)
    if sent is not None:
        try:
            api_models.check(api_models.PartBody, sent)
            store.put_part(get_session(), part, sent, device=device() or None)
        except store.PartClosed:
            return _closed(part, match, tried=sent)
        except EntryError as err:
            err.at(player=part.name, context=game.id)
            placed = place(err.problems, form)
        else:
            flash(_("Sent: your part is on the scorekeeper's phone."))
            return redirect(url_for("parts.page", token=token))
    if request.method == "GET" and part.part is not None:
        form.fill({"players": [{"name": part.name, **part.part}]})
    desc = descriptor(game)
    html = render_template(
        "part.html",
        match=match,
        part=part,
        number=store.next_number(match),
        form=form,
        game=desc,
        name=part.name,
        placed=placed,
        asked={},
        problems=summary(placed, [part.name]),
        draft=f"companion:part:{token[:12]}",
        holding_example=example_cards(desc, 3, 12),
        meld_example=example_run(desc),
        news=url_for("api.read_part", token=token),
        every=EVERY_MS,
    )
    response = make_response(html, 422 if placed else 200)
    if not device():  # so the history can tell two phones sending one part apart
        remember_device(response, store.new_token())
    return response


def _closed(part: Part, match: Match, tried: dict[str, Any] | None = None) -> tuple[str, int]:
    """The round was saved (with what was saved and, when the player sent a part or tries to
    now, whether the scorekeeper saved it otherwise), or the scorekeeper enters it: in words,
    410. ``tried``: the part this request brought (it waited, say, in the outbox)."""
    game = game_of(match)
    sent = tried if tried is not None else part.part
    html = render_template(
        "part_closed.html",
        match=match,
        part=part,
        game=descriptor(game),
        sent=sent,
        changed=store.changed_by_keeper(part, sent),
        number=part.number,
    )
    return html, 410
