"""The game seam: what every game tells the shells, and the one registry they look games up in.

A game is a subclass of ``Game`` that declares its facts once (name, seats, deck, what a round
document holds, how a series ends) and implements a few hooks (read and score a round, check
a meld). Pages, the API, the command line and the score sheets never ask which game it is;
they call ``get_game(id)`` and ask the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from random import Random
from typing import Any, ClassVar

from companion.domain.cards import Card, Deck, Token, notation, parse_card
from companion.domain.description import Cards, Colour, Description, Value

# What a game declares and its description carries; a game module takes them from the seam.
from companion.domain.description import Choice as Choice
from companion.domain.description import Column as Column
from companion.domain.description import Count as Count
from companion.domain.description import Decision as Decision
from companion.domain.documents import json_of
from companion.domain.errors import EntryError
from companion.domain.messages import ENGLISH, N_, Translator, register

register(
    {
        "round-not-object": N_("a round must be a JSON object"),
        "unknown-game": N_("unknown game {game!r}: the games are {games}"),
        "game-missing": N_("the game is missing: say which game, one of {games}"),
        "round-unknown-field": N_(
            "the round has an unknown field {key!r}; the fields are {fields}"
        ),
        "unknown-option": N_("unknown option {key!r}: {game_name} has no house-rule switches"),
        "options-not-object": N_("options must be a JSON object of house-rule switches"),
        "turn-not-object": N_("a turn must be a JSON object"),
        "knock-not-object": N_("a knock must be a JSON object with players, current and knocks"),
        "turn-unknown-field": N_("the turn has an unknown field {key!r}; the fields are {fields}"),
        "redeal-none": N_("{game_name} has no redeal"),
        "turn-none": N_("{game_name} has no turn check: its melds are not shared on a table"),
        "knock-none": N_("{game_name} has no knocking for the face-up card"),
        "part-none": N_("{game_name} takes no parts entered on the players' own phones"),
        "part-not-object": N_("a part must be a JSON object with {fields}"),
        "part-unknown-field": N_("the part has an unknown field {key!r}; the fields are {fields}"),
        "rescue-not-in-game": N_(
            "{game_name} has no table rescue: its melds stay in front of the player who "
            "laid them (R17-9)"
        ),
    }
)


@dataclass(frozen=True)
class RoundOutcome:
    """A scored round of any game: the contract's result, each score, the round's winners."""

    result: dict[str, Any]
    scores: dict[str, int]
    winners: tuple[str, ...]


class Game:
    """One game of the rulebooks. Subclasses set the class attributes and the hooks."""

    id: ClassVar[str]
    name: ClassVar[str]
    #: Where the game comes in lists: the rulebooks' order (Rummy 17 first), then the rest.
    order: ClassVar[int] = 100
    #: What a game installed from outside brings in one folder: ``templates/`` (its own
    #: partials, ``games/<id>/…`` and ``sheets/games/<id>/parts.html``), ``translations/``
    #: (``<lang>/LC_MESSAGES/messages.mo``) and ``reference/<lang>/<id>.md``. None for the
    #: games built in, whose files live with the app's own.
    folder: ClassVar[Path | None] = None
    #: The figures the game's explanations and sheets quote (RK-21's joker 30, MR-16's 150…),
    #: so that no template writes a number of its own.
    numbers: ClassVar[Mapping[str, int]] = {}
    seats: ClassVar[tuple[int, int]]
    seats_rule: ClassVar[str]
    #: The prefixes of this game's clause ids (rules file and house decisions): ("RK", "DK").
    clause_prefixes: ClassVar[tuple[str, ...]]
    deck: ClassVar[Deck]
    #: The field of a player's entry that holds the cards left over ("hand" or "rack").
    holding: ClassVar[str]
    #: Counts a table may give instead of the cards (``{"points": N}``, ``{"low", "high"}``).
    counts: ClassVar[tuple[Count, ...]]
    #: The game's colour letter for each ink the photo reader tells apart on the tiles of the
    #: Original edition ("black", "red", "blue", "orange"); None: the game's pieces cannot be
    #: read from photos yet (contract "Photos"), and a photo of them is refused.
    photo_inks: ClassVar[Mapping[str, str] | None] = None
    #: Whether players' melds on the table are entered (Rummy 17 scores them).
    melds_entered: ClassVar[bool] = False
    #: What a player's first play must be worth (RK-6: 30, RO-6: 25); None: the game has no
    #: initial meld, and ``check`` gives no ``value``.
    initial_meld: ClassVar[int | None] = None
    #: How the round ended, asked in this order.
    endings: ClassVar[tuple[Choice, ...]]
    #: Who the start page asks for: "dealer" (deals first) or "starter" (starts first).
    first_seat: ClassVar[str] = "dealer"
    first_seat_rule: ClassVar[str]
    first_question: ClassVar[str]
    #: Rounds in a series by default: one per player (None: the series runs to a target).
    rounds_per_player: ClassVar[bool] = True
    series_rule: ClassVar[str]
    #: The clause that makes a turn depend on whether the player has opened (RK-6, RO-6,
    #: R17-10), None when it never does (contract ``turn``: ``opened``).
    opened_rule: ClassVar[str | None] = None
    #: The clause by which others knock for the face-up card (R17-8), None when nobody does.
    knock_rule: ClassVar[str | None] = None
    #: Seconds a turn may take (RK-10, RO-10), None when the rules set no limit.
    turn_seconds: ClassVar[int | None] = None
    #: Can a joker be left in a hand or rack at the end? (Rummy 17: never, D17-8.)
    jokers_held: ClassVar[bool] = True
    #: The clause that sets the time limit (shown next to the turn timer).
    turn_rule: ClassVar[str | None] = None
    #: What the rules make a player do whose time ran out (RK-11); None when they say nothing.
    turn_penalty: ClassVar[Decision | None] = None
    #: The per-player figures of a round, for breakdowns, previews and sheets.
    columns: ClassVar[tuple[Column, ...]]
    decisions: ClassVar[tuple[Decision, ...]] = ()
    round_keys: ClassVar[frozenset[str]]

    # --- cards and melds ----------------------------------------------------------------

    def parse_card(self, raw: object) -> Token:
        """One card or joker in this game's notation; raises ``EntryError``."""
        return parse_card(raw, self.deck)

    def check_meld(self, cards: Sequence[object]) -> dict[str, Any]:
        """The contract's ``check`` verdict on one meld; ``EntryError`` for an unreadable card."""
        raise NotImplementedError

    def opening_worth(self, card: Card) -> int:
        """What a card (or the card a joker stands for) counts towards the initial meld."""
        return card.value

    # --- the referee at the table ---------------------------------------------------------

    def check_turn(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        """The contract's ``turn`` verdict: every problem of one turn, each with its clause.

        :raises EntryError: the document cannot be read, has too many copies of a card, or
            a joker whose stand-in matters cannot be told; the game has no turn check.
        """
        raise EntryError("turn-none", field="game", game_name=self.name)

    def knock(self, doc: Mapping[str, Any], tr: Translator = ENGLISH) -> dict[str, Any]:
        """The contract's ``knock``: who gets the face-up card (R17-8), in ``tr``'s words."""
        raise EntryError("knock-none", field="game", game_name=self.name)

    #: Whether a player may ask for a reshuffle of the first tiles (RK-3).
    redeals: ClassVar[bool] = False

    def check_redeal(self, tiles: Sequence[object]) -> dict[str, Any]:
        """May a player with these first tiles ask for a reshuffle? (RK-3)"""
        raise EntryError("redeal-none", game_name=self.name)

    #: Whether the table is shared and can be put back by ``rescue`` (RK-11, RK-9, MR-5).
    rescues: ClassVar[bool] = False

    def rescue(self, cards: Sequence[object]) -> dict[str, Any]:
        """The contract's ``rescue``: the cards on the table laid out in legal melds."""
        raise EntryError("rescue-not-in-game", field="game", game_name=self.name)

    # --- rounds ---------------------------------------------------------------------------

    def check_part(self, part: object, name: str, seats: Sequence[str]) -> dict[str, Any]:
        """One player's part of a round (contract "Own hands"): that player's object of a round
        document without ``name``, checked on its own — its cards can be read, its melds are
        melds, no card is given twice within it. What only the whole round can tell (a card
        twice across players, who went out) waits for the round. Returns the part as given.

        :raises EntryError: why the part is bad on its own, placed at ``name``.
        """
        raise EntryError("part-none", game_name=self.name)

    def check_parts(self, parts: Mapping[str, Mapping[str, Any]], seats: Sequence[str]) -> None:
        """The parts that came so far, together (contract "Own hands"): what they already tell
        of the whole round, a card given more often than the box holds it (D17-8, DK-4, DO-6,
        DM-8). ``parts`` is by player in the order the parts came, each one ``check_part``
        took, of a table of ``seats``; a problem is placed at the player whose part came later
        and names the other. Nothing is refused by it: the round is checked when it is saved.

        :raises EntryError: every such problem at once.
        """

    @property
    def takes_parts(self) -> bool:
        """Does the game check a player's part on its own (``check_part``), so that each
        player can enter theirs on their own phone?"""
        return type(self).check_part is not Game.check_part

    def score_round(self, doc: object, names: Sequence[str] | None = None) -> RoundOutcome:
        """Read one round document (every entry problem at once) and score it."""
        raise NotImplementedError

    def multiplier(self, doc: Mapping[str, Any]) -> int:
        """How a round being entered multiplies its points, from what is typed so far."""
        return 1

    def example_round(self) -> dict[str, Any]:
        """A small legal round document of this game, in the contract's format: its ``game``,
        every field its round form asks for (each ending, the last card where the game has
        one) and each seat's object with cards, not counts, in the game's own notation.

        Each game gives its own: it is what the tests score through every shell (the
        command line, the API, the round form) for every installed game, and a game that
        joins by being installed proves it is served like the others with it. A new dict
        each time, free to change.
        """
        raise NotImplementedError(f"{type(self).__name__} gives no example round")

    def round_line(self, outcome: RoundOutcome) -> dict[str, Any]:
        """What a match result adds to a round's line beyond dealer, scores and totals."""
        return {"winners": list(outcome.winners)}

    # --- series ---------------------------------------------------------------------------

    def check_length(self, games: int | None) -> None:
        """Refuse a series length this game cannot have."""

    def end_bonus(
        self, totals: Mapping[str, int], outcomes: Sequence[RoundOutcome]
    ) -> dict[str, int] | None:
        """The bonuses that end a series on a target (MR-16), or None while it goes on."""
        return None

    def default_length(self, players: int) -> int | None:
        """Rounds in a series when the table sets none (D17-7, DK-3, DO-5)."""
        return players if self.rounds_per_player else None

    def first_dealer(self, seats: Sequence[str], chosen: str) -> str:
        """The match document's ``first_dealer`` from whom the start page asked for."""
        if self.first_seat == "starter":  # the dealer is the seat before the one who starts
            return seats[(seats.index(chosen) - 1) % len(seats)]
        return chosen

    def first_seat_of(self, seats: Sequence[str], dealer: str) -> str:
        """Whom a round is told by: its dealer, or who starts where the game asks for the
        starter (RK-2, RO-3: nobody deals; the seat after the dealer starts)."""
        if self.first_seat == "starter":
            return seats[(seats.index(dealer) + 1) % len(seats)]
        return dealer

    def draw_bonus_cards(self, rng: Random) -> list[str]:
        """The bonus cards the dealer lays face up for a round (R17-3): ``draw`` of the game's
        bonus cards at random from ``rng`` (a seeded one in tests); none for a game without
        bonus cards."""
        bonus = self.describe().bonus_cards
        if bonus is None:
            return []
        return rng.sample([c.id for c in bonus.cards], bonus.draw)

    # --- the shells' view ---------------------------------------------------------------

    def describe(self) -> Description:
        """Everything a page, a sheet or a script needs to draw this game's entry, typed."""
        deck = self.deck
        return Description(
            id=self.id,
            name=self.name,
            seats=self.seats,
            seats_rule=self.seats_rule,
            cards=Cards(
                colours=tuple(
                    Colour(c, deck.colour_names[c], deck.symbols.get(c, "")) for c in deck.colours
                ),
                values=tuple(Value(v, deck.value_text(v)) for v in range(deck.low, deck.high + 1)),
                coloured_jokers=deck.coloured_jokers,
                suit_last=deck.suit_last,
                jokers_held=self.jokers_held,
                copies=deck.copies,
                **notation(),  # the joker's mark and the separators, for the picker's script
            ),
            holding=self.holding,
            counts=self.counts,
            melds=self.melds_entered,
            endings=self.endings,
            first_seat=self.first_seat,
            first_seat_rule=self.first_seat_rule,
            first_question=self.first_question,
            rounds_per_player=self.rounds_per_player,
            turn_seconds=self.turn_seconds,
            turn_rule=self.turn_rule,
            turn_penalty=self.turn_penalty,
            opened_rule=self.opened_rule,
            knock_rule=self.knock_rule,
            columns=self.columns,
            numbers=dict(self.numbers),
            own_parts=self.takes_parts,
            photos=self.photo_inks is not None,
        )

    def descriptor(self) -> dict[str, Any]:
        """The description as plain JSON (``/api/v1/games``, the page scripts)."""
        return self.describe().to_json()

    def __repr__(self) -> str:
        return f"get_game({self.id!r})"


def check_round_keys(game: Game, doc: Mapping[str, Any]) -> None:
    """A round holds only this game's fields and no house-rule switch (none exist yet)."""
    unknown = sorted(set(doc) - game.round_keys)
    if unknown:
        raise EntryError(
            "round-unknown-field",
            key=unknown[0],
            fields=", ".join(sorted(game.round_keys - {"game", "options"})),
        )
    options = doc.get("options") or {}
    if not isinstance(options, Mapping):
        raise EntryError("options-not-object")
    for key in options:
        raise EntryError("unknown-option", key=key, game_name=game.name)


def part_object(part: object, fields: Sequence[str]) -> Mapping[str, Any]:
    """A part holding only ``fields`` (contract "Own hands": a player's object without name)."""
    listed = ", ".join(fields)
    part = json_of(part)  # a typed part (``documents.PartBody``): its JSON form
    if not isinstance(part, Mapping):
        raise EntryError("part-not-object", fields=listed)
    unknown = sorted(set(part) - set(fields))
    if unknown:
        raise EntryError("part-unknown-field", key=unknown[0], fields=listed)
    return part


def turn_object(doc: object, keys: frozenset[str]) -> Mapping[str, Any]:
    """A turn document holding only ``keys`` (contract ``turn``)."""
    doc = json_of(doc)
    if not isinstance(doc, Mapping):
        raise EntryError("turn-not-object")
    unknown = sorted(set(doc) - keys)
    if unknown:
        raise EntryError(
            "turn-unknown-field", key=unknown[0], fields=", ".join(sorted(keys - {"game"}))
        )
    return doc


def round_object(doc: object) -> Mapping[str, Any]:
    """A round to read: typed (``documents.Round``, its JSON form), or as the CLI read it."""
    doc = json_of(doc)
    if not isinstance(doc, Mapping):
        raise EntryError("round-not-object")
    return doc


#: The entry-point group a game joins by being installed: ``id = "module:GAME"`` in the
#: ``[project.entry-points."companion.games"]`` table of its distribution's pyproject.toml.
ENTRY_POINTS = "companion.games"


@dataclass
class _Registry:
    games: dict[str, Game] = field(default_factory=dict)
    loaded: bool = False


_REGISTRY = _Registry()


def register_game(game: Game) -> Game:
    """Add a game to the registry (the entry points do this for every installed game)."""
    _REGISTRY.games[game.id] = game
    # The rulebooks' order (``Game.order``), whichever game was found first.
    _REGISTRY.games = dict(sorted(_REGISTRY.games.items(), key=lambda kv: kv[1].order))
    return game


def all_games() -> tuple[Game, ...]:
    """Every game, in the order the rulebooks come: Rummy 17 first."""
    _load()
    return tuple(_REGISTRY.games.values())


def get_game(game_id: object) -> Game:
    """The game with this id; ``EntryError`` naming the games for anything else."""
    if not _REGISTRY.loaded:
        _load()
    if isinstance(game_id, str) and game_id in _REGISTRY.games:
        return _REGISTRY.games[game_id]
    names = ", ".join(_REGISTRY.games)
    if game_id is None or (isinstance(game_id, str) and not game_id.strip()):
        raise EntryError("game-missing", field="game", games=names)  # not "unknown game None"
    raise EntryError("unknown-game", game=game_id, games=names)


def forget_games() -> None:
    """Ask the entry points again at the next lookup (a game installed or removed while the
    process runs: the tests that install Gin Rummy)."""
    _REGISTRY.games.clear()
    _REGISTRY.loaded = False


def _load() -> None:
    """Register every installed game once: each entry point of ``companion.games`` names a
    ``Game`` (an instance, or a class to make one of). ``importlib.metadata`` reads them from
    every distribution on ``sys.path``, the first distribution of a name winning."""
    if _REGISTRY.loaded:
        return
    for point in entry_points(group=ENTRY_POINTS):
        found = point.load()
        game = found() if isinstance(found, type) else found
        if not isinstance(game, Game) or game.id != point.name:
            raise TypeError(f"entry point {point.name} = {point.value} is no game {point.name}")
        if game.id not in _REGISTRY.games:
            register_game(game)
    _REGISTRY.loaded = True
