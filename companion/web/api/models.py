"""Typed models of what ``/api/v1`` accepts, checked at the edge before the rules core sees it.

The models check shape and size only: types, how long a text or a list may be. They refuse
only what no game allows (seven seats are refused by the rules core, with the clause; a
meld of 21 cards, a name of 500 characters or 1,000 rounds are refused here), so every
answer within the limits still comes from the rules core, in its own words. A model never
changes the document: the body that passed goes on as it was sent.

A refusal is an ``EntryError`` (422, the contract's error object), said in the players'
words: pydantic's own English never reaches anyone (``refusal``). The round form is checked
against the same limits (``check_round``), so the page and the API say the same thing.
The models' JSON schemas are the request bodies of the OpenAPI document (``openapi.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    ValidationError,
)
from pydantic_core import ErrorDetails

from companion.domain import EntryError, Problem
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
from companion.domain.messages import N_, NN_, register

register(
    {
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


class Counts(BaseModel):
    """The short form of what a player holds: ``{"points": N}`` or ``{"low": N, "high": M}``."""

    model_config = OPEN
    points: Points | None = None
    low: HandCards | None = None
    high: HandCards | None = None


def _holding_kind(value: Any) -> str | None:
    if isinstance(value, list):
        return "as-list"
    if isinstance(value, Mapping):
        return "as-object"
    return None


Holding = Annotated[
    Annotated[list[CardText], Field(max_length=MAX_HELD), Tag("as-list")]
    | Annotated[Counts, Tag("as-object")],
    Discriminator(_holding_kind),
]
Meld = Annotated[list[CardText], Field(max_length=MAX_MELD_CARDS)]


class Seventeen(BaseModel):
    """The last card's short form ``{"seventeen": false}`` (R17-15a): only the doubling."""

    model_config = OPEN
    seventeen: bool | None = None


def _card_kind(value: Any) -> str | None:
    if isinstance(value, str):
        return "as-card"
    if isinstance(value, Mapping):
        return "as-object"
    return None


LastDiscard = Annotated[
    Annotated[CardText, Tag("as-card")] | Annotated[Seventeen, Tag("as-object")],
    Discriminator(_card_kind),
]


class PlayerEntry(BaseModel):
    """One player's part of a round: name, melds (Rummy 17), and the hand or rack."""

    model_config = OPEN
    name: Name | None = None
    melds: Annotated[list[Meld], Field(max_length=MAX_MELDS)] | None = None
    hand: Holding | None = None
    rack: Holding | None = None


class PartBody(BaseModel):
    """One player's part, entered on their own phone (contract "Own hands"): their object of
    a round without ``name``: melds and hand (Rummy 17), the rack or the hand (the rest)."""

    model_config = OPEN
    melds: Annotated[list[Meld], Field(max_length=MAX_MELDS)] | None = None
    hand: Holding | None = None
    rack: Holding | None = None


class Round(BaseModel):
    """A round document (contract ``score``) of any game; the game checks the rest."""

    model_config = OPEN
    game: Name | None = None
    players: Annotated[list[PlayerEntry], Field(max_length=MAX_PLAYERS)] | None = None
    bonus_cards: Annotated[list[Name], Field(max_length=MAX_IDS)] | None = None
    went_out: Name | None = None
    knocked: Name | None = None
    last_discard: LastDiscard | None = None
    options: Annotated[dict[str, Any], Field(max_length=MAX_IDS)] | None = None


Names = Annotated[list[Name], Field(max_length=MAX_PLAYERS)]
Games = Annotated[int, Field(le=MAX_GAMES)]


class MatchDocument(BaseModel):
    """A match document (contract ``match``): the players, the first dealer and the rounds."""

    model_config = OPEN
    game: Name | None = None
    players: Names | None = None
    first_dealer: Name | None = None
    rounds: Annotated[list[Round], Field(max_length=MAX_ROUNDS)] | None = None
    games: Games | None = None
    title: Text | None = None
    options: Annotated[dict[str, Any], Field(max_length=MAX_IDS)] | None = None


