"""The JSON API: the contract's score, match and check, the games, and matches over HTTP.

The views only parse and answer: the rules core and the store do the work, and their errors
become answers (``EntryError`` → 422 with the contract's error object; a stale ``If-Match``
→ 412 with the current revision; a write that lost a race without ``If-Match`` → 409).
Error messages are rendered through ``translator()``: English until the API is translated.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request
from flask_babel import gettext as _

from companion import domain as rules
from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.models import Match
from companion.domain import (
    EntryError,
    all_games,
    check_meld,
    check_redeal,
    check_turn,
    documents,
    get_game,
    localize,
    match_document,
    score_document,
)
from companion.domain.bounds import MAX_DEPTH, MAX_INT
from companion.domain.club import standings
from companion.domain.documents import Document, parse
from companion.domain.messages import N_, register
from companion.domain.names import name_key
from companion.services import saving
from companion.services.commands import (
    AddRound,
    Command,
    DeleteRound,
    Later,
    OpenParts,
    ReplaceRound,
    SendPart,
    StartMatch,
    StopParts,
)
from companion.services.handlers import handle
from companion.web.api import openapi
from companion.web.api.answers import (
    IF_MATCH,
    IF_MATCH_OR_KEY,
    based_on,
    once_of,
    precondition,
    written,
)
from companion.web.api.answers import problem as _problem
from companion.web.language import translator
from companion.web.ratelimit import creating

#: The JSON API, every part of it (companion.web.api.events adds the events' routes): one
#: blueprint at /api/v1, exempted once from the CSRF token and the Origin check (app.py,
#: security.same_origin): it uses no cookies.
bp = Blueprint("api", __name__, url_prefix="/api/v1")
#: A match's read-only JSON beside its read-only page (not part of the API's paths).
match_json_bp = Blueprint("match_json", __name__)

register(
    {
        "cards-not-list": N_('{field} must be a list of cards, e.g. ["R3", "R4", "*R"]'),
        "match-not-found": N_("there is no match at this link"),
        "game-not-found": N_("there is no game {game!r}; the games are {games}"),
        "tiles-not-list": N_('tiles must be a list of tiles, e.g. ["R1", "R1", "K5"]'),
    }
)

#: The fields of ``POST /api/v1/matches``.
MATCH_FIELDS = ("game", "players", "first_dealer", "games", "title")


def error(status: int, message: str, **fields: Any) -> tuple[Response, int]:
    """A JSON error answer: ``{"error": {"message": ..., ...}}``."""
    return jsonify({"error": {"message": message, **fields}}), status


class _Refused(ValueError):
    """A body that is JSON text but no document: too deep, NaN, a lone surrogate, a NUL."""


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise _Refused(f"number {text[:20]} is too large")
    return value


def _bounded(text: str) -> int:
    if len(text.lstrip("-")) > 16:
        raise _Refused(f"number {text[:20]}… is too large")
    return int(text)


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not JSON")


def _inspect(value: Any) -> None:
    """Walk the parsed body (without recursion): depth, size of numbers, text we can store."""
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise _Refused(f"nested more than {MAX_DEPTH} deep")
        if isinstance(item, dict):
            todo += [(k, depth) for k in item]
            todo += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, depth + 1) for v in item]
        elif isinstance(item, str):
            if "\x00" in item:
                raise _Refused("text holds a NUL character")
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise _Refused("text holds a lone surrogate") from None
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_INT:
            raise _Refused("a number is too large")


def _body() -> Any:
    """The request body as JSON, whatever the Content-Type; 400 when it is not a JSON document
    we can take: not UTF-8, not JSON, nested too deep, NaN or Infinity, numbers too large, or
    text that cannot be stored (a NUL, a lone surrogate). Checked here, at the edge, so the
    rules core and the database only ever see plain, bounded JSON."""
    raw = request.get_data(cache=True)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        abort(400, description=_("The request body is not UTF-8 text."))
    try:
        body = json.loads(
            text, parse_constant=_no_constant, parse_float=_finite, parse_int=_bounded
        )
        _inspect(body)
    except json.JSONDecodeError as err:
        abort(
            400,
            description=_(
                "The request body is not JSON: %(msg)s at line %(line)d, column %(col)d.",
                msg=err.msg,
                line=err.lineno,
                col=err.colno,
            ),
        )
    except (_Refused, RecursionError) as err:
        reason = str(err) if isinstance(err, _Refused) else f"nested more than {MAX_DEPTH} deep"
        abort(400, description=_("The request body cannot be read: %(reason)s.", reason=reason))
    return body


def _game_named(body: Any) -> str | None:
    """The game a request body names (its ``game``), when it is one of the app's."""
    game = body.get("game") if isinstance(body, dict) else None
    return game if isinstance(game, str) and game in {g.id for g in all_games()} else None


