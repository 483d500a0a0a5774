"""Pages for anyone at a table, with or without a match: the referee and the blank sheets."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from companion.domain import EntryError, all_games, check_meld, check_names, get_game, localize
from companion.domain.bounds import MAX_TYPED_TABLE
from companion.domain.cards import SEPARATORS
from companion.web.language import translator
from companion.web.pages.common import descriptor, example_run, sentence
from companion.web.pages.forms import BlankForm, CheckForm, RescueForm

bp = Blueprint("tools", __name__)


@bp.get("/check")
def check() -> str:
    """Is this meld legal? The verdict of the rules core, citing the rule."""
    form = CheckForm(request.args)
    verdict: dict[str, Any] | None = None
    error: str | None = None
    if form.cards.data and form.validate():
        try:
            cards: list[object] = list(form.tokens())
            verdict = localize(check_meld(form.game.data, cards), translator(), form.game.data)
        except EntryError as err:
            error = sentence(err.problems[0].message(translator()))
    decks = [descriptor(g) for g in all_games()]
    chosen = descriptor(get_game(form.game.data)) if form.game.data in form.game_ids else decks[0]
    return render_template(
        "check.html",
        form=form,
        verdict=verdict,
        error=error,
        decks=decks,
        chosen=chosen,
        games=form.game_ids,
        example=example_run(chosen),
    )


@bp.get("/rescue")
def rescue() -> str:
    """Put the table back (RK-11): the solver's melds, or the tiles that have no place."""
    form = RescueForm(request.args)
    answer: dict[str, Any] | None = None
    error: str | None = None
    if form.cards.data and form.validate():
        try:
            answer = get_game(form.game.data).rescue(form.tokens())
        except EntryError as err:
            err.at(context=form.game.data)  # said in the game's words (tiles)
            error = sentence(err.problems[0].message(translator()))
    chosen = descriptor(
        get_game(form.game.data if form.game.data in form.game_ids else form.game_ids[0])
    )
    # From a turn check (RK-11): the table before the turn, to start again from at one tap.
    before = " ".join(SEPARATORS.split(request.args.get("before", "")[:MAX_TYPED_TABLE])).strip()
    return render_template(
        "rescue.html",
        before=before,
        restart_url=url_for("tools.rescue", game=chosen.id, cards=before, before=before)
        if before
        else None,
        form=form,
        answer=answer,
        error=error,
        chosen=chosen,
        games=[descriptor(get_game(game)) for game in form.game_ids],
        example=example_run(chosen),
    )


@bp.get("/sheets/blank")
def blank() -> Response | tuple[str, int]:
    """Choose a blank score sheet to print; a good choice goes on to the PDF."""
    form = BlankForm(request.args)
    status = 200
    sent = any(field.name in request.args for field in form)  # not just ?lang=hu
    if sent and form.validate() and _agree(form):
        query = {"game": form.game.data, "players": form.players.data, "paper": form.paper.data}
        query |= {"games": form.games.data} if form.games.data else {}
        query |= {"names": ", ".join(form.name_list())} if form.name_list() else {}
        return redirect(url_for("sheets.blank", **query))
    elif sent:
        status = 422
    page = render_template(
        "blank.html", form=form, games=[descriptor(g) for g in all_games()], chosen=form.chosen().id
    )
    return page, status


def _agree(form: BlankForm) -> bool:
    """The seats suit the game, and the names (when given) are as many as the seats."""
    game = form.chosen()
    count = int(form.players.data)
    low, high = game.seats
    if not low <= count <= high:
        form.players.errors = [
            _("%(game)s is for %(low)s to %(high)s players.", game=_(game.name), low=low, high=high)
        ]
        return False
    names = form.name_list()
    if not names:
        return True
    if len(names) != count:
        form.names.errors = [
            ngettext(
                "%(num)d name for %(players)s players: give one per seat, or none.",
                "%(num)d names for %(players)s players: give one per seat, or none.",
                len(names),
                players=count,
            )
        ]
        return False
    try:
        check_names(names, players=game.seats, rule=game.seats_rule, game=game.name)
    except EntryError as err:
        form.names.errors = [sentence(err.problems[0].message(translator()))]
        return False
    return True
