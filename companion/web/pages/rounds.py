"""One round of a match: enter it, correct it, delete it, and its breakdown.

The round form is the game's (``forms.round_form_class``); the page draws it from the game's
descriptor. A save names the revision the form was loaded at: on an older one nothing is
saved, and the form comes back with everything typed and what someone else changed.
``static/js/preview.js`` posts the same form for a preview or the RUMMY 17 notice and gets
JSON back: the same checks and the same placement of problems as without JavaScript.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
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

from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.models import Match
from companion.domain import Description, EntryError, Game, get_game, localize
from companion.domain.documents import Round as RoundDocument
from companion.domain.documents import parse
from companion.services import saving
from companion.services.commands import (
    AddRound,
    Command,
    DeleteRound,
    Later,
    OpenParts,
    ReplaceRound,
    StopParts,
)
from companion.services.handlers import handle
from companion.web.language import gw, translator
from companion.web.pages.common import (
    asked,
    board_url,
    by_edit,
    by_view,
    cards_and_counts,
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
from companion.web.pages.forms import NOBODY, ConfirmForm, RoundForm, round_form_class
from companion.web.pages.parts import fill_dropped, fill_sent, panel

bp = Blueprint("rounds", __name__)

#: Where the bonus cards are drawn from (R17-3); the draw itself is the game's
#: (``Game.draw_bonus_cards``).
BONUS_DRAW: random.Random = random.SystemRandom()


def _round_info(match: Match, number: int) -> dict[str, Any]:
    rounds: list[dict[str, Any]] = store.result(match)["rounds"]
    if not 1 <= number <= len(rounds):
        abort(404, description=gw(match.game, "This match has no round %(n)s.", n=number))
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
        score=localize(game.score_round(doc, list(match.players)).result, translator(), game.id),
        held={p["name"]: p.get(desc.holding) for p in doc["players"]},
        editable=editable,
        **links(match, editable),
    )


# --- Enter and correct rounds ----------------------------------------------------------------

#: What a round form's request gets: a redirect, or a page (or JSON) and its status.
Answer = Response | tuple[str | Response, int]


#: The round form's other buttons, each posted to its own address (``formaction``): the form
#: itself saves; ``…/preview``, ``…/draw``, ``…/parts``, ``…/theirs`` and ``…/notice`` (asked
#: by preview.js) do what they say and give the form back.
BUTTONS = ("preview", "notice", "draw", "parts", "theirs")
_BUTTON = f"<any({','.join(BUTTONS)}):action>"


@bp.route("/m/<edit>/rounds/new", methods=["GET", "POST"])
def new(edit: str) -> Answer:
    """Enter the next round: who deals and starts, then the round in the game's own terms."""
    return ACTIONS[_shown_or_saved()](by_edit(edit), None)


