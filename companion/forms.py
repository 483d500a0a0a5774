"""The web forms (Flask-WTF, CSRF on each) and their translation into rules documents.

A form only reads what was typed; every rule check is the rules core's (D17-8). The game
form's text fields are the source of truth: melds in notation, one per line, and a hand as
cards or as the two counts 1–9 / 10–17. The picker in static/game.js only writes into them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    FieldList,
    Form,
    FormField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import Length, NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from companion.rules import BONUS_CARDS

MAX_SEATS = 6  # R17-1
MAX_GAMES = 60
DRAW_PILE = "-"  # the "went out" choice for R17-15b: nobody went out
SEPARATORS = re.compile(r"[\s,;]+")


class MatchForm(FlaskForm):
    """Start a match: names in seat order, who deals first, how many games (D17-7)."""

    names = FieldList(
        StringField(validators=[Optional(), Length(max=40)]),
        min_entries=MAX_SEATS,
        max_entries=MAX_SEATS,
    )
    first_dealer = RadioField(
        _l("Deals first"), choices=[str(i) for i in range(MAX_SEATS)], default="0"
    )
    games = IntegerField(
        _l("Games"),
        validators=[Optional(), NumberRange(1, MAX_GAMES, _l("from 1 to %(max)s", max=MAX_GAMES))],
    )
    title = StringField(_l("Title"), validators=[Optional(), Length(max=80)])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.form_errors: list[str] = []

    def seated(self) -> tuple[list[str], str | None]:
        """The typed names in seat order (blank seats dropped) and the first dealer's name."""
        names: list[str] = []
        dealer = None
        for i, entry in enumerate(self.names):
            name = (entry.data or "").strip()
            if not name:
                continue
            names.append(name)
            if str(i) == self.first_dealer.data:
                dealer = name
        return names, dealer

    def validate_seats(self) -> bool:
        """The checks a form can make before the rules core: 2–6 names, a named dealer."""
        names, dealer = self.seated()
        if not 2 <= len(names) <= MAX_SEATS:
            self.form_errors.append(_l("Type the names of 2 to 6 players (R17-1)."))
            return False
        if dealer is None:
            self.first_dealer.errors = [_l("Tick who deals first next to a name.")]
            return False
        return True


class PlayerEntry(Form):
    """One player's part of a game: melds in notation, and the hand as cards or counts."""

    melds = TextAreaField(_l("Melds in front"))
    hand = StringField(_l("Cards left in hand"))
    low = IntegerField(_l("Cards 1–9"), validators=[Optional(), NumberRange(0, 85)])
    high = IntegerField(_l("Cards 10–17"), validators=[Optional(), NumberRange(0, 85)])


class MultiCheckboxField(SelectMultipleField):
    """Several checkboxes under one name: the twelve bonus cards."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class GameForm(FlaskForm):
    """Enter or correct one game: bonus cards, each player's table and hand, the ending."""

    bonus_cards = MultiCheckboxField(_l("Bonus cards"), choices=list(BONUS_CARDS))
    players = FieldList(FormField(PlayerEntry), min_entries=2, max_entries=MAX_SEATS)
    went_out = RadioField(_l("Who went out?"), choices=[], validate_choice=False)
    last_discard = StringField(_l("Their last card"))

    def __init__(self, *args: Any, names: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = list(names)
        while len(self.players) < len(self.names):
            self.players.append_entry()
        self.went_out.choices = [*self.names, DRAW_PILE]
        self.form_errors: list[str] = []

    def round_document(self) -> dict[str, Any]:
        """The round document (contract ``score``) for what was typed, unchecked."""
        players = []
        for name, entry in zip(self.names, self.players, strict=False):
            players.append(
                {"name": name, "melds": read_melds(entry.melds.data), "hand": read_hand(entry)}
            )
        went_out = self.went_out.data
        doc: dict[str, Any] = {
            "game": "rummy17",
            "bonus_cards": list(self.bonus_cards.data or []),
            "went_out": None if went_out in (None, "", DRAW_PILE) else went_out,
            "players": players,
        }
        last = (self.last_discard.data or "").strip()
        if doc["went_out"] is not None:
            doc["last_discard"] = last or None
        return doc

    def fill(self, doc: dict[str, Any]) -> None:
        """Prefill from a stored round document (editing an earlier game)."""
        self.bonus_cards.data = list(doc.get("bonus_cards", []))
        by_name = {p["name"]: p for p in doc.get("players", [])}
        for name, entry in zip(self.names, self.players, strict=False):
            player = by_name.get(name, {})
            entry.melds.data = "\n".join(" ".join(m) for m in player.get("melds", []))
            hand = player.get("hand", [])
            if isinstance(hand, dict):
                entry.hand.data = ""
                entry.low.data = hand.get("low", 0)
                entry.high.data = hand.get("high", 0)
            else:
                entry.hand.data = " ".join(hand)
        self.went_out.data = doc.get("went_out") or DRAW_PILE
        self.last_discard.data = doc.get("last_discard") or ""


def read_melds(text: str | None) -> list[list[str]]:
    """One meld per line, cards separated by spaces or commas: ``R3 R4 R5 *R``."""
    lines = (text or "").splitlines()
    return [SEPARATORS.split(line.strip()) for line in lines if line.strip()]


def read_hand(entry: Any) -> list[str] | dict[str, int]:
    """A hand as typed cards, or the short form ``{"low": N, "high": M}`` from the counts."""
    cards = [c for c in SEPARATORS.split((entry.hand.data or "").strip()) if c]
    if cards or (entry.low.data is None and entry.high.data is None):
        return cards
    return {"low": entry.low.data or 0, "high": entry.high.data or 0}


class ConfirmForm(FlaskForm):
    """An empty form that only carries the CSRF token: confirm a deletion."""


class CheckForm(FlaskForm):
    """The referee's question: is this meld legal? A GET form that changes nothing."""

    class Meta:
        csrf = False  # read-only: it stores nothing, and a verdict should be linkable

    game = SelectField(
        _l("Game"),
        choices=[
            SelectChoice("rummy17", _l("Rummy 17")),
            SelectChoice("rummikub", _l("Rummikub")),
            SelectChoice("rummy-o", _l("Deluxe Rummy-O")),
            SelectChoice("manipulation", _l("Manipulation Rummy")),
        ],
        default="rummy17",
    )
    cards = StringField(_l("The meld"), validators=[Length(max=200)])

    def tokens(self) -> list[str]:
        """The cards as typed, split on spaces, commas or semicolons."""
        return [t for t in SEPARATORS.split(self.cards.data or "") if t]
