"""The turn timer (RK-10, RO-10): a big countdown passed round the table in seat order.

Only games whose rules set a time limit have one (``Game.turn_seconds``); for any other game
the page is not found. The server gives the seconds, the seats, who plays first, the penalty
clause (RK-11) and every word; ``static/js/timer.js`` only counts down and keeps its state on
the device. A match's timer follows the match's seats and who starts the next round; the
standalone timer takes a game and the names typed in seat order.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from companion.adapters import store
from companion.adapters.models import Match
from companion.domain import EntryError, Game, check_names, get_game, left_of
from companion.web.language import translator
from companion.web.pages.common import board_url, by_edit, by_view, descriptor, game_of, sentence

bp = Blueprint("timer", __name__)


@bp.app_template_filter("turn_limit")
def turn_limit(seconds: int) -> str:
    """A turn's time limit in words: "1 minute a turn", "90 seconds a turn"."""
    if seconds % 60 == 0:
        minutes = seconds // 60
        return str(ngettext("%(num)s minute a turn", "%(num)s minutes a turn", minutes))
    return str(ngettext("%(num)s second a turn", "%(num)s seconds a turn", seconds))


def _timed(game: Game) -> Game:
    """The game, if its rules set a time limit; otherwise there is no timer to show."""
    if game.turn_seconds is None:
        abort(
            404,
            description=_(
                "%(game)s has no time limit, so it has no turn timer.", game=_(game.name)
            ),
        )
    return game


@bp.get("/timer/<game_id>")
def standalone(game_id: str) -> tuple[str, int]:
    """A timer without a match: the names typed in seat order; the first one starts.

    Without names (or with ``change``) it is the form that asks for them.
    """
    try:
        game = _timed(get_game(game_id))
    except EntryError:
        abort(404, description=_("There is no such game here."))
    typed = [n.strip() for n in request.args.getlist("name")]
    names = [n for n in typed if n]
    error = None
    if "name" in request.args and "change" not in request.args:
        try:
            seats = check_names(names, players=game.seats, rule=game.seats_rule, game=game.name)
        except EntryError as err:
            error = sentence(err.problems[0].message(translator()))
        else:
            key = "companion:timer:" + game.id + ":" + "\x1f".join(seats)
            change = url_for(".standalone", game_id=game.id, name=list(seats), change=1)
            back = (change, _("Change the names"))
            return _page(game, list(seats), seats[0], key, back=back), 200
    page = render_template(
        "timer_setup.html",
        game=descriptor(game),
        names=typed + [""] * (game.seats[1] - len(typed)),
        error=error,
    )
    return page, 422 if error else 200


@bp.get("/m/<edit>/timer")
def by_edit_link(edit: str) -> str:
    """The timer of a match reached from its scoreboard (the edit link)."""
    return _match_page(by_edit(edit), editable=True)


@bp.get("/v/<view>/timer")
def by_view_link(view: str) -> str:
    """The timer of a match reached from its read-only scoreboard."""
    return _match_page(by_view(view), editable=False)


def _match_page(match: Match, *, editable: bool) -> str:
    game = _timed(game_of(match))
    seats = list(match.players)
    starts = left_of(seats, store.next_dealer(match))  # who starts the next round (RK-2, RO-3)
    # One state per match on a device, whichever link opened it (never keyed by the edit token).
    key = f"companion:timer:{match.view_token}"
    return _page(game, seats, starts, key, back=(board_url(match, editable), _("Scoreboard")))


def _page(game: Game, seats: list[str], starts: str, key: str, *, back: tuple[str, str]) -> str:
    desc = descriptor(game)
    strings: dict[str, Any] = {
        "plays": _("%(name)s plays", name="{name}"),
        "next": _("Next: %(name)s", name="{name}"),
        "start": _("Tap to start"),
        "pass": _("Tap: next player"),
        "resume": _("Tap to resume"),
        "pause": _("Pause"),
        "go_on": _("Resume"),
    }
    return render_template(
        "timer.html",
        game=desc,
        seats=seats,
        first=seats.index(starts),
        key=key,
        strings=strings,
        back=back,
    )
