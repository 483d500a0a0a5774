"""What is worth computing once per revision of a match: its result, its scoreboard pages.

A match's result depends on nothing but its stored rounds, and every write that changes a
round (or the match's length) claims the next revision (store/matches.py). So a result computed for
(match, revision) stays right for as long as the match is at that revision, in every server
process: each process keeps its own small LRU, and a key can never name two different
results. The key also holds the match's read-only token (random, 192 bits), so two
databases (tests, a restored backup) whose match 1 is at revision 3 never share an entry.

Entries are kept as JSON text and every hit is a fresh copy (``json.loads`` is faster than
``copy.deepcopy``), so a caller may change what it gets.

A page is kept as a ``Stencil``: rendered once with a mark (``Marks``) wherever a value must
be new on every load (a form's CSRF token, its idempotency key, when the page was made), and
those values filled in per request. So even a page holding forms is rendered once per
revision, and no request ever sees another's token.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Generic, TypeVar

V = TypeVar("V")

#: Matches whose result a process keeps (a club night has a few dozen tables).
RESULTS = 512
#: Scoreboard pages a process keeps (per match and link: revision × language × address).
PAGES = 512


class LRU(Generic[V]):
    """A thread-safe least-recently-used map with a fixed number of entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> V | None:
        """The value for ``key`` (now the most recently used), or None."""
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: Hashable, value: V) -> None:
        """Keep ``value`` under ``key``, forgetting the least recently used beyond ``size``."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (tests)."""
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)


class Stencil:
    """A page with holes: the text every request shares, and the names of the values each
    request fills in between (``fill``)."""

    __slots__ = ("holes", "parts")

    def __init__(self, parts: tuple[str, ...], holes: tuple[str, ...]) -> None:
        assert len(parts) == len(holes) + 1
        self.parts = parts
        self.holes = holes

    def fill(self, values: Mapping[str, Callable[[], str]]) -> str:
        """The page with every hole filled: each value made once, and only if a hole asks."""
        made: dict[str, str] = {}
        out = [self.parts[0]]
        for name, part in zip(self.holes, self.parts[1:], strict=True):
            if name not in made:
                made[name] = values[name]()
            out += (made[name], part)
        return "".join(out)


class Marks:
    """The marks a page is rendered with where a per-request value goes, one per name.

    A mark is letters and digits (HTML escaping leaves it as it is) with a part drawn at random
    per process, so nothing a user types can be taken for one.
    """

    def __init__(self, *names: str) -> None:
        salt = secrets.token_hex(12)
        self._marks = {name: f"hole{salt}{name}" for name in names}
        self._names = {mark: name for name, mark in self._marks.items()}
        self._split = re.compile("(" + "|".join(self._marks.values()) + ")")

    def __getitem__(self, name: str) -> str:
        return self._marks[name]

    def stencil(self, page: str) -> Stencil:
        """``page``, rendered with these marks, as a stencil with a hole at each mark."""
        pieces = self._split.split(page)
        return Stencil(tuple(pieces[::2]), tuple(self._names[m] for m in pieces[1::2]))


results: LRU[str] = LRU(RESULTS)
pages: LRU[Stencil] = LRU(PAGES)


def result_key(match_id: object, view_token: str, revision: int) -> tuple[object, str, int]:
    """The key of a match's result: the match (id and its random read-only token), revision."""
    return (match_id, view_token, revision)


def result(key: Hashable, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The result under ``key``, computed by ``compute`` on the first call only; a fresh copy."""
    text = results.get(key)
    if text is None:
        # Always a copy through JSON, so the first caller gets what every later one gets.
        text = json.dumps(compute(), ensure_ascii=False)
        results.put(key, text)
    fresh: dict[str, Any] = json.loads(text)
    return fresh
