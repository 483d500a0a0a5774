"""Events: club nights and tournaments of several tables (EV-1…EV-7), each table a match.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create event, event_table and retired_table."""
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("title", sa.String(length=80), nullable=True),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("entrants", sa.JSON(), nullable=False),
        sa.Column("withdrawn", sa.JSON(), nullable=False),
        sa.Column("sessions", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("seating", sa.String(length=10), nullable=False),
        sa.Column("edit_token", sa.String(length=64), nullable=False),
        sa.Column("view_token", sa.String(length=64), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("log", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_event"),
    )
    op.create_index("ix_event_edit_token", "event", ["edit_token"], unique=True)
    op.create_index("ix_event_view_token", "event", ["view_token"], unique=True)
    op.create_table(
        "event_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("session", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["event.id"], name="fk_event_table_event", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name="fk_event_table_match", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_event_table"),
        sa.UniqueConstraint("event_id", "session", "number", name="uq_event_table"),
    )
    op.create_index("ix_event_table_event_id", "event_table", ["event_id"])
    op.create_index("ix_event_table_match_id", "event_table", ["match_id"])
    op.create_table(
        "retired_table",
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["event.id"], name="fk_retired_table_event", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token", name="pk_retired_table"),
    )
    op.create_index("ix_retired_table_event_id", "retired_table", ["event_id"])


def downgrade() -> None:
    """Drop the event tables (the tables' matches stay, as ordinary matches)."""
    op.drop_table("retired_table")
    op.drop_table("event_table")
    op.drop_index("ix_event_view_token", "event")
    op.drop_index("ix_event_edit_token", "event")
    op.drop_table("event")
