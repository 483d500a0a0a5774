"""The tables: a match, its games (stored as round documents) and its history of changes.

Scores are never stored: a game keeps the round document as entered, and the rules core
scores it on every read, so a rule lives in one place only.
"""

# No "from __future__ import annotations": SQLModel reads the relationship hints at runtime.
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime, Dialect, TypeDecorator, UniqueConstraint
from sqlmodel import Field, Relationship, SQLModel

TOKEN_LENGTH = 64
NAME_LENGTH = 40
TITLE_LENGTH = 80


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
    game: str = Field(default="rummy17", max_length=20)
    players: list[str] = Field(sa_column=Column(JSON, nullable=False))
    first_dealer: str = Field(max_length=NAME_LENGTH)
    games: int


class Match(MatchBase, table=True):
    """A series of games at one table, reached through its two secret links."""

    id: int | None = Field(default=None, primary_key=True)
    created: datetime = _when()
    edit_token: str = Field(max_length=TOKEN_LENGTH, unique=True, index=True)
    view_token: str = Field(max_length=TOKEN_LENGTH, unique=True, index=True)
    device: str | None = Field(default=None, max_length=TOKEN_LENGTH, index=True)

    rounds: list["Game"] = Relationship(
        back_populates="match",
        sa_relationship_kwargs={
            "order_by": "Game.number",
            "cascade": "all, delete-orphan",
            "lazy": "selectin",
        },
    )
    changes: list["Change"] = Relationship(
        back_populates="match",
        sa_relationship_kwargs={"order_by": "Change.id", "cascade": "all, delete-orphan"},
    )


class Game(SQLModel, table=True):
    """One game (round) of a match: its number and the round document as entered."""

    __table_args__ = (UniqueConstraint("match_id", "number", name="uq_game_match_number"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    number: int
    document: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created: datetime = _when()
    updated: datetime = _when()

    match: Match | None = Relationship(back_populates="rounds")


class Change(SQLModel, table=True):
    """One entry of a match's history: when, what changed, and which game."""

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    when: datetime = _when()
    what: str = Field(max_length=500)
    number: int | None = None

    match: Match | None = Relationship(back_populates="changes")
