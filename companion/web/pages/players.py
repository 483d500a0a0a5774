"""Across matches: the players page (this device's matches, each player's figures), a match
as CSV, and the chart of totals the scoreboard includes.

The figures are the rules core's (``rules.stats.across_matches`` over the stored match
documents); this module only finds the matches, names the bonus cards and draws the page.
"""

from __future__ import annotations

from typing import Any

from babel.numbers import format_decimal
from flask import Blueprint, render_template, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.adapters import store
from companion.adapters.models import Match
from companion.domain import get_game
from companion.domain.stats import GameFigures, across_matches
from companion.i18n.catalogues import lang_of
from companion.web.language import gw, translator
from companion.web.pages.chart import totals_chart
from companion.web.pages.common import by_edit, by_view, descriptor, device_matches, game_of
from companion.web.spreadsheet import csv_response

bp = Blueprint("players", __name__)
bp.add_app_template_global(totals_chart)


@bp.get("/players")
def index() -> str:
    """Each player's rounds, wins, average, bonus cards and best round on this device."""
    matches = device_matches()
    by_key = {str(m.id): m for m in matches}
    figures = across_matches((str(m.id), store.as_document(m)) for m in matches)
    return render_template(
        "players.html",
        matches=matches,
        played=[m for m in matches if m.rounds],
        sections=[_section(g, by_key) for g in figures],
    )


def _section(figures: GameFigures, by_key: dict[str, Match]) -> dict[str, Any]:
    """One game's figures as the page shows them: card names and links to the best rounds."""
    desc = descriptor(get_game(figures.game))
    names = {c.id: c.name for c in desc.bonus_cards.cards} if desc.bonus_cards else {}
    players = []
    for p in figures.players:
        best = None
        if p.best is not None:
            match = by_key[p.best.match]
            best = {
                "score": p.best.score,
                "number": p.best.number,
                "title": match.title or ", ".join(match.players),
                "url": url_for("rounds.show", edit=match.edit_token, number=p.best.number),
            }
        players.append(
            {
                "figures": p,
                "average": _one_decimal(p.average),
                "cards": [(names.get(card, card), times) for card, times in p.bonus_cards[:3]],
                "best": best,
            }
        )
    return {"game": desc, "matches": figures.matches, "players": players}


def _one_decimal(value: float | None) -> str:
    """An average with one decimal, as the page's language writes it (``7.5``, ``7,5``)."""
    if value is None:
        return "–"
    return str(format_decimal(round(value, 1), format="#,##0.0", locale=lang_of(translator())))


# --- A match as CSV ------------------------------------------------------------------------


@bp.get("/m/<edit>/export.csv")
def csv_by_edit(edit: str) -> Response:
    """The match as a spreadsheet: one row per round, each player's figures (the game's
    columns: penalty and bonus, rack, hand…), score and total."""
    return _csv(by_edit(edit))


@bp.get("/v/<view>/export.csv")
def csv_by_view(view: str) -> Response:
    """The same file through the read-only link (no token is written into it)."""
    return _csv(by_view(view))


def _csv(match: Match) -> Response:
    result = store.result(match)
    game = game_of(match)
    players = list(match.players)
    # RK-2, RO-3: where nobody deals, the column says who started the round.
    starter = game.first_seat == "starter"
    header = [gw(game, "Round"), _("Starts") if starter else _("Dealer")]
    # The game's figures before each score, as the breakdown and the sheet write them: a
    # penalty, bonus, rack or hand as its count, never negative (catalogues.figure).
    figures = [c for c in descriptor(game).columns if c.sign]
    for name in players:
        header += [_("%(name)s: %(figure)s", name=name, figure=c.label) for c in figures]
        header += [name, _("%(name)s (total)", name=name)]
    rows: list[list[object]] = [header]
    for number, line in enumerate(result["rounds"], start=1):
        row: list[object] = [line["number"], line["starts"] if starter else line["dealer"]]
        outcome = game.score_round(store.round_document(match, number), players).result
        entries = {p["name"]: p for p in outcome["players"]}
        for name in players:
            row += [entries[name][c.key] for c in figures]
            row += [line["scores"][name], line["totals"][name]]
        rows.append(row)
    if "end_bonus" in result:  # MR-16: the end bonuses, and the totals that include them
        row = [_("End bonus"), ""]
        for name in players:
            row += [""] * len(figures) + [result["end_bonus"][name], result["totals"][name]]
        rows.append(row)
    return csv_response(rows, match.title or _(game.name), "match")
