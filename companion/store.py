"""Matches in the database: create, add/edit/delete rounds, and read them back as documents.

Every write is checked by the rules core first (``match_document`` on the match as it would
be after the write); an ``EntryError`` leaves the database as it was. Scores are never
stored in the database: ``result`` scores the stored round documents once per revision and
keeps the result in a per-process cache keyed by match and revision (companion/cache.py).

Revisions. ``Match.revision`` is 1 when the match is created and grows by one with every
change. A write claims the next revision with one compare-and-set
(``UPDATE match SET revision = r + 1 WHERE id = … AND revision = r``) before it touches a
round, so of several writes based on the same revision exactly one wins. Given a
``revision``, a write on any other revision raises ``StaleRevision`` and changes nothing;
without one, a write that loses a race raises ``ConflictError`` (never "round 4" instead
of the "round 3" that was typed).

Dealers. Each round keeps the ``dealer`` it was played with. The rules core deals by
rotation from ``first_dealer``; the store records that rotation when a round is added, and
from then on the stored dealer is a fact of the table: deleting a round renumbers the later
rounds but never changes who dealt them, and the next round is dealt by the player left of
whoever dealt the last stored round (the deal passes clockwise, R17-2) — so deleting a
round entered twice by mistake (delete the later copy) leaves the rotation as it was, and
deleting a round that was really played does not make anyone deal twice in a row.
``result`` shows the stored dealers; where a delete made them differ from plain rotation,
only the ``dealer``/``starts`` lines differ from ``match_document(as_document(match))``.

History. Entries are message codes with parameters (no words are stored), rendered in the
reader's language by ``describe``; an edit keeps the old and new value of every field that
changed, so a correction and its reversal (12 → 24 → 12) both stay visible. Every revision
writes exactly one entry (creating the match writes the first), so the entries after
revision r are the last ``match.revision - r``.
"""

from __future__ import annotations

import copy
import json
import re
import secrets
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

from sqlalchemy import Engine, Table, func, text, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from companion import cache
from companion.models import (
    KEY_LENGTH,
    TITLE_LENGTH,
    Change,
    IdempotencyKey,
    Match,
    Round,
    utcnow,
)
from companion.rules import (
    ENGLISH,
    EntryError,
    Translator,
    games,
    get_game,
    left_of,
    match_document,
)
from companion.rules.errors import about
from companion.rules.messages import MESSAGES, N_, NN_, register, render

# 24 random bytes = 192 bits, written as 32 URL-safe characters.
TOKEN_BYTES = 24
MATCH: Table = Match.__table__  # type: ignore[attr-defined]

