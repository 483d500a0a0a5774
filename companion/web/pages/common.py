"""What the page blueprints share: finding a match by its link, this device and its matches,
the links a page shows, a game's descriptor in the page's language, and placing entry
problems next to their fields."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

import segno
from flask import abort, make_response, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.models import Match
from companion.adapters.store import events
from companion.domain import Card, Description, Game, Problem, Translator, all_games, get_game
from companion.domain import bounds as limits
from companion.domain.names import name_key
from companion.web.language import gw, translator
from companion.web.pages.forms import RoundForm

FORM = "form"  # where a problem about no field in particular is shown: the top of the form


def sentence(text: str) -> str:
    """A message shown on its own starts with a capital."""
    return text[:1].upper() + text[1:]


def page_context() -> dict[str, Any]:
    """What every page template may use: the games' names, and the limits on what is typed."""
    return {
        "game_names": {g.id: _(g.name) for g in all_games()},
        "limits": limits,
    }


# --- Matches by their links --------------------------------------------------------------


def by_edit(edit: str) -> Match:
    match = store.get_by_edit_token(get_session(), edit)
    if match is None:
        event = events.retired(get_session(), edit)
        if event is not None:  # EV-3: the table was drawn again; say so, show the new one
            page = render_template("events/retired.html", event=event)
            abort(make_response(page, 410))
        abort(404, description=_("There is no match at this link."))
    return match


def by_view(view: str) -> Match:
    match = store.get_by_view_token(get_session(), view)
    if match is None:
        abort(404, description=_("There is no match at this link."))
    return match


# --- This device ----------------------------------------------------------------------------

DEVICE_COOKIE = "companion_device"
DEVICE_MAX_AGE = 60 * 60 * 24 * 400  # about the longest a browser keeps a cookie
#: The home page and the players page read this many of a device's newest matches.
MATCHES_LISTED = 30


def device() -> str:
    """This device's cookie; one that no token could be (a NUL, say) counts as none."""
    found = request.cookies.get(DEVICE_COOKIE, "")
    return found if store.TOKEN.fullmatch(found) else ""


def remember_device(response: Response, device: str) -> Response:
    """The answer, setting the cookie that lists the device's matches on its home page."""
    response.set_cookie(
        DEVICE_COOKIE,
        device,
        max_age=DEVICE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


def device_matches() -> list[Match]:
    """This device's newest matches (``MATCHES_LISTED`` of them; none without a cookie)."""
    mine = device()
    return store.matches_for_device(get_session(), mine)[:MATCHES_LISTED] if mine else []


# --- Links -----------------------------------------------------------------------------------


def board_url(match: Match, editable: bool) -> str:
    if editable:
        return url_for("pages.scoreboard", edit=match.edit_token)
    return url_for("pages.view", view=match.view_token)


def round_url(match: Match, editable: bool, number: int) -> str:
    if editable:
        return url_for("rounds.show", edit=match.edit_token, number=number)
    return url_for("rounds.view", view=match.view_token, number=number)


def links(match: Match, editable: bool) -> dict[str, str]:
    """The addresses a page shows; the read-only ones never contain the edit token."""
    own = board_url(match, editable)
    out = {
        "view_url": url_for("pages.view", view=match.view_token, _external=True),
        "board_url": own,
        "pdf_url": own + "/sheet.pdf",
        "csv_url": own + "/export.csv",
        "json_url": url_for("match_json.match_json_view", view_token=match.view_token),
    }
    if editable:
        out["edit_url"] = url_for("pages.scoreboard", edit=match.edit_token, _external=True)
    return out


@functools.lru_cache(maxsize=1024)
def qr_svg(url: str) -> Markup:
    """A QR code of ``url`` as inline SVG: a phone's camera joins the table from the screen.

    Kept per address: a scoreboard draws the same codes at each load (19 ms each)."""
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=5, border=2, dark="#000", light="#fff", omitsize=True))


def draft_key(match: Match, number: int | None) -> str:
    """Where drafts.js keeps the unsaved entries of a round form on this device."""
    return f"companion:{match.view_token}:{number or 'new'}"


# --- A game in the page's language -------------------------------------------------------


def descriptor(game: Game) -> Description:
    """The game's description with every word of the game (names, questions, labels) in the
    page's language."""
    return game.describe().translated(lambda text: _(text))


