"""Matches in the database: create, add/edit/delete games, and read them back as documents.

Every write is checked by the rules core first (``match_document`` on the match as it would
be after the write); an ``EntryError`` leaves the database as it was. Scores are never
stored: ``result`` scores the stored round documents on every read.
"""

from __future__ import annotations

import copy
import json
import secrets
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from companion.models import TITLE_LENGTH, Change, Game, Match, utcnow
from companion.rules import EntryError, check_names, match_document

# 24 random bytes = 192 bits, written as 32 URL-safe characters.
TOKEN_BYTES = 24


def new_token() -> str:
    """A secret link token (192 bits from ``secrets``)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def _plain(doc: object) -> Any:
    """A deep copy that is certainly plain JSON (what the JSON column can store)."""
    try:
        return json.loads(json.dumps(doc, ensure_ascii=False))
    except (TypeError, ValueError) as err:
        raise EntryError(f"the game cannot be stored as JSON: {err}") from None


def _title(title: str | None) -> str | None:
    if title is None:
        return None
    if not isinstance(title, str):
        raise EntryError("the title must be text")
    title = " ".join(title.split())
    if len(title) > TITLE_LENGTH:
        raise EntryError(f"the title is longer than {TITLE_LENGTH} characters")
    return title or None


class ConflictError(EntryError):
    """Someone else changed the match at the same moment; reload and enter it again."""


def _commit(session: Session) -> None:
    """Commit; a clash with another phone's save becomes a ConflictError, nothing saved."""
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise ConflictError(
            "someone else changed this match at the same moment; reload it and save again"
        ) from None


def _record(session: Session, match: Match, what: str, number: int | None = None) -> None:
    session.add(Change(match=match, what=what, number=number, when=utcnow()))


def create_match(
    session: Session,
    *,
    players: list[str],
    first_dealer: str,
    games: int,
    title: str | None = None,
    device: str | None = None,
) -> Match:
    """Start a match: names in seat order (clockwise), the first dealer, the number of games."""
    if not isinstance(players, list | tuple):
        raise EntryError("players must be a list of names, in seat order (clockwise)")
    seats = list(check_names(list(players)))
    if isinstance(first_dealer, str):
        first_dealer = first_dealer.strip()
    title = _title(title)
    doc: dict[str, Any] = {
        "game": "rummy17",
        "players": seats,
        "first_dealer": first_dealer,
        "games": games,
        "rounds": [],
    }
    match_document(doc)  # R17-1, D17-7: 2–6 names, a known dealer, 1 or more games
    match = Match(
        title=title,
        players=seats,
        first_dealer=first_dealer,
        games=games,
        edit_token=new_token(),
        view_token=new_token(),
        device=device,
    )
    session.add(match)
    what = f"Match started: {', '.join(seats)}; {first_dealer} deals first; {games} games"
    _record(session, match, what)
    session.commit()
    return match


def get_by_edit_token(session: Session, token: str) -> Match | None:
    """The match whose edit link has this token, or None."""
    if not token:
        return None
    return session.exec(select(Match).where(Match.edit_token == token)).first()


def get_by_view_token(session: Session, token: str) -> Match | None:
    """The match whose read-only link has this token, or None."""
    if not token:
        return None
    return session.exec(select(Match).where(Match.view_token == token)).first()


def matches_for_device(session: Session, device: str) -> list[Match]:
    """The matches started on this device, newest first."""
    if not device:
        return []
    query = (
        select(Match).where(Match.device == device).order_by(Match.created.desc(), Match.id.desc())
    )
    return list(session.exec(query))


def as_document(match: Match) -> dict[str, Any]:
    """The contract's match document: players, first dealer, games, title and every round."""
    doc: dict[str, Any] = {
        "game": match.game,
        "players": list(match.players),
        "first_dealer": match.first_dealer,
        "games": match.games,
    }
    if match.title:
        doc["title"] = match.title
    doc["rounds"] = [copy.deepcopy(g.document) for g in match.rounds]
    return doc


