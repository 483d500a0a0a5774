"""Reading matches back: by link token or device, as the contract's documents, and their
results (scored by the rules core once per revision, kept in companion/adapters/cache.py)."""

from __future__ import annotations

import copy
import time
from typing import Any

from sqlalchemy import Engine, text
from sqlmodel import Session, col, select

from companion.adapters import cache
from companion.adapters.models import Match, Round
from companion.adapters.store.errors import RoundMissing
from companion.adapters.store.tokens import is_token
from companion.domain import left_of, match_document


def get_by_edit_token(session: Session, token: str) -> Match | None:
    """The match whose edit link has this token, or None."""
    if not is_token(token):
        return None
    return session.exec(select(Match).where(Match.edit_token == token)).first()


def get_by_view_token(session: Session, token: str) -> Match | None:
    """The match whose read-only link has this token, or None."""
    if not is_token(token):
        return None
    return session.exec(select(Match).where(Match.view_token == token)).first()


def matches_for_device(session: Session, device: str) -> list[Match]:
    """The matches started on this device, newest first."""
    if not is_token(device):
        return []
    query = (
        select(Match)
        .where(Match.device == device)
        .order_by(col(Match.created).desc(), col(Match.id).desc())
    )
    return list(session.exec(query))


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


def stored_round(match: Match, number: int) -> Round:
    """The stored round ``number`` (1-based); ``RoundMissing`` when the match has none."""
    for stored in match.rounds:
        if stored.number == number:
            return stored
    missing = RoundMissing("round-missing", number=number, count=len(match.rounds))
    raise missing.at(context=match.game)  # said in the game's words (Rummy 17: game)


def round_document(match: Match, number: int) -> dict[str, Any]:
    """The round document of round ``number`` (1-based), as it was entered."""
    return copy.deepcopy(stored_round(match, number).document)


def next_dealer(match: Match) -> str:
    """Who deals the next round: left of the last stored round's dealer (R17-2)."""
    if not match.rounds:
        return match.first_dealer
    return left_of(match.players, match.rounds[-1].dealer)


def result(match: Match) -> dict[str, Any]:
    """The contract's match result with the stored dealers: scored by the rules core once per
    revision of the match (companion/adapters/cache.py), a fresh copy on every call."""
    key = cache.result_key(match.id, match.view_token, match.revision)
    return cache.result(key, lambda: score(match))


def result_by_id(session: Session, match_id: int, view_token: str, revision: int) -> dict[str, Any]:
    """``result`` of the match with this id at this revision, loading the match only when no
    process-local copy exists (an event reads hundreds of tables' results at once)."""

    def compute() -> dict[str, Any]:
        match = session.get(Match, match_id)
        assert match is not None
        return score(match)

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
    if not is_token(token):
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


#: The edit page's one query on a cache hit (see ``edit_revision``).
EDIT_REVISION = text("SELECT id, revision FROM match WHERE edit_token = :token")


def edit_revision(engine: Engine, token: str) -> tuple[int, int] | None:
    """The id and revision of the match with this edit token, read now (one small query), or
    None. Never trusted for a while as ``view_revision`` is: the scorekeeper's next load must
    show their own save, whichever server process stored it."""
    if not is_token(token):
        return None
    with engine.connect() as connection:
        row = connection.execute(EDIT_REVISION, {"token": token}).first()
    return None if row is None else (int(row[0]), int(row[1]))


def forget_revision(match: Match) -> None:
    """A write in this process shows on its read-only pages at once."""
    _REVISIONS.put(match.view_token, (0.0, 0, 0))


def score(match: Match) -> dict[str, Any]:
    """The match result with the stored dealers, scored now (``result`` keeps it)."""
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
