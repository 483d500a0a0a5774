"""Rounds, revisions and history codes: table game → round (with its dealer), match.revision,
match.games nullable, change.what → change.code + change.params.

Data is kept: every stored round gets the dealer the rotation gave it (R17-2), every match
a revision of one per history entry (creating is revision 1), and every history text
becomes a code with parameters (``legacy-note`` with the text when it is not one of the
sentences the app wrote). SQLite works in batch mode (copy and rename), so
``companion.adapters.db`` runs migrations with SQLite's foreign keys off, or the copy of ``match``
would cascade-delete its rounds.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The history sentences 0001's app wrote, and the codes they become.
LEGACY = [
    (re.compile(r"Game (?P<number>\d+) added"), "round-added"),
    (re.compile(r"Game (?P<number>\d+) saved, unchanged"), "round-unchanged"),
    (re.compile(r"Game (?P<number>\d+) deleted"), "round-deleted"),
    (
        re.compile(r"Game (?P<number>\d+) deleted; game (?P<next>\d+) is now game \d+"),
        "round-deleted-moved",
    ),
    (
        re.compile(r"Game (?P<number>\d+) deleted; games (?P<first>\d+)–(?P<last>\d+) renumbered"),
        "round-deleted-renumbered",
    ),
]

# What downgrade writes back for each code (English, as 0001's app did).
ENGLISH = {
    "round-added": "Game {number} added",
    "round-deleted": "Game {number} deleted",
    "round-deleted-moved": "Game {number} deleted; game {next} is now game {number}",
    "round-deleted-renumbered": "Game {number} deleted; games {first}–{last} renumbered",
    "round-unchanged": "Game {number} saved, unchanged",
    "match-lengthened": "Match lengthened from {old} to {new} games",
}


def _json(value: Any) -> Any:
    """A JSON column's value: SQLite may hand back the text."""
    return json.loads(value) if isinstance(value, str) else value


def _code(what: str) -> tuple[str, dict[str, Any]]:
    for pattern, code in LEGACY:
        found = pattern.fullmatch(what)
        if found:
            return code, {k: int(v) for k, v in found.groupdict().items()}
    return "legacy-note", {"text": what}


def _what(code: str, params: dict[str, Any]) -> str:
    if code == "legacy-note":
        return str(params.get("text", ""))[:500]
    if code.startswith(("match-started", "rematch-started")):
        what = f"Match started: {', '.join(params.get('players', []))}; "
        what += f"{params.get('dealer')} deals first"
        return what + (f"; {params['games']} games" if params.get("games") else "")
    if code == "round-edited":
        parts = []
        for change in params.get("changes", []):
            who = f"{change['player']}'s " if change.get("player") else ""
            parts.append(who + str(change.get("what", "")).replace("_", " "))
        return f"Game {params.get('number')} edited: {', '.join(parts)}"[:500]
    if code in ENGLISH:
        try:
            return ENGLISH[code].format(**params)
        except (KeyError, IndexError):
            pass
    return code


