"""Matches in the database: create, add/edit/delete rounds, and read them back as documents.

The store is split by concern, and this package gives all of it under one name
(``from companion import store``; ``store.add_round(...)``):

- ``matches`` — the writes: start a match (or a rematch), add, correct, delete and restore
  rounds, lengthen the series; each checked by the rules core, one transaction each, on the
  revision it was based on (``StaleRevision``) or refused as a race lost (``ConflictError``).
- ``reading`` — a match by link token or device, as the contract's document, and its result
  (scored once per revision, companion/adapters/cache.py); the read-only page's revision.
- ``changes`` — the history: an entry per revision, paged, in words, and the diff of a
  corrected round.
- ``once`` — the idempotency keys that make a write happen once; only
  ``companion/services/saving.py`` looks one up.
- ``parts`` — own hands: the next round's parts, each entered on its player's phone.
- ``tokens`` — link tokens; ``errors`` — what the store refuses.

Scores are never stored in the database: ``result`` scores the stored round documents once
per revision and keeps the result in a per-process cache keyed by match and revision.
"""

from __future__ import annotations

from companion.adapters.store.changes import (
    DELETIONS,
    HISTORY_PAGE,
    RESTORED,
    describe,
    diff_rounds,
    history,
    history_page,
    is_correction,
    undoable,
)
from companion.adapters.store.errors import ConflictError, RoundMissing, StaleRevision
from companion.adapters.store.matches import (
    add_round,
    create_match,
    delete_round,
    forget_on_device,
    lengthen,
    rematch,
    restore_round,
    update_round,
)
from companion.adapters.store.once import IDEMPOTENCY_KEY, Once, done, form_once, new_key
from companion.adapters.store.parts import (
    Opened,
    PartClosed,
    changed_by_keeper,
    clashes,
    drop_parts,
    keep_part,
    kept,
    next_number,
    open_of,
    open_parts,
    part_answer,
    parts_answer,
    put_part,
)
from companion.adapters.store.parts import by_token as part_by_token
from companion.adapters.store.reading import (
    EDIT_REVISION,
    REVISION_TTL,
    VIEW_REVISION,
    as_document,
    edit_revision,
    get_by_edit_token,
    get_by_view_token,
    matches_for_device,
    next_dealer,
    result,
    result_by_id,
    round_document,
    score,
    view_revision,
)
from companion.adapters.store.revision import claiming, expect, reread
from companion.adapters.store.tokens import TOKEN, TOKEN_BYTES, new_token

__all__ = [
    "DELETIONS",
    "EDIT_REVISION",
    "HISTORY_PAGE",
    "IDEMPOTENCY_KEY",
    "RESTORED",
    "REVISION_TTL",
    "TOKEN",
    "TOKEN_BYTES",
    "VIEW_REVISION",
    "ConflictError",
    "Once",
    "Opened",
    "PartClosed",
    "RoundMissing",
    "StaleRevision",
    "add_round",
    "changed_by_keeper",
    "clashes",
    "as_document",
    "create_match",
    "delete_round",
    "describe",
    "diff_rounds",
    "done",
    "drop_parts",
    "keep_part",
    "kept",
    "edit_revision",
    "forget_on_device",
    "form_once",
    "get_by_edit_token",
    "get_by_view_token",
    "history",
    "history_page",
    "is_correction",
    "lengthen",
    "matches_for_device",
    "new_key",
    "new_token",
    "next_dealer",
    "next_number",
    "open_of",
    "open_parts",
    "part_answer",
    "part_by_token",
    "parts_answer",
    "put_part",
    "rematch",
    "reread",
    "claiming",
    "expect",
    "restore_round",
    "result",
    "result_by_id",
    "round_document",
    "score",
    "undoable",
    "update_round",
    "view_revision",
]
