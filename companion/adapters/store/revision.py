"""The one revision claim: every write of a match or an event claims its next revision.

A write claims with one compare-and-set, ``UPDATE … SET revision = r + 1 WHERE id = … AND
revision = r``, first among its writes (SQLite holds its write lock, PostgreSQL locks the
row), so of several writes on the same revision exactly one wins; then it runs its writes and
commits, all or nothing. The claim is lost too when the database says another transaction is
in the way (``transient``): SQLite's write lock taken by another after this transaction read,
or held past the busy timeout; on PostgreSQL, the row changed after this transaction's
snapshot (a re-draw may find a table's match changed so).

A lost claim is said one way for matches and events: the row is read again as the winner
left it; a write based on a revision (``If-Match``, a form's revision) that is no longer the
row's is ``StaleRevision``, any other lost race ``ConflictError``; nothing was changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from sqlalchemy import Table, update
from sqlalchemy.exc import IntegrityError, InvalidRequestError, OperationalError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session

from companion.adapters.db import WRITING, transient
from companion.adapters.models import Event, Match
from companion.adapters.store.errors import ConflictError, StaleRevision

#: What has a revision: a match or an event.
Revised = Match | Event


def expect(row: Revised, revision: int | None) -> None:
    """Refuse a write based on another revision than the one loaded (nothing is changed)."""
    if revision is not None and revision != row.revision:
        raise StaleRevision(row.revision)


@contextmanager
def claiming(session: Session, row: Revised, revision: int | None) -> Iterator[None]:
    """Claim ``row``'s next revision (compare and set), run the writes inside, commit; all or
    nothing. A write based on another ``revision`` is refused first.

    :raises StaleRevision: the write was based on another revision than the row's now.
    :raises ConflictError: another write won the race; nothing was changed.
    """
    expect(row, revision)
    table: Table = type(row).__table__  # type: ignore[union-attr]
    expected = row.revision
    claim = (
        update(table)
        .where(table.c.id == row.id, table.c.revision == expected)
        .values(revision=expected + 1)
    )
    try:
        claimed = session.connection().execute(claim).rowcount
    except OperationalError as err:
        if not transient(err):
            raise
        claimed = 0
    if claimed != 1:
        lost(session, row, revision)
    set_committed_value(row, "revision", expected + 1)
    beaten = False
    try:
        yield
        session.commit()
    except IntegrityError:  # a unique row (a round's number, a key) as a second line of defence
        beaten = True
    except OperationalError as err:
        if not transient(err):
            session.rollback()
            raise
        beaten = True
    except BaseException:
        session.rollback()
        raise
    if beaten:
        lost(session, row, revision)


def reread(session: Session, row: Any) -> None:
    """After a write that lost the race: roll it back and read ``row`` as the winner left it,
    on SQLite in a writer's transaction (which waits for a write still under way), on
    PostgreSQL in a new snapshot; the caller ends that transaction.

    :raises InvalidRequestError: the row itself is gone.
    """
    session.rollback()
    try:
        session.connection(execution_options=WRITING)
    except OperationalError as err:  # the lock is held past the busy timeout: read as it is
        if not transient(err):
            raise
        session.rollback()
    session.refresh(row)


def lost(session: Session, row: Revised, revision: int | None) -> NoReturn:
    """Roll back a write that lost the race, read ``row`` again and say why.

    That read writes nothing and ends at once (the lock is not kept while the caller answers).
    """
    try:
        reread(session, row)
    except InvalidRequestError:  # the row itself is gone (a table's match drawn again)
        session.rollback()
        raise ConflictError() from None
    session.commit()  # nothing to write; the request's session keeps the row as read
    if revision is not None and revision != row.revision:
        raise StaleRevision(row.revision)
    raise ConflictError()  # no revision given, or the database was too busy to say