register(
    {
        # Problems the store raises.
        "stale-revision": N_(
            "this match has changed since it was loaded (it is now at revision {revision}); "
            "reload it and enter the change again"
        ),
        "match-conflict": N_(
            "someone else changed this match at the same moment; reload it and save again"
        ),
        "round-missing": NN_(
            "there is no round {number}; the match has {count} round",
            "there is no round {number}; the match has {count} rounds",
            "count",
        ),
        "round-not-json": N_("the round cannot be stored as JSON: {reason}"),
        "title-not-text": N_("the title must be text"),
        "title-too-long": N_("the title is longer than {limit} characters"),
        "series-no-length": N_(
            "{game_name} has no set number of rounds: the match runs until someone reaches "
            "the target ({rule})"
        ),
        "lengthen-by": N_("a match is lengthened by a whole number of rounds, 1 or more"),
        # History entries.
        # RK-2, RO-3: nobody deals in the tile games; the history says who starts.
        "match-started-starts": NN_(
            "Match started: {players}; {starts} starts; {games} round",
            "Match started: {players}; {starts} starts; {games} rounds",
            "games",
        ),
        "rematch-started-starts": NN_(
            "Rematch started: {players}; {starts} starts; {games} round",
            "Rematch started: {players}; {starts} starts; {games} rounds",
            "games",
        ),
        "match-started": NN_(
            "Match started: {players}; {dealer} deals first; {games} round",
            "Match started: {players}; {dealer} deals first; {games} rounds",
            "games",
        ),
        "match-started-target": N_(
            "Match started: {players}; {dealer} deals first; played to the target"
        ),
        "rematch-started": NN_(
            "Rematch started: {players}; {dealer} deals first; {games} round",
            "Rematch started: {players}; {dealer} deals first; {games} rounds",
            "games",
        ),
        "rematch-started-target": N_(
            "Rematch started: {players}; {dealer} deals first; played to the target"
        ),
        "round-added": N_("Round {number} added"),
        "round-edited": N_("Round {number} edited: {changes}"),
        "round-unchanged": N_("Round {number} saved again with the same cards and choices"),
        "round-deleted": N_("Round {number} deleted"),
        "round-deleted-moved": N_("Round {number} deleted; round {next} is now round {number}"),
        "round-deleted-renumbered": N_("Round {number} deleted; rounds {first}–{last} renumbered"),
        "round-restored": N_("Round {number} deleted earlier is back (undone)"),
        "restore-gone": N_("That deletion cannot be undone any more: it was undone already"),
        "match-lengthened": N_("Match lengthened from {old} to {new} rounds"),
        "legacy-note": N_("{text}"),
        # One changed field of a round, inside "round-edited" (code "change-" + field).
        "change-hand": N_("{player}'s hand: {old} → {new}"),
        "change-rack": N_("{player}'s rack: {old} → {new}"),
        "change-melds": N_("{player}'s melds: {old} → {new}"),
        "change-player": N_("{player}, {what}: {old} → {new}"),
        "change-went_out": N_("who went out: {old} → {new}"),
        "change-knocked": N_("who knocked: {old} → {new}"),
        "change-bonus_cards": N_("bonus cards: {old} → {new}"),
        "change-last_discard": N_("last card: {old} → {new}"),
        "change-field": N_("{what}: {old} → {new}"),
        "value-none": N_("nobody"),
        "value-empty": N_("none"),
        "value-count": N_("{key}: {value}"),
        "value-points": NN_("{value} point", "{value} points", "value"),
        # The last card's short form (R17-15a): only whether it was a 17 was recorded.
        "value-seventeen": N_("a 17"),
        "value-not-seventeen": N_("not a 17"),
    }
)


class ConflictError(EntryError):
    """Someone else changed the match at the same moment; reload and enter it again."""

    def __init__(self, code: str = "match-conflict", /, **params: Any) -> None:
        super().__init__(code, **params)


class StaleRevision(ConflictError):
    """The write was based on another revision than the match's; nothing was changed."""

    def __init__(self, revision: int) -> None:
        super().__init__("stale-revision", revision=revision)
        self.revision = revision


class RoundMissing(EntryError):
    """The match has no round with that number."""