def _game(match: Match, number: int) -> Game:
    for game in match.rounds:
        if game.number == number:
            return game
    raise EntryError(f"there is no game {number}; the match has {len(match.rounds)}")


def round_document(match: Match, number: int) -> dict[str, Any]:
    """The round document of game ``number`` (1-based), as it was entered."""
    return copy.deepcopy(_game(match, number).document)


def result(match: Match) -> dict[str, Any]:
    """The contract's match result, scored now by the rules core."""
    return match_document(as_document(match))


def _check(match: Match, rounds: list[dict[str, Any]]) -> None:
    """Raise EntryError unless the match with these rounds is a valid match document."""
    doc = as_document(match)
    doc["rounds"] = rounds
    match_document(doc)


def add_game(session: Session, match: Match, round_doc: dict[str, Any]) -> None:
    """Check and store the next game of the match."""
    doc = _plain(round_doc)
    rounds = [g.document for g in match.rounds]
    number = len(rounds) + 1
    _check(match, [*rounds, doc])
    session.add(Game(match=match, number=number, document=doc))
    _record(session, match, f"Game {number} added", number)
    _commit(session)
    session.refresh(match)


def update_game(session: Session, match: Match, number: int, round_doc: dict[str, Any]) -> None:
    """Check and store a corrected game ``number``; the history says what changed."""
    game = _game(match, number)
    doc = _plain(round_doc)
    rounds = [doc if g.number == number else g.document for g in match.rounds]
    _check(match, rounds)
    parts = describe_changes(game.document, doc)
    game.document = doc
    game.updated = utcnow()
    session.add(game)
    what = (
        f"Game {number} edited: {', '.join(parts)}" if parts else f"Game {number} saved, unchanged"
    )
    _record(session, match, what, number)
    _commit(session)
    session.refresh(match)


def delete_game(session: Session, match: Match, number: int) -> None:
    """Delete game ``number``; the later games move up one number."""
    game = _game(match, number)
    later = [g for g in match.rounds if g.number > number]
    match.rounds.remove(game)
    session.delete(game)
    session.flush()
    # One at a time, lowest first, so (match, number) stays unique at every step.
    for g in later:
        g.number -= 1
        session.add(g)
        session.flush()
    what = f"Game {number} deleted"
    if later:
        what += f"; games {number + 1}–{number + len(later)} renumbered"
        if len(later) == 1:
            what = f"Game {number} deleted; game {number + 1} is now game {number}"
    _record(session, match, what, number)
    _commit(session)
    session.refresh(match)


def history(match: Match) -> list[dict[str, Any]]:
    """Every change to the match, oldest first: when (UTC), what, and the game number."""
    return [
        {"when": c.when, "what": c.what, "number": c.number}
        for c in sorted(match.changes, key=lambda c: c.id or 0)
    ]


def _norm(value: Any) -> Any:
    """Cards and names compared as the rules core reads them: case and spaces ignored."""
    if isinstance(value, str):
        return value.strip().upper()
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    return value


def describe_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two round documents, in plain words ("Anna's hand", "bonus cards")."""
    parts: list[str] = []
    old_players = {_norm(p.get("name")): p for p in old.get("players", [])}
    for player in new.get("players", []):
        name = player.get("name")
        before = old_players.get(_norm(name), {})
        if _norm(before.get("melds", [])) != _norm(player.get("melds", [])):
            parts.append(f"{name}'s melds")
        if _norm(before.get("hand", [])) != _norm(player.get("hand", [])):
            parts.append(f"{name}'s hand")
    if _norm(old.get("bonus_cards")) != _norm(new.get("bonus_cards")):
        parts.append("bonus cards")
    if _norm(old.get("went_out")) != _norm(new.get("went_out")):
        parts.append("who went out")
    if _norm(old.get("last_discard")) != _norm(new.get("last_discard")):
        parts.append("last card")
    return parts