@bp.route("/m/<edit>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit(edit: str, number: int) -> Answer:
    """Correct an earlier round: the same form, filled in with what was entered."""
    return ACTIONS[_shown_or_saved()](by_edit(edit), number)


@bp.post(f"/m/<edit>/rounds/new/{_BUTTON}")
def new_button(edit: str, action: str) -> Answer:
    """A button of the next round's form other than saving."""
    return ACTIONS[action](by_edit(edit), None)


@bp.post(f"/m/<edit>/rounds/<int:number>/edit/{_BUTTON}")
def edit_button(edit: str, number: int, action: str) -> Answer:
    """A button of an earlier round's form other than saving."""
    return ACTIONS[action](by_edit(edit), number)


def _shown_or_saved() -> str:
    """The form's own address: a GET shows the form, a POST saves it."""
    return "show" if request.method == "GET" else "save"


@dataclass
class _Page:
    """The round form of one request: the round it is for, and what was found on it."""

    match: Match
    number: int
    info: dict[str, Any]
    editing: bool
    game: Game
    desc: Description
    form: RoundForm
    placed: dict[str, list[str]] = field(default_factory=dict)
    asked: dict[str, list[int]] = field(default_factory=dict)  # melds whose joker to name
    conflict: list[str] | None = None  # what someone else changed since the form was loaded
    replace: int | None = None  # a new round another phone saved first: keeping mine edits it
    preview: dict[str, Any] | None = None
    filled: frozenset[int] = frozenset()  # seats filled in from the parts their phones sent
    stopped: dict[str, Any] | None = None  # the parts just dropped: whose never came (parts.py)


def _opened(match: Match, number: int | None) -> _Page | Response:
    """The form for round ``number`` (None: the next one, if the match is not over)."""
    if number is None:
        upcoming = store.result(match).get("next")
        if upcoming is None:
            flash(gw(match.game, "The match is over: no further round can be entered."))
            return redirect(url_for("pages.scoreboard", edit=match.edit_token))
        number, info, editing = upcoming["number"], upcoming, False
    else:
        info, editing = _round_info(match, number), True
    game = game_of(match)
    form = round_form_class(game.id)(names=list(match.players))
    return _Page(match, number, info, editing, game, descriptor(game), form)


def _on_page(handler: Callable[[_Page], Answer]) -> Callable[[Match, int | None], Answer]:
    """A handler of an action that needs the form open (the match over: the scoreboard)."""

    def run(match: Match, number: int | None) -> Answer:
        page = _opened(match, number)
        return page if isinstance(page, Response) else handler(page)

    return run


def _show(page: _Page) -> Answer:
    """The form as loaded: empty for the next round, filled in to correct one."""
    if page.editing:
        page.form.fill(store.round_document(page.match, page.number))
    else:
        page.form.intended.data = str(page.number)
        page.filled = fill_sent(page.form, page.match)  # the parts the players sent so far
    page.form.revision.data = str(page.match.revision)
    return _form_again(page)


def _theirs(page: _Page) -> Answer:
    """The conflict screen's "keep theirs": what this phone typed is dropped, nothing saved."""
    flash(_("Kept what the other phone saved; what you typed here was discarded."))
    _forget_drafts(page.match, page.number, editing=page.editing)
    return redirect(url_for("pages.scoreboard", edit=page.match.edit_token))


def _parts(page: _Page) -> Answer:
    """ "Everyone enters their own": the next round's parts open (one link and QR code per
    seat), or are dropped again; the form comes back with everything typed so far."""
    if page.editing:
        abort(404)
    if not page.form.revision.data:  # from the scoreboard's button: the form as loaded now
        page.form.revision.data = str(page.match.revision)
        page.form.intended.data = str(page.number)
    if request.form.get("parts") == "drop":
        rows = store.open_of(get_session(), page.match)
        handle(get_session(), StopParts(match=page.match))
        if rows:  # what came goes into the form; whose never came is said (nothing lost)
            page.stopped = fill_dropped(page.form, rows)
    else:
        try:
            handle(get_session(), OpenParts(match=page.match))
        except EntryError as err:
            _said(page, err)
    return _form_again(page)


def _notice(page: _Page) -> Answer:
    """preview.js asks whether what is typed so far doubles the round (R17-15a)."""
    return jsonify(doubles=_doubles(page.form)), 200


def _draw(page: _Page) -> Answer:
    """R17-3: the dealer lays some bonus cards face up (the no-JavaScript way of form.js)."""
    if not page.desc.bonus_cards:
        abort(404)  # a game without bonus cards has no such button
    page.form["bonus_cards"].data = page.game.draw_bonus_cards(BONUS_DRAW)
    return _form_again(page)


def _preview(page: _Page) -> Answer:
    """The round scored as typed, without saving it."""
    doc = _checked(page)
    if doc is not None:
        try:
            typed = parse(RoundDocument, doc)  # the API's limits: meld lines, cards per line
            result = page.game.score_round(typed, list(page.match.players)).result
            page.preview = localize(result, translator(), page.game.id)
        except EntryError as err:
            _said(page, err)
    return _form_again(page)


def _save(match: Match, number: int | None) -> Answer:
    """Save the round, once per form (a double tap or a form sent again is answered like the
    first), on the revision the form was loaded at (else the form again, saying what someone
    else changed)."""
    once = store.form_once(request.form.get("key"), _scope(match, number))
    opened: _Page | None = None
    instead: Answer | None = None  # the answer when there is nothing to save

    def build() -> Command | None:
        nonlocal opened, instead
        page = _opened(match, number)
        if isinstance(page, Response):
            instead = page
            return None
        opened = page
        doc = _checked(page)
        if doc is None:
            instead = _form_again(page)
            return None
        typed = parse(RoundDocument, doc)  # the API's limits: meld lines, cards per line
        revision = page.form.based_on()
        if page.editing:
            return ReplaceRound(
                match=match, number=page.number, round=typed, revision=revision, once=once
            )
        return AddRound(match=match, round=typed, revision=revision, once=once)

    try:
        saved = handle(get_session(), Later(once, build))
    except EntryError as err:
        if not isinstance(opened, _Page):
            raise
        if isinstance(err, store.StaleRevision):
            _stale(opened)
        else:
            _said(opened, err)
        return _form_again(opened)
    if isinstance(saved, saving.Replayed):
        return _saved(match, saved.number, editing=number is not None)
    if instead is not None:
        return instead
    assert opened is not None  # built and handled
    return _saved(match, opened.number, editing=opened.editing)


def _said(page: _Page, err: EntryError) -> None:
    """What was wrong, in the game's own words (tiles), next to the fields it is about; a
    joker the verdict depends on is asked for there too (D17-6)."""
    err.at(context=page.game.id)
    page.placed = place(err.problems, page.form)
    page.asked = asked(err.problems, page.form)


def _stale(page: _Page) -> None:
    """Saved on an older revision: nothing was saved; the form again, with what changed."""
    page.conflict = changed_since(page.match, page.form.based_on())
    page.form.revision.data = str(page.match.revision)  # seen now: saving again goes through
    intended = page.form.intended_round()
    if not page.editing and intended is not None and intended < page.number:
        # Both phones entered round N: it is round N or nothing, never N+1.
        page.replace = page.number = intended
        page.info = _round_info(page.match, intended)


def _checked(page: _Page) -> dict[str, Any] | None:
    """The round document typed, or None with the form's own problems placed."""
    page.form.validate()
    page.placed = merge(page.form.fields_with_errors(), cards_and_counts(page.form))
    return None if page.placed else page.form.round_document()


ACTIONS: dict[str, Callable[[Match, int | None], Answer]] = {
    "show": _on_page(_show),
    "theirs": _on_page(_theirs),
    "notice": _on_page(_notice),
    "parts": _on_page(_parts),
    "draw": _on_page(_draw),
    "preview": _on_page(_preview),
    "save": _save,
}


def _scope(match: Match, number: int | None, what: str = "") -> str:
    """Where a round form's idempotency key counts: adding to, or changing round N of, a match."""
    if number is None:
        return f"form:round-add:{match.id}"
    return f"form:round-{what or 'edit'}:{match.id}:{number}"


def _saved(match: Match, number: int | None, *, editing: bool) -> Response:
    """Saved: the scoreboard, and the form's draft on this device can go."""
    flash(gw(match.game, "Round %(n)s saved.", n=number))
    _forget_drafts(match, number, editing=editing)
    return redirect(url_for("pages.scoreboard", edit=match.edit_token))


def _forget_drafts(match: Match, number: int | None, *, editing: bool) -> None:
    """Let the scoreboard clear this form's drafts on the device (a save posted without the
    page's script)."""
    session["clear_draft"] = _saved_drafts(match, number, editing, request.form.get("intended"))


def _saved_drafts(match: Match, number: int | None, editing: bool, intended: object) -> str:
    """The drafts a save makes stale: this form's, and the new-round draft when a new-round
    page replaced a round another phone saved first."""
    keys = [draft_key(match, number if editing else None)]
    if editing and intended:
        keys.append(draft_key(match, None))
    return " ".join(keys)


def _wants_json() -> bool:
    """preview.js asks for JSON; a browser without JavaScript gets the page."""
    return request.accept_mimetypes.best == "application/json"


def _form_again(page: _Page) -> Answer:
    """The form again (as JSON for preview.js): 422 with problems, 409 after a conflict."""
    if _wants_json():
        if page.placed:
            return jsonify(errors=page.placed, asked=page.asked), 422
        fragment = render_template("_preview.html", preview=page.preview, game=page.desc)
        return jsonify(preview=fragment, doubles=_doubles(page.form)), 200
    match, number, editing = page.match, page.number, page.editing
    names = list(match.players)
    html = render_template(
        "round_form.html",
        match=match,
        form=page.form,
        game=page.desc,
        number=number,
        info=page.info,
        editing=editing,
        preview=page.preview,
        placed=page.placed,
        asked=page.asked,
        problems=summary(page.placed, names),
        conflict=page.conflict,
        replacing=page.replace is not None,
        urls=_urls(match, page.replace or (number if editing else None)),
        nobody=NOBODY,
        parts=None if editing else panel(match, page.filled),
        stopped=page.stopped,
        offers_parts=not editing and page.game.takes_parts,
        doubled=_doubles(page.form),
        draft=draft_key(match, number if editing else None),
        forget=_saved_drafts(match, number, editing, page.form.intended.data),
        restore=request.method == "GET",
        board_url=board_url(match, True),
        holding_example=example_cards(page.desc, 3, 12),
        meld_example=example_run(page.desc),
    )
    return html, 422 if page.placed else 409 if page.conflict is not None else 200


def _urls(match: Match, number: int | None) -> dict[str, str]:
    """Where the form of round ``number`` (None: the next) posts: "save", and each button."""
    form = "rounds.new" if number is None else "rounds.edit"
    at: dict[str, Any] = {"edit": match.edit_token, "number": number}  # None: left out
    urls = {b: url_for(f"{form}_button", action=b, **at) for b in BUTTONS}
    return {**urls, "save": url_for(form, **at)}


def _doubles(form: RoundForm) -> bool:
    """Does what is typed so far multiply the round (R17-15a)? Asked of the game."""
    return get_game(form.descriptor.id).multiplier(form.round_document()) > 1


# --- Delete ----------------------------------------------------------------------------------


@bp.route("/m/<edit>/rounds/<int:number>/delete", methods=["GET", "POST"])
def delete(edit: str, number: int) -> Response | tuple[str, int]:
    """Ask first (GET), then delete the round (POST); later rounds move up one number."""
    match = by_edit(edit)
    form = ConfirmForm()
    if request.method == "GET":
        form.revision.data = str(match.revision)
        return _asking(match, number, _round_info(match, number), form), 200
    shown: dict[str, Any] = {}  # the round as it was before the delete
    asked = False  # whether the form asked for the delete (else it is shown again)

    def build() -> Command | None:
        nonlocal asked
        shown.update(_round_info(match, number))
        if not form.validate():
            return None
        asked = True
        return DeleteRound(match=match, number=number, revision=form.based_on(), once=once)

    once = form.once(_scope(match, number, "delete"))
    try:
        saved = handle(get_session(), Later(once, build))
    except store.StaleRevision:
        conflict = changed_since(match, form.based_on())
        form.revision.data = str(match.revision)
        return _asking(match, number, shown, form, conflict), 409
    if isinstance(saved, saving.Replayed) or asked:
        # now, by a double tap, or the form resent
        flash(gw(match.game, "Round %(n)s deleted.", n=number))
        return redirect(url_for("pages.scoreboard", edit=edit))
    return _asking(match, number, shown, form), 200


def _asking(
    match: Match,
    number: int,
    info: dict[str, Any],
    form: ConfirmForm,
    conflict: list[str] | None = None,
) -> str:
    """The page asking whether to delete round ``number`` (again, after a conflict)."""
    return render_template(
        "delete.html",
        match=match,
        game=descriptor(game_of(match)),
        number=number,
        form=form,
        info=info,
        players=match.players,
        conflict=conflict,
    )
