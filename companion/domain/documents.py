"""The contract's documents as typed models, parsed once at the edge and handed to the rules.

Every document the contract reads (a round, a match, an event, a check, a turn, a knock, a
rescue, a redeal, a part, a new match) is a model here, with the limits of ``bounds``. The
edge (an API view, the round form, a part sent from a phone) calls ``parse`` once and hands
the typed object on; the services and the rules take it. ``dict[str, Any]`` stays where JSON
is read or written: a model's JSON form (``Document.as_json``) is the body as it was sent,
which the store keeps and the rules' readers walk for their precise errors (D17-8 and the
rest name player, meld and card).

The models check shape and size only: types, how long a text or a list may be. They refuse
only what no game allows (seven seats are refused by the rules core, with the clause; a
meld of 21 cards, a name of 500 characters or 1,000 rounds are refused here), so every
answer within the limits still comes from the rules core, in its own words. A model never
changes the document: its JSON form is the body that passed, as it was sent.

A refusal is an ``EntryError`` (422, the contract's error object), said in the players'
words: pydantic's own English never reaches anyone (``refusal``). The round form is parsed
into the same model, so the page and the API say the same thing. The models' JSON schemas
are the request bodies of the OpenAPI document (``companion.web.api.openapi``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    StringConstraints,
    Tag,
    ValidationError,
    ValidatorFunctionWrapHandler,
    model_serializer,
    model_validator,
)
from pydantic_core import ErrorDetails

from companion.domain.bounds import (
    MAX_CARD,
    MAX_CARDS,
    MAX_ENTRANTS,
    MAX_GAMES,
    MAX_HAND_CARDS,
    MAX_HELD,
    MAX_IDS,
    MAX_MELD_CARDS,
    MAX_MELDS,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_POINTS,
    MAX_ROUNDS,
    MAX_SESSIONS,
    MAX_TABLE,
    MAX_TABLES,
    MAX_TEXT,
    MAX_TYPED_GAMES,
)
from companion.domain.errors import EntryError, Problem
from companion.domain.messages import N_, NN_, register

register(
    {
        "body-not-object": N_("the body must be a JSON object: {example}"),
        "body-unknown-field": N_("unknown field {key!r}: the fields are {fields}"),
        "edge-missing": N_("{field} is missing"),
        "edge-not-text": N_("{field} must be text"),
        "edge-not-number": N_("{field} must be a whole number"),
        "edge-not-list": N_("{field} must be a list"),
        "edge-not-object": N_("{field} must be a JSON object"),
        "edge-not-cards": N_(
            '{field} must be a list of cards, or the counts as an object (like {{"points": 12}})'
        ),
        "edge-out-of-range": N_("{field} must be from {min} to {max}"),
        "edge-text-too-long": NN_(
            "{field} may be at most {max} character long",
            "{field} may be at most {max} characters long",
            "max",
        ),
        "edge-list-too-long": NN_(
            "{field} may hold at most {max} entry", "{field} may hold at most {max} entries", "max"
        ),
        "edge-unreadable": N_("{field} cannot be read"),
        "card-too-long": NN_(
            "{text} is not a card: a card is at most {max} character",
            "{text} is not a card: a card is at most {max} characters",
            "max",
        ),
        "too-many-players": NN_(
            "a table has at most {max} player", "a table has at most {max} players", "max"
        ),
        "too-many-melds": NN_(
            "at most {max} meld line per player", "at most {max} meld lines per player", "max"
        ),
        "meld-too-long": NN_(
            "a meld line holds at most {max} card", "a meld line holds at most {max} cards", "max"
        ),
        "too-many-held": NN_(
            "a player holds at most {max} card", "a player holds at most {max} cards", "max"
        ),
        "too-many-rounds": NN_(
            "a match holds at most {max} round", "a match holds at most {max} rounds", "max"
        ),
    }
)

Name = Annotated[str, StringConstraints(max_length=MAX_NAME)]
Text = Annotated[str, StringConstraints(max_length=MAX_TEXT)]
CardText = Annotated[str, StringConstraints(max_length=MAX_CARD)]
Whole = Annotated[int, Field(ge=-(10**9), le=10**9)]
#: ``{"points": N}``: the rules core's own limit, refused in its own words (``_problem``).
Points = Annotated[int, Field(ge=0, le=MAX_POINTS)]
#: ``{"low": N, "high": M}``: as many cards as a hand can hold, refused in the core's words.
HandCards = Annotated[int, Field(ge=0, le=MAX_HAND_CARDS)]

#: Fields every model leaves to the rules core to name when unknown (in its own words).
OPEN = ConfigDict(strict=True, extra="allow")
CLOSED = ConfigDict(strict=True, extra="forbid")


class Shaped(BaseModel):
    """A model whose JSON form keeps the order of the object it was read from."""

    _order: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _keep_order(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        read = handler(data)
        if isinstance(read, Shaped) and isinstance(data, Mapping):
            read._order = tuple(str(key) for key in data)
        return read

    @model_serializer(mode="wrap")
    def _in_order(self, handler: SerializerFunctionWrapHandler) -> Any:
        out = handler(self)
        if not isinstance(out, dict) or not self._order:
            return out
        return {key: out[key] for key in self._order if key in out} | out


class Document(Shaped):
    """A document of the contract: parsed once at the edge (``parse``), then handed on typed."""

    #: The code a body that is no JSON object gets (None: the edge has said so before).
    NOT_OBJECT: ClassVar[str | None] = None

    def as_json(self) -> dict[str, Any]:
        """The document's JSON form: the body as it was sent (what the store keeps, what the
        rules' readers walk): every field it gave, extra ones included, none it left out."""
        return self.model_dump(exclude_unset=True)