def new_token() -> str:
    """A secret link token (192 bits from ``secrets``)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


#: What a link token, or a device cookie, can look like (anything else finds nothing).
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _token(token: object) -> bool:
    return isinstance(token, str) and TOKEN.fullmatch(token) is not None


# --- doing a write once -------------------------------------------------------------------

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
    if isinstance(key, str) and TOKEN.fullmatch(key):
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


def _remember(session: Session, once: Once | None, match: Match, number: int | None = None) -> None:
    """Store the key with the write (same transaction: both are stored, or neither)."""
    if once is not None:
        session.add(
            IdempotencyKey(
                scope=once.scope,
                key=once.key,
                fingerprint=once.fingerprint,
                match=match,
                number=number,
            )
        )


def _commit(session: Session) -> None:
    """Commit a new match; a key stored meanwhile by a twin request is a conflict."""
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise ConflictError() from None


def _plain(doc: object) -> Any:
    """A deep copy that is certainly plain JSON (what the JSON column can store)."""
    try:
        return json.loads(json.dumps(doc, ensure_ascii=False))
    except (TypeError, ValueError) as err:
        raise EntryError("round-not-json", reason=str(err)) from None


def _title(title: object) -> str | None:
    if title is None:
        return None
    if not isinstance(title, str):
        raise EntryError("title-not-text", field="title")
    title = " ".join(title.split())
    if len(title) > TITLE_LENGTH:
        raise EntryError("title-too-long", field="title", limit=TITLE_LENGTH)
    return title or None


# --- reading ------------------------------------------------------------------------------


def get_by_edit_token(session: Session, token: str) -> Match | None:
    """The match whose edit link has this token, or None."""
    if not _token(token):
        return None
    return session.exec(select(Match).where(Match.edit_token == token)).first()


def get_by_view_token(session: Session, token: str) -> Match | None:
    """The match whose read-only link has this token, or None."""
    if not _token(token):
        return None
    return session.exec(select(Match).where(Match.view_token == token)).first()


def matches_for_device(session: Session, device: str) -> list[Match]:
    """The matches started on this device, newest first."""
    if not _token(device):
        return []
    query = (
        select(Match)
        .where(Match.device == device)
        .order_by(col(Match.created).desc(), col(Match.id).desc())
    )
    return list(session.exec(query))


def forget_on_device(session: Session, match: Match) -> None:
    """The match is no longer listed on the device that started it (it is not deleted)."""
    match.device = None
    session.add(match)
    session.commit()


def as_document(match: Match) -> dict[str, Any]:
    """The contract's match document: game, players, first dealer, length, title, rounds."""
    doc: dict[str, Any] = {
        "game": match.game,
        "players": list(match.players),
        "first_dealer": match.first_dealer,
    }
    if match.games is not None:
        doc["games"] = match.games
    if match.title:
        doc["title"] = match.title
    doc["rounds"] = [copy.deepcopy(r.document) for r in match.rounds]
    return doc


def _round(match: Match, number: int) -> Round:
    for stored in match.rounds:
        if stored.number == number:
            return stored
    raise RoundMissing("round-missing", number=number, count=len(match.rounds))


def round_document(match: Match, number: int) -> dict[str, Any]:
    """The round document of round ``number`` (1-based), as it was entered."""
    return copy.deepcopy(_round(match, number).document)


def next_dealer(match: Match) -> str:
    """Who deals the next round: left of the last stored round's dealer (R17-2)."""
    if not match.rounds:
        return match.first_dealer
    return left_of(match.players, match.rounds[-1].dealer)


def result(match: Match) -> dict[str, Any]:
    """The contract's match result with the stored dealers: scored by the rules core once per
    revision of the match (companion/cache.py), a fresh copy on every call."""
    key = cache.result_key(match.id, match.view_token, match.revision)
    return cache.result(key, lambda: _score(match))


def result_by_id(session: Session, match_id: int, view_token: str, revision: int) -> dict[str, Any]:
    """``result`` of the match with this id at this revision, loading the match only when no
    process-local copy exists (an event reads hundreds of tables' results at once)."""

    def compute() -> dict[str, Any]:
        match = session.get(Match, match_id)
        assert match is not None
        return _score(match)

    return cache.result(cache.result_key(match_id, view_token, revision), compute)


#: The read-only page's one query on a cache hit, written once (no ORM: it is the hot path).
VIEW_REVISION = text("SELECT id, revision FROM match WHERE view_token = :token")


#: How long a process trusts a revision it read for a read-only page (seconds). Under a club
#: night's load the database is asked a few times a second per match instead of on every
#: request; another process's save shows within this, a save in this process at once.
REVISION_TTL = 0.25
_REVISIONS: cache.LRU[tuple[float, int, int]] = cache.LRU(4096)


def view_revision(engine: Engine, token: str) -> tuple[int, int] | None:
    """The id and revision of the match with this read-only token (one small query, at most
    once per REVISION_TTL per process), or None."""
    if not _token(token):
        return None
    now = time.monotonic()
    known = _REVISIONS.get(token)
    if known is not None and known[0] > now:
        return known[1], known[2]
    with engine.connect() as connection:
        row = connection.execute(VIEW_REVISION, {"token": token}).first()
    if row is None:
        return None
    _REVISIONS.put(token, (now + REVISION_TTL, int(row[0]), int(row[1])))
    return int(row[0]), int(row[1])