def upgrade() -> None:
    """Move game into round with dealers, add match.revision, turn history text into codes."""
    bind = op.get_bind()
    if bind.dialect.name == "sqlite" and bind.exec_driver_sql("PRAGMA foreign_keys").scalar():
        if bind.exec_driver_sql("SELECT count(*) FROM game").scalar():
            # Batch mode copies match; with foreign keys on, dropping the old copy would
            # cascade-delete every round and history entry.
            raise RuntimeError(
                "migrate SQLite with PRAGMA foreign_keys=OFF (companion.adapters.db does)"
            )

    op.create_table(
        "round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.String(length=40), nullable=False),
        sa.Column("document", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name="fk_round_match", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_round"),
        sa.UniqueConstraint("match_id", "number", name="uq_round_match_number"),
    )
    op.create_index("ix_round_match_id", "round", ["match_id"])

    matches = {
        row.id: (_json(row.players), row.first_dealer)
        for row in bind.execute(sa.text("SELECT id, players, first_dealer FROM match"))
    }
    game = sa.table(
        "game",
        sa.column("match_id", sa.Integer()),
        sa.column("number", sa.Integer()),
        sa.column("document", sa.JSON()),
        sa.column("created", sa.DateTime(timezone=True)),
        sa.column("updated", sa.DateTime(timezone=True)),
        sa.column("id", sa.Integer()),
    )
    round_ = sa.table(
        "round",
        sa.column("match_id", sa.Integer()),
        sa.column("number", sa.Integer()),
        sa.column("dealer", sa.String()),
        sa.column("document", sa.JSON()),
        sa.column("created", sa.DateTime(timezone=True)),
        sa.column("updated", sa.DateTime(timezone=True)),
    )
    rows = []
    for row in bind.execute(sa.select(game).order_by(game.c.match_id, game.c.number)):
        seats, first = matches[row.match_id]
        start = seats.index(first) if first in seats else 0
        rows.append(
            {
                "match_id": row.match_id,
                "number": row.number,
                "dealer": seats[(start + row.number - 1) % len(seats)],  # R17-2
                "document": _json(row.document),
                "created": row.created,
                "updated": row.updated,
            }
        )
    if rows:
        op.bulk_insert(round_, rows)
    op.drop_table("game")

    with op.batch_alter_table("change") as batch:
        batch.add_column(sa.Column("code", sa.String(length=40), nullable=True))
        batch.add_column(sa.Column("params", sa.JSON(), nullable=True))
    change = sa.table(
        "change",
        sa.column("id", sa.Integer()),
        sa.column("what", sa.String()),
        sa.column("code", sa.String()),
        sa.column("params", sa.JSON()),
    )
    for row in list(bind.execute(sa.select(change.c.id, change.c.what))):
        code, params = _code(row.what)
        bind.execute(change.update().where(change.c.id == row.id).values(code=code, params=params))
    with op.batch_alter_table("change") as batch:
        batch.alter_column("code", existing_type=sa.String(length=40), nullable=False)
        batch.alter_column("params", existing_type=sa.JSON(), nullable=False)
        batch.drop_column("what")

    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("revision", sa.Integer(), nullable=True))
        batch.alter_column("games", existing_type=sa.Integer(), nullable=True)
    # One revision per change recorded so far: creating the match was the first.
    bind.execute(
        sa.text(
            'UPDATE match SET revision = (SELECT count(*) FROM "change" '
            "WHERE change.match_id = match.id)"
        )
    )
    bind.execute(sa.text("UPDATE match SET revision = 1 WHERE revision < 1"))
    with op.batch_alter_table("match") as batch:
        batch.alter_column("revision", existing_type=sa.Integer(), nullable=False)


def downgrade() -> None:
    """Back to table game without dealers, no revision, history as English text."""
    bind = op.get_bind()
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
    bind.execute(
        sa.text(
            "INSERT INTO game (match_id, number, document, created, updated) "
            "SELECT match_id, number, document, created, updated FROM round "
            "ORDER BY match_id, number"
        )
    )
    op.drop_table("round")

    with op.batch_alter_table("change") as batch:
        batch.add_column(sa.Column("what", sa.String(length=500), nullable=True))
    change = sa.table(
        "change",
        sa.column("id", sa.Integer()),
        sa.column("what", sa.String()),
        sa.column("code", sa.String()),
        sa.column("params", sa.JSON()),
    )
    for row in list(bind.execute(sa.select(change.c.id, change.c.code, change.c.params))):
        what = _what(row.code, _json(row.params) or {})
        bind.execute(change.update().where(change.c.id == row.id).values(what=what))
    with op.batch_alter_table("change") as batch:
        batch.alter_column("what", existing_type=sa.String(length=500), nullable=False)
        batch.drop_column("params")
        batch.drop_column("code")

    # 0001 needs a length: a match played to a target gets one round per player.
    for row in list(bind.execute(sa.text("SELECT id, players FROM match WHERE games IS NULL"))):
        bind.execute(
            sa.text("UPDATE match SET games = :games WHERE id = :id"),
            {"games": max(1, len(_json(row.players))), "id": row.id},
        )
    with op.batch_alter_table("match") as batch:
        batch.drop_column("revision")
        batch.alter_column("games", existing_type=sa.Integer(), nullable=False)
