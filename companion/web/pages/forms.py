"""The web forms (Flask-WTF, CSRF on each) and their translation into rules documents.

A form only reads what was typed; every rule check is the rules core's. Nothing here knows
a game: the round form is built from the game's descriptor (its holding, counts, endings,
melds, bonus cards, last card), and its text fields are the source of truth — melds in
notation, one per line, and what a player holds as cards or as the counts. The card picker
in static/js/picker.js and the walking picker in static/js/walk.js only write into them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from flask import abort, request
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.form import SUBMIT_METHODS, _Auto
from werkzeug.datastructures import MultiDict
from wtforms import (
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
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

from companion.adapters.sheets.blank import MAX_BLANK_GAMES
from companion.adapters.store import Once, form_once, new_key
from companion.domain import Description, Game, all_games, get_game
from companion.domain.bounds import (
    MAX_TITLE,
    MAX_TYPED_GAMES,
    MAX_TYPED_MELD,
    MAX_TYPED_NAME,
    MAX_TYPED_NAMES,
    MAX_TYPED_TABLE,
)
from companion.domain.cards import SEPARATORS

NOBODY = "-"  # the answer of an ending nobody reached: the pile or pool ran out, no knock
#: The last card's short form as the round form posts it (contract, R17-15a).
SHORT_LAST = {"not17": False, "17": True}


def max_seats() -> int:
    """The most players any game seats: the start form has this many name fields."""
    return max(g.seats[1] for g in all_games())


#: A field name the forms could have: a list index has at most 3 ASCII digits.
FIELD_NAME = re.compile(r"[A-Za-z_]+(?:-(?:[0-9]{1,3}|[A-Za-z_]+))*")
#: A whole number as a form sends it: ASCII digits only ("²".isdigit() is True), bounded.
WHOLE = re.compile(r"[0-9]{1,9}")


def posted() -> MultiDict[str, str] | None:
    """What a form post sent, checked at the edge: text fields only, names a form could have.

    Flask-WTF would also hand the forms uploaded files (a file where text is expected) and a
    JSON body; a field name with a huge list index would make WTForms' ``FieldList`` fail.
    Such parts are left out, as if they had not been sent. A NUL character (which no one
    types, and PostgreSQL cannot store) refuses the whole post.
    """
    if request.method not in SUBMIT_METHODS:
        return None
    out: MultiDict[str, str] = MultiDict()
    for name, value in request.form.items(multi=True):
        if "\x00" in value:
            abort(400)
        if len(name) <= 64 and FIELD_NAME.fullmatch(name):
            out.add(name, value)
    return out


def _sent(field: Field) -> str | None:
    """What the post sent for ``field`` (not its default: a key made just now is no key)."""
    raw = getattr(field, "raw_data", None)
    return str(raw[0]) if raw else None


class PostedForm(FlaskForm):  # type: ignore[misc]  # Flask-WTF has no type hints
    """Every posted form of the app: what it reads is ``posted()``."""

    class Meta:
        def wrap_formdata(self, form: Any, formdata: Any) -> Any:
            if formdata is _Auto:
                return posted()
            return formdata


class RevisionForm(PostedForm):
    """A form that changes a match: the CSRF token, the revision it was based on, and a key
    that makes saving it twice (a double tap, a form sent again) save it once."""

    revision = HiddenField()
    key = HiddenField(default=new_key)

    def based_on(self) -> int | None:
        """The match revision the page was loaded at (None when not sent: no check)."""
        raw = (self.revision.data or "").strip()
        return int(raw) if WHOLE.fullmatch(raw) else None

    def once(self, scope: str) -> Once | None:
        """This post's idempotency key in ``scope`` (None when the page sent none)."""
        return form_once(_sent(self.key), scope)


class ConfirmForm(RevisionForm):
    """Confirm a deletion, lengthen or rematch: only the CSRF token and the revision."""


class MatchForm(PostedForm):
    """Start a match of one game: names in seat order, who deals or starts, how many rounds."""

    key = HiddenField(default=new_key)

    names = FieldList(
        StringField(validators=[Optional(), Length(max=MAX_TYPED_NAME)]), min_entries=2
    )
    first = RadioField(_l("First"), choices=[], validate_choice=False)
    games = IntegerField(
        _l("Rounds"),
        validators=[
            Optional(),
            NumberRange(1, MAX_TYPED_GAMES, _l("from 1 to %(max)s", max=MAX_TYPED_GAMES)),
        ],
    )
    title = StringField(_l("Title"), validators=[Optional(), Length(max=MAX_TITLE)])

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        while len(self.names) < game.seats[1]:
            self.names.append_entry()
        del self.names.entries[game.seats[1] :]
        self.first.choices = [str(i) for i in range(len(self.names))]
        self.form_errors: list[str] = []

    def seated(self) -> tuple[list[str], str | None]:
        """The typed names in seat order (blank seats dropped) and the ticked player's name."""
        names: list[str] = []
        chosen = None
        for i, entry in enumerate(self.names):
            name = (entry.data or "").strip()
            if not name:
                continue
            names.append(name)
            if str(i) == self.first.data:
                chosen = name
        return names, chosen

    def named_seats(self) -> list[int]:
        """The seats with a name typed in (for picking one at random)."""
        return [i for i, entry in enumerate(self.names) if (entry.data or "").strip()]

    def once(self, scope: str) -> Once | None:
        """This post's idempotency key in ``scope`` (None when the page sent none)."""
        return form_once(_sent(self.key), scope)