def _ruled(
    func: Callable[[Any], dict[str, Any]], model: type[Document] | None = None
) -> tuple[Response, int]:
    """The rules core's ``func`` on the request's body, parsed once into ``model``: 200 with
    its answer in the reader's language, or 422 with what is wrong."""
    body: Any = None
    try:
        body = _body()
        typed = parse(model, body) if model is not None else body  # once, at the edge
        return jsonify(localize(func(typed), translator(), _game_named(body))), 200
    except EntryError as err:
        err.at(context=_game_named(body))  # said in the game's words
        return _problem(err, 422), 422


def _round() -> documents.Round:
    """The request's ``ROUND`` document, parsed (within the edge's limits)."""
    return parse(documents.Round, _body())


def _fields(body: Any, fields: tuple[str, ...], example: str) -> dict[str, Any]:
    """The body as an object holding only ``fields``; ``EntryError`` otherwise."""
    if not isinstance(body, dict):
        raise EntryError("body-not-object", example=example)
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise EntryError("body-unknown-field", key=unknown[0], fields=", ".join(fields))
    return body


def _check(body: Any) -> dict[str, Any]:
    body = _fields(body, ("game", "cards"), '{"game": ..., "cards": [...]}')
    cards = body.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise EntryError("cards-not-list", field="cards")
    checked = parse(documents.CheckBody, body)
    return check_meld(checked.game, list(checked.cards))


@bp.post("/score")
def score() -> tuple[Response, int]:
    """Score one round (contract ``score``)."""
    return _ruled(score_document, documents.Round)


@bp.post("/match")
def match() -> tuple[Response, int]:
    """Score a whole match (contract ``match``)."""
    return _ruled(match_document, documents.MatchDocument)


@bp.post("/standings")
def event_standings() -> tuple[Response, int]:
    """The standings of an event of several tables (contract ``standings``, EV-5)."""
    return _ruled(standings, documents.EventDocument)


@bp.post("/check")
def check() -> tuple[Response, int]:
    """Is this a legal meld? (contract ``check``; 200 either way, ``valid`` says which)."""
    return _ruled(_check)


def _rescue(body: Any) -> dict[str, Any]:
    body = _fields(body, ("game", "cards"), '{"game": ..., "cards": [...]}')
    cards = body.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise EntryError("cards-not-list", field="cards")
    rescued = parse(documents.RescueBody, body)
    return get_game(rescued.game).rescue(rescued.cards)


@bp.post("/rescue")
def rescue() -> tuple[Response, int]:
    """Put the table back (contract ``rescue``; 200 either way, ``solved`` says which)."""
    return _ruled(_rescue)


# --- games --------------------------------------------------------------------------------


@bp.get("/games")
def game_list() -> Response:
    """Every game's descriptor, in the rulebooks' order."""
    return jsonify([game.descriptor() for game in all_games()])


@bp.get("/games/<game_id>")
def game_descriptor(game_id: str) -> Response:
    """One game's descriptor; 404 for an unknown game."""
    known = [game.id for game in all_games()]
    if game_id not in known:
        err = EntryError("game-not-found", game=game_id, games=", ".join(known))
        return _problem(err, 404)
    return jsonify(get_game(game_id).descriptor())


@bp.get("/openapi.json")
def openapi_document() -> Response:
    """The OpenAPI 3.1 document of this API (request bodies: the edge's models)."""
    return jsonify(openapi.document())


# --- matches over HTTP --------------------------------------------------------------------


def match_answer(match: Match, *, editing: bool) -> dict[str, Any]:
    """A match as the contract gives it: revision, document and result (tokens with edit)."""
    out: dict[str, Any] = {}
    if editing:
        out["edit"] = match.edit_token
        out["view"] = match.view_token
    out["revision"] = match.revision
    out["document"] = store.as_document(match)
    out["result"] = store.result(match)
    return out


def _match_response(match: Match, status: int = 200, *, editing: bool = True) -> Response:
    response = jsonify(match_answer(match, editing=editing))
    response.status_code = status
    response.set_etag(str(match.revision))
    return response


def _not_found() -> Response:
    return _problem(EntryError("match-not-found"), 404)


def _editable(token: str) -> Match | None:
    """The match this edit token opens; a view token opens nothing here."""
    return store.get_by_edit_token(get_session(), token)


