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
values: the form reads them as it reads what was typed). A card the parts that came give
twice is flagged at the later one, on the seat and on that player's phone (the game's
``check_parts``). A part the scorekeeper changes is sent back (``/m/<edit>/parts/<seat>``)
and kept beside the player's (``store.keep_part``): the player's page asks
``/p/<token>/news.json`` every 1.5 s and shows the scorekeeper's version. "Stop: enter every
part here" fills in what came and was not in the form yet, and says whose parts never came;
a player's page then keeps what was typed and says the scorekeeper is entering it.
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    get_template_attribute,
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
from companion.domain.documents import PartBody, parse
from companion.domain.errors import Problem
from companion.services.commands import KeepPart, SendPart
from companion.services.handlers import handle
from companion.web.language import translator
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
    sentence,
    summary,
)
from companion.web.pages.forms import RoundForm, round_form_class

bp = Blueprint("parts", __name__)

#: How often the scorekeeper's form and a player's page ask for news (ms; parts.js, part.js).
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
    flags = _flags(rows, match)
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
                "flags": flags.get(row.name, []),
                "keep": url_for("parts.keep", edit=match.edit_token, seat=row.seat),
            }
        )
    return {"round": store.next_number(match), "seats": seats, "news": _news(match)}


def _status(row: Part) -> str:
    return str(_("Sent ✓") if row.part is not None else _("Waiting for their phone…"))


def _flags(rows: list[Part], match: Match) -> dict[str, list[str]]:
    """What the parts that came already tell of the whole round (a card in two players'
    parts), in words, by the player whose part came later: it names the other."""
    found = store.clashes(rows, match)
    return {name: [_said(p) for p in problems] for name, problems in found.items()}


def _said(problem: Problem) -> str:
    return sentence(problem.message(translator()))


def _news(match: Match) -> str:
    return str(url_for("parts.news", edit=match.edit_token))


def _sent_doc(rows: list[Part], kept: bool = False) -> dict[str, Any]:
    """The parts that came, as a round document's players (for ``RoundForm.fill``): as the
    players sent them, or (``kept``) as the scorekeeper has them."""
    players = []
    for r in rows:
        entry = store.kept(r) if kept else r.part
        if entry is not None:
            players.append({"name": r.name, **entry})
    return {"players": players}


def fill_sent(form: RoundForm, match: Match) -> frozenset[int]:
    """A new round's form, loaded while parts are open: the parts that came, filled in as the
    scorekeeper has them; the seats filled as their players sent them."""
    rows = store.open_of(get_session(), match)
    if any(r.part is not None for r in rows):
        form.fill(_sent_doc(rows, kept=True))
    return frozenset(r.seat for r in rows if r.part is not None and r.saved is None)


def fill_dropped(form: RoundForm, rows: list[Part]) -> dict[str, Any]:
    """ "Stop: enter every part here": the parts that came are filled into the seats the form
    has nothing of yet (one that came after the form last asked); a seat already typed keeps
    what is typed, and the part its phone sent is offered beside it. What the form says: whose
    parts never came (``unsent``), which were filled in now (``filled``), and per seat the
    part offered (``offers``: the field values, for parts.js)."""
    unsent = [r.name for r in rows if r.part is None]
    filled: list[str] = []
    offers: dict[int, dict[str, str]] = {}
    came = [r for r in rows if r.part is not None]
    game_id = form.descriptor.id
    sent = round_form_class(game_id)(names=form.names, formdata=None)
    sent.fill(_sent_doc(came, kept=True))
    for r in came:
        here = form.players[r.seat].form
        theirs = {f.id: _value(f.data) for f in sent.players[r.seat].form}
        typed = {f.id: _value(f.raw_data[0] if f.raw_data else f.data) for f in here}
        if not any(v.strip() for v in typed.values()):
            for f in here:
                f.data = sent.players[r.seat].form[f.short_name].data
                f.raw_data = None
            filled.append(r.name)
        elif any(_same(typed[k]) != _same(v) for k, v in theirs.items()):
            offers[r.seat] = theirs
    offered = [r.name for r in came if r.seat in offers]
    return {"unsent": unsent, "filled": filled, "offers": offers, "offered": offered}


def _same(value: str) -> list[str]:
    """A field's value as compared: its lines, each with single spaces, in capitals."""
    return [" ".join(line.split()).upper() for line in value.splitlines() if line.strip()]


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
    flags = _flags(rows, match)
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
                "flags": flags.get(row.name, []),
            }
        )
    return jsonify(open=True, round=store.next_number(match), seats=seats)