def game_of(match: Match) -> Game:
    return get_game(match.game)


def card_text(desc: Description, colour: str, value: int) -> str:
    """A card of the described game in its notation (``R7``, ``10H``): ``Card.text``."""
    return Card(colour, value, get_game(desc.id).deck).text


def example_cards(desc: Description, *values: int) -> str:
    """Cards of the game's colours in turn, for a field's placeholder: ``B3 G12``."""
    colours = [c.code for c in desc.cards.colours]
    return " ".join(card_text(desc, colours[i % len(colours)], v) for i, v in enumerate(values))


def example_run(desc: Description) -> str:
    """Three cards in a row of the first colour, for a meld's placeholder."""
    colour = desc.cards.colours[0].code
    return " ".join(card_text(desc, colour, v) for v in (3, 4, 5))


# --- Entry problems next to their fields -------------------------------------------------


def place(problems: Iterable[Problem], form: RoundForm) -> dict[str, list[str]]:
    """Each problem's words, by the id of the field they belong next to (``form``: the top).

    A problem says where it is (player, meld, field); nothing is read from its words. Next
    to a player's own field the words leave out who and where; at the top they say it.
    """
    tr = translator()
    out: dict[str, list[str]] = {}
    for problem in problems:
        target, text = _target(problem, form, tr)
        out.setdefault(target, []).append(text)
    return out


def asked(problems: Iterable[Problem], form: RoundForm) -> dict[str, list[int]]:
    """The melds whose joker the table must name (D17-6: the round depends on which card it
    stands for), by the id of the melds field: the form offers their readings there."""
    out: dict[str, list[int]] = {}
    for problem in problems:
        seat = _seat(form.names, problem.player)
        if seat is None or problem.meld is None or "could" not in problem.params:
            continue
        entry = form.players[seat].form
        if "melds" in entry:
            out.setdefault(entry["melds"].id, []).append(problem.meld)
    return out


def summary(placed: dict[str, list[str]], names: list[str]) -> list[dict[str, str]]:
    """The problems of a refused round for the box at the top of the form, each linking to
    its field and saying whose it is (next to the field the name is left out)."""
    out = []
    for target, texts in placed.items():
        seat = target.split("-")[1] if target.startswith("players-") else ""
        who = names[int(seat)] if seat.isdigit() and int(seat) < len(names) else ""
        out += [{"id": target, "who": who, "text": text} for text in texts]
    return out


def _target(problem: Problem, form: RoundForm, tr: Translator) -> tuple[str, str]:
    top = {"bonus_cards", "last_discard", *form.endings}
    if problem.field in top and problem.field in form:
        return form[problem.field].id, sentence(problem.reason(tr))
    seat = _seat(form.names, problem.player)
    if seat is not None:
        entry = form.players[seat].form
        if problem.meld is not None and "melds" in entry:
            words = _("Meld %(n)s: %(reason)s", n=problem.meld, reason=problem.reason(tr))
            return entry["melds"].id, words
        if problem.field == "melds" and "melds" in entry:
            return entry["melds"].id, sentence(problem.reason(tr))
        return entry[form.holding].id, sentence(problem.reason(tr))
    return FORM, sentence(problem.message(tr))


def _seat(names: list[str], player: str | None) -> int | None:
    if player is None:
        return None
    keys = [name_key(n) for n in names]
    key = name_key(player)
    return keys.index(key) if key in keys else None


def merge(*placed: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """Several placements of problems in one, in order."""
    out: dict[str, list[str]] = {}
    for one in placed:
        for key, texts in one.items():
            out.setdefault(key, []).extend(texts)
    return out


def cards_and_counts(form: RoundForm) -> dict[str, list[str]]:
    """Cards and counts for one player: the form cannot tell which one is meant."""
    message = gw(form.descriptor, "Give the cards or the count, not both.")
    return {form.players[i].form[form.holding].id: [message] for i in form.both_given()}


def changed_since(match: Match, revision: int | None) -> list[str]:
    """The history entries written after ``revision``, in words (one entry per revision)."""
    entries = store.history(match)
    newer = match.revision - revision if revision is not None else 1
    tr = translator()
    return [store.describe(e, tr, match.game) for e in entries[-newer:]] if newer > 0 else []
