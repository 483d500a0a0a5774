"""The OpenAPI 3.1 document of ``/api/v1``, served at ``GET /api/v1/openapi.json``.

Request bodies are the JSON schemas of the contract's typed documents (``documents``), so the
document and the checks cannot drift apart; the paths, headers and answers are written here
by hand, from the contract. No library builds it: the Flask OpenAPI libraries (flask-smorest,
apispec, spectree) would wrap every view in their own decorators and error handling, which
is churn for nine routes whose error object is the contract's.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from companion import __version__
from companion.adapters.models import KEY_LENGTH
from companion.domain import documents as api_models

REF = "#/components/schemas/{model}"
JSON = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str, **headers: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description, "content": {JSON: {"schema": schema}}}
    if headers:
        out["headers"] = headers
    return out


ERROR = {
    "type": "object",
    "description": "The contract's error object; ``revision`` with 409 and 412.",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["message"],
            "properties": {
                "message": {"type": "string", "description": "In the players' words."},
                "code": {"type": "string"},
                "params": {"type": "object"},
                "player": {"type": "string"},
                "meld": {"type": "integer"},
                "card": {"type": "string"},
                "rule": {"type": "string"},
                "field": {"type": "string"},
                "round": {"type": "integer"},
                "status": {"type": "integer"},
                "problems": {"type": "array", "items": {"type": "object"}},
            },
        },
        "revision": {"type": "integer"},
    },
}

RESULTS: dict[str, Any] = {
    "Error": ERROR,
    "TurnVerdict": {
        "type": "object",
        "description": "The contract's ``turn`` verdict: every problem with its clause.",
        "required": ["valid", "played", "problems", "melds"],
        "properties": {
            "valid": {"type": "boolean"},
            "played": {"type": "array", "items": {"type": "string"}},
            "value": {"type": ["integer", "null"]},
            "problems": {"type": "array", "items": {"type": "object"}},
            "melds": {"type": "array", "items": {"type": "object"}},
        },
    },
    "Knock": {
        "type": "object",
        "description": "The contract's ``knock`` answer (R17-8).",
        "required": ["gets", "rule", "reason", "refused"],
        "properties": {
            "gets": {"type": ["string", "null"]},
            "rule": {"type": "string"},
            "reason": {"type": "string"},
            "refused": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    },
    "Rescue": {
        "type": "object",
        "description": "The contract's ``rescue`` answer: melds, and what fits nowhere.",
        "required": ["solved", "melds"],
        "properties": {
            "solved": {"type": "boolean"},
            "melds": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
            "unplaceable": {"type": "array", "items": {"type": "string"}},
        },
    },
    "Redeal": {
        "type": "object",
        "description": "May the player ask for a reshuffle? (RK-3)",
        "required": ["redeal", "rule"],
        "properties": {
            "redeal": {"type": "boolean"},
            "pairs": {"type": "array"},
            "rule": {"type": "string"},
            "reason": {"type": "string"},
        },
    },
    "RoundResult": {
        "type": "object",
        "description": "The contract's ``score`` result (its fields differ by game).",
        "required": ["game", "players"],
        "properties": {
            "game": {"type": "string"},
            "players": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "score"],
                    "properties": {"name": {"type": "string"}, "score": {"type": "integer"}},
                },
            },
        },
    },
    "Event": {
        "type": "object",
        "description": "An event: tokens (edit with the organiser's), revision, settings, "
        "each seated session's tables, and the standings (EV-5).",
        "required": ["view", "revision", "event", "standings"],
        "properties": {
            "edit": {"type": "string"},
            "view": {"type": "string"},
            "revision": {"type": "integer"},
            "event": {"type": "object"},
            "standings": {"type": "object"},
        },
    },
    "StandingsResult": {
        "type": "object",
        "description": "The contract's ``standings`` result (EV-5, EV-6), best first.",
        "required": ["game", "finished", "standings"],
        "properties": {
            "game": {"type": "string"},
            "finished": {"type": "boolean"},
            "standings": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": [
                        "rank",
                        "name",
                        "score",
                        "sessions",
                        "totals",
                        "rounds_won",
                        "missed",
                        "provisional",
                    ],
                    "properties": {
                        "rank": {"type": "integer"},
                        "name": {"type": "string"},
                        "score": {"type": "number"},
                        "sessions": {"type": "array", "items": {"type": ["number", "null"]}},
                        "totals": {"type": "integer"},
                        "rounds_won": {"type": "integer"},
                        "missed": {"type": "integer"},
                        "provisional": {"type": "boolean"},
                    },
                },
            },
        },
    },
    "MatchResult": {
        "type": "object",
        "description": "The contract's ``match`` result.",
        "required": ["game", "rounds", "totals", "standings", "finished"],
        "properties": {
            "game": {"type": "string"},
            "rounds": {"type": "array", "items": {"type": "object"}},
            "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
            "standings": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["rank", "name", "total"],
                    "properties": {
                        "rank": {"type": "integer"},
                        "name": {"type": "string"},
                        "total": {"type": "integer"},
                    },
                },
            },
            "finished": {"type": "boolean"},
            "games": {"type": ["integer", "null"]},
        },
    },
    "Verdict": {
        "type": "object",
        "description": "The contract's ``check`` verdict.",
        "required": ["valid"],
        "properties": {
            "valid": {"type": "boolean"},
            "kind": {"type": ["string", "null"]},
            "cards": {"type": "array", "items": {"type": "string"}},
            "value": {"type": ["integer", "null"]},
            "reason": {"type": "string"},
            "rule": {"type": ["string", "null"]},
        },
    },
    "Game": {
        "type": "object",
        "description": "A game's descriptor: everything a page needs to draw its entry.",
        "required": ["id", "name", "seats"],
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "seats": {"type": "array", "items": {"type": "integer"}},
        },
    },
    "Match": {
        "type": "object",
        "description": "A match over HTTP; ``edit`` and ``view`` only with the edit token.",
        "required": ["revision", "document", "result"],
        "properties": {
            "edit": {"type": "string"},
            "view": {"type": "string"},
            "revision": {"type": "integer", "minimum": 1},
            "document": {"$ref": "#/components/schemas/MatchDocument"},
            "result": {"$ref": "#/components/schemas/MatchResult"},
        },
    },
}

PARTS_RESULTS: dict[str, Any] = {
    "PartsOpened": {
        "type": "object",
        "description": "The next round's parts, open: one token per player, in seat order.",
        "required": ["round", "seats"],
        "properties": {
            "round": {"type": "integer", "minimum": 1},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "token"],
                    "properties": {"name": {"type": "string"}, "token": {"type": "string"}},
                },
            },
        },
    },
    "Parts": {
        "type": "object",
        "description": "Every player's part as sent so far (null: not yet).",
        "required": ["round", "parts"],
        "properties": {
            "round": {"type": "integer", "minimum": 1},
            "parts": {"type": "object", "additionalProperties": {"type": ["object", "null"]}},
        },
    },
    "Part": {
        "type": "object",
        "description": "One player's part (null before the first PUT).",
        "required": ["round", "name", "part"],
        "properties": {
            "round": {"type": "integer", "minimum": 1},
            "name": {"type": "string"},
            "part": {"type": ["object", "null"]},
        },
    },
}
RESULTS.update(PARTS_RESULTS)

PART_TOKEN = {
    "name": "token",
    "in": "path",
    "required": True,
    "description": "A part token: one player's part of the open round, and nothing else.",
    "schema": {"type": "string"},
}

ETAG = {"description": 'The match\'s revision, e.g. "7".', "schema": {"type": "string"}}
TOKEN = {
    "name": "token",
    "in": "path",
    "required": True,
    "description": "A match's edit token (writes) or edit or view token (reads).",
    "schema": {"type": "string"},
}
NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "description": "The round's number, 1 for the first.",
    "schema": {"type": "integer", "minimum": 1, "maximum": 100000},
}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "description": "The revision the write is based on (the ETag), or *.",
    "schema": {"type": "string"},
}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "description": "A retry with the same key and body is stored once and answered the same.",
    "schema": {"type": "string", "pattern": f"^[!-~]{{1,{KEY_LENGTH}}}$"},
}
ACCEPT_LANGUAGE = {
    "name": "Accept-Language",
    "in": "header",
    "description": "The language of reason and message (en, hu, de, bg).",
    "schema": {"type": "string"},
}


def _errors(*codes: int) -> dict[str, Any]:
    words = {
        400: "The body is not a JSON document the app can take.",
        404: "No match (or game) at this token (or id).",
        409: "Someone else's change got there first; nothing was changed.",
        410: "The part's round was saved, or its parts dropped: it can no longer change.",
        412: "If-Match names an older revision; nothing was changed.",
        413: "The body is larger than the app takes.",
        415: "The body is not a JPEG, PNG or WebP photo.",
        422: "Bad input: the error object says what, naming player, meld and field.",
        428: "If-Match (or, for a POST, an Idempotency-Key) is required; nothing was changed.",
        429: (
            "This client address has started as many matches and events as it may for now "
            "(COMPANION_CREATE_LIMIT, per moving hour); Retry-After says when to try again."
        ),
    }
    out = {str(code): _json(_ref("Error"), words[code]) for code in codes}
    if 429 in codes:
        out["429"]["headers"] = {
            "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
        }
    return out


def _body(model: str, description: str) -> dict[str, Any]:
    return {
        "required": True,
        "description": description,
        "content": {JSON: {"schema": _ref(model)}},
    }


def _document_op(summary: str, model: str, result: str) -> dict[str, Any]:
    return {
        "summary": summary,
        "parameters": [ACCEPT_LANGUAGE],
        "requestBody": _body(model, summary),
        "responses": {"200": _json(_ref(result), "The answer."), **_errors(400, 413, 422)},
    }


#: ``POST /api/v1/photos`` (contract "Photos"): the tiles read off a photo.
PHOTOS_OP: dict[str, Any] = {
    "summary": "Read the tiles off a photo of a rack or the table (rummikub, rummy-o)",
    "parameters": [
        {"name": "game", "in": "query", "required": True, "schema": {"type": "string"}},
        {
            "name": "as",
            "in": "query",
            "required": False,
            "schema": {"type": "string", "enum": ["rack", "table"], "default": "rack"},
        },
        ACCEPT_LANGUAGE,
    ],
    "requestBody": {
        "required": True,
        "description": "The photo, up to 16 MiB; read in memory, never stored or logged.",
        "content": {
            kind: {"schema": {"type": "string", "format": "binary"}}
            for kind in ("image/jpeg", "image/png", "image/webp")
        },
    },
    "responses": {
        "200": _json(
            {
                "type": "object",
                "required": ["game", "as", "tiles", "boxes", "unsure"],
                "properties": {
                    "game": {"type": "string"},
                    "as": {"type": "string", "enum": ["rack", "table"]},
                    "tiles": {"type": "array", "items": {"type": "string"}},
                    "boxes": {
                        "type": "array",
                        "items": {
                            "type": "array",
                            "items": {"type": "number"},
                            "minItems": 4,
                            "maxItems": 4,
                        },
                    },
                    "unsure": {"type": "array", "items": {"type": "integer"}},
                    "melds": {
                        "type": "array",
                        "items": {"type": "array", "items": {"type": "string"}},
                    },
                    "loose": {"type": "array", "items": {"type": "integer"}},
                },
            },
            "The tiles in reading order, their boxes and the unsure ones.",
        ),
        **_errors(413, 415, 422),
    },
}


EVENT_TOKEN = {
    "name": "token",
    "in": "path",
    "required": True,
    "description": "An event's organiser token (writes) or either token (reads).",
    "schema": {"type": "string"},
}
ENTRANT = {
    "name": "name",
    "in": "path",
    "required": True,
    "description": "The entrant's name, as entered.",
    "schema": {"type": "string"},
}


def _event_op(summary: str, status: int, errors: tuple[int, ...], **extra: Any) -> dict[str, Any]:
    answer = _json(_ref("Event"), "The event.", ETag=ETAG)
    return {"summary": summary, **extra, "responses": {str(status): answer, **_errors(*errors)}}


def _match_op(
    summary: str,
    status: int,
    errors: tuple[int, ...],
    headers: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    answer = _json(_ref("Match"), "The match.", ETag=ETAG, **(headers or {}))
    return {"summary": summary, **extra, "responses": {str(status): answer, **_errors(*errors)}}


@cache
def document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``/api/v1``."""
    models: list[type[BaseModel]] = [
        api_models.Round,
        api_models.MatchDocument,
        api_models.EventDocument,
        api_models.EventCreate,
        api_models.EntrantBody,
        api_models.CheckBody,
        api_models.MatchCreate,
        api_models.TurnBody,
        api_models.KnockBody,
        api_models.RescueBody,
        api_models.RedealBody,
        api_models.PartBody,
    ]
    _, defs = models_json_schema([(m, "validation") for m in models], ref_template=REF)
    schemas = {**defs.get("$defs", {}), **RESULTS}
    writes = [TOKEN, IF_MATCH, IDEMPOTENCY_KEY]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Companion",
            "version": __version__,
            "description": "Score rummy rounds and matches, check melds, keep matches.",
        },
        "paths": {
            "/api/v1/score": {"post": _document_op("Score one round", "Round", "RoundResult")},
            "/api/v1/match": {
                "post": _document_op("Score a whole match", "MatchDocument", "MatchResult")
            },
            "/api/v1/check": {
                "post": _document_op("Is this a legal meld?", "CheckBody", "Verdict")
            },
            "/api/v1/standings": {
                "post": _document_op(
                    "The standings of an event of several tables (EV-5)",
                    "EventDocument",
                    "StandingsResult",
                )
            },
            "/api/v1/turn": {
                "post": _document_op("Is this turn legal?", "TurnBody", "TurnVerdict")
            },
            "/api/v1/knock": {
                "post": _document_op("Who gets the face-up card? (R17-8)", "KnockBody", "Knock")
            },
            "/api/v1/rescue": {
                "post": _document_op("Put the table back (RK-11)", "RescueBody", "Rescue")
            },
            "/api/v1/redeal": {
                "post": _document_op(
                    "May the first tiles be redealt? (RK-3)", "RedealBody", "Redeal"
                )
            },
            "/api/v1/photos": {"post": PHOTOS_OP},
            "/api/v1/games": {
                "get": {
                    "summary": "Every game's descriptor",
                    "responses": {
                        "200": _json({"type": "array", "items": _ref("Game")}, "The games.")
                    },
                }
            },
            "/api/v1/games/{game_id}": {
                "get": {
                    "summary": "One game's descriptor",
                    "parameters": [
                        {
                            "name": "game_id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                    "responses": {"200": _json(_ref("Game"), "The game."), **_errors(404)},
                }
            },
            "/api/v1/openapi.json": {
                "get": {
                    "summary": "This document",
                    "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1.")},
                }
            },
            "/api/v1/matches": {
                "post": _match_op(
                    "Start a match",
                    201,
                    (400, 413, 422, 429),
                    headers={
                        "Location": {
                            "description": "The match's address (edit token).",
                            "schema": {"type": "string"},
                        }
                    },
                    parameters=[IDEMPOTENCY_KEY, ACCEPT_LANGUAGE],
                    requestBody=_body("MatchCreate", "The game, players and first dealer."),
                )
            },
            "/api/v1/events": {
                "post": _event_op(
                    "Start an event (EV-1)",
                    201,
                    (400, 413, 422, 429),
                    parameters=[IDEMPOTENCY_KEY, ACCEPT_LANGUAGE],
                    requestBody=_body("EventCreate", "The game, entrants and sessions."),
                )
            },
            "/api/v1/events/{token}": {
                "get": _event_op("An event by either token", 200, (404,), parameters=[EVENT_TOKEN])
            },
            "/api/v1/events/{token}/sessions": {
                "post": _event_op(
                    "Seat the next session (EV-2, EV-3)",
                    201,
                    (404, 409, 412, 422, 428),
                    parameters=[EVENT_TOKEN, IF_MATCH, IDEMPOTENCY_KEY, ACCEPT_LANGUAGE],
                )
            },
            "/api/v1/events/{token}/redraw": {
                "post": _event_op(
                    "Draw the last session again before play (EV-3)",
                    200,
                    (404, 409, 412, 422, 428),
                    parameters=[EVENT_TOKEN, IF_MATCH, IDEMPOTENCY_KEY, ACCEPT_LANGUAGE],
                )
            },
            "/api/v1/events/{token}/entrants": {
                "post": _event_op(
                    "A late arrival (EV-1)",
                    200,
                    (400, 404, 409, 412, 413, 422, 428),
                    parameters=[EVENT_TOKEN, IF_MATCH, IDEMPOTENCY_KEY, ACCEPT_LANGUAGE],
                    requestBody=_body("EntrantBody", "The entrant's name."),
                )
            },
            "/api/v1/events/{token}/entrants/{name}": {
                "delete": _event_op(
                    "An entrant withdraws (EV-1)",
                    200,
                    (404, 409, 412, 422),
                    parameters=[EVENT_TOKEN, ENTRANT, IF_MATCH, IDEMPOTENCY_KEY, ACCEPT_LANGUAGE],
                )
            },
            "/api/v1/matches/{token}": {
                "get": _match_op(
                    "A match by its edit or view token", 200, (404,), parameters=[TOKEN]
                )
            },
            "/api/v1/matches/{token}/parts": {
                "post": {
                    "summary": "Open the next round's parts: one token per player",
                    "parameters": [TOKEN, IF_MATCH, ACCEPT_LANGUAGE],
                    "responses": {
                        "201": _json(_ref("PartsOpened"), "Opened now."),
                        "200": _json(_ref("PartsOpened"), "Open already: the same tokens."),
                        **_errors(404, 412, 422),
                    },
                },
                "get": {
                    "summary": "Every player's part of the open round",
                    "parameters": [TOKEN, ACCEPT_LANGUAGE],
                    "responses": {"200": _json(_ref("Parts"), "The parts."), **_errors(404)},
                },
                "delete": {
                    "summary": "Drop the open parts: their tokens answer 410",
                    "parameters": [TOKEN, ACCEPT_LANGUAGE],
                    "responses": {"200": _json(_ref("Parts"), "Dropped."), **_errors(404)},
                },
            },
            "/api/v1/parts/{token}": {
                "get": {
                    "summary": "One player's part",
                    "parameters": [PART_TOKEN, ACCEPT_LANGUAGE],
                    "responses": {"200": _json(_ref("Part"), "The part."), **_errors(404, 410)},
                },
                "put": {
                    "summary": "Enter one player's part",
                    "parameters": [PART_TOKEN, ACCEPT_LANGUAGE],
                    "requestBody": _body("PartBody", "The player's part of the round."),
                    "responses": {
                        "200": _json(_ref("Part"), "Stored."),
                        **_errors(400, 404, 410, 413, 422),
                    },
                },
            },
            "/api/v1/matches/{token}/games": {
                "post": _match_op(
                    "Add the next round",
                    201,
                    (400, 404, 409, 412, 413, 422, 428),
                    parameters=writes,
                    requestBody=_body("Round", "A round document."),
                )
            },
            "/api/v1/matches/{token}/games/{number}": {
                "put": _match_op(
                    "Replace a round",
                    200,
                    (400, 404, 409, 412, 413, 422, 428),
                    parameters=[*writes, NUMBER],
                    requestBody=_body("Round", "A round document."),
                ),
                "delete": _match_op(
                    "Delete a round",
                    200,
                    (404, 409, 412, 422, 428),
                    parameters=[*writes, NUMBER],
                ),
            },
        },
        "components": {"schemas": schemas},
    }