def _forget_revision(match: Match) -> None:
    """A write in this process shows on its read-only pages at once."""
    _REVISIONS.put(match.view_token, (0.0, 0, 0))


def _score(match: Match) -> dict[str, Any]:
    out = match_document(as_document(match))
    seats = list(match.players)
    for line, stored in zip(out["rounds"], match.rounds, strict=True):
        line["dealer"] = stored.dealer
        line["starts"] = left_of(seats, stored.dealer)
    if "next" in out:
        dealer = next_dealer(match)
        out["next"]["dealer"] = dealer
        out["next"]["starts"] = left_of(seats, dealer)
    return out


# --- writing ------------------------------------------------------------------------------


def _check(match: Match, rounds: list[dict[str, Any]], **changes: Any) -> dict[str, Any]:
    """The result of the match with these rounds (and fields); EntryError if it is not valid."""
    doc = as_document(match)
    doc.update(changes)
    if doc.get("games") is None:
        doc.pop("games", None)
    doc["rounds"] = rounds
    return match_document(doc)


def _expect(match: Match, revision: int | None) -> None:
    """Refuse a write based on another revision than the one loaded (nothing is changed)."""
    if revision is not None and revision != match.revision:
        raise StaleRevision(match.revision)


@contextmanager
def _writing(session: Session, match: Match, revision: int | None) -> Iterator[None]:
    """Claim the match's next revision, run the writes inside, commit; all or nothing.

    The claim is one compare-and-set, ``UPDATE match SET revision = r + 1 WHERE id = … AND
    revision = r``, and runs first in the transaction (SQLite takes its write lock on it,
    PostgreSQL locks the row), so of several writes on the same revision exactly one wins.
    """
    expected = match.revision
    claim = (
        update(MATCH)
        .where(MATCH.c.id == match.id, MATCH.c.revision == expected)
        .values(revision=expected + 1)
    )
    try:
        claimed = session.connection().execute(claim).rowcount
    except OperationalError as err:
        if "locked" not in str(err.orig):  # SQLite's writer lock held past its busy timeout
            raise
        claimed = 0
    if claimed != 1:
        _lost(session, match, revision)
    set_committed_value(match, "revision", expected + 1)
    clash = False
    try:
        yield
        session.commit()
    except IntegrityError:  # the unique (match, number) as a second line of defence
        clash = True
    except BaseException:
        session.rollback()
        raise
    if clash:
        _lost(session, match, revision)
    _forget_revision(match)
    session.refresh(match)


def _lost(session: Session, match: Match, revision: int | None) -> NoReturn:
    """Roll back a write that lost the race, reload the match and say why."""
    session.rollback()
    session.refresh(match)
    if revision is not None and revision != match.revision:
        raise StaleRevision(match.revision)
    raise ConflictError()  # no revision given, or the database was too busy to say


def _record(session: Session, match: Match, code: str, **params: Any) -> None:
    """Add a history entry: a code and its parameters (``number``: the round it is about)."""
    number = params.get("number")
    session.add(Change(match=match, code=code, params=params, number=number, when=utcnow()))


def _started(
    session: Session, match: Match, code: str, seats: list[str], dealer: str, games: int | None
) -> None:
    if games is None:
        _record(session, match, f"{code}-target", players=seats, dealer=dealer)
    elif get_game(match.game).first_seat == "starter":
        _record(
            session,
            match,
            f"{code}-starts",
            players=seats,
            starts=left_of(seats, dealer),
            games=games,
        )
    else:
        _record(session, match, code, players=seats, dealer=dealer, games=games)


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
        first_dealer = first_dealer.strip()
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
    _started(session, match, "match-started", seats, first_dealer, match.games)
    _remember(session, once, match)
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
    _started(session, again, "rematch-started", seats, again.first_dealer, again.games)
    _remember(session, once, again)
    _commit(session)
    return again


