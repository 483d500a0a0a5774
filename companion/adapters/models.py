"""The tables: a match, its rounds (stored as round documents) and its history of changes.

Words: a *round* is one deal, a *match* the series, a *game* the kind (``Match.game`` is a
game id of the rules core). Scores are never stored: a round keeps the round document as
entered, and the rules core scores it on every read, so a rule lives in one place only.
History entries are codes with parameters, rendered in the reader's language.
"""

# No "from __future__ import annotations": SQLModel reads the relationship hints at runtime.
from datetime import UTC, datetime
from typing import Any, Optional

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    Dialect,
    TypeDecorator,
    UniqueConstraint,
)
from sqlmodel import Field, Relationship, SQLModel

from companion.domain.bounds import MAX_TITLE, MAX_TYPED_NAME

TOKEN_LENGTH = 64
NAME_LENGTH = MAX_TYPED_NAME
TITLE_LENGTH = MAX_TITLE
GAME_LENGTH = 20
CODE_LENGTH = 40


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware (SQLite drops the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Store in UTC."""
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Read back as an aware datetime in UTC."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _when() -> Any:
    return Field(default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False))


class MatchBase(SQLModel):
    """What a player chooses when starting a match."""

    title: str | None = Field(default=None, max_length=TITLE_LENGTH)
    game: str = Field(max_length=GAME_LENGTH)
    players: list[str] = Field(sa_column=Column(JSON, nullable=False))
    first_dealer: str = Field(max_length=NAME_LENGTH)
    #: Rounds in the series; None: the series runs to a target (Manipulation, MR-16).
    games: int | None = None


class Match(MatchBase, table=True):
    """A series of rounds at one table, reached through its two secret links."""

    id: int | None = Field(default=None, primary_key=True)
    created: datetime = _when()
    edit_token: str = Field(max_length=TOKEN_LENGTH, unique=True, index=True)
    view_token: str = Field(max_length=TOKEN_LENGTH, unique=True, index=True)
    device: str | None = Field(default=None, max_length=TOKEN_LENGTH, index=True)
    #: Grows by one with every change (1 when created); writes compare and set it.
    revision: int = 1

    rounds: list["Round"] = Relationship(
        back_populates="match",
        sa_relationship_kwargs={
            "order_by": "Round.number",
            "cascade": "all, delete-orphan",
            "lazy": "selectin",
        },
    )
    changes: list["Change"] = Relationship(
        back_populates="match",
        sa_relationship_kwargs={"order_by": "Change.id", "cascade": "all, delete-orphan"},
    )


class Round(SQLModel, table=True):
    """One round of a match: its number, who dealt it and the round document as entered."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("match_id", "number", name="uq_round_match_number"),)

    id: int | None = Field(default=None, primary_key=True)
    # None only until the match it is added to is flushed (set through ``match``).
    match_id: int | None = Field(
        default=None, foreign_key="match.id", index=True, ondelete="CASCADE", nullable=False
    )
    number: int
    #: Who dealt this round, kept as played: renumbering after a delete never changes it.
    dealer: str = Field(max_length=NAME_LENGTH)
    document: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created: datetime = _when()
    updated: datetime = _when()

    match: Match | None = Relationship(back_populates="rounds")


class Change(SQLModel, table=True):
    """One entry of a match's history: when, a message code with its parameters, which round."""

    id: int | None = Field(default=None, primary_key=True)
    # None only until the match it is added to is flushed (set through ``match``).
    match_id: int | None = Field(
        default=None, foreign_key="match.id", index=True, ondelete="CASCADE", nullable=False
    )
    when: datetime = _when()
    number: int | None = None
    code: str = Field(max_length=CODE_LENGTH)
    params: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))

    match: Match | None = Relationship(back_populates="changes")


KEY_LENGTH = 64
SCOPE_LENGTH = 60


class IdempotencyKey(SQLModel, table=True):
    """A write that was done once: a form's or an API client's key, in the scope it names.

    ``scope`` says which write (``form:round-add:12``, ``api:create``, ``api:event:3``); the
    unique (scope, key) lets only one of two writes with the same key commit, and the second
    answers like the first, from ``match_id`` (the match written or created) and ``number``
    (the round), or from ``event_id`` (the event written or created). ``fingerprint`` is a
    hash of an API request's body: the same key with another body is refused.
    """

    __tablename__ = "idempotency_key"
    __table_args__ = (UniqueConstraint("scope", "key", name="uq_idempotency_key_scope_key"),)

    id: int | None = Field(default=None, primary_key=True)
    scope: str = Field(max_length=SCOPE_LENGTH)
    key: str = Field(max_length=KEY_LENGTH)
    fingerprint: str = Field(default="", max_length=64)
    # A key names its match or its event (set through ``match`` / ``event``).
    match_id: int | None = Field(
        default=None, foreign_key="match.id", index=True, ondelete="CASCADE", nullable=True
    )
    event_id: int | None = Field(
        default=None, foreign_key="event.id", index=True, ondelete="CASCADE", nullable=True
    )
    number: int | None = None
    created: datetime = _when()

    match: Match | None = Relationship(
        sa_relationship_kwargs={"cascade": "save-update, merge", "lazy": "joined"}
    )
    event: Optional["Event"] = Relationship(
        sa_relationship_kwargs={"cascade": "save-update, merge", "lazy": "joined"}
    )