class MultiCheckboxField(SelectMultipleField):  # type: ignore[misc]
    """Several checkboxes under one name: the bonus cards."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class RoundForm(RevisionForm):
    """Enter or correct one round; the fields come from the game's descriptor."""

    descriptor: Description
    endings: tuple[str, ...]
    players: Any
    #: The round a new-round page was opened for: when another phone saves that round first,
    #: the conflict screen offers to replace it ("keep mine") rather than add another one.
    intended = HiddenField()

    def intended_round(self) -> int | None:
        """The round number the new-round page was opened for (None when not sent)."""
        raw = (self.intended.data or "").strip()
        return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else None

    def __init__(self, *args: Any, names: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = list(names)
        while len(self.players) < len(self.names):
            self.players.append_entry()
        for key in self.endings:
            self[key].choices = [*self.names, NOBODY]

    @property
    def holding(self) -> str:
        """The document field of what a player holds at the end: "hand" or "rack"."""
        return self.descriptor.holding

    @property
    def counts(self) -> list[str]:
        return [c.key for c in self.descriptor.counts]

    def fields_with_errors(self) -> dict[str, list[str]]:
        """WTForms' own errors (a count out of range), by the id of the field."""
        out: dict[str, list[str]] = {}
        for field in self._all_fields():
            if field.errors and isinstance(field.errors, list):
                out[field.id] = [str(e) for e in field.errors]
        return out

    def _all_fields(self) -> list[Field]:
        fields: list[Field] = [f for f in self if f.name not in ("players", "csrf_token")]
        for entry in self.players:
            fields += list(entry.form)
        return fields

    def both_given(self) -> list[int]:
        """Seats where both the cards and a count were filled in (the form cannot tell which)."""
        return [
            i
            for i, entry in enumerate(self.players)
            if _cards(entry.form[self.holding].data)
            and any(entry.form[k].data for k in self.counts)
        ]

    def round_document(self) -> dict[str, Any]:
        """The round document (contract ``score``) for what was typed, unchecked."""
        desc = self.descriptor
        doc: dict[str, Any] = {"game": desc.id}
        if desc.bonus_cards:
            doc["bonus_cards"] = list(self["bonus_cards"].data or [])
        for key in self.endings:
            answer = self[key].data
            if answer in (None, ""):
                continue  # not answered: the rules core says whether that is allowed
            doc[key] = None if answer == NOBODY else answer
        players = []
        for name, entry in zip(self.names, self.players, strict=False):
            player: dict[str, Any] = {"name": name}
            if desc.melds:
                player["melds"] = read_melds(entry.form["melds"].data)
            player[self.holding] = self._holding(entry.form)
            players.append(player)
        doc["players"] = players
        if desc.last_card:
            last: str | dict[str, bool] | None = (self["last_discard"].data or "").strip() or None
            short = self["last_short"].data
            if short in SHORT_LAST and not last:  # {"seventeen": false}: one tap (R17-15a)
                last = {"seventeen": SHORT_LAST[short]}
            # The contract: the last card goes with the player who went out, else null.
            doc["last_discard"] = last if doc.get("went_out") is not None else None
        return doc

    def _holding(self, entry: Form) -> list[str] | dict[str, int]:
        """Cards as typed, or the short form of the counts (``{"points": N}``)."""
        cards = _cards(entry[self.holding].data)
        counts = {k: entry[k].data for k in self.counts}
        if cards or all(v is None for v in counts.values()):
            return cards
        return {k: v or 0 for k, v in counts.items()}

    def fill(self, doc: dict[str, Any]) -> None:
        """Prefill from a stored round document (correcting an earlier round)."""
        if self.descriptor.bonus_cards:
            self["bonus_cards"].data = list(doc.get("bonus_cards", []))
        for key in self.endings:
            if key in doc:
                self[key].data = doc[key] if doc[key] is not None else NOBODY
        by_name = {p.get("name"): p for p in doc.get("players", [])}
        for name, entry in zip(self.names, self.players, strict=False):
            player = by_name.get(name, {})
            if self.descriptor.melds:
                entry.form["melds"].data = "\n".join(" ".join(m) for m in player.get("melds", []))
            held = player.get(self.holding, [])
            if isinstance(held, dict):
                entry.form[self.holding].data = ""
                for key in self.counts:
                    entry.form[key].data = held.get(key, 0)
            else:
                entry.form[self.holding].data = " ".join(held)
        if self.descriptor.last_card:
            last = doc.get("last_discard")
            if isinstance(last, dict):  # the short form: only whether it was a 17
                self["last_short"].data = next(
                    (k for k, v in SHORT_LAST.items() if v is last.get("seventeen")), ""
                )
                last = None
            self["last_discard"].data = last or ""


@cache
def round_form_class(game_id: str) -> type[RoundForm]:
    """The round form of one game, built once from its descriptor."""
    desc = get_game(game_id).describe()
    entry: dict[str, Any] = {}
    if desc.melds:
        entry["melds"] = TextAreaField()
    entry[desc.holding] = StringField()
    for count in desc.counts:
        entry[count.key] = IntegerField(
            validators=[
                Optional(),
                NumberRange(0, count.limit, _l("a whole number from %(min)s to %(max)s")),
            ],
        )
    player_entry = type(f"PlayerEntry_{game_id}", (Form,), entry)
    fields: dict[str, Any] = {
        "descriptor": desc,
        "endings": tuple(e.key for e in desc.endings),
        "players": FieldList(
            FormField(player_entry), min_entries=desc.seats[0], max_entries=desc.seats[1]
        ),
    }
    for ending in desc.endings:
        fields[ending.key] = RadioField(choices=[], validate_choice=False)
    if desc.bonus_cards:
        ids = [c.id for c in desc.bonus_cards.cards]
        fields["bonus_cards"] = MultiCheckboxField(choices=ids, validate_choice=False)
    if desc.last_card:
        fields["last_discard"] = StringField()
        fields["last_short"] = HiddenField()
    return type(f"RoundForm_{game_id}", (RoundForm,), fields)


def _cards(text: str | None) -> list[str]:
    return [c for c in SEPARATORS.split((text or "").strip()) if c]


def read_melds(text: str | None) -> list[list[str]]:
    """One meld per line, cards separated by spaces or commas: ``R3 R4 R5 *R``."""
    lines = (text or "").splitlines()
    return [SEPARATORS.split(line.strip()) for line in lines if line.strip()]


class CheckForm(FlaskForm):  # type: ignore[misc]
    """The referee's question: is this meld legal? A GET form that changes nothing."""

    class Meta:
        csrf = False  # read-only: it stores nothing, and a verdict should be linkable

    game = SelectField(_l("Game"))
    cards = StringField(_l("The meld"), validators=[Length(max=MAX_TYPED_MELD)])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game.choices = [SelectChoice(g.id, _l(g.name)) for g in all_games()]
        self.game_ids = [g.id for g in all_games()]
        if not self.game.data:
            self.game.data = self.game_ids[0]

    def tokens(self) -> list[str]:
        """The cards as typed, split on spaces, commas or semicolons."""
        return [t for t in SEPARATORS.split(self.cards.data or "") if t]


class BlankForm(FlaskForm):  # type: ignore[misc]
    """Choose a blank sheet: game, seats, rounds, paper and names. A GET form; on a problem
    the chooser comes back with everything as it was typed and the problem beside its field."""

    class Meta:
        csrf = False  # read-only: it stores nothing

    game = SelectField(_l("Game"))
    players = SelectField(_l("Players"), default="4")
    games = SelectField(_l("Rounds"), default="")
    paper = SelectField(
        _l("Paper"),
        default="a4",
        choices=[SelectChoice("a4", "A4"), SelectChoice("letter", "US Letter")],
    )
    names = StringField(
        _l("Names (optional, in seat order)"), validators=[Length(max=MAX_TYPED_NAMES)]
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game.choices = [SelectChoice(g.id, _l(g.name)) for g in all_games()]
        most = max(g.seats[1] for g in all_games())
        self.players.choices = [SelectChoice(str(n), str(n)) for n in range(2, most + 1)]
        rounds = [SelectChoice(str(n), str(n)) for n in range(1, MAX_BLANK_GAMES + 1)]
        self.games.choices = [SelectChoice("", _l("One per player")), *rounds]
        if not self.game.data:
            self.game.data = all_games()[0].id

    def chosen(self) -> Game:
        """The chosen game (the first one until a valid choice is sent)."""
        ids = [g.id for g in all_games()]
        return get_game(self.game.data if self.game.data in ids else ids[0])

    def name_list(self) -> list[str]:
        """The names typed, split at commas."""
        return [n.strip() for n in (self.names.data or "").split(",") if n.strip()]


class RescueForm(CheckForm):
    """Put the table back (RK-11): the cards on the table, for the games whose table is shared."""

    cards = StringField(_l("The tiles on the table"), validators=[Length(max=MAX_TYPED_TABLE)])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        shared = [g for g in all_games() if g.rescues]
        self.game.choices = [SelectChoice(g.id, _l(g.name)) for g in shared]
        self.game_ids = [g.id for g in shared]
        if self.game.data not in self.game_ids and not self.game.raw_data:
            self.game.data = self.game_ids[0]
