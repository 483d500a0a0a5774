"""Writing matches: start one, add, correct, delete and restore its rounds, lengthen it.

Every write is checked by the rules core first (``match_document`` on the match as it would
be after the write); an ``EntryError`` leaves the database as it was. Each write is one
transaction: the change, its history entry (``changes.record``) and its idempotency key
(``once.remember``) are stored together, or nothing is.

Revisions. ``Match.revision`` is 1 when the match is created and grows by one with every
change. A write claims the next revision with one compare-and-set
(``UPDATE match SET revision = r + 1 WHERE id = … AND revision = r``) before it touches a
round, so of several writes based on the same revision exactly one wins. Given a
``revision``, a write on any other revision raises ``StaleRevision`` and changes nothing;
without one, a write that loses a race raises ``ConflictError`` (never "round 4" instead
of the "round 3" that was typed).

The match, its rounds and the revision are read in the transaction that writes (a request's
one snapshot, companion/adapters/db.py), so a write never mixes the revision of one moment with the
rounds of the next. A request's transaction on SQLite holds the write lock from its first
read, so its claim cannot lose; a session that read first and writes later (on SQLite) or
whose row changed after its snapshot (PostgreSQL, REPEATABLE READ) loses the claim with a
busy database or a serialization failure, and is told as any lost race is.

Dealers. Each round keeps the ``dealer`` it was played with. The rules core deals by
rotation from ``first_dealer``; the store records that rotation when a round is added, and
from then on the stored dealer is a fact of the table: deleting a round renumbers the later
rounds but never changes who dealt them, and the next round is dealt by the player left of
whoever dealt the last stored round (the deal passes clockwise, R17-2) — so deleting a
round entered twice by mistake (delete the later copy) leaves the rotation as it was, and
deleting a round that was really played does not make anyone deal twice in a row.
``result`` shows the stored dealers; where a delete made them differ from plain rotation,
only the ``dealer``/``starts`` lines differ from ``match_document(as_document(match))``.
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Table
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from companion.adapters.models import Change, Match, Round, utcnow
from companion.adapters.store.changes import RESTORED, diff_rounds, record, record_start, undoable
from companion.adapters.store.errors import ConflictError
from companion.adapters.store.once import Once, remember
from companion.adapters.store.parts import close_parts
from companion.adapters.store.reading import as_document, forget_revision, next_dealer, stored_round
from companion.adapters.store.revision import claiming, expect
from companion.adapters.store.tokens import new_token
from companion.domain import EntryError, get_game, left_of, match_document
from companion.domain.bounds import MAX_TITLE
from companion.domain.documents import Round as RoundDocument
from companion.domain.documents import json_of
from companion.domain.errors import about
from companion.domain.names import spelled

MATCH: Table = Match.__table__  # type: ignore[attr-defined]

log = logging.getLogger(__name__)

#: Called with the match after every write to it is committed, in the writer's thread (the
#: sheets make the new revision's sheet ahead: web/sheet_views.py). A listener's error is
#: logged; the write stands.
SAVED: list[Callable[[Match], None]] = []


def _commit(session: Session) -> None:
    """Commit a new match; a key stored meanwhile by a twin request is a conflict."""
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise ConflictError() from None


def _plain(doc: object, game: str) -> Any:
    """A deep copy that is certainly plain JSON (what the JSON column can store); the problem
    said in the words of ``game``. A typed round is stored as its JSON form (``as_json``)."""
    try:
        return json.loads(json.dumps(json_of(doc), ensure_ascii=False))
    except (TypeError, ValueError) as err:
        raise EntryError("round-not-json", reason=str(err)).at(context=game) from None


def _title(title: object) -> str | None:
    if title is None:
        return None
    if not isinstance(title, str):
        raise EntryError("title-not-text", field="title")
    title = " ".join(title.split())
    if len(title) > MAX_TITLE:
        raise EntryError("title-too-long", field="title", limit=MAX_TITLE)
    return title or None


def forget_on_device(session: Session, match: Match) -> None:
    """The match is no longer listed on the device that started it (it is not deleted)."""
    match.device = None
    session.add(match)
    session.commit()


def _check(match: Match, rounds: list[dict[str, Any]], **changes: Any) -> dict[str, Any]:
    """The result of the match with these rounds (and fields); EntryError if it is not valid."""
    doc = as_document(match)
    doc.update(changes)
    if doc.get("games") is None:
        doc.pop("games", None)
    doc["rounds"] = rounds
    return match_document(doc)


@contextmanager
def _writing(session: Session, match: Match, revision: int | None) -> Iterator[None]:
    """Claim the match's next revision (``revision.claiming``, the one claim of every write),
    run the writes inside, commit; then tell the ``SAVED`` listeners."""
    with claiming(session, match, revision):
        yield
    forget_revision(match)
    session.refresh(match)
    for listener in SAVED:
        try:
            listener(match)
        except Exception:
            log.exception("after saving match %s", match.id)


def create_match(
    session: Session,
    *,
    game: str,
    players: list[str],
    first_dealer: str,
    games: int | None,
    title: str | None = None,
    device: str | None = None,
    once: Once | None = None,
    commit: bool = True,
) -> Match:
    """Start a match of ``game``: names in seat order (clockwise), the first dealer, its length.

    ``commit`` False leaves the new match in the caller's transaction (an event seats all
    its tables at once, or none).

    ``games`` None gives the game's default length (one round per player, D17-7, DK-3,
    DO-5), or no length for a game played to a target (MR-16).
    :raises EntryError: a bad game, names, dealer, length or title; nothing is stored.
    """
    with about(field="game"):
        kind = get_game(game)
    if isinstance(first_dealer, str):
        first_dealer = spelled(first_dealer)  # as the seats are kept (rules.names)
    if isinstance(players, list | tuple):
        players = [p.strip() if isinstance(p, str) else p for p in players]
    title = _title(title)
    doc: dict[str, Any] = {"game": kind.id, "players": players, "first_dealer": first_dealer}
    if games is not None:
        doc["games"] = games
    checked = match_document({**doc, "rounds": []})  # seats, dealer and length, per game
    seats = list(checked["totals"])  # seat order, names as the rules core read them
    match = Match(
        game=kind.id,
        title=title,
        players=seats,
        first_dealer=first_dealer,
        games=checked["games"],
        edit_token=new_token(),
        view_token=new_token(),
        device=device,
        revision=1,
    )
    session.add(match)
    record_start(session, match, "match-started", seats, first_dealer, match.games)
    remember(session, once, match)
    if commit:
        _commit(session)
    return match


def rematch(
    session: Session, match: Match, *, device: str | None = None, once: Once | None = None
) -> Match:
    """A new match at the same table: same game, seats and length; the next player deals first."""
    seats = list(match.players)
    again = Match(
        game=match.game,
        title=match.title,
        players=seats,
        first_dealer=left_of(seats, match.first_dealer),
        games=match.games,
        edit_token=new_token(),
        view_token=new_token(),
        device=device if device is not None else match.device,
        revision=1,
    )
    _check(again, [])
    session.add(again)
    record_start(session, again, "rematch-started", seats, again.first_dealer, again.games)
    remember(session, once, again)
    _commit(session)
    return again


def add_round(
    session: Session,
    match: Match,
    doc: RoundDocument | dict[str, Any],
    *,
    revision: int | None = None,
    once: Once | None = None,
) -> None:
    """Check and store the next round of the match, dealt by ``next_dealer``.

    :raises StaleRevision: ``revision`` is given and is not the match's; nothing changed.
    :raises ConflictError: another write won the race; nothing changed.
    :raises EntryError: the round is not valid; nothing changed.
    """
    expect(match, revision)
    round_doc = _plain(doc, match.game)
    rounds = [r.document for r in match.rounds]
    number = len(rounds) + 1
    _check(match, [*rounds, round_doc])
    dealer = next_dealer(match)
    with _writing(session, match, revision):
        session.add(Round(match=match, number=number, dealer=dealer, document=round_doc))
        entered = close_parts(session, match, number, round_doc)  # saving closes the parts
        if entered:
            record(session, match, "round-added", number=number, parts=entered)
        else:
            record(session, match, "round-added", number=number)
        remember(session, once, match, number)


def update_round(
    session: Session,
    match: Match,
    number: int,
    doc: RoundDocument | dict[str, Any],
    *,
    revision: int | None = None,
    once: Once | None = None,
) -> None:
    """Check and store a corrected round ``number``; the history keeps old and new values.

    Saving exactly the stored document changes nothing (not even the revision).
    :raises RoundMissing, StaleRevision, ConflictError, EntryError: nothing changed.
    """
    expect(match, revision)
    stored = stored_round(match, number)
    round_doc = _plain(doc, match.game)
    if round_doc == stored.document:
        return
    rounds = [round_doc if r.number == number else r.document for r in match.rounds]
    _check(match, rounds)
    changes = diff_rounds(stored.document, round_doc)
    with _writing(session, match, revision):
        stored.document = round_doc
        stored.updated = utcnow()
        session.add(stored)
        if changes:
            record(session, match, "round-edited", number=number, changes=changes)
        else:
            record(session, match, "round-unchanged", number=number)
        remember(session, once, match, number)


def delete_round(
    session: Session,
    match: Match,
    number: int,
    *,
    revision: int | None = None,
    once: Once | None = None,
) -> None:
    """Delete round ``number``; the later rounds move up one number and keep their dealers.

    :raises RoundMissing, StaleRevision, ConflictError: nothing changed.
    """
    expect(match, revision)
    stored = stored_round(match, number)
    later = [r for r in match.rounds if r.number > number]
    if len(later) > 1:
        code, extra = "round-deleted-renumbered", {"first": number + 1, "last": number + len(later)}
    elif later:
        code, extra = "round-deleted-moved", {"next": number + 1}
    else:
        code, extra = "round-deleted", {}
    with _writing(session, match, revision):
        match.rounds.remove(stored)
        session.delete(stored)
        session.flush()
        # One at a time, lowest first, so (match, number) stays unique at every step.
        for moved in later:
            moved.number -= 1
            session.add(moved)
            session.flush()
        # The round as it was, so the deletion can be undone from the history.
        undo = {"dealer": stored.dealer, "document": copy.deepcopy(stored.document)}
        record(session, match, code, number=number, undo=undo, **extra)
        remember(session, once, match, number)


def restore_round(
    session: Session,
    match: Match,
    change: int,
    *,
    revision: int | None = None,
    once: Once | None = None,
) -> int:
    """Undo a deletion: the round comes back at its number with its dealer, later rounds
    move down one; returns its number.

    :raises StaleRevision, ConflictError, EntryError: nothing changed.
    """
    expect(match, revision)
    entry = session.get(Change, change)
    if entry is None or entry.match_id != match.id or change not in undoable(session, match):
        raise EntryError("restore-gone")
    undo = entry.params["undo"]
    rounds = sorted(match.rounds, key=lambda r: r.number)
    number = min(int(entry.params["number"]), len(rounds) + 1)
    docs = [r.document for r in rounds]
    _check(match, [*docs[: number - 1], undo["document"], *docs[number - 1 :]])
    with _writing(session, match, revision):
        # One at a time, highest first, so (match, number) stays unique at every step.
        for moved in reversed(rounds[number - 1 :]):
            moved.number += 1
            session.add(moved)
            session.flush()
        session.add(
            Round(match=match, number=number, dealer=undo["dealer"], document=undo["document"])
        )
        record(session, match, RESTORED, number=number, undone=change)
        remember(session, once, match, number)
    return number


def lengthen(
    session: Session,
    match: Match,
    *,
    by: int = 1,
    revision: int | None = None,
    once: Once | None = None,
) -> None:
    """Add ``by`` rounds to the series (refused for a game played to a target, MR-16).

    :raises StaleRevision, ConflictError, EntryError: nothing changed.
    """
    expect(match, revision)
    if match.games is None:
        kind = get_game(match.game)
        raise EntryError(
            "series-no-length", field="games", rule=kind.series_rule, game_name=kind.name
        )
    if isinstance(by, bool) or not isinstance(by, int) or by < 1:
        raise EntryError("lengthen-by", field="games").at(context=match.game)
    old = match.games
    _check(match, [r.document for r in match.rounds], games=old + by)
    with _writing(session, match, revision):
        match.games = old + by
        session.add(match)
        record(session, match, "match-lengthened", old=old, new=old + by)
        remember(session, once, match)
