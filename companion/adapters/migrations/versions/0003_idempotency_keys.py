"""Idempotency keys: a write sent twice (a double tap, a form sent again, a retried API
request) is stored once; the second answers like the first.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-08
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create idempotency_key."""
    op.create_table(
        "idempotency_key",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=60), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name="fk_idempotency_key_match", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_idempotency_key"),
        sa.UniqueConstraint("scope", "key", name="uq_idempotency_key_scope_key"),
    )
    op.create_index("ix_idempotency_key_match_id", "idempotency_key", ["match_id"])


def downgrade() -> None:
    """Drop idempotency_key."""
    op.drop_table("idempotency_key")
