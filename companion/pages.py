"""The pages: start a match, the scoreboard, enter/edit/delete a game, the read-only view.

Views parse the request, call the store (which calls the rules core), and map an
``EntryError`` to an inline message next to the field it is about. No score is computed here.
"""

from __future__ import annotations

import random
import re
import secrets
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _

from companion import store
from companion.db import get_session
from companion.forms import DRAW_PILE, ConfirmForm, GameForm, MatchForm
from companion.models import Match
from companion.rules import BONUS_CARDS, EntryError, doubles, read_meld, score_document

bp = Blueprint("pages", __name__)

DEVICE_COOKIE = "companion_device"
DEVICE_MAX_AGE = 60 * 60 * 24 * 400  # about the longest a browser keeps a cookie
GAME_PREFIX = re.compile(r"^game \d+: ")


@bp.context_processor
def page_context() -> dict[str, Any]:
    """The page language and the bonus cards' names for every page template."""
    return {
        "html_lang": str(get_locale() or "en"),
        "bonus_names": {c.id: _(c.name) for c in BONUS_CARDS.values()},
    }


def _by_edit(edit: str) -> Match:
    match = store.get_by_edit_token(get_session(), edit)
    if match is None:
        abort(404, description=_("There is no match at this link."))
    return match


def _by_view(view: str) -> Match:
    match = store.get_by_view_token(get_session(), view)
    if match is None:
        abort(404, description=_("There is no match at this link."))
    return match


def draft_key(match: Match, number: int | None) -> str:
    """Where game.js keeps the unsaved entries of a game form on this device."""
    return f"companion:{match.view_token}:{number or 'new'}"


# --- Start a match ---------------------------------------------------------------------------


@bp.route("/", methods=["GET", "POST"])
def index() -> Response | tuple[str, int]:
    """The app's first screen: start a match, and the matches this device started."""
    form = MatchForm()
    device = request.cookies.get(DEVICE_COOKIE, "")
    status = 200
    if request.method == "POST":
        if form.validate() and form.validate_seats():
            names, dealer = form.seated()
            device = device or secrets.token_urlsafe(24)
            try:
                match = store.create_match(
                    get_session(),
                    players=names,
                    first_dealer=dealer or names[0],
                    games=form.games.data or len(names),  # D17-7: one game per player
                    title=form.title.data or None,
                    device=device,
                )
            except EntryError as err:
                _place_name_error(form, err)
            else:
                response = redirect(url_for(".scoreboard", edit=match.edit_token))
                response.set_cookie(
                    DEVICE_COOKIE,
                    device,
                    max_age=DEVICE_MAX_AGE,
                    httponly=True,
                    samesite="Lax",
                    secure=request.is_secure,
                )
                return response
        status = 422
    matches = store.matches_for_device(get_session(), device) if device else []
    return render_template("index.html", form=form, matches=matches), status


def _sentence(message: str) -> str:
    """The rules core writes messages to follow a name; alone they start with a capital."""
    return message[:1].upper() + message[1:]


def _place_name_error(form: MatchForm, err: EntryError) -> None:
    # Last first: of two equal names, the second one is the one to change.
    for entry in reversed(form.names):
        if err.player and (entry.data or "").strip().casefold() == err.player.casefold():
            entry.errors = [*entry.errors, _sentence(err.message)]
            return
    form.form_errors.append(_sentence(err.message))


# --- Scoreboard ------------------------------------------------------------------------------


@bp.get("/m/<edit>")
def scoreboard(edit: str) -> str:
    """The scoreboard through the edit link: scores, totals, ranks, share links, history."""
    match = _by_edit(edit)
    return _board(match, editable=True)


@bp.get("/v/<view>")
def view(view: str) -> str:
    """The same scoreboard through the read-only link: nothing on it changes the match."""
    return _board(_by_view(view), editable=False)


