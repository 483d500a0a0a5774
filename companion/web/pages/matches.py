"""Start a match of any game, the scoreboard (edit and read-only), and the series' length.

The home page lists the games; each has its own start form (seats, who deals or starts, how
many rounds) drawn from the game's descriptor. The scoreboard shows every round, the totals,
who deals next and, once the series is over, offers one more round or a rematch.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from companion.adapters import cache, store
from companion.adapters.db import get_engine, get_session
from companion.adapters.models import Match
from companion.domain import EntryError, Game, all_games, check_names, get_game
from companion.domain.names import name_key
from companion.services import saving
from companion.services.commands import (
    Command,
    ForgetOnDevice,
    Later,
    Lengthen,
    Rematch,
    RestoreRound,
    StartMatch,
)
from companion.services.handlers import handle
from companion.web.language import gw, select_locale, translator
from companion.web.pages import offline
from companion.web.pages.chips import card_face, card_name, card_names, history_parts
from companion.web.pages.common import (
    by_edit,
    by_view,
    changed_since,
    descriptor,
    device,
    device_matches,
    game_of,
    links,
    page_context,
    qr_svg,
    remember_device,
    round_url,
    sentence,
)
from companion.web.pages.forms import WHOLE, ConfirmForm, MatchForm
from companion.web.ratelimit import creating

bp = Blueprint("pages", __name__)
bp.app_context_processor(page_context)
bp.add_app_template_global(card_face)  # the card macro's chip
bp.add_app_template_global(card_name)  # the card grid's keys, named as the chips are
bp.add_app_template_global(card_names)  # the same chips drawn by the pickers' scripts

# --- Choose a game, start a match ----------------------------------------------------------


@bp.get("/")
def index() -> str:
    """The app's first screen: choose a game to start a match; this device's matches."""
    return render_template(
        "index.html",
        games=[descriptor(g) for g in all_games()],
        matches=[_listing(m) for m in device_matches()],
        forget=ConfirmForm(),
    )


def _listing(match: Match) -> dict[str, Any]:
    """A match as the home page lists it: how far it has got and who leads (or won)."""
    result = store.result(match)
    standings = result["standings"]
    leaders = [s["name"] for s in standings if s["rank"] == 1] if result["rounds"] else []
    return {
        "match": match,
        "played": len(result["rounds"]),
        "planned": result.get("games"),
        "finished": result["finished"],
        "leaders": leaders,
        "total": result["totals"][leaders[0]] if leaders else None,
    }


@bp.post("/m/<edit>/forget")
def forget(edit: str) -> Response:
    """Take a match off this device's list; the match and its links stay as they are."""
    match = by_edit(edit)
    if ConfirmForm().validate() and device() and match.device == device():
        handle(get_session(), ForgetOnDevice(match=match))
        flash(
            _(
                "“%(match)s” is no longer listed on this device; its links still open it.",
                match=match.title or ", ".join(match.players),
            )
        )
    return redirect(url_for("pages.index"))


def _game(game_id: str) -> Game:
    try:
        return get_game(game_id)
    except EntryError:
        abort(404, description=_("There is no such game here."))


@bp.route("/start/<game_id>", methods=["GET", "POST"])
@creating
def start(game_id: str) -> Response | tuple[str, int]:
    """Start a match of one game: names in seat order, who goes first, how many rounds."""
    game = _game(game_id)
    form = MatchForm(game=game)
    status = 200
    if request.method == "POST":
        # A double tap, or the form sent again, leads to the match started first.
        once = form.once(START)
        try:
            saved = handle(get_session(), Later(once, lambda: _start(game, form, once)))
        except store.ConflictError:
            raise  # no twin of this post was stored first: a conflict
        except EntryError as err:
            _place_start_error(form, err)
            saved = saving.Done(None)
        match = saved.match if isinstance(saved, saving.Replayed) else saved.value
        if match is not None:
            return _started(match)
        status = 422
    return _start_page(game, form, status)


@bp.post("/start/<game_id>/random")
def pick_at_random(game_id: str) -> tuple[str, int]:
    """MR-1, and any table that wants it: "Pick at random" without JavaScript (start.js picks
    on the phone); the form comes back with the first dealer ticked and nothing started."""
    game = _game(game_id)
    form = MatchForm(game=game)
    seats = form.named_seats()
    if seats:
        form.first.data = str(secrets.choice(seats))
    else:
        form.form_errors.append(_("Type the names first, then pick at random."))
    return _start_page(game, form, 200)


def _start_page(game: Game, form: MatchForm, status: int) -> tuple[str, int]:
    return render_template("start.html", form=form, game=descriptor(game), rules=game), status


START = "form:start"


def _started(match: Match) -> Response:
    """Where starting a match leads: its scoreboard, on a device that remembers it."""
    response = redirect(url_for(".scoreboard", edit=match.edit_token))
    return remember_device(response, match.device) if match.device else response


