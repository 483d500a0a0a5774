"""Own hands: the next round's parts, each entered by its player on their own phone.

The scorekeeper opens the next round's parts (``open_parts``): one row per seat, each with
its own secret token, as strong as an edit token (``tokens.new_token``). A part token reaches
one player's part only: ``put_part`` checks the part on its own (the game's ``check_part``)
and stores it, the later of two sends winning. What the parts that came already tell of the
whole round (a card in two players' parts) is flagged as they come (``clashes``, the game's
``check_parts``), never refused: the round is checked when it is saved. The scorekeeper's
change to a part that came is kept beside it (``keep_part``), so the player's phone shows
it before the round is saved. The round is saved as any round (``matches.add_round``), and
saving it closes the parts (``close_parts``, in the same transaction): each part keeps the
player's entry as it was saved, so a player whose part the scorekeeper changed is shown the
change. Dropped or closed parts keep their rows, so their tokens answer "gone" (410), never
"unknown".

Opening or filling in parts never changes the match's revision: the scorekeeper's form,
loaded before the parts came in, still saves.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, col, select

from companion.adapters.db import transient
from companion.adapters.models import Match, Part, utcnow
from companion.adapters.store.reading import result
from companion.adapters.store.revision import expect
from companion.adapters.store.tokens import is_token, new_token
from companion.domain import EntryError, get_game
from companion.domain.documents import PartBody, json_of
from companion.domain.errors import Problem
from companion.domain.messages import N_, register

register(
    {
        "parts-not-offered": N_("{game_name} takes no parts entered on the players' own phones"),
        "parts-match-over": N_("the match is over: there is no next round to enter"),
        "parts-none-open": N_("no round is open for the players to enter their own parts"),
        "part-closed-saved": N_("round {number} was saved: this part can no longer change"),
        "part-closed-dropped": N_(
            "the scorekeeper stopped the own entries of round {number}: this part can no "
            "longer change"
        ),
        "part-not-found": N_("there is no part at this link"),
    }
)

OPEN, SAVED, DROPPED = "open", "saved", "dropped"


class PartClosed(EntryError):
    """The part's round was saved, or its parts dropped: its token answers 410."""

    def __init__(self, part: Part) -> None:
        code = "part-closed-saved" if part.state == SAVED else "part-closed-dropped"
        super().__init__(code, number=part.number)
        self.part = part


@dataclass(frozen=True)
class Opened:
    """The open parts of a match, and whether this call opened them."""

    parts: list[Part]
    created: bool


def open_of(session: Session, match: Match) -> list[Part]:
    """The match's open parts, in seat order (none: no round is open for own entries)."""
    return list(
        session.exec(
            select(Part)
            .where(Part.match_id == match.id, Part.state == OPEN)
            .order_by(col(Part.seat))
        ).all()
    )


def next_number(match: Match) -> int:
    """The round open parts are for: the match's next round (rounds deleted meanwhile move it)."""
    return len(match.rounds) + 1


def open_parts(session: Session, match: Match, *, revision: int | None = None) -> Opened:
    """Open the next round's parts, one token per player; when they are open, the same ones.

    :raises StaleRevision: ``revision`` is given and is not the match's; nothing changed.
    :raises EntryError: the game takes no parts, or the match is over.
    """
    expect(match, revision)  # the revision is checked, never claimed (parts leave it be)
    existing = open_of(session, match)
    if existing:
        return Opened(existing, False)
    game = get_game(match.game)
    if not game.takes_parts:
        raise EntryError("part-none", game_name=game.name)
    if result(match).get("next") is None:
        raise EntryError("parts-match-over").at(context=match.game)
    last = session.exec(select(func.max(Part.opening)).where(Part.match_id == match.id)).one()
    opening = (last or 0) + 1
    rows = [
        Part(
            match_id=match.id,
            opening=opening,
            number=next_number(match),
            seat=seat,
            name=name,
            token=new_token(),
        )
        for seat, name in enumerate(match.players)
    ]
    session.add_all(rows)
    try:
        session.commit()
    except IntegrityError:  # another phone opened them at the same moment: theirs
        session.rollback()
        return Opened(open_of(session, match), False)
    return Opened(rows, True)


def drop_parts(session: Session, match: Match) -> bool:
    """Close the open parts without a round: their tokens answer 410. False: none was open."""
    rows = open_of(session, match)
    for row in rows:
        row.state = DROPPED
        row.updated = utcnow()
        session.add(row)
    session.commit()
    return bool(rows)


def by_token(session: Session, token: str) -> Part | None:
    """The part of a part token (open or closed); None for anything else."""
    if not is_token(token):
        return None
    return session.exec(select(Part).where(Part.token == token)).first()


def phone_tag(device: str | None) -> str | None:
    """A short, stable name of the phone that sent a part: never its cookie itself."""
    if not device:
        return None
    return hashlib.sha256(device.encode()).hexdigest()[:6]


