"""Entry problems: codes with parameters, rendered to words by ``messages.render``.

The rules core never builds a sentence where it finds a problem: it names the problem
(``card-twice``) and gives what the sentence needs (``card``, ``player``, ``meld``,
``other``). Shells place a problem by its fields and show it in the table's language; nobody
cuts a message string apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from companion.domain.messages import ENGLISH, Translator, event_location, location, render

#: Fields of a problem that say where it is; shown as JSON keys next to ``message``.
PLACES = ("player", "meld", "card", "rule", "field", "round", "session", "table")


@dataclass
class Problem:
    """One thing wrong with an entry: a code, its parameters and where it is."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)
    player: str | None = None
    meld: int | None = None
    card: str | None = None
    rule: str | None = None
    field: str | None = None
    round: int | None = None
    session: int | None = None  # an event's session (EV-2)
    table: int | None = None  # a table of that session
    #: The game whose own words the message uses (its message context): set with
    #: the round of a match (``about(round=2, context="rummy17")``); not a place, not in JSON.
    context: str | None = None

    def reason(self, tr: Translator = ENGLISH) -> str:
        """The problem in words, without saying where (for a message next to its field)."""
        return render(self.code, self.values(), tr, context=self.context)

    def message(self, tr: Translator = ENGLISH) -> str:
        """The problem in words, saying where: ``"round 2: Béla, meld 2: R5 appears twice"``
        (Rummy 17: ``"game 2: …"``)."""
        where = location(self.round, self.player, self.meld, self.field, tr, self.context)
        return event_location(self.session, self.table, tr) + where + self.reason(tr)

    def values(self) -> dict[str, Any]:
        """Everything ``render`` needs for this problem's text: its places and parameters."""
        values = {k: getattr(self, k) for k in PLACES if getattr(self, k) is not None}
        values.update(self.params)
        return values

    def to_json(self, tr: Translator = ENGLISH) -> dict[str, Any]:
        """The contract's error fields: ``message``, the places, and ``code``/``params``."""
        body: dict[str, Any] = {"message": self.message(tr), "code": self.code}
        for key in PLACES:
            value = getattr(self, key)
            if value is not None:
                body[key] = value
        if self.params:
            body["params"] = dict(self.params)
        return body


def reason_fields(problem: Problem) -> dict[str, Any]:
    """A verdict's ``reason`` in English, with ``code`` and ``params`` to say it anew.

    An extension of the contract's ``check`` verdict: ``render(code, params, tr)`` gives the
    same reason in the table's language.
    """
    return {"reason": problem.reason(), "code": problem.code, "params": problem.values()}


def note_fields(problem: Problem) -> dict[str, Any]:
    """A remark beside a legal verdict: ``note`` in English, ``note_code``/``note_params``.

    An extension of the contract's ``check`` verdict, said anew by ``messages.localize``.
    """
    return {"note": problem.reason(), "note_code": problem.code, "note_params": problem.values()}


class EntryError(Exception):
    """Bad input: every problem found in a document, card or meld (D17-8, DK-4, DO-6, DM-8).

    ``EntryError("card-twice", card="R5", player="Béla", meld=2, other="Anna's meld 1")``
    raises one problem; ``EntryError.of(problems)`` raises several found at once.
    """

    def __init__(
        self,
        code: str,
        /,
        *,
        player: str | None = None,
        meld: int | None = None,
        card: str | None = None,
        rule: str | None = None,
        field: str | None = None,
        **params: Any,
    ) -> None:
        self.problems: list[Problem] = [Problem(code, params, player, meld, card, rule, field)]
        super().__init__(code)

    @classmethod
    def of(cls, problems: Iterable[Problem]) -> EntryError:
        """One error carrying several problems, in the order they were found."""
        found = list(problems)
        if not found:
            raise ValueError("an EntryError needs at least one problem")
        err = cls.__new__(cls)
        Exception.__init__(err, found[0].code)
        err.problems = found
        return err

    @property
    def first(self) -> Problem:
        """The problem found first (what a terminal shows)."""
        return self.problems[0]

    @property
    def codes(self) -> list[str]:
        """Every problem's code, in the order they were found."""
        return [p.code for p in self.problems]

    # The first problem's code and places, for a caller that shows one problem.

    @property
    def code(self) -> str:
        """The first problem's code."""
        return self.first.code

    @property
    def player(self) -> str | None:
        """The player of the first problem, if any."""
        return self.first.player

    @property
    def meld(self) -> int | None:
        """The meld number of the first problem, if any."""
        return self.first.meld

    @property
    def card(self) -> str | None:
        """The card of the first problem, if any."""
        return self.first.card

    @property
    def rule(self) -> str | None:
        """The clause the first problem cites, if any."""
        return self.first.rule

    @property
    def field(self) -> str | None:
        """The document field the first problem is about, if any."""
        return self.first.field

    @property
    def round(self) -> int | None:
        """The round of a match the first problem is in, if any."""
        return self.first.round

    @property
    def message(self) -> str:
        """The first problem in English, saying where (what a terminal shows)."""
        return self.first.message()

    def messages(self, tr: Translator = ENGLISH) -> list[str]:
        """Every problem in words, saying where."""
        return [p.message(tr) for p in self.problems]

    def at(self, **places: Any) -> EntryError:
        """Fill in where every problem is, where it is not known yet; returns self."""
        for problem in self.problems:
            for key, value in places.items():
                if getattr(problem, key) is None:
                    setattr(problem, key, value)
        return self

    def __str__(self) -> str:
        return "; ".join(self.messages())

    def to_json(self, tr: Translator = ENGLISH) -> dict[str, Any]:
        """The contract's error object: ``{"error": {"message": ..., ...}}``.

        With several problems the first one fills the object, and ``problems`` lists all.
        """
        body = self.first.to_json(tr)
        if len(self.problems) > 1:
            body["problems"] = [p.to_json(tr) for p in self.problems]
        return {"error": body}


class Collector:
    """Gathers the problems of a whole document, so the table sees them all at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    @contextmanager
    def check(self, **places: Any) -> Iterator[None]:
        """Run a check; its ``EntryError`` is kept (with ``places`` filled in), not raised."""
        try:
            yield
        except EntryError as err:
            self.problems.extend(err.at(**places).problems)

    def add(self, err: EntryError) -> None:
        """Keep every problem of ``err``."""
        self.problems.extend(err.problems)

    def __bool__(self) -> bool:
        return bool(self.problems)

    def raise_any(self) -> None:
        """Raise every problem gathered so far, if there is one."""
        if self.problems:
            raise EntryError.of(self.problems)


@contextmanager
def about(**places: Any) -> Iterator[None]:
    """Tag an ``EntryError`` raised inside with where it is (a field, a player, a round)."""
    try:
        yield
    except EntryError as err:
        err.at(**places)
        raise