def _start(game: Game, form: MatchForm, once: store.Once | None) -> StartMatch | None:
    """The start the form asks for; None when the form is not right (the problems are placed
    on it). ``EntryError``: what the rules core says is wrong with the names."""
    if not form.validate():
        return None
    names, chosen = form.seated()
    if chosen is None:
        # The names first (the rules core says what is wrong with them), then the tick.
        check_names(names, players=game.seats, rule=game.seats_rule, game=game.name)
        form.first.errors = [_("Tick the answer to “%(q)s”.", q=_(game.first_question))]
        return None
    return StartMatch(
        game=game.id,
        players=names,
        first_dealer=game.first_dealer(names, chosen),
        games=form.games.data,
        title=form.title.data or None,
        device=device() or secrets.token_urlsafe(24),
        once=once,
    )


def _place_start_error(form: MatchForm, err: EntryError) -> None:
    tr = translator()
    for problem in err.problems:
        text = sentence(problem.message(tr))
        if problem.field == "games":
            form.games.errors = [*form.games.errors, text]
            continue
        if problem.field == "title":
            form.title.errors = [*form.title.errors, text]
            continue
        # Last first: of two equal names, the second one is the one to change.
        for entry in reversed(form.names):
            if problem.player and name_key(entry.data or "") == name_key(problem.player):
                entry.errors = [*entry.errors, text]
                break
        else:
            form.form_errors.append(text)


# --- The scoreboard ------------------------------------------------------------------------


@bp.get("/m/<edit>")
def scoreboard(edit: str) -> str:
    """The scoreboard through the edit link: scores, totals, ranks, share links, history.

    Rendered once per revision, language and address like the read-only page (``view``), and
    kept with holes for what must be new on every load: the forms' CSRF token and idempotency
    key, and when the page was made (``HOLES``). Its revision is read from the database on
    every load, never trusted for a while: the scorekeeper's next load shows their own save,
    whichever server process stored it. A page with a message to show once (a flash, a draft
    to clear) is rendered afresh and not kept.
    """
    found = store.edit_revision(get_engine(), edit)
    if found is None:  # by_edit says why: no such match (404), or a table drawn again (410)
        return _board(by_edit(edit), editable=True).fill(PER_REQUEST)
    # The session is read on every load, as it always was (the answer varies with the cookie),
    # and holds a CSRF token from the first load on, whether or not this page has a form.
    pending = "_flashes" in session or "clear_draft" in session
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        generate_csrf()
    key = (edit, found[1], select_locale(), _address())
    stencil = None if pending else cache.pages.get(key)
    if stencil is None:
        match = by_edit(edit)
        stencil = _board(match, editable=True)
        if match.revision == found[1] and not pending:
            cache.pages.put(key, stencil)
    return stencil.fill(PER_REQUEST)


@bp.get("/v/<view>")
def view(view: str) -> Response:
    """The same scoreboard through the read-only link: nothing on it changes the match.

    It follows the match live: live.js asks again every second or two with the page's ETag
    (the match's revision and the page's language), and the answer is a bare 304 until the
    match changes. The revision is read from the database in one small query, so any number
    of server processes answer alike. A changed page is rendered once per revision, language
    and address and then served from a per-process cache (companion/adapters/cache.py): it holds no
    form, no token and nothing else that changes between two readers but the time it was
    made, filled in per request. A pending flash message is shown, and not cached.
    """
    found = store.view_revision(get_engine(), view)
    if found is None:
        abort(404, description=_("There is no match at this link."))
    lang = select_locale()
    tag = f"{found[1]}-{lang}"
    if request.if_none_match.contains(tag):
        unchanged = Response(status=304)
        unchanged.set_etag(tag)
        return unchanged
    flashed = _flashed()  # shown once: never cached
    key = (view, found[1], lang, _address())
    stencil = None if flashed else cache.pages.get(key)
    if stencil is None:
        match = by_view(view)
        tag = f"{match.revision}-{lang}"
        stencil = _board(match, editable=False, live_tag=tag)
        if match.revision == found[1] and not flashed:
            cache.pages.put(key, stencil)
    answer = make_response(stencil.fill(PER_REQUEST))
    answer.set_etag(tag)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


#: What differs between two loads of the same scoreboard page: it is rendered with a mark in
#: each place, kept, and the marks replaced on every load (``PER_REQUEST``).
HOLES = cache.Marks("csrf", "key", "rendered")
#: The values of the holes, made per request: the session's CSRF token (as the form would
#: write it), a fresh idempotency key for the page's forms (one per load, shared by its
#: forms as one ConfirmForm's is), and when the page was made ("as of …" when offline).
PER_REQUEST: dict[str, Callable[[], str]] = {
    "csrf": generate_csrf,
    "key": store.new_key,
    "rendered": lambda: str(offline.rendered()["rendered"]),
}


def _flashed() -> bool:
    """Whether a flash message waits in the session; a request without a session cookie
    does not load the session to find out."""
    if current_app.config["SESSION_COOKIE_NAME"] not in request.cookies:
        return False
    return "_flashes" in session