def _links(match: Match, editable: bool) -> dict[str, str]:
    """The addresses a scoreboard shows; the read-only ones never contain the edit token."""
    view_url = url_for(".view", view=match.view_token, _external=True)
    board = url_for(".scoreboard", edit=match.edit_token) if editable else None
    own = board or url_for(".view", view=match.view_token)
    links = {
        "view_url": view_url,
        "board_url": own,
        "pdf_url": own + "/sheet.pdf",
        "json_url": url_for("api.match_json_view", view_token=match.view_token),
    }
    if editable:
        links["edit_url"] = url_for(".scoreboard", edit=match.edit_token, _external=True)
    return links


def _game_url(match: Match, editable: bool, number: int) -> str:
    if editable:
        return url_for(".game", edit=match.edit_token, number=number)
    return url_for(".view_game", view=match.view_token, number=number)


def _board(match: Match, *, editable: bool) -> str:
    result = store.result(match)
    ranks = {s["name"]: s["rank"] for s in result["standings"]}
    return render_template(
        "match.html",
        match=match,
        result=result,
        players=list(match.players),
        ranks=ranks,
        winners=[s["name"] for s in result["standings"] if s["rank"] == 1],
        rummy_any=any(r["rummy17"] for r in result["rounds"]),
        history=store.history(match),
        editable=editable,
        game_url=lambda n: _game_url(match, editable, n),
        clear_draft=session.pop("clear_draft", None) if editable else None,
        **_links(match, editable),
    )


# --- One game's breakdown --------------------------------------------------------------------


@bp.get("/m/<edit>/games/<int:number>")
def game(edit: str, number: int) -> str:
    """Every award of one game with every player's figure, the rule and the reason."""
    return _breakdown(_by_edit(edit), number, editable=True)


@bp.get("/v/<view>/games/<int:number>")
def view_game(view: str, number: int) -> str:
    """The same breakdown through the read-only link."""
    return _breakdown(_by_view(view), number, editable=False)


def _round_info(match: Match, number: int) -> dict[str, Any]:
    rounds = store.result(match)["rounds"]
    if not 1 <= number <= len(rounds):
        abort(404, description=_("This match has no game %(n)s.", n=number))
    return rounds[number - 1]


def _breakdown(match: Match, number: int, *, editable: bool) -> str:
    info = _round_info(match, number)
    doc = store.round_document(match, number)
    return render_template(
        "game.html",
        match=match,
        number=number,
        info=info,
        score=score_document(doc),
        hands=[p.get("hand", []) for p in doc["players"]],
        editable=editable,
        **_links(match, editable),
    )


# --- Enter and correct games -----------------------------------------------------------------


@bp.route("/m/<edit>/games/new", methods=["GET", "POST"])
def new_game(edit: str) -> Response | tuple[str, int]:
    """Enter the next game: who deals and starts, bonus cards, each player's table, the end."""
    match = _by_edit(edit)
    upcoming = store.result(match).get("next")
    if upcoming is None:
        flash(_("All %(n)s games of this match are entered.", n=match.games))
        return redirect(url_for(".scoreboard", edit=edit))
    return _game_form(match, upcoming["number"], upcoming, editing=False)


@bp.route("/m/<edit>/games/<int:number>/edit", methods=["GET", "POST"])
def edit_game(edit: str, number: int) -> Response | tuple[str, int]:
    """Correct an earlier game: the same form, filled in with what was entered."""
    match = _by_edit(edit)
    return _game_form(match, number, _round_info(match, number), editing=True)