class Counts(Shaped):
    """The short form of what a player holds: ``{"points": N}`` or ``{"low": N, "high": M}``."""

    model_config = OPEN
    points: Points | None = None
    low: HandCards | None = None
    high: HandCards | None = None


def _holding_kind(value: Any) -> str | None:
    if isinstance(value, list):
        return "as_list"
    if isinstance(value, Mapping | BaseModel):  # a typed one dumped as JSON again
        return "as_object"
    return None


Holding = Annotated[
    Annotated[list[CardText], Field(max_length=MAX_HELD), Tag("as_list")]
    | Annotated[Counts, Tag("as_object")],
    Discriminator(_holding_kind),
]
Meld = Annotated[list[CardText], Field(max_length=MAX_MELD_CARDS)]


class Seventeen(Shaped):
    """The last card's short form ``{"seventeen": false}`` (R17-15a): only the doubling."""

    model_config = OPEN
    seventeen: bool | None = None


def _card_kind(value: Any) -> str | None:
    if isinstance(value, str):
        return "as_card"
    if isinstance(value, Mapping | BaseModel):  # a typed one dumped as JSON again
        return "as_object"
    return None


LastDiscard = Annotated[
    Annotated[CardText, Tag("as_card")] | Annotated[Seventeen, Tag("as_object")],
    Discriminator(_card_kind),
]


class PlayerEntry(Shaped):
    """One player's part of a round: name, melds (Rummy 17), and the hand or rack."""

    model_config = OPEN
    name: Name | None = None
    melds: Annotated[list[Meld], Field(max_length=MAX_MELDS)] | None = None
    hand: Holding | None = None
    rack: Holding | None = None


class PartBody(Document):
    """One player's part, entered on their own phone (contract "Own hands"): their object of
    a round without ``name``: melds and hand (Rummy 17), the rack or the hand (the rest)."""

    model_config = OPEN
    melds: Annotated[list[Meld], Field(max_length=MAX_MELDS)] | None = None
    hand: Holding | None = None
    rack: Holding | None = None