class EventSession(BaseModel):
    """One session of an event (contract ``standings``): the tables that played."""

    model_config = OPEN
    tables: Annotated[list[MatchDocument], Field(max_length=MAX_TABLES)] | None = None


class EventDocument(BaseModel):
    """An event of several tables (contract ``standings``, EV-1): game, entrants, sessions."""

    model_config = OPEN
    game: Name | None = None
    entrants: Annotated[list[Name], Field(max_length=MAX_ENTRANTS)] | None = None
    sessions: Annotated[list[EventSession], Field(max_length=MAX_SESSIONS)] | None = None
    title: Text | None = None


class EventCreate(BaseModel):
    """``POST /api/v1/events``: start an event (EV-1)."""

    model_config = CLOSED
    game: Name | None = None
    entrants: Annotated[list[Name], Field(max_length=MAX_ENTRANTS)] | None = None
    sessions: Annotated[int, Field(ge=1, le=MAX_SESSIONS)] | None = None
    rounds: Annotated[int, Field(ge=1, le=MAX_TYPED_GAMES)] | None = None
    size: Annotated[int, Field(ge=2, le=MAX_PLAYERS)] | None = None
    seating: Name | None = None
    title: Text | None = None


class EntrantBody(BaseModel):
    """``POST /api/v1/events/EDIT/entrants``: a late arrival (EV-1)."""

    model_config = CLOSED
    name: Name | None = None


class CheckBody(BaseModel):
    """The contract's ``check``: one meld of one game."""

    model_config = CLOSED
    game: Name | None = None
    cards: Meld


class MatchCreate(BaseModel):
    """``POST /api/v1/matches``: start a match."""

    model_config = CLOSED
    game: Name | None = None
    players: Names | None = None
    first_dealer: Name | None = None
    games: Games | None = None
    title: Text | None = None


def _table_kind(value: Any) -> str | None:
    if isinstance(value, list):
        return "as-list"
    if isinstance(value, Mapping):
        return "as-object"
    return None


#: The table before or after a turn: melds (tile games), or melds by player (Rummy 17, R17-9).
Table = Annotated[
    Annotated[list[Meld], Field(max_length=MAX_TABLE), Tag("as-list")]
    | Annotated[
        dict[Name, Annotated[list[Meld], Field(max_length=MAX_MELDS)]],
        Field(max_length=MAX_PLAYERS),
        Tag("as-object"),
    ],
    Discriminator(_table_kind),
]
Cards = Annotated[list[CardText], Field(max_length=MAX_CARDS)]


class TurnBody(BaseModel):
    """The contract's ``turn``: the table before and after one turn, and the player's hand."""

    model_config = OPEN
    game: Name | None = None
    player: Name | None = None
    opened: bool | None = None
    before: Table | None = None
    after: Table | None = None
    hand: Annotated[list[CardText], Field(max_length=MAX_HELD)] | None = None


class KnockBody(BaseModel):
    """The contract's ``knock`` (R17-8): the seats, whose turn, who discarded, the knocks."""

    model_config = OPEN
    players: Names | None = None
    current: Name | None = None
    discarded_by: Name | None = None
    knocks: Names | None = None
    game: Name | None = None  # an extension: the game to ask (default: the one with R17-8)


class RescueBody(BaseModel):
    """The contract's ``rescue``: the cards now on the table."""

    model_config = CLOSED
    game: Name | None = None
    cards: Cards


class RedealBody(BaseModel):
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
_TAGS = frozenset({"as-list", "as-object"})  # the tags of ``Holding`` and ``Table``


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
        # Issue 9, point 7: a list too long says whose (the player, the meld line).
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


def check(model: type[BaseModel], body: Any) -> Any:
    """``body`` as it was sent, once ``model`` takes it; ``EntryError`` in words otherwise."""
    if not isinstance(body, Mapping):
        return body  # the rules core says what a document must be, in its own words
    try:
        model.model_validate(body)
    except ValidationError as err:
        raise refusal(err, body, tuple(model.model_fields)) from None
    return body


def check_round(doc: Any) -> Any:
    """A round document within the limits (the API's and the round form's): meld lines per
    player, cards per line, cards held; ``EntryError`` naming the player otherwise."""
    return check(Round, doc)
