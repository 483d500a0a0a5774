"""Doing a write once: the idempotency keys a form or an API client sends with a write.

A key is stored in the same transaction as the write it came with, so both are stored or
neither; ``done`` finds the write a key was stored with. Only the one save function
(``companion/services/saving.py``) asks ``done``: it answers a retry with the write stored first,
for a match's writes and an event's alike.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from sqlmodel import Session, select

from companion.adapters.models import KEY_LENGTH, Event, IdempotencyKey, Match
from companion.adapters.store.tokens import is_token

#: An idempotency key as a client may choose it: visible ASCII, 1 to 64 characters.
IDEMPOTENCY_KEY = re.compile(rf"[\x21-\x7e]{{1,{KEY_LENGTH}}}")


@dataclass(frozen=True)
class Once:
    """An idempotency key: of all writes with this key in this scope, one is stored.

    ``scope`` names the write (``form:round-add:<match id>``, ``api:create``), so a key is
    never shared between two kinds of write or two matches; ``fingerprint`` (a hash of the
    request) tells a retry from another request that reuses the key.
    """

    scope: str
    key: str
    fingerprint: str = ""


def new_key() -> str:
    """A fresh idempotency key for a form (128 random bits)."""
    return secrets.token_urlsafe(16)


def form_once(key: object, scope: str) -> Once | None:
    """A form's idempotency key in ``scope``; None when the form sent none (or nonsense)."""
    if isinstance(key, str) and is_token(key):
        return Once(scope, key)
    return None


def done(session: Session, once: Once | None) -> IdempotencyKey | None:
    """The write already stored with this key in this scope, or None."""
    if once is None:
        return None
    query = select(IdempotencyKey).where(
        IdempotencyKey.scope == once.scope, IdempotencyKey.key == once.key
    )
    return session.exec(query).first()


def remember(
    session: Session,
    once: Once | None,
    match: Match | None = None,
    number: int | None = None,
    *,
    event: Event | None = None,
) -> None:
    """Store the key with the write of ``match`` (round ``number``) or of ``event``, in the
    same transaction: both are stored, or neither."""
    if once is not None:
        assert (match is None) != (event is None), "a key names its match or its event"
        session.add(
            IdempotencyKey(
                scope=once.scope,
                key=once.key,
                fingerprint=once.fingerprint,
                match=match,
                event=event,
                number=number,
            )
        )
