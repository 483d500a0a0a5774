"""Players' names: what one is, and when two are the same name.

``Anna``, ``Anna`` with a zero-width space, a full-width ``Ａnna`` and ``Anna`` with a
right-to-left override look the same on a scoreboard, so they are one name. A name is
``spelled``: NFKC-normalised (full-width and other compatibility forms become the plain
letters, an accent typed apart joins its letter), with every invisible character removed
(formatting and control characters, Unicode categories Cf and Cc: zero-width spaces and
joiners, the bidirectional marks, embeddings, overrides and isolates, the byte order mark,
the soft hyphen; and the default-ignorable fillers that show as nothing), and its spaces
collapsed to one. Two names are the same when their spellings are equal casefolded
(``name_key``). A joiner or a presentation selector inside an emoji is kept: it changes what
the emoji shows.

Every place that takes a name in (a match's seats through ``check_names``, an event's
entrants, a late entrant, the figures across matches) reads it here.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

#: Invisible characters outside Cf and Cc: the combining grapheme joiner, Hangul fillers,
#: Mongolian variation selectors, the variation selectors and the blank Braille pattern.
_FILLERS = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0]
    + list(range(0x180B, 0x1810))
    + list(range(0xFE00, 0xFE10))
    + list(range(0xE0100, 0xE01F0))
)
ZWJ = "\u200d"
#: The emoji presentation selectors (kept after a symbol).
PRESENTATION = ("\ufe0e", "\ufe0f")


def invisible(char: str) -> bool:
    """A character that shows as nothing (or changes only the direction of others)."""
    return unicodedata.category(char) in ("Cf", "Cc") or ord(char) in _FILLERS


def _symbol(char: str | None) -> bool:
    """An emoji's own character (a symbol, or a skin tone modifier)."""
    return char is not None and (
        unicodedata.category(char) == "So" or 0x1F3FB <= ord(char) <= 0x1F3FF
    )


def _kept(before: str | None, char: str, after: str | None) -> bool:
    """An invisible character that is part of an emoji: a joiner between two, a selector
    after one."""
    if char in PRESENTATION:
        return _symbol(before)
    if char == ZWJ:
        return (_symbol(before) or before in PRESENTATION) and _symbol(after)
    return False


def spelled(name: str) -> str:
    """A name as it is kept: NFKC, no invisible character, single spaces, no space around."""
    text = unicodedata.normalize("NFKC", name)
    out: list[str] = []
    for i, char in enumerate(text):
        if char.isspace() or not invisible(char):
            out.append(char)
            continue
        before = out[-1] if out else None
        after = text[i + 1] if i + 1 < len(text) else None
        if _kept(before, char, after):
            out.append(char)
    return " ".join("".join(out).split())


def name_key(name: str) -> str:
    """What makes two names the same name: their spellings, casefolded."""
    return unicodedata.normalize("NFKC", spelled(name).casefold())


def shown(name: str) -> str:
    """A name as it was typed, for a message: each invisible character written as its code
    (``Anna[U+200B]``), so the reader sees why two names are one, and no override turns
    the sentence around it."""
    text = name.strip()
    return "".join(f"[U+{ord(c):04X}]" if invisible(c) and not c.isspace() else c for c in text)


def twin(name: str, others: Iterable[str]) -> str | None:
    """The name among ``others`` that is the same name as ``name`` (None: there is none)."""
    key = name_key(name)
    return next((other for other in others if name_key(other) == key), None)


def clash(name: str, other: str) -> tuple[str, dict[str, Any]]:
    """Why ``name`` is refused after ``other``, the same name: ``("twice", …)`` when only the
    case differs (the name is simply used twice), else ``("alike", …)`` naming both
    spellings as they were typed (``other`` first). The parameters are the message's."""
    if name.strip().casefold() == other.strip().casefold():
        return "twice", {"name": name.strip()}
    return "alike", {"name": shown(name), "other": shown(other)}