class Round(Document):
    """A round document (contract ``score``) of any game; the game checks the rest."""

    model_config = OPEN
    NOT_OBJECT = "round-not-object"
    game: Name | None = None
    players: Annotated[list[PlayerEntry], Field(max_length=MAX_PLAYERS)] | None = None
    bonus_cards: Annotated[list[Name], Field(max_length=MAX_IDS)] | None = None
    went_out: Name | None = None
    knocked: Name | None = None
    last_discard: LastDiscard | None = None
    options: Annotated[dict[str, Any], Field(max_length=MAX_IDS)] | None = None


Names = Annotated[list[Name], Field(max_length=MAX_PLAYERS)]
Games = Annotated[int, Field(le=MAX_GAMES)]


class MatchDocument(Document):
    """A match document (contract ``match``): the players, the first dealer and the rounds."""

    model_config = OPEN
    NOT_OBJECT = "match-not-object"
    game: Name | None = None
    players: Names | None = None
    first_dealer: Name | None = None
    rounds: Annotated[list[Round], Field(max_length=MAX_ROUNDS)] | None = None
    games: Games | None = None
    title: Text | None = None
    options: Annotated[dict[str, Any], Field(max_length=MAX_IDS)] | None = None


class EventSession(Shaped):
    """One session of an event (contract ``standings``): the tables that played."""

    model_config = OPEN
    tables: Annotated[list[MatchDocument], Field(max_length=MAX_TABLES)] | None = None


class EventDocument(Document):
    """An event of several tables (contract ``standings``, EV-1): game, entrants, sessions."""

    model_config = OPEN
    NOT_OBJECT = "event-not-object"
    game: Name | None = None
    entrants: Annotated[list[Name], Field(max_length=MAX_ENTRANTS)] | None = None
    sessions: Annotated[list[EventSession], Field(max_length=MAX_SESSIONS)] | None = None
    title: Text | None = None


class EventCreate(Document):
    """``POST /api/v1/events``: start an event (EV-1)."""

    model_config = CLOSED
    game: Name | None = None
    entrants: Annotated[list[Name], Field(max_length=MAX_ENTRANTS)] | None = None
    sessions: Annotated[int, Field(ge=1, le=MAX_SESSIONS)] | None = None
    rounds: Annotated[int, Field(ge=1, le=MAX_TYPED_GAMES)] | None = None
    size: Annotated[int, Field(ge=2, le=MAX_PLAYERS)] | None = None
    seating: Name | None = None
    title: Text | None = None


class EntrantBody(Document):
    """``POST /api/v1/events/EDIT/entrants``: a late arrival (EV-1)."""

    model_config = CLOSED
    name: Name | None = None


class CheckBody(Document):
    """The contract's ``check``: one meld of one game."""

    model_config = CLOSED
    game: Name | None = None
    cards: Meld


class MatchCreate(Document):
    """``POST /api/v1/matches``: start a match."""

    model_config = CLOSED
    game: Name | None = None
    players: Names | None = None
    first_dealer: Name | None = None
    games: Games | None = None
    title: Text | None = None


def _table_kind(value: Any) -> str | None:
    if isinstance(value, list):
        return "as_list"
    if isinstance(value, Mapping | BaseModel):  # a typed one dumped as JSON again
        return "as_object"
    return None


#: The table before or after a turn: melds (tile games), or melds by player (Rummy 17, R17-9).
Table = Annotated[
    Annotated[list[Meld], Field(max_length=MAX_TABLE), Tag("as_list")]
    | Annotated[
        dict[Name, Annotated[list[Meld], Field(max_length=MAX_MELDS)]],
        Field(max_length=MAX_PLAYERS),
        Tag("as_object"),
    ],
    Discriminator(_table_kind),
]
Cards = Annotated[list[CardText], Field(max_length=MAX_CARDS)]


class TurnBody(Document):
    """The contract's ``turn``: the table before and after one turn, and the player's hand."""

    model_config = OPEN
    NOT_OBJECT = "turn-not-object"
    game: Name | None = None
    player: Name | None = None
    opened: bool | None = None
    before: Table | None = None
    after: Table | None = None
    hand: Annotated[list[CardText], Field(max_length=MAX_HELD)] | None = None


