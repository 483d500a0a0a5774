"""The commands: every write of a match, its parts or an event, as one value.

A view parses the request into one of these and hands it to ``handlers.handle``; nothing else
writes. Each carries its typed inputs (``companion/domain/documents.py``), the match or event it
changes, the ``revision`` it is based on (``If-Match`` or the form's; None: no check) and its
idempotency key ``once`` (None: none sent). ``Later`` is a command read from the request only
once its key is known not to be stored: a retry is answered before its request is read again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.adapters import store
from companion.adapters.models import Event, Match, Part
from companion.domain.documents import PartBody
from companion.domain.documents import Round as RoundDocument

# --- matches --------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StartMatch:
    """Start a match (the inputs are checked by the rules core as the store writes them)."""

    game: str
    players: list[str]
    first_dealer: str
    games: int | None
    title: str | None = None
    device: str | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class Rematch:
    """A new match at the same table: same game, seats and length; the next player deals."""

    match: Match
    device: str | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class AddRound:
    """Add the next round."""

    match: Match
    round: RoundDocument
    revision: int | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class ReplaceRound:
    """Correct round ``number``."""

    match: Match
    number: int
    round: RoundDocument
    revision: int | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class DeleteRound:
    """Delete round ``number``; the later rounds move up one number."""

    match: Match
    number: int
    revision: int | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class RestoreRound:
    """Undo the deletion recorded as history entry ``change``; answers the round's number."""

    match: Match
    change: int
    revision: int | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class Lengthen:
    """One more round after the last (D17-7, DK-3, DO-5); answers the new length."""

    match: Match
    revision: int | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class ForgetOnDevice:
    """Take a match off the list of the device that started it (the match stays)."""

    match: Match
    once: store.Once | None = None


# --- own hands: the parts of the next round -----------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class OpenParts:
    """Open the next round's parts (the same ones when open); the revision is checked, never
    claimed. Answers ``store.Opened``."""

    match: Match
    revision: int | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class StopParts:
    """Drop the open parts without a round: their tokens answer 410 from now on."""

    match: Match
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class SendPart:
    """A player's own part, sent from their phone (the later send wins)."""

    part: Part
    body: PartBody | object
    device: str | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class KeepPart:
    """The scorekeeper's change to a part that came, kept beside the player's."""

    part: Part
    body: object
    once: store.Once | None = None


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CreateEvent:
    """Start an event (EV-1): the store checks every field and says every problem at once."""

    game: str
    entrants: object
    sessions: object
    rounds: object = None
    size: object = 4
    seating: str = "draw"
    title: str | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class SeatSession:
    """Seat the next session (EV-2, EV-3)."""

    event: Event
    revision: int | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class Redraw:
    """Draw the last session again, before any table saved a round (EV-3)."""

    event: Event
    revision: int | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class AddEntrant:
    """A late arrival, seated from the next session on (EV-1)."""

    event: Event
    name: object
    revision: int | None = None
    once: store.Once | None = None


@dataclass(frozen=True, kw_only=True)
class WithdrawEntrant:
    """An entrant leaves before the next session (EV-1); played results stay."""

    event: Event
    name: object
    revision: int | None = None
    once: store.Once | None = None


#: Every command ``handlers.handle`` takes.
Command = (
    StartMatch
    | Rematch
    | AddRound
    | ReplaceRound
    | DeleteRound
    | RestoreRound
    | Lengthen
    | ForgetOnDevice
    | OpenParts
    | StopParts
    | SendPart
    | KeepPart
    | CreateEvent
    | SeatSession
    | Redraw
    | AddEntrant
    | WithdrawEntrant
)


@dataclass(frozen=True)
class Later:
    """A command built only once ``once`` is known not to be stored already (the request's
    other headers and its body are read then, in the order the answers depend on). ``build``
    may raise the request's refusal, or answer None: nothing to write (a form to show again)."""

    once: store.Once | None
    build: Callable[[], Command | None]
