"""The JSON API (contract: score, match, check) and a match as JSON through its read-only link.

The views only parse and answer: the rules core does the work, and its ``EntryError``
becomes a 422 with the contract's error object.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request
from flask_babel import gettext as _

from companion import store
from companion.db import get_session
from companion.models import Match
from companion.rules import EntryError, check_meld, match_document, score_document

bp = Blueprint("api", __name__)


def error(status: int, message: str, **fields: Any) -> tuple[Response, int]:
    """A JSON error answer: ``{"error": {"message": ..., ...}}``."""
    return jsonify({"error": {"message": message, **fields}}), status


def _body() -> Any:
    """The request body as JSON, whatever the Content-Type; 400 when it is not JSON."""
    raw = request.get_data(cache=True)
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        abort(400, description=_("The request body is not UTF-8 text."))
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


def _answer(func: Callable[[Any], dict[str, Any]]) -> tuple[Response, int]:
    try:
        return jsonify(func(_body())), 200
    except EntryError as err:
        return jsonify(err.to_json()), 422


def _check(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise EntryError('the body must be a JSON object: {"game": ..., "cards": [...]}')
    unknown = set(body) - {"game", "cards"}
    if unknown:
        raise EntryError(f"unknown field {sorted(unknown)[0]!r}: the fields are game and cards")
    cards = body.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise EntryError('cards must be a list of cards, e.g. ["R3", "R4", "*R"]')
    game = body.get("game", "rummy17")
    if not isinstance(game, str):
        raise EntryError("game must be one of rummy17, rummikub, rummy-o, manipulation")
    return check_meld(game, cards)


@bp.post("/api/v1/score")
def score() -> tuple[Response, int]:
    """Score one round (contract ``score``)."""
    return _answer(score_document)


@bp.post("/api/v1/match")
def match() -> tuple[Response, int]:
    """Score a whole match (contract ``match``)."""
    return _answer(match_document)


@bp.post("/api/v1/check")
def check() -> tuple[Response, int]:
    """Is this a legal meld? (contract ``check``; 200 either way, ``valid`` says which)."""
    return _answer(_check)


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
    out["document"] = store.as_document(match)
    return out


def _read_only(view_token: str) -> Response:
    found = store.get_by_view_token(get_session(), view_token)
    if found is None:
        abort(404, description=_("There is no match at this link."))
    return jsonify(match_json(found))


@bp.get("/api/v1/matches/<view_token>")
def match_by_view_token(view_token: str) -> Response:
    """A match as JSON, by its read-only token."""
    return _read_only(view_token)


@bp.get("/v/<view_token>.json")
def match_json_view(view_token: str) -> Response:
    """A match as JSON at its read-only link plus ``.json``."""
    return _read_only(view_token)
