"""The rules reference pages: ``/rules`` (the games, a search over all of them) and
``/rules/<game-id>`` (one game's clauses, each an anchor: ``/rules/<game-id>#<clause id>``).

The ``rule_links`` filter turns every clause id a page prints into a link to its clause; the
base template runs it over each page's main content, so awards, errors and referee answers
link without each template asking for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from companion.domain import EntryError, Game, all_games, get_game
from companion.i18n import reference
from companion.web.language import select_locale

bp = Blueprint("reference", __name__)

MAX_QUERY = 100  # characters of a search kept: a search box, not a document


@dataclass(frozen=True)
class Found:
    """A game's clauses that match a search, for the index page."""

    game: str
    title: str
    clauses: tuple[reference.Clause, ...]


def clause_url(game_id: str, clause_id: str, external: bool = False) -> str:
    """The address of one clause: ``/rules/<game-id>#<clause id>``."""
    return url_for("reference.game", game_id=game_id, _anchor=clause_id, _external=external)


@bp.app_template_filter("rule_links")
def rule_links(html: object) -> Markup:
    """Escaped text or a page's HTML with every clause id linked to its clause."""
    return reference.link_clauses(html if isinstance(html, Markup) else str(html), clause_url)


bp.add_app_template_filter(reference.inline, "inline_rules")


def _query() -> str:
    return " ".join(request.args.get("q", "").split())[:MAX_QUERY]


def _reference(game: Game) -> reference.Reference:
    return reference.load(game.id, select_locale())


@bp.get("/rules")
def index() -> str:
    """The four games' rules, and a search across all of them."""
    query = _query()
    found: list[Found] = []
    if query:
        for game in all_games():
            ref = _reference(game)
            hits = reference.search(ref, query)
            if hits:
                found.append(Found(game.id, ref.title, hits))
    books = [(g.id, _reference(g)) for g in all_games()]
    return render_template("reference.html", books=books, query=query, found=found)


@bp.get("/rules/<game_id>")
def game(game_id: str) -> str:
    """One game's rules, clause by clause; ``?q=`` shows only the clauses that match."""
    try:
        chosen = get_game(game_id)
    except EntryError:
        abort(404, description=_("There is no such game here."))
    ref = _reference(chosen)
    query = _query()
    shown = {c.id for c in reference.search(ref, query)} if query else None
    return render_template(
        "reference_game.html",
        ref=ref,
        game_id=chosen.id,
        query=query,
        shown=shown,
        translated=ref.lang == select_locale(),
    )
