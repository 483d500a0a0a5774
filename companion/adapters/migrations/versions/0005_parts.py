"""Own hands: each player's part of the next round, entered on their own phone.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create part."""
    op.create_table(
        "part",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("opening", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.Column("part", sa.JSON(), nullable=True),
        sa.Column("saved", sa.JSON(), nullable=True),
        sa.Column("log", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name="fk_part_match", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_part"),
        sa.UniqueConstraint("match_id", "opening", "seat", name="uq_part_seat"),
    )
    op.create_index("ix_part_match_id", "part", ["match_id"])
    op.create_index("ix_part_token", "part", ["token"], unique=True)


def downgrade() -> None:
    """Drop part (the rounds saved from parts stay)."""
    op.drop_index("ix_part_token", "part")
    op.drop_index("ix_part_match_id", "part")
    op.drop_table("part")