def _game_form(
    match: Match, number: int, info: dict[str, Any], *, editing: bool
) -> Response | tuple[str, int]:
    names = list(match.players)
    form = GameForm(names=names)
    preview = None
    status = 200
    if request.method == "GET":
        if editing:
            form.fill(store.round_document(match, number))
    elif "draw" in request.form:
        # R17-3: the dealer lays five of the twelve face up (no-JS fallback of game.js).
        form.bonus_cards.data = random.sample(list(BONUS_CARDS), 5)
    elif form.validate() and _check_entries(form):
        doc = form.round_document()
        try:
            if "preview" in request.form:
                preview = score_document(doc)
            elif editing:
                store.update_game(get_session(), match, number, doc)
            else:
                store.add_game(get_session(), match, doc)
        except EntryError as err:
            place_error(form, err)
        else:
            if preview is None:
                flash(_("Game %(n)s saved.", n=number))
                session["clear_draft"] = draft_key(match, number if editing else None)
                return redirect(url_for(".scoreboard", edit=match.edit_token))
    if request.method == "POST" and (form.errors or form.form_errors or _has_errors(form)):
        status = 422
    page = render_template(
        "game_form.html",
        match=match,
        form=form,
        number=number,
        info=info,
        editing=editing,
        preview=preview,
        draw_pile=DRAW_PILE,
        bonus_cards=list(BONUS_CARDS.values()),
        draft=draft_key(match, number if editing else None),
        restore=request.method == "GET",
        board_url=url_for(".scoreboard", edit=match.edit_token),
        rummy17_last=_is_seventeen(form),
    )
    return page, status


def _has_errors(form: GameForm) -> bool:
    fields = [form.bonus_cards, form.last_discard, form.went_out]
    for entry in form.players:
        fields += [entry.melds, entry.hand, entry.low, entry.high]
    return any(f.errors for f in fields)


def _is_seventeen(form: GameForm) -> bool:
    """R17-15a, asked of the rules core: shown before saving."""
    went_out = form.went_out.data not in (None, "", DRAW_PILE)
    return doubles(form.went_out.data if went_out else None, form.last_discard.data)


def _add(field: Any, message: str) -> None:
    field.errors = [*field.errors, message]


def _check_entries(form: GameForm) -> bool:
    """Check every meld on its own first, so the table sees all bad melds at once (D17-8)."""
    ok = True
    doc = form.round_document()
    for name, entry, player in zip(form.names, form.players, doc["players"], strict=False):
        for number, meld in enumerate(player["melds"], start=1):
            try:
                read_meld(meld, player=name, number=number)
            except EntryError as err:
                _add(entry.melds, _short(err.message, name))
                ok = False
        if (entry.hand.data or "").strip() and (entry.low.data or entry.high.data):
            _add(entry.hand, _("Give the cards or the two counts, not both."))
            ok = False
    if len(form.bonus_cards.data or []) != 5:
        count = len(form.bonus_cards.data or [])
        _add(form.bonus_cards, _("Pick exactly five bonus cards, not %(n)s (R17-3).", n=count))
        ok = False
    return ok


def _short(message: str, name: str) -> str:
    """Shown next to a player's own field, the message need not repeat their name."""
    return _sentence(GAME_PREFIX.sub("", message).removeprefix(f"{name}, "))


def place_error(form: GameForm, err: EntryError) -> None:
    """Show an ``EntryError`` next to the field it is about: a meld, a hand, the last card."""
    message = _sentence(GAME_PREFIX.sub("", err.message))
    field = err.extra.get("field")
    if field in ("bonus_cards", "last_discard", "went_out"):
        _add(getattr(form, field), message)
    elif err.player in form.names:
        entry = form.players[form.names.index(err.player)]
        _add(entry.melds if err.meld is not None else entry.hand, _short(err.message, err.player))
    else:
        form.form_errors.append(message)


# --- Delete ----------------------------------------------------------------------------------


@bp.route("/m/<edit>/games/<int:number>/delete", methods=["GET", "POST"])
def delete_game(edit: str, number: int) -> Response | str:
    """Ask first (GET), then delete the game (POST); later games move up one number."""
    match = _by_edit(edit)
    info = _round_info(match, number)
    form = ConfirmForm()
    if request.method == "POST" and form.validate():
        store.delete_game(get_session(), match, number)
        flash(_("Game %(n)s deleted.", n=number))
        return redirect(url_for(".scoreboard", edit=edit))
    return render_template(
        "delete.html", match=match, number=number, form=form, info=info, players=match.players
    )
