"""D17-6: a stored Rummy 17 round keeps the reading it was scored with.

Until now a card in a hand ruled a joker's reading out: ``K14 K15 *K``
with K16 in a hand was read as K13 without asking. D17-6 now says a card in a hand never rules
a reading out, so such a stored round could read as ambiguous, and a drawn bonus card whose
figure depends on it would make the whole match unreadable. Each bare joker at an open end of a
run whose reading only a hand settled gets that reading stated (``*K13``):
the round reads and scores exactly as it was saved. Nothing else is touched; the stated
stand-in reads the same under the old rules, so going down changes nothing.

The reading is worked out here, not by the rules core, so that this step stays what it was
when the rules change again.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CARD = re.compile(r"([RBGYK])0*([0-9]{1,2})", re.IGNORECASE)
BARE_JOKER = re.compile(r"\*([RBGYK])", re.IGNORECASE)
LOW, HIGH = 1, 17  # R17-1


def _json(value: Any) -> Any:
    """A JSON column's value: SQLite may hand back the text."""
    return json.loads(value) if isinstance(value, str) else value


def _card(text: object) -> str | None:
    """A number card as the rules write it (``K7``), or None."""
    found = CARD.fullmatch(str(text).strip()) if isinstance(text, str) else None
    return f"{found[1].upper()}{int(found[2])}" if found else None


def stated(doc: Any) -> Any | None:
    """The round with each bare run joker that only a hand settled stated as that card;
    None when nothing changes."""
    players = doc.get("players") if isinstance(doc, dict) else None
    if not isinstance(players, list):
        return None
    melds = [
        meld
        for p in players
        if isinstance(p, dict) and isinstance(p.get("melds"), list)
        for meld in p["melds"]
        if isinstance(meld, list)
    ]
    in_melds = Counter(c for meld in melds for c in map(_card, meld) if c)
    held = Counter(
        c
        for p in players
        if isinstance(p, dict) and isinstance(p.get("hand"), list)
        for c in map(_card, p["hand"])
        if c
    )
    last = _card(doc.get("last_discard"))
    if last:  # the last discard narrows the reading now as it did then
        in_melds[last] += 1
    changed = False
    for meld in melds:
        bare = [i for i, t in enumerate(meld) if isinstance(t, str) and BARE_JOKER.fullmatch(t)]
        cards = [_card(t) for t in meld if not (isinstance(t, str) and t.strip().startswith("*"))]
        if len(bare) != 1 or len(cards) + 1 != len(meld) or not all(cards):
            continue
        colour = meld[bare[0]][1].upper()
        values = sorted(int(c[1:]) for c in cards if c)
        if any(c[0] != colour for c in cards if c) or values != list(
            range(values[0], values[-1] + 1)
        ):
            continue  # a set, a gap the joker fills, or no meld: one reading or none
        ends = [f"{colour}{v}" for v in (values[0] - 1, values[-1] + 1) if LOW <= v <= HIGH]
        others = in_melds - Counter(c for c in cards if c)
        now = [c for c in ends if c not in others] or ends
        then = [c for c in ends if c not in others and c not in held] or ends
        if len(then) == 1 and len(now) > 1:
            meld[bare[0]] = f"*{then[0]}"
            changed = True
    return doc if changed else None


def upgrade() -> None:
    """State the stand-ins a hand used to settle (Rummy 17 rounds)."""
    conn = op.get_bind()
    meta = sa.MetaData()
    match = sa.Table("match", meta, autoload_with=conn)
    round_ = sa.Table("round", meta, autoload_with=conn)
    rows = conn.execute(
        sa.select(round_.c.id, round_.c.document)
        .join(match, match.c.id == round_.c.match_id)
        .where(match.c.game == "rummy17")
    ).all()
    for row in rows:
        doc = stated(_json(row.document))
        if doc is not None:
            conn.execute(round_.update().where(round_.c.id == row.id).values(document=doc))


def downgrade() -> None:
    """Nothing to undo: a stated stand-in reads the same under the rules before."""
