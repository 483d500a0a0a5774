"""One round of a match: enter it, correct it, delete it, and its breakdown.

The round form is the game's (``forms.round_form_class``); the page draws it from the game's
descriptor. A save names the revision the form was loaded at: on an older one nothing is
saved, and the form comes back with everything typed and what someone else changed.
``static/js/preview.js`` posts the same form for a preview or the RUMMY 17 notice and gets
JSON back: the same checks and the same placement of problems as without JavaScript.
"""

from __future__ import annotations

import random
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion import api_models, store
from companion.db import get_session
from companion.forms import NOBODY, ConfirmForm, RoundForm, round_form_class
from companion.i18n import translator
from companion.models import Match
from companion.rules import EntryError, get_game, localize
from companion.web.common import (
    board_url,
    by_edit,
    by_view,
    changed_since,
    descriptor,
    draft_key,
    example_cards,
    example_run,
    game_of,
    links,
    merge,
    place,
    summary,
)

bp = Blueprint("rounds", __name__)


def _round_info(match: Match, number: int) -> dict[str, Any]:
    rounds: list[dict[str, Any]] = store.result(match)["rounds"]
    if not 1 <= number <= len(rounds):
        abort(404, description=_("This match has no round %(n)s.", n=number))
    return rounds[number - 1]


# --- The breakdown ---------------------------------------------------------------------------


@bp.get("/m/<edit>/rounds/<int:number>")
def show(edit: str, number: int) -> str:
    """One round explained: every player's figures, how it ended, the rules that applied."""
    return _breakdown(by_edit(edit), number, editable=True)


@bp.get("/v/<view>/rounds/<int:number>")
def view(view: str, number: int) -> str:
    """The same breakdown through the read-only link."""
    return _breakdown(by_view(view), number, editable=False)


def _breakdown(match: Match, number: int, *, editable: bool) -> str:
    info = _round_info(match, number)
    doc = store.round_document(match, number)
    game = game_of(match)
    desc = descriptor(game)
    return render_template(
        "round.html",
        match=match,
        number=number,
        info=info,
        doc=doc,
        game=desc,
        score=localize(game.score_round(doc, list(match.players)).result, translator()),
        held={p["name"]: p.get(desc["holding"]) for p in doc["players"]},
        editable=editable,
        **links(match, editable),
    )


# --- Enter and correct rounds ----------------------------------------------------------------


@bp.route("/m/<edit>/rounds/new", methods=["GET", "POST"])
def new(edit: str) -> Response | tuple[str | Response, int]:
    """Enter the next round: who deals and starts, then the round in the game's own terms."""
    match = by_edit(edit)
    replayed = _replayed(match, None)
    if replayed is not None:
        return replayed
    upcoming = store.result(match).get("next")
    if upcoming is None:
        flash(_("The match is over: no further round can be entered."))
        return redirect(url_for("pages.scoreboard", edit=edit))
    return _round_form(match, upcoming["number"], upcoming, editing=False)