SEATING_LENGTH = 10


class Event(SQLModel, table=True):
    """A club night or tournament (EV-1): one game, its entrants and its sessions.

    A thin layer over matches: each table of a session is an ordinary ``Match``
    (``EventTable``), and the standings are computed by the rules core from the tables' match
    results (EV-5), never stored. ``withdrawn`` entrants sit out the sessions seated after
    they left; ``log`` is the event's own history (seating, entrants), codes with parameters.
    """

    id: int | None = Field(default=None, primary_key=True)
    created: datetime = _when()
    title: str | None = Field(default=None, max_length=TITLE_LENGTH)
    game: str = Field(max_length=GAME_LENGTH)
    entrants: list[str] = Field(sa_column=Column(JSON, nullable=False))
    withdrawn: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    sessions: int  # planned sessions, 1–20 (EV-1)
    rounds: int | None = None  # per table and session; None: one per seat (EV-1)
    size: int = 4  # the preferred table size (EV-2)
    seating: str = Field(default="draw", max_length=SEATING_LENGTH)  # EV-3
    edit_token: str = Field(max_length=TOKEN_LENGTH, unique=True, index=True)
    view_token: str = Field(max_length=TOKEN_LENGTH, unique=True, index=True)
    revision: int = 1
    log: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))

    tables: list["EventTable"] = Relationship(
        back_populates="event",
        sa_relationship_kwargs={
            "order_by": "(EventTable.session, EventTable.number)",
            "cascade": "all, delete-orphan",
        },
    )


class EventTable(SQLModel, table=True):
    """One table of one session of an event: an ordinary match (EV-4) and the seed it was
    drawn with (EV-3), so the seating can be shown again."""

    __tablename__ = "event_table"
    __table_args__ = (UniqueConstraint("event_id", "session", "number", name="uq_event_table"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int | None = Field(
        default=None, foreign_key="event.id", index=True, ondelete="CASCADE", nullable=False
    )
    session: int
    number: int
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    match_id: int | None = Field(
        default=None, foreign_key="match.id", index=True, ondelete="CASCADE", nullable=False
    )

    event: Event | None = Relationship(back_populates="tables")
    match: Match | None = Relationship(sa_relationship_kwargs={"lazy": "joined"})


class RetiredTable(SQLModel, table=True):
    """The edit token of a table that was re-drawn before play (EV-3): its link then says so
    and points to the new seating instead of being unknown."""

    __tablename__ = "retired_table"

    token: str = Field(max_length=TOKEN_LENGTH, primary_key=True)
    event_id: int | None = Field(
        default=None, foreign_key="event.id", index=True, ondelete="CASCADE", nullable=False
    )


STATE_LENGTH = 8


class Part(SQLModel, table=True):
    """One player's part of the next round, entered on their own phone (contract "Own hands").

    The scorekeeper opens the next round's parts: one row per seat, each with its own secret
    ``token``. ``opening`` counts the openings of a match (1, 2, …); two scorekeepers opening at
    once make the same opening, and the unique (match, opening, seat) lets one of them win.
    ``state`` is "open" until the round is saved ("saved") or the parts are dropped
    ("dropped"); a closed part's token answers 410. ``part`` is what the player sent last,
    ``saved`` the part as the scorekeeper has it: while the round is open, their change to
    what came (None: unchanged), shown on the player's phone; once saved, the player's entry
    as the round was saved. ``log`` is every send: when, and from which phone (a short tag of
    the device, never its cookie).
    """

    __tablename__ = "part"
    __table_args__ = (UniqueConstraint("match_id", "opening", "seat", name="uq_part_seat"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int | None = Field(
        default=None, foreign_key="match.id", index=True, ondelete="CASCADE", nullable=False
    )
    opening: int
    #: The round the parts are for: the next round when opened, the saved round's number after.
    number: int
    seat: int
    name: str = Field(max_length=NAME_LENGTH)
    token: str = Field(max_length=TOKEN_LENGTH, unique=True, index=True)
    state: str = Field(default="open", max_length=STATE_LENGTH)
    part: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    saved: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    log: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    created: datetime = _when()
    updated: datetime = _when()
