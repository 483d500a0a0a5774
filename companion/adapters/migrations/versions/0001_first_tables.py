"""The first tables: match, game (round documents) and change (history).

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create match, game and change."""
    op.create_table(
        "match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=80), nullable=True),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("first_dealer", sa.String(length=40), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("edit_token", sa.String(length=64), nullable=False),
        sa.Column("view_token", sa.String(length=64), nullable=False),
        sa.Column("device", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_match"),
    )
    op.create_index("ix_match_device", "match", ["device"])
    op.create_index("ix_match_edit_token", "match", ["edit_token"], unique=True)
    op.create_index("ix_match_view_token", "match", ["view_token"], unique=True)

    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("document", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name="fk_game_match", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_game"),
        sa.UniqueConstraint("match_id", "number", name="uq_game_match_number"),
    )
    op.create_index("ix_game_match_id", "game", ["match_id"])

    op.create_table(
        "change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("when", sa.DateTime(timezone=True), nullable=False),
        sa.Column("what", sa.String(length=500), nullable=False),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name="fk_change_match", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_change"),
    )
    op.create_index("ix_change_match_id", "change", ["match_id"])


def downgrade() -> None:
    """Drop change, game and match."""
    op.drop_table("change")
    op.drop_table("game")
    op.drop_table("match")