class KnockBody(Document):
    """The contract's ``knock`` (R17-8): the seats, whose turn, who discarded, the knocks."""

    model_config = OPEN
    NOT_OBJECT = "knock-not-object"
    players: Names | None = None
    current: Name | None = None
    discarded_by: Name | None = None
    knocks: Names | None = None
    game: Name | None = None  # an extension: the game to ask (default: the one with R17-8)


class RescueBody(Document):
    """The contract's ``rescue``: the cards now on the table."""

    model_config = CLOSED
    game: Name | None = None
    cards: Cards


class RedealBody(Document):
    """``POST /api/v1/redeal`` (RK-3): the first tiles a player was dealt."""

    model_config = CLOSED
    game: Name | None = None
    tiles: Cards


# --- refusals in the players' words ---------------------------------------------------------

#: pydantic's error types → our codes (anything else: ``edge-unreadable``).
TYPE_CODES = {
    "missing": "edge-missing",
    "string_type": "edge-not-text",
    "int_type": "edge-not-number",
    "list_type": "edge-not-list",
    "model_type": "edge-not-object",
    "dict_type": "edge-not-object",
    "model_attributes_type": "edge-not-object",
    "union_tag_not_found": "edge-not-cards",
    "union_tag_invalid": "edge-not-cards",
    "greater_than_equal": "edge-out-of-range",
    "less_than_equal": "edge-out-of-range",
    "string_too_long": "edge-text-too-long",
    "too_long": "edge-list-too-long",
}
#: A count of points refused for these is said as the rules core says it.
POINTS_TYPES = frozenset({"int_type", "greater_than_equal", "less_than_equal"})
#: A list too long, by the field that holds it: its own sentence, naming the player.
LIST_CODES = {
    "players": ("too-many-players", MAX_PLAYERS),
    "melds": ("too-many-melds", MAX_MELDS),
    "hand": ("too-many-held", MAX_HELD),
    "rack": ("too-many-held", MAX_HELD),
    "rounds": ("too-many-rounds", MAX_ROUNDS),
}
_TAGS = frozenset({"as_list", "as_object"})  # the tags of ``Holding`` and ``Table``


def _path(loc: Sequence[int | str]) -> str:
    """A place in a document as its fields say it: ``players[1].hand``."""
    out = ""
    for step in loc:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out or "body"


#: Where a list of cards is held (its entries are cards): a hand, a rack, a meld.
CARD_LISTS = (["hand"], ["rack"], ["melds"])


def _value_at(doc: Any, loc: Sequence[int | str]) -> Any:
    """What the document holds at ``loc`` (None where it does not)."""
    for step in loc:
        if isinstance(step, int) and isinstance(doc, list) and step < len(doc):
            doc = doc[step]
        elif isinstance(step, str) and isinstance(doc, Mapping):
            doc = doc.get(step)
        else:
            return None
    return doc


def _player(doc: Any, index: int) -> str | None:
    """Player ``index`` of a round as the table knows them: their name (None: unreadable)."""
    players = doc.get("players") if isinstance(doc, Mapping) else None
    if isinstance(players, list) and index < len(players):
        entry = players[index]
        name = entry.get("name") if isinstance(entry, Mapping) else None
        if isinstance(name, str) and name.strip():
            return name.strip()
    return None


