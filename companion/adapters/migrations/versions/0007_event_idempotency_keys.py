"""An idempotency key may belong to an event: creating an event, seating a session, a re-draw
and an entrant's arrival or withdrawal are done once per key, as a match's writes are.

``idempotency_key.match_id`` becomes nullable and ``event_id`` (cascading with its event) is
added; each key names its match or its event. Going down drops the events' keys.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add idempotency_key.event_id; match_id may be empty (an event's key)."""
    with op.batch_alter_table("idempotency_key") as batch:
        batch.add_column(sa.Column("event_id", sa.Integer(), nullable=True))
        batch.alter_column("match_id", existing_type=sa.Integer(), nullable=True)
        batch.create_foreign_key(
            "fk_idempotency_key_event", "event", ["event_id"], ["id"], ondelete="CASCADE"
        )
        batch.create_index("ix_idempotency_key_event_id", ["event_id"])


def downgrade() -> None:
    """Drop the events' keys and idempotency_key.event_id."""
    op.execute("DELETE FROM idempotency_key WHERE match_id IS NULL")
    with op.batch_alter_table("idempotency_key") as batch:
        batch.drop_index("ix_idempotency_key_event_id")
        batch.drop_constraint("fk_idempotency_key_event", type_="foreignkey")
        batch.drop_column("event_id")
        batch.alter_column("match_id", existing_type=sa.Integer(), nullable=False)