def _write(
    token: str,
    status: int,
    command: Callable[[Match, int | None, store.Once | None], Command],
    *,
    required: str,
) -> Response:
    """Handle the ``command`` built for the match of an edit token and answer the match, or
    the error.

    With an ``Idempotency-Key``, a retry of a write already done changes nothing and gets
    the same answer as the first (the match as it is now): the key is looked up before
    ``If-Match`` and the body are read (``Later``).
    """
    match = _editable(token)
    if match is None:
        return _not_found()
    try:
        once = once_of(f"api:match:{match.id}")
    except EntryError as refusal:
        return _problem(refusal, 422)
    later = Later(once, lambda: command(match, precondition(match, once, required), once))

    def respond(saved: saving.Done[Any] | saving.Replayed) -> Response:
        return _match_response(saved.match if isinstance(saved, saving.Replayed) else match, status)

    return written(later, match, respond, context=match.game)  # in the game's words


@bp.post("/matches")
@creating
def create_match() -> Response:
    """Start a match: ``{"game", "players", "first_dealer", "games"?, "title"?}`` → 201."""
    body = _body()
    try:
        once = once_of("api:create")
    except EntryError as err:
        return _problem(err.at(context=_game_named(body)), 422)

    def build() -> Command:
        fields = _fields(body, MATCH_FIELDS, '{"game": ..., "players": [...], "first_dealer": ...}')
        new = parse(documents.MatchCreate, fields)
        return StartMatch(
            game=new.game,  # type: ignore[arg-type]
            players=new.players,  # type: ignore[arg-type]
            first_dealer=new.first_dealer,  # type: ignore[arg-type]
            games=new.games,
            title=new.title,
            once=once,
        )

    def respond(saved: saving.Done[Any] | saving.Replayed) -> Response:
        match = saved.match if isinstance(saved, saving.Replayed) else saved.value
        response = _match_response(match, 201)
        response.headers["Location"] = f"/api/v1/matches/{match.edit_token}"
        return response

    return written(Later(once, build), None, respond, context=_game_named(body))


@bp.get("/matches/<token>")
def read_match(token: str) -> Response:
    """A match by its edit or view token (``edit`` only in the answer to the edit token)."""
    session = get_session()
    found = store.get_by_edit_token(session, token)
    if found is not None:
        return _match_response(found, editing=True)
    found = store.get_by_view_token(session, token)
    if found is None:
        return _not_found()
    return _match_response(found, editing=False)


@bp.post("/matches/<token>/games")
def add_round(token: str) -> Response:
    """Add the next round (a ``ROUND`` document) → 201 with the match."""

    def command(match: Match, revision: int | None, once: store.Once | None) -> Command:
        return AddRound(match=match, round=_round(), revision=revision, once=once)

    return _write(token, 201, command, required=IF_MATCH_OR_KEY)


@bp.put("/matches/<token>/games/<int:number>")
def replace_round(token: str, number: int) -> Response:
    """Replace round ``number`` → 200 with the match; needs ``If-Match``."""

    def command(match: Match, revision: int | None, once: store.Once | None) -> Command:
        return ReplaceRound(
            match=match, number=number, round=_round(), revision=revision, once=once
        )

    return _write(token, 200, command, required=IF_MATCH)


@bp.delete("/matches/<token>/games/<int:number>")
def delete_round(token: str, number: int) -> Response:
    """Delete round ``number`` → 200 with the match; needs ``If-Match``."""

    def command(match: Match, revision: int | None, once: store.Once | None) -> Command:
        return DeleteRound(match=match, number=number, revision=revision, once=once)

    return _write(token, 200, command, required=IF_MATCH)


# --- own hands: every player enters their own part (contract "Own hands") ------------------


def _no_parts() -> Response:
    return _problem(EntryError("parts-none-open"), 404)


@bp.post("/matches/<token>/parts")
def open_parts(token: str) -> Response:
    """Open the next round's parts → 201 with one token per player; 200 when open already."""
    match = _editable(token)
    if match is None:
        return _not_found()

    def respond(saved: saving.Done[Any] | saving.Replayed) -> Response:
        assert isinstance(saved, saving.Done)  # no key: nothing to replay
        opened: store.Opened = saved.value
        seats = [{"name": p.name, "token": p.token} for p in opened.parts]
        response = jsonify({"round": store.next_number(match), "seats": seats})
        response.status_code = 201 if opened.created else 200
        return response

    command = OpenParts(match=match, revision=based_on(match))
    return written(command, match, respond, context=match.game)


def _open_parts(token: str) -> tuple[Match, list[Any]] | Response:
    """The match of an edit token and its open parts; else the 404 to answer."""
    match = _editable(token)
    if match is None:
        return _not_found()
    parts = store.open_of(get_session(), match)
    return (match, parts) if parts else _no_parts()


@bp.get("/matches/<token>/parts")
def read_parts(token: str) -> Response:
    """The scorekeeper reads every part of the open round (null: not sent yet)."""
    found = _open_parts(token)
    if isinstance(found, Response):
        return found
    return jsonify(store.parts_answer(found[1], found[0]))


