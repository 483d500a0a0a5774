"""What the store refuses: the problems of a write, as codes the rules core's messages render."""

from __future__ import annotations

from typing import Any

from companion.domain import EntryError
from companion.domain.messages import N_, NN_, register

register(
    {
        # Problems the store raises.
        "stale-revision": N_(
            "this match has changed since it was loaded (it is now at revision {revision}); "
            "reload it and enter the change again"
        ),
        "match-conflict": N_(
            "someone else changed this match at the same moment; reload it and save again"
        ),
        "round-missing": NN_(
            "there is no round {number}; the match has {count} round",
            "there is no round {number}; the match has {count} rounds",
            "count",
        ),
        "round-not-json": N_("the round cannot be stored as JSON: {reason}"),
        "title-not-text": N_("the title must be text"),
        "title-too-long": N_("the title is longer than {limit} characters"),
        "series-no-length": N_(
            "{game_name} has no set number of rounds: the match runs until someone reaches "
            "the target ({rule})"
        ),
        "lengthen-by": N_("a match is lengthened by a whole number of rounds, 1 or more"),
        "restore-gone": N_("That deletion cannot be undone any more: it was undone already"),
    }
)


class ConflictError(EntryError):
    """Someone else changed the match at the same moment; reload and enter it again."""

    def __init__(self, code: str = "match-conflict", /, **params: Any) -> None:
        super().__init__(code, **params)


class StaleRevision(ConflictError):
    """The write was based on another revision than the match's; nothing was changed."""

    def __init__(self, revision: int) -> None:
        super().__init__("stale-revision", revision=revision)
        self.revision = revision


class RoundMissing(EntryError):
    """The match has no round with that number."""
