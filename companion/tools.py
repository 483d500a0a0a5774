"""Pages for anyone at a table, with or without a match: the referee and the blank sheets."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request

from companion.forms import CheckForm, RescueForm
from companion.i18n import translator
from companion.rules import EntryError, check_meld, games, get_game, localize
from companion.web.common import descriptor, example_run, sentence

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
            verdict = localize(check_meld(form.game.data, cards), translator())
        except EntryError as err:
            error = sentence(err.problems[0].message(translator()))
    decks = [descriptor(g) for g in games()]
    chosen = descriptor(get_game(form.game.data)) if form.game.data in form.game_ids else decks[0]
    return render_template(
        "check.html",
        form=form,
        verdict=verdict,
        error=error,
        decks=decks,
        chosen=chosen,
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
            error = sentence(err.problems[0].message(translator()))
    chosen = descriptor(
        get_game(form.game.data if form.game.data in form.game_ids else form.game_ids[0])
    )
    return render_template(
        "rescue.html",
        form=form,
        answer=answer,
        error=error,
        chosen=chosen,
        example=example_run(chosen),
    )


@bp.get("/sheets/blank")
def blank() -> str:
    """Choose a blank score sheet to print."""
    return render_template("blank.html", games=[descriptor(g) for g in games()])