@bp.delete("/matches/<token>/parts")
def drop_parts(token: str) -> Response:
    """Drop the open parts: their tokens answer 410 from now on."""
    found = _open_parts(token)
    if isinstance(found, Response):
        return found
    answer = store.parts_answer(found[1], found[0])
    handle(get_session(), StopParts(match=found[0]))
    return jsonify(answer)


def _part_gone(err: store.PartClosed, match: Match) -> Response:
    """410: the round was saved (with the part as saved, and whether it was changed) or the
    parts were dropped."""
    part = err.part
    extra: dict[str, Any] = {"round": part.number, "name": part.name}
    if part.state == "saved":
        extra["saved"] = part.saved
        extra["changed"] = store.changed_by_keeper(part)
    return _problem(err.at(context=match.game), 410, **extra)


def _part(token: str) -> tuple[Any, Match] | Response:
    """The part of a part token and its match; else the 404 to answer."""
    session = get_session()
    part = store.part_by_token(session, token)
    match = session.get(Match, part.match_id) if part is not None else None
    if part is None or match is None:
        return _problem(EntryError("part-not-found"), 404)
    return part, match


@bp.get("/parts/<token>")
def read_part(token: str) -> Response:
    """One player's part by its token (``part`` null before the first PUT); 410 once closed."""
    found = _part(token)
    if isinstance(found, Response):
        return found
    part, match = found
    if part.state != "open":
        return _part_gone(store.PartClosed(part), match)
    return jsonify(store.part_answer(part, match))


def _own(body: Any, name: str) -> Any:
    """A part that names its own player anyway (a ROUND's player object as it is) is taken
    without the name; another player's name stays, and is refused as no field of a part."""
    if isinstance(body, dict) and isinstance(body.get("name"), str):
        if name_key(body["name"]) == name_key(name):
            return {k: v for k, v in body.items() if k != "name"}
    return body


@bp.put("/parts/<token>")
def write_part(token: str) -> Response:
    """Enter one player's part; 422 when it is bad on its own (nothing stored), 410 once closed."""
    found = _part(token)
    if isinstance(found, Response):
        return found
    part, match = found
    try:
        body = _own(_body(), part.name)
        typed = parse(documents.PartBody, body) if isinstance(body, dict) else body
        handle(get_session(), SendPart(part=part, body=typed))
    except store.PartClosed as err:
        return _part_gone(err, match)
    except EntryError as err:
        return _problem(err.at(player=part.name, context=match.game), 422)
    return jsonify(store.part_answer(part, match))


# --- the read-only link as JSON -----------------------------------------------------------


def match_json(match: Match) -> dict[str, Any]:
    """What the read-only link shows as JSON: the result, and the match document as entered.

    ``document`` is exactly what ``companion match`` reads; the edit token is never included.
    """
    out = store.result(match)
    out["title"] = match.title
    out["players"] = list(match.players)
    out["first_dealer"] = match.first_dealer
    out["games"] = match.games
    out["created"] = match.created.isoformat()
    out["revision"] = match.revision
    out["document"] = store.as_document(match)
    return out


@match_json_bp.get("/v/<view_token>.json")
def match_json_view(view_token: str) -> Response:
    """A match as JSON at its read-only link plus ``.json``."""
    found = store.get_by_view_token(get_session(), view_token)
    if found is None:
        abort(404, description=_("There is no match at this link."))
    response = jsonify(match_json(found))
    response.set_etag(str(found.revision))
    return response


# --- the referee at the table: turn, knock, redeal (contract "turn", "knock"; RK-3) ---------


@bp.post("/turn")
def turn() -> tuple[Response, int]:
    """Is this turn legal? (contract ``turn``; 200 either way, ``valid`` says which)."""
    return _ruled(check_turn, documents.TurnBody)


@bp.post("/knock")
def knock() -> tuple[Response, int]:
    """Who gets the face-up card? (contract ``knock``, R17-8)."""
    return _ruled(lambda body: rules.knock(body, translator()), documents.KnockBody)


def _redeal(body: Any) -> dict[str, Any]:
    body = _fields(body, ("game", "tiles"), '{"game": ..., "tiles": [...]}')
    tiles = body.get("tiles")
    if not isinstance(tiles, list):
        raise EntryError("tiles-not-list", field="tiles")
    redeal = parse(documents.RedealBody, body)
    return check_redeal(redeal.game, list(redeal.tiles))


@bp.post("/redeal")
def redeal() -> tuple[Response, int]:
    """May a player ask for a reshuffle? ``{"game", "tiles"}`` (RK-3: three or more pairs)."""
    return _ruled(_redeal)


#: The API's edge for its other modules (the events' routes, the photos): the body within the
#: limits, and an ``EntryError`` as the contract's error object.
json_body = _body
error_response = _problem