def add_round(
    session: Session,
    match: Match,
    doc: dict[str, Any],
    *,
    revision: int | None = None,
    once: Once | None = None,
) -> None:
    """Check and store the next round of the match, dealt by ``next_dealer``.

    :raises StaleRevision: ``revision`` is given and is not the match's; nothing changed.
    :raises ConflictError: another write won the race; nothing changed.
    :raises EntryError: the round is not valid; nothing changed.
    """
    _expect(match, revision)
    round_doc = _plain(doc)
    rounds = [r.document for r in match.rounds]
    number = len(rounds) + 1
    _check(match, [*rounds, round_doc])
    dealer = next_dealer(match)
    with _writing(session, match, revision):
        session.add(Round(match=match, number=number, dealer=dealer, document=round_doc))
        _record(session, match, "round-added", number=number)
        _remember(session, once, match, number)


def update_round(
    session: Session,
    match: Match,
    number: int,
    doc: dict[str, Any],
    *,
    revision: int | None = None,
    once: Once | None = None,
) -> None:
    """Check and store a corrected round ``number``; the history keeps old and new values.

    Saving exactly the stored document changes nothing (not even the revision).
    :raises RoundMissing, StaleRevision, ConflictError, EntryError: nothing changed.
    """
    _expect(match, revision)
    stored = _round(match, number)
    round_doc = _plain(doc)
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
            _record(session, match, "round-edited", number=number, changes=changes)
        else:
            _record(session, match, "round-unchanged", number=number)
        _remember(session, once, match, number)


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
    _expect(match, revision)
    stored = _round(match, number)
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
        _record(session, match, code, number=number, undo=undo, **extra)
        _remember(session, once, match, number)


#: History codes of a deleted round (which keep the round, for undoing) and of an undo.
DELETIONS = ("round-deleted", "round-deleted-moved", "round-deleted-renumbered")
RESTORED = "round-restored"


def undoable(session: Session, match: Match) -> set[int]:
    """The history entries (ids) of deletions that can still be undone; only the deletions
    and undos are read, not the whole history."""
    rows = session.exec(
        select(Change).where(
            Change.match_id == match.id, col(Change.code).in_([*DELETIONS, RESTORED])
        )
    ).all()
    undone = {c.params.get("undone") for c in rows if c.code == RESTORED}
    return {c.id for c in rows if c.id is not None and "undo" in c.params and c.id not in undone}


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
    _expect(match, revision)
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
        _record(session, match, RESTORED, number=number, undone=change)
        _remember(session, once, match, number)
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
    _expect(match, revision)
    if match.games is None:
        kind = get_game(match.game)
        raise EntryError(
            "series-no-length", field="games", rule=kind.series_rule, game_name=kind.name
        )
    if isinstance(by, bool) or not isinstance(by, int) or by < 1:
        raise EntryError("lengthen-by", field="games")
    old = match.games
    _check(match, [r.document for r in match.rounds], games=old + by)
    with _writing(session, match, revision):
        match.games = old + by
        session.add(match)
        _record(session, match, "match-lengthened", old=old, new=old + by)
        _remember(session, once, match)


# --- history ------------------------------------------------------------------------------


def history(match: Match) -> list[dict[str, Any]]:
    """Every change to the match, oldest first: when (UTC), round number, code and params."""
    return [
        {
            "id": c.id,
            "when": c.when,
            "number": c.number,
            "code": c.code,
            "params": copy.deepcopy(c.params),
        }
        for c in sorted(match.changes, key=lambda c: c.id or 0)
    ]


#: History entries a match page shows at once (issue 9, point 7: the rest is paged).
HISTORY_PAGE = 20