def put_part(
    session: Session, part: Part, raw: PartBody | object, *, device: str | None = None
) -> Part:
    """Check ``raw`` as the player's part on its own and store it (the later send wins).

    :raises PartClosed: the round was saved or the parts dropped; nothing changed.
    :raises EntryError: the part is bad on its own; nothing changed.
    """
    if part.state != OPEN:
        raise PartClosed(part)
    match = session.get(Match, part.match_id)
    assert match is not None  # a part goes with its match (ON DELETE CASCADE)
    game = get_game(match.game)
    sent = json_of(raw)  # a typed part (``PartBody``) as its JSON form
    checked = json.loads(json.dumps(game.check_part(sent, part.name, list(match.players))))
    for attempt in (1, 2):
        part.part = checked
        part.saved = None  # the player's send is newer than the scorekeeper's change
        part.updated = utcnow()
        part.log = [*part.log, {"when": part.updated.isoformat(), "phone": phone_tag(device)}]
        session.add(part)
        try:
            session.commit()
            return part
        except OperationalError as err:
            # Another phone's send of this part committed after this request's snapshot
            # (PostgreSQL, REPEATABLE READ), or held SQLite's lock past its timeout. The later
            # send wins: once more, the part locked and read as it is now, on PostgreSQL at
            # READ COMMITTED (the lock waits for a send under way and then sees it, where the
            # request's snapshot would fail again), and this send written over it.
            if not transient(err) or attempt == 2:
                raise
            session.rollback()
            if session.get_bind().dialect.name == "postgresql":
                session.connection(execution_options={"isolation_level": "READ COMMITTED"})
            session.refresh(part, with_for_update=True)
            if part.state != OPEN:
                raise PartClosed(part) from None
    raise AssertionError("unreachable")  # the loop returns or raises


def keep_part(session: Session, part: Part, raw: Any) -> Part:
    """The scorekeeper's change to a part that came, kept beside it while the round is open
    (``Part.saved``; nothing when it is the part as sent): the player's phone shows it. The
    player's own send stays ``part``; the next one replaces the change.

    :raises PartClosed: the round was saved or the parts dropped; nothing changed.
    :raises EntryError: the part is bad on its own; nothing changed.
    """
    if part.state != OPEN:
        raise PartClosed(part)
    if part.part is None:
        return part  # nothing came to change: the scorekeeper enters it (their form has it)
    match = session.get(Match, part.match_id)
    assert match is not None
    game = get_game(match.game)
    sent = json_of(raw)  # a typed part (``PartBody``) as its JSON form
    checked = json.loads(json.dumps(game.check_part(sent, part.name, list(match.players))))
    part.saved = None if same_part(part.part, checked) else checked
    session.add(part)
    session.commit()
    return part


def kept(part: Part) -> dict[str, Any] | None:
    """The part as the scorekeeper has it while its round is open: their change, else what
    the player sent (None: nothing came)."""
    if part.state == OPEN and part.saved is not None:
        return part.saved
    return part.part


def clashes(parts: list[Part], match: Match) -> dict[str, list[Problem]]:
    """What the open parts that came already tell of the whole round, by the player each
    problem is placed at: the later of two parts with a card the box holds once (D17-8,
    DK-4, DO-6, DM-8; the game's ``check_parts``), each as the scorekeeper has it."""
    came = sorted((p for p in parts if kept(p) is not None), key=lambda p: (p.updated, p.seat))
    found: dict[str, list[Problem]] = {}
    try:
        get_game(match.game).check_parts({p.name: kept(p) or {} for p in came}, match.players)
    except EntryError as err:
        for problem in err.at(context=match.game).problems:
            found.setdefault(problem.player or "", []).append(problem)
    return found


def part_answer(part: Part, match: Match) -> dict[str, Any]:
    """A part as the contract gives it: ``{"round", "name", "part"}``."""
    number = next_number(match) if part.state == OPEN else part.number
    return {"round": number, "name": part.name, "part": part.part}


def parts_answer(parts: list[Part], match: Match) -> dict[str, Any]:
    """The open parts as the contract gives them: ``{"round", "parts": {NAME: PART|null}}``."""
    return {"round": next_number(match), "parts": {p.name: p.part for p in parts}}


def close_parts(session: Session, match: Match, number: int, doc: dict[str, Any]) -> list[Any]:
    """The round ``number`` is being saved as ``doc``: its open parts close with it (in the
    caller's transaction). Returns what the history says of each: entered on the player's
    own phone (and on how many), changed by the scorekeeper after it came, or entered by the
    scorekeeper alone."""
    rows = open_of(session, match)
    entries = {p.get("name"): p for p in doc.get("players", []) if isinstance(p, dict)}
    said: list[Any] = []
    for row in rows:
        entry = {k: v for k, v in entries.get(row.name, {}).items() if k != "name"}
        row.state = SAVED
        row.number = number
        row.saved = entry
        row.updated = utcnow()
        session.add(row)
        if row.part is None:
            how = "keeper"
        elif same_part(row.part, entry):
            how = "own"
        else:
            how = "changed"
        phones = len({e.get("phone") for e in row.log})
        said.append({"player": row.name, "how": how, "phones": phones})
    return said


def changed_by_keeper(part: Part, sent: Any = None) -> bool:
    """Was the part saved otherwise than ``sent`` (by default what its player last sent)?"""
    sent = part.part if sent is None else sent
    return part.state == SAVED and sent is not None and not same_part(sent, part.saved)


def same_part(sent: Any, saved: Any) -> bool:
    """The same cards and counts, however they were spaced or cased."""
    return bool(_norm(sent) == _norm(saved))


def _norm(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items() if v not in ([], None, 0)}
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, str):
        return value.strip().upper()
    return value