@bp.post("/m/<edit>/parts/<int:seat>")
def keep(edit: str, seat: int) -> tuple[Response, int]:
    """The scorekeeper changed a part that came (parts.js sends that seat's fields, named as
    on the player's own page): kept beside the player's, so their phone shows it. 422 with
    the problems while it is no part yet (the form shows them by itself); 410 once closed."""
    match = by_edit(edit)
    row = next((r for r in store.open_of(get_session(), match) if r.seat == seat), None)
    if row is None:
        return jsonify(open=False), 410
    form = round_form_class(match.game)(names=[row.name])
    form.validate()
    placed = merge(form.fields_with_errors(), cards_and_counts(form))
    if not placed:
        entry = form.round_document()["players"][0]
        try:
            body = {k: v for k, v in entry.items() if k != "name"}
            handle(get_session(), KeepPart(part=row, body=body))
        except store.PartClosed:
            return jsonify(open=False), 410
        except EntryError as err:
            placed = place(err.at(player=row.name, context=match.game).problems, form)
    if placed:
        return jsonify(errors=placed), 422
    return jsonify(kept=row.saved is not None), 200


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
            typed = parse(PartBody, sent)  # the API's limits, once
            handle(get_session(), SendPart(part=part, body=typed, device=device() or None))
        except store.PartClosed:
            return _closed(part, match, tried=sent)
        except EntryError as err:
            err.at(player=part.name, context=game.id)
            placed = place(err.problems, form)
        else:
            flash(_("Sent: your part is on the scorekeeper's phone."))
            return redirect(url_for("parts.page", token=token))
    kept = store.kept(part)  # what the scorekeeper has: their change, or what was sent
    if request.method == "GET" and kept is not None:
        form.fill({"players": [{"name": part.name, **kept}]})
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
        draft=_draft(token),
        holding_example=example_cards(desc, 3, 12),
        meld_example=example_run(desc),
        news=url_for("parts.own_news", token=token),
        every=EVERY_MS,
        changed=part.saved if part.part is not None else None,
        flags=_flags(store.open_of(get_session(), match), match).get(part.name, []),
    )
    response = make_response(html, 422 if placed else 200)
    if not device():  # so the history can tell two phones sending one part apart
        remember_device(response, store.new_token())
    return response


def _draft(token: str) -> str:
    """Where a player's page keeps what is typed on the phone (static/js/drafts.js)."""
    return f"companion:part:{token[:12]}"


@bp.get("/p/<token>/news.json")
def own_news(token: str) -> tuple[Response, int]:
    """What a player's page asks every 1.5 s (part.js): whether the round is still open
    (``state``: "open", "saved" or "dropped": the scorekeeper enters it), the part as the
    scorekeeper has it as field values (``kept``: they changed it; ``shown``: in words), and
    what the parts that came tell of it (``flags``: a card also in an earlier part). 410 once
    closed, as the part's token."""
    part, match = _part(token)
    if part.state != "open":
        return jsonify(state=part.state), 410
    game = game_of(match)
    entry = store.kept(part)
    fields: dict[str, str] = {}
    shown = ""
    if entry is not None:
        form = round_form_class(game.id)(names=[part.name], formdata=None)
        form.fill({"players": [{"name": part.name, **entry}]})
        fields = {f.id: _value(f.data) for f in form.players[0].form}
    changed = part.part is not None and part.saved is not None
    if changed:
        shown = str(get_template_attribute("_part_shown.html", "shown")(entry, descriptor(game)))
    flags = _flags(store.open_of(get_session(), match), match).get(part.name, [])
    return jsonify(state="open", kept=changed, fields=fields, shown=shown, flags=flags), 200


def _closed(part: Part, match: Match, tried: dict[str, Any] | None = None) -> tuple[str, int]:
    """The round was saved (with what was saved and, when the player sent a part or tries to
    now, whether the scorekeeper saved it otherwise), or the scorekeeper enters it (with what
    this phone tried to send, or kept as typed: nothing typed is lost): in words, 410.
    ``tried``: the part this request brought (it waited, say, in the outbox)."""
    game = game_of(match)
    desc = descriptor(game)
    sent = tried if tried is not None else part.part
    labels = {f"players-0-{c.key}": c.label for c in desc.counts}
    labels["players-0-" + desc.holding] = str(
        _("Cards left in hand") if desc.holding == "hand" else _("Tiles left on the rack")
    )
    if desc.melds:
        labels["players-0-melds"] = str(_("Melds in front"))
    html = render_template(
        "part_closed.html",
        match=match,
        part=part,
        game=desc,
        sent=sent,
        tried=tried,
        changed=store.changed_by_keeper(part, sent),
        number=part.number,
        draft=_draft(part.token),
        labels=labels,
    )
    return html, 410