def _address() -> tuple[str, str | None, str | None]:
    """The page's address, for the page cache's key, as cheaply as the WSGI server gives it."""
    environ = request.environ
    return environ["wsgi.url_scheme"], environ.get("HTTP_HOST"), environ.get("QUERY_STRING")


def _board(match: Match, *, editable: bool, **extra: Any) -> cache.Stencil:
    """The scoreboard, rendered with ``HOLES`` for the per-request parts (``fill`` them)."""
    result = store.result(match)
    undo = store.undoable(get_session(), match) if editable else set()
    game = game_of(match)
    # the latest changes only; older ones a page at a time (?history=2).
    raw = request.args.get("history", "")
    asked = int(raw) if WHOLE.fullmatch(raw) else 1
    entries, pages = store.history_page(get_session(), match, asked)
    page = min(max(asked, 1), pages)
    confirm = None
    if editable:
        confirm = ConfirmForm(revision=str(match.revision))
        confirm.key.data = HOLES["key"]
        if "csrf_token" in confirm:  # CSRF protection on (off in most tests)
            confirm.csrf_token.current_token = HOLES["csrf"]
    html = render_template(
        "match.html",
        match=match,
        game=descriptor(game),
        rules=game,
        result=result,
        players=list(match.players),
        ranks={s["name"]: s["rank"] for s in result["standings"]},
        winners=[s["name"] for s in result["standings"] if s["rank"] == 1],
        history=[
            {
                "id": h["id"],
                "when": h["when"],
                "parts": history_parts(h, store.describe, match.game),
                "undo": h["id"] in undo,
            }
            for h in entries
        ],
        history_page=page,
        history_pages=pages,
        editable=editable,
        round_url=lambda n: round_url(match, editable, n),
        clear_draft=session.pop("clear_draft", None) if editable else None,
        confirm=confirm,
        view_qr=qr_svg(url_for("pages.view", view=match.view_token, _external=True)),
        rendered=HOLES["rendered"],
        **links(match, editable),
        **extra,
    )
    return HOLES.stencil(html)


@bp.post("/m/<edit>/history/<int:change>/undo")
def undo(edit: str, change: int) -> Response | tuple[str, int]:
    """Undo a deletion from the history: the round is back with its number and dealer."""

    def back(number: int | None) -> Response:
        if number is not None:
            flash(gw(by_edit(edit).game, "Round %(n)s is back.", n=number))
        return redirect(url_for(".scoreboard", edit=edit))

    return _confirmed(
        edit,
        f"undo:{change}",
        lambda match, revision, once: RestoreRound(
            match=match, change=change, revision=revision, once=once
        ),
        back,
    )


def _confirmed(
    edit: str,
    scope: str,
    command: Callable[[Match, int | None, store.Once | None], Command],
    after: Callable[[int | None], Response],
) -> Response | tuple[str, int]:
    """A confirmed command from the scoreboard: done once per form (``after(None)`` for a
    double tap or a resent form), on the revision the page showed (else the conflict screen)."""
    match = by_edit(edit)
    form = ConfirmForm()
    if not form.validate():
        abort(400)
    once = form.once(f"form:{scope}:{match.id}")
    try:
        saved = handle(get_session(), command(match, form.based_on(), once))
    except store.ConflictError:
        return _changed(match, form.based_on())
    except EntryError as err:
        flash(sentence(err.problems[0].message(translator())))
        return redirect(url_for(".scoreboard", edit=edit))
    return after(None if isinstance(saved, saving.Replayed) else saved.value)


# --- The series' length: one more round, or a rematch ---------------------------------------


@bp.post("/m/<edit>/lengthen")
def lengthen(edit: str) -> Response | tuple[str, int]:
    """One more round after the last (D17-7, DK-3, DO-5): the series grows by one."""

    def command(match: Match, revision: int | None, once: store.Once | None) -> Command:
        return Lengthen(match=match, revision=revision, once=once)  # answers the new length

    def then(games: int | None) -> Response:
        if games is not None:
            flash(
                gw(by_edit(edit).game, "One more round: the match now has %(n)s rounds.", n=games)
            )
        return redirect(url_for("rounds.new", edit=edit))

    return _confirmed(edit, "lengthen", command, then)


@bp.post("/m/<edit>/rematch")
@creating
def rematch(edit: str) -> Response:
    """A new match at the same table: same game, seats and length; the next player begins."""
    match = by_edit(edit)
    form = ConfirmForm()
    if not form.validate():
        abort(400)
    once = form.once(f"form:rematch:{match.id}")
    again = Rematch(match=match, device=device() or secrets.token_urlsafe(24), once=once)
    saved = handle(get_session(), again)
    if isinstance(saved, saving.Replayed):
        return _started(saved.match)  # a double tap, or the form sent again
    flash(_("Rematch started. The old match keeps its own links."))
    return _started(saved.value)


def _changed(match: Match, revision: int | None) -> tuple[str, int]:
    """The scoreboard again, saying what someone else changed meanwhile; nothing was saved."""
    page = _board(match, editable=True, conflict=changed_since(match, revision))
    return page.fill(PER_REQUEST), 409
