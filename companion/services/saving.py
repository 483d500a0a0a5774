"""One place saves: every write goes through ``save`` (by ``handlers.handle``), whoever asks for
it — the JSON API, the round form, the start page, the scoreboard's buttons, parts and events.

``save`` makes a write happen once per idempotency key (``store.Once``), a match's write or
an event's alike. A request whose key
is stored already — a double tap, a form sent again, an API call retried — gets the write
stored first (``Replayed``) and changes nothing. Otherwise the write runs, and the store does
it as one transaction: the rules core checks it, the match's next revision is claimed (a
write based on another revision is refused with ``StaleRevision``), the history entry and
the key are recorded with the change, and all of it is committed, or none (a write cannot
check the revision apart from claiming it: two phones would both pass the check). A write
that loses the race to a twin — the same request with the same key, stored a moment
earlier — gets the twin's write too. Every other refusal is the caller's to answer:
``StaleRevision`` (the page or the ETag showed an older revision), ``ConflictError``
(someone else saved at the same moment), or any other ``EntryError`` (the write is not
valid); each leaves the database as it was.

The key's lookup, the match the view loaded and the write are one transaction, the request's
snapshot (companion/adapters/db.py): on SQLite a writing request holds the write lock from its first
read, on PostgreSQL a row changed after the snapshot fails the claim. So a request never reads
the match's old revision with its new round and takes its save for a no-op.

A view parses the request into a command and hands it to ``handlers.handle``, which runs the
command's handler through ``save``; the view maps the outcome and the refusals to its own
answer (cosmicpython's service layer and message bus).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlmodel import Session

from companion.adapters import store
from companion.adapters.models import Event, IdempotencyKey, Match
from companion.domain import EntryError
from companion.domain.messages import N_, register

register(
    {
        "idempotency-key-reused": N_("this Idempotency-Key was already used for another request"),
    }
)

T = TypeVar("T")


@dataclass(frozen=True)
class Done(Generic[T]):
    """The write ran now; ``value`` is what it returned."""

    value: T


@dataclass(frozen=True)
class Replayed:
    """The write was stored already with this key (by this request's first try or its twin)."""

    prior: IdempotencyKey

    @property
    def match(self) -> Match:
        """The match the first write stored (a new one, for a start or a rematch)."""
        match = self.prior.match
        assert match is not None  # a match's key is stored with its match
        return match

    @property
    def event(self) -> Event:
        """The event the first write stored (a new one, for a creation)."""
        event = self.prior.event
        assert event is not None  # an event's key is stored with its event
        return event

    @property
    def number(self) -> int | None:
        """The round the first write was about (None: the match as a whole)."""
        return self.prior.number


def save(session: Session, once: store.Once | None, write: Callable[[], T]) -> Done[T] | Replayed:
    """Run ``write`` once per idempotency key: ``Replayed`` when the key's write was stored
    already (before, or by a twin while this one ran), else ``Done`` with what it returned.

    ``write`` calls one store write with ``once``, so the key is stored in its transaction.
    Without a key (``once`` None) the write simply runs.

    :raises EntryError: the key was used for another request (``idempotency-key-reused``).
    :raises StaleRevision: the write was based on another revision; nothing changed.
    :raises ConflictError: another write won the race, and it was no twin; nothing changed.
    :raises EntryError: whatever ``write`` refused; nothing changed.
    """
    prior = _prior(session, once)
    if prior is not None:
        return prior
    try:
        return Done(write())
    except store.ConflictError:
        prior = _prior(session, once)  # a twin of this request was stored first
        if prior is None:
            raise
        return prior


def _prior(session: Session, once: store.Once | None) -> Replayed | None:
    """The write already stored with this key; EntryError when the key named another request
    (its fingerprint differs: an API client reused a key for another body)."""
    row = store.done(session, once)
    if row is None or once is None:
        return None
    if row.fingerprint != once.fingerprint:
        raise EntryError("idempotency-key-reused")
    return Replayed(row)