@bp.route("/m/<edit>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit(edit: str, number: int) -> Response | tuple[str | Response, int]:
    """Correct an earlier round: the same form, filled in with what was entered."""
    match = by_edit(edit)
    replayed = _replayed(match, number)
    if replayed is not None:
        return replayed
    return _round_form(match, number, _round_info(match, number), editing=True)


def _scope(match: Match, number: int | None, what: str = "") -> str:
    """Where a round form's idempotency key counts: adding to, or changing round N of, a match."""
    if number is None:
        return f"form:round-add:{match.id}"
    return f"form:round-{what or 'edit'}:{match.id}:{number}"


def _replayed(match: Match, number: int | None) -> Response | None:
    """The answer to a save already stored with this form's key (a double tap, a resend)."""
    if request.method != "POST" or {"preview", "notice", "draw", "theirs"} & set(request.form):
        return None
    once = store.form_once(request.form.get("key"), _scope(match, number))
    prior = store.done(get_session(), once)
    return None if prior is None else _saved(match, prior.number, editing=number is not None)


def _saved(match: Match, number: int | None, *, editing: bool) -> Response:
    """Saved: the scoreboard, and the form's draft on this device can go."""
    flash(_("Round %(n)s saved.", n=number))
    _forget_drafts(match, number, editing=editing)
    return redirect(url_for("pages.scoreboard", edit=match.edit_token))


def _forget_drafts(match: Match, number: int | None, *, editing: bool) -> None:
    """Let the scoreboard clear this form's draft on the device (and the new-round draft when
    a new-round page replaced a round another phone saved first)."""
    keys = [draft_key(match, number if editing else None)]
    if editing and request.form.get("intended"):
        keys.append(draft_key(match, None))
    session["clear_draft"] = " ".join(keys)


def _kept_theirs(match: Match, number: int, *, editing: bool) -> Response:
    """The conflict screen's "keep theirs": what this phone typed is dropped, nothing saved."""
    flash(_("Kept what the other phone saved; what you typed here was discarded."))
    _forget_drafts(match, number, editing=editing)
    return redirect(url_for("pages.scoreboard", edit=match.edit_token))


def _wants_json() -> bool:
    """preview.js asks for JSON; a browser without JavaScript gets the page."""
    return request.accept_mimetypes.best == "application/json"


def _round_form(
    match: Match, number: int, info: dict[str, Any], *, editing: bool
) -> Response | tuple[str | Response, int]:
    game = game_of(match)
    desc = descriptor(game)
    names = list(match.players)
    form = round_form_class(game.id)(names=names)
    placed: dict[str, list[str]] = {}
    conflict: list[str] | None = None
    replace: int | None = None  # a new round another phone saved first: keeping mine edits it
    preview: dict[str, Any] | None = None
    status = 200
    if request.method == "GET":
        if editing:
            form.fill(store.round_document(match, number))
        else:
            form.intended.data = str(number)
        form.revision.data = str(match.revision)
    elif "theirs" in request.form:
        return _kept_theirs(match, number, editing=editing)
    elif "notice" in request.form:
        return jsonify(doubles=_doubles(form)), 200
    elif "draw" in request.form and "bonus_cards" in desc:
        # R17-3: the dealer lays some bonus cards face up (the no-JavaScript way of form.js).
        ids = [c["id"] for c in desc["bonus_cards"]["cards"]]
        form["bonus_cards"].data = random.sample(ids, desc["bonus_cards"]["draw"])
    else:
        form.validate()
        placed = merge(form.fields_with_errors(), _both(form))
        if not placed:
            doc = form.round_document()
            once = form.once(_scope(match, number if editing else None))
            try:
                api_models.check_round(doc)  # the API's limits: meld lines, cards per line
                if "preview" in request.form:
                    preview = localize(game.score_round(doc, names).result, translator())
                elif editing:
                    store.update_round(
                        get_session(), match, number, doc, revision=form.based_on(), once=once
                    )
                else:
                    store.add_round(get_session(), match, doc, revision=form.based_on(), once=once)
            except store.ConflictError as err:
                prior = store.done(get_session(), once)
                if prior is not None:  # the twin of this post was stored first
                    return _saved(match, prior.number, editing=editing)
                if isinstance(err, store.StaleRevision):
                    conflict = changed_since(match, form.based_on())
                    form.revision.data = str(match.revision)  # seen now: saving again goes through
                    intended = form.intended_round()
                    if not editing and intended is not None and intended < number:
                        # Both phones entered round N: it is round N or nothing, never N+1.
                        replace = number = intended
                        info = _round_info(match, number)
                else:
                    placed = place(err.problems, form)
            except EntryError as err:
                placed = place(err.problems, form)
            else:
                if preview is None:
                    return _saved(match, number, editing=editing)
        if placed:
            status = 422
        elif conflict is not None:
            status = 409
    if _wants_json():
        if placed:
            return jsonify(errors=placed), 422
        fragment = render_template("_preview.html", preview=preview, game=desc)
        return jsonify(preview=fragment, doubles=_doubles(form)), 200
    page = render_template(
        "round_form.html",
        match=match,
        form=form,
        game=desc,
        number=number,
        info=info,
        editing=editing,
        preview=preview,
        placed=placed,
        problems=summary(placed, names),
        conflict=conflict,
        replace_url=url_for("rounds.edit", edit=match.edit_token, number=replace)
        if replace
        else None,
        nobody=NOBODY,
        doubled=_doubles(form),
        draft=draft_key(match, number if editing else None),
        restore=request.method == "GET",
        board_url=board_url(match, True),
        holding_example=example_cards(desc, 3, 12),
        meld_example=example_run(desc),
    )
    return page, status


def _both(form: RoundForm) -> dict[str, list[str]]:
    """Cards and counts for one player: the form cannot tell which one is meant."""
    message = _("Give the cards or the count, not both.")
    return {form.players[i].form[form.holding].id: [message] for i in form.both_given()}


def _doubles(form: RoundForm) -> bool:
    """Does what is typed so far multiply the round (R17-15a)? Asked of the game."""
    return get_game(form.descriptor["id"]).multiplier(form.round_document()) > 1


# --- Delete ----------------------------------------------------------------------------------


@bp.route("/m/<edit>/rounds/<int:number>/delete", methods=["GET", "POST"])
def delete(edit: str, number: int) -> Response | tuple[str, int]:
    """Ask first (GET), then delete the round (POST); later rounds move up one number."""
    match = by_edit(edit)
    once = store.form_once(request.form.get("key"), _scope(match, number, "delete"))
    if request.method == "POST" and store.done(get_session(), once) is not None:
        flash(_("Round %(n)s deleted.", n=number))  # a double tap, or the form sent again
        return redirect(url_for("pages.scoreboard", edit=edit))
    info = _round_info(match, number)
    form = ConfirmForm()
    conflict = None
    status = 200
    if request.method == "GET":
        form.revision.data = str(match.revision)
    elif form.validate():
        try:
            store.delete_round(get_session(), match, number, revision=form.based_on(), once=once)
        except store.StaleRevision:
            if store.done(get_session(), once) is not None:  # the twin of this post was first
                flash(_("Round %(n)s deleted.", n=number))
                return redirect(url_for("pages.scoreboard", edit=edit))
            conflict = changed_since(match, form.based_on())
            form.revision.data = str(match.revision)
            status = 409
        else:
            flash(_("Round %(n)s deleted.", n=number))
            return redirect(url_for("pages.scoreboard", edit=edit))
    page = render_template(
        "delete.html",
        match=match,
        game=descriptor(game_of(match)),
        number=number,
        form=form,
        info=info,
        players=match.players,
        conflict=conflict,
    )
    return page, status