def history_page(
    session: Session, match: Match, page: int = 1, size: int = HISTORY_PAGE
) -> tuple[list[dict[str, Any]], int]:
    """One page of the history, newest first (page 1: the latest ``size`` changes), and the
    number of pages; only that page is read from the database."""
    total = session.exec(
        select(func.count()).select_from(Change).where(Change.match_id == match.id)
    ).one()
    pages = max(1, -(-int(total) // size))
    page = min(max(page, 1), pages)
    rows = session.exec(
        select(Change)
        .where(Change.match_id == match.id)
        .order_by(col(Change.id).desc())
        .offset((page - 1) * size)
        .limit(size)
    ).all()
    entries = [
        {
            "id": c.id,
            "when": c.when,
            "number": c.number,
            "code": c.code,
            "params": copy.deepcopy(c.params),
        }
        for c in rows
    ]
    return entries, pages


def describe(entry: Mapping[str, Any], tr: Translator = ENGLISH, game: str | None = None) -> str:
    """A history entry in words, in the language of ``tr`` and the words of ``game``'s box."""
    params = dict(entry.get("params") or {})
    params.pop("undo", None)  # the deleted round itself, kept for undoing
    if entry["code"] not in MESSAGES:  # written by a newer version of the app
        return render("legacy-note", {"text": entry["code"]}, tr)
    if "changes" in params:
        params["changes"] = "; ".join(_describe_change(c, tr) for c in params["changes"])
    return render(entry["code"], params, tr, context=game)


def _describe_change(change: Mapping[str, Any], tr: Translator) -> str:
    what = str(change.get("what"))
    player = change.get("player")
    code = f"change-{what}"
    if code not in MESSAGES:
        code = "change-player" if player is not None else "change-field"
    values = {
        "what": what,
        "player": player,
        "old": _value_text(change.get("old"), tr),
        "new": _value_text(change.get("new"), tr),
    }
    return render(code, {k: v for k, v in values.items() if v is not None}, tr)


def _count_label(key: str) -> str:
    """A short form's count by the label its game gives it ("low" → "Cards 1–9")."""
    labels = {c.key: c.label for game in games() for c in game.counts}
    return labels.get(key, key)


def _value_text(value: Any, tr: Translator) -> str:
    """A stored old/new value in words: cards as written, counts with their names."""
    if value is None:
        return render("value-none", {}, tr)
    if value == "" or value == [] or value == {}:
        return render("value-empty", {}, tr)
    if isinstance(value, Mapping) and set(value) == {"points"}:
        return render("value-points", {"value": value["points"]}, tr)
    if isinstance(value, Mapping) and set(value) == {"seventeen"}:
        return render("value-seventeen" if value["seventeen"] else "value-not-seventeen", {}, tr)
    if isinstance(value, Mapping):
        return ", ".join(
            render("value-count", {"key": tr.gettext(_count_label(str(k))), "value": v}, tr)
            for k, v in value.items()
        )
    return str(value)


def _norm(value: Any) -> Any:
    """Cards and names compared as the rules core reads them: case and spaces ignored."""
    if isinstance(value, str):
        return value.strip().upper()
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    return value


def _text(value: Any) -> Any:
    """A value as the history keeps it: cards and melds as written, counts and names as they are."""
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):  # melds
            return " ".join("[" + " ".join(map(str, v)) + "]" for v in value)
        return " ".join(map(str, value))
    return copy.deepcopy(value)


def diff_rounds(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What differs between two round documents: each field's old and new value, by player."""
    changes: list[dict[str, Any]] = []
    old_players = {
        _norm(p.get("name")): p for p in old.get("players", []) if isinstance(p, Mapping)
    }
    for player in new.get("players", []):
        if not isinstance(player, Mapping):
            continue
        before = old_players.get(_norm(player.get("name")), {})
        for key in [k for k in player if k != "name"] + [
            k for k in before if k != "name" and k not in player
        ]:
            if _norm(before.get(key)) != _norm(player.get(key)):
                changes.append(
                    {
                        "what": key,
                        "player": player.get("name"),
                        "old": _text(before.get(key)),
                        "new": _text(player.get(key)),
                    }
                )
    keys = [k for k in new if k not in ("players", "game")]
    keys += [k for k in old if k not in ("players", "game") and k not in new]
    for key in keys:
        if _norm(old.get(key)) != _norm(new.get(key)):
            changes.append({"what": key, "old": _text(old.get(key)), "new": _text(new.get(key))})
    return changes