def _problem(error: ErrorDetails, body: Any) -> Problem:
    """One pydantic error as a problem: a code, where it is (round, player, meld), the field."""
    loc = [step for step in error["loc"] if step not in _TAGS]
    kind = error["type"]
    places: dict[str, Any] = {}
    doc = body
    if len(loc) >= 2 and loc[0] == "rounds" and isinstance(loc[1], int):
        places["round"] = loc[1] + 1
        rounds = body.get("rounds") if isinstance(body, Mapping) else None
        doc = rounds[loc[1]] if isinstance(rounds, list) and loc[1] < len(rounds) else None
        loc = loc[2:]
    ctx = dict(error.get("ctx") or {})
    if kind == "extra_forbidden":
        return Problem("body-unknown-field", {"key": str(loc[-1]), "fields": ""}, **places)
    is_player = len(loc) >= 3 and loc[0] == "players" and isinstance(loc[1], int)
    player = _player(doc, int(loc[1])) if is_player else None
    if player is not None:
        places["player"] = player
    places["field"] = _path(loc)
    if kind == "too_long":
        # a list too long says whose (the player, the meld line).
        if player is not None:
            places["field"] = str(loc[2])
        last = loc[-1]
        if isinstance(last, str) and last in LIST_CODES:
            code, limit = LIST_CODES[last]
            return Problem(code, {"max": limit}, **places)
        if is_player and len(loc) == 4 and loc[2] == "melds":
            places["meld"] = int(loc[3]) + 1
            return Problem("meld-too-long", {"max": MAX_MELD_CARDS}, **places)
    if loc[-1:] == ["points"] and kind in POINTS_TYPES:
        # One limit, one sentence: the rules core's, "from 0 to 802", wherever it is read.
        if player is not None:
            places["field"] = str(loc[2])
        return Problem("points-not-number", {"max": MAX_POINTS}, **places)
    if loc[-1:] in (["low"], ["high"]) and kind in POINTS_TYPES:
        if player is not None:
            places["field"] = str(loc[2])
        counted = {"key": loc[-1], "max": MAX_HAND_CARDS}
        return Problem("hand-count-not-number", counted, **places)
    held = [step for step in loc if isinstance(step, str)]
    if kind == "string_too_long" and isinstance(loc[-1], int) and held[-1:] in CARD_LISTS:
        # A card too long to be one, in a hand, a rack or a meld: said as a card, where it is.
        places["field"] = held[-1]
        if held[-1] == "melds":
            places["meld"] = int(loc[loc.index("melds") + 1]) + 1
        text = str(_value_at(doc, loc))
        return Problem("card-too-long", {"text": text[:MAX_CARD] + "…", "max": MAX_CARD}, **places)
    code = TYPE_CODES.get(kind, "edge-unreadable")
    params: dict[str, Any] = {"field": _path(loc)}
    if code in ("edge-text-too-long", "edge-list-too-long"):
        params["max"] = int(ctx.get("max_length", 0))
    elif code == "edge-out-of-range":
        params["min"] = int(ctx.get("ge", 1))  # a series length has no other lower bound
        params["max"] = int(ctx.get("le", 10**9))
    return Problem(code, params, **places)


def refusal(err: ValidationError, body: Any, fields: Sequence[str] = ()) -> EntryError:
    """A pydantic refusal as an ``EntryError`` in the players' words (every problem found)."""
    problems = [_problem(e, body) for e in err.errors(include_url=False, include_input=False)]
    for problem in problems:
        if problem.code == "body-unknown-field":
            problem.params["fields"] = ", ".join(fields)
    return EntryError.of(problems)


D = TypeVar("D", bound=Document)


def parse(model: type[D], raw: object, *, fields: Sequence[str] | None = None) -> D:
    """``raw`` (JSON as read) as a typed ``model``, parsed once; else an ``EntryError`` in the
    players' words: the model's own code for a body that is no object (the one the rules core
    says), every pydantic refusal as its code (``refusal``). ``fields``: the fields an unknown
    one is told (by default the model's)."""
    if not isinstance(raw, Mapping):
        raise EntryError(model.NOT_OBJECT or "edge-not-object", field="body")
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        listed = tuple(model.model_fields) if fields is None else tuple(fields)
        raise refusal(err, raw, listed) from None


def json_of(doc: object) -> object:
    """A document's JSON form, typed (``parse``) or as the CLI read it from a file.

    The CLI hands the rules the document as read, so that a document of the wrong shape is
    told every problem the rules find, in their words (``hand-not-list`` naming the player,
    beside the rest), as it always was; the API, the forms and the store parse first."""
    return doc.as_json() if isinstance(doc, Document) else doc
