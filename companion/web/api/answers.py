"""The JSON API's one outcome mapping: a write's request headers read, its command handled,
and what came of it answered, the same way for matches and events.

``written`` hands a command to ``handlers.handle`` and answers ``Done`` or ``Replayed`` with
the view's own body; a refusal becomes the contract's error object with the status that says
why (``refused``): 428 without ``If-Match`` or a key where one is required
(docs/adr/0005-one-service-path.md), 412 on a stale revision, 409 for a race lost, 404 for a
round that is not there, 422 for anything not valid.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from flask import Response, jsonify, request

from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.models import Event, Match
from companion.domain import EntryError
from companion.domain.messages import N_, register
from companion.services import saving
from companion.services.commands import Command, Later
from companion.services.handlers import handle
from companion.web.language import translator

register(
    {
        "if-match-required": N_(
            "say which revision this change is based on: send If-Match with the match's "
            'ETag (now "{revision}")'
        ),
        "if-match-or-key-required": N_(
            "sent again, this change would be made twice: send If-Match with the ETag "
            '(now "{revision}") or an Idempotency-Key'
        ),
        "idempotency-key-invalid": N_("Idempotency-Key must be 1 to 64 visible ASCII characters"),
    }
)


def problem(err: EntryError, status: int, **extra: Any) -> Response:
    """An ``EntryError`` as the contract's error object, with ``status``."""
    response = jsonify({**err.to_json(translator()), **extra})
    response.status_code = status
    return response


def based_on(row: Match | Event) -> int | None:
    """The revision ``If-Match`` names (the current one when it is among them); None: absent.

    ``*`` means whatever revision is current. A value naming no revision of ours is stale.
    """
    if not request.headers.get("If-Match"):
        return None
    etags = request.if_match
    if etags.star_tag or etags.contains(str(row.revision)):
        return row.revision
    return -1  # names no revision of ours: stale


def once_of(scope: str) -> store.Once | None:
    """The request's ``Idempotency-Key`` in ``scope``, with a fingerprint of the request."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not store.IDEMPOTENCY_KEY.fullmatch(key):
        raise EntryError("idempotency-key-invalid")
    request_hash = hashlib.sha256(f"{request.method} {request.path}\n".encode())
    request_hash.update(request.get_data(cache=True))
    return store.Once(scope, key, request_hash.hexdigest())


class IfMatchRequired(EntryError):
    """A write that must name the revision it is based on came without ``If-Match``."""


#: What a write on an existing match or event must carry, else 428 (docs/adr/0005):
#: ``IF_MATCH`` for PUT and DELETE (the contract), ``IF_MATCH_OR_KEY`` for a write that is not
#: idempotent by nature (adding a round, seating a session): a retry of it without either
#: would do the work twice.
IF_MATCH = "if-match"
IF_MATCH_OR_KEY = "if-match-or-key"


def precondition(row: Match | Event, once: store.Once | None, required: str | None) -> int | None:
    """The revision the write is based on (``If-Match``), or None; refuses (428) a write that
    lacks what ``required`` asks."""
    revision = based_on(row)
    if revision is None and (
        required == IF_MATCH or (required == IF_MATCH_OR_KEY and once is None)
    ):
        code = "if-match-required" if required == IF_MATCH else "if-match-or-key-required"
        raise IfMatchRequired(code, revision=row.revision)
    return revision


def refused(err: EntryError, row: Match | Event | None) -> Response:
    """The answer to a refused write on ``row`` (None: a creation, always 422)."""
    if row is None:
        return problem(err, 422)
    if isinstance(err, IfMatchRequired):
        return problem(err, 428, revision=row.revision)
    if isinstance(err, store.StaleRevision):
        response = problem(err, 412, revision=err.revision)
        response.set_etag(str(err.revision))
        return response
    if isinstance(err, store.ConflictError):
        response = problem(err, 409, revision=row.revision)
        response.set_etag(str(row.revision))
        return response
    if isinstance(err, store.RoundMissing):
        return problem(err, 404)
    return problem(err, 422)  # not valid, or a twin with this key and another body was first


#: What a view answers once its command is done (or was done already with its key).
Respond = Callable[[saving.Done[Any] | saving.Replayed], Response]


def written(
    command: Command | Later,
    row: Match | Event | None,
    respond: Respond,
    *,
    context: str | None = None,
) -> Response:
    """Handle ``command`` on ``row`` (None: it creates one) and answer: ``respond`` with the
    outcome, or the refusal said in the words of the game ``context``."""
    try:
        saved = handle(get_session(), command)
    except EntryError as err:
        return refused(err.at(context=context), row)
    return respond(saved)
