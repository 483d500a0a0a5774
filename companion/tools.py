"""Pages for anyone at a table, with or without a match: the referee and the blank sheets."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request

from companion.forms import CheckForm
from companion.rules import EntryError, check_meld

bp = Blueprint("tools", __name__)

EXAMPLES = {
    "rummy17": "R5 R6 *R7",
    "rummikub": "K12 K13 *",
    "rummy-o": "G11 G12 G13",
    "manipulation": "QH KH AH",
}


@bp.get("/check")
def check() -> str:
    """Is this meld legal? The verdict of the rules core, citing the rule."""
    form = CheckForm(request.args)
    verdict: dict[str, Any] | None = None
    error: str | None = None
    if form.cards.data and form.validate():
        try:
            verdict = check_meld(form.game.data, form.tokens())
        except EntryError as err:
            error = err.message[:1].upper() + err.message[1:]
    return render_template("check.html", form=form, verdict=verdict, error=error, examples=EXAMPLES)


@bp.get("/sheets/blank")
def blank() -> str:
    """Choose the size of a blank Rummy 17 score sheet to print."""
    return render_template("blank.html")
