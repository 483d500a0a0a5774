"""The contract's JSON documents for Rummy 17, read into rules values and written back.

Reading applies every entry check of D17-8 and refuses a malformed document with an
``EntryError`` naming the player, meld and card. This module stays pure: plain dicts in and out.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from ..cards import Card, Joker, Token, parse_card
from ..errors import EntryError, where
from ..seating import check_names, check_seats
from .bonus import BONUS_CARDS, Award
from .melds import Meld, MeldError, analyse_meld
from .scoring import GameResult
from .table import Hand, Seat, Table

ROUND_KEYS = {"game", "bonus_cards", "went_out", "last_discard", "players", "options"}
PLAYER_KEYS = {"name", "melds", "hand"}
OPTIONS: dict[str, Any] = {}  # Rummy 17 has no house-rule switches yet (README, "Options")


@contextmanager
def about(field: str) -> Iterator[None]:
    """Tag an ``EntryError`` with the document field it is about, for forms to place it."""
    try:
        yield
    except EntryError as err:
        err.extra.setdefault("field", field)
        raise


def _object(doc: object, what: str) -> Mapping[str, Any]:
    if not isinstance(doc, Mapping):
        raise EntryError(f"{what} must be a JSON object")
    return doc


def _keys(doc: Mapping[str, Any], allowed: set[str], what: str) -> None:
    unknown = sorted(set(doc) - allowed)
    if unknown:
        raise EntryError(
            f"{what} has an unknown field {unknown[0]!r}; "
            f"the fields are {', '.join(sorted(allowed))}"
        )


def _game(doc: Mapping[str, Any], default: str | None = None) -> str:
    game = doc.get("game", default)
    if game != "rummy17":
        raise EntryError(f"this is a Rummy 17 reader, not one for {game!r}")
    return game


def _options(doc: Mapping[str, Any]) -> None:
    options = doc.get("options") or {}
    if not isinstance(options, Mapping):
        raise EntryError("options must be a JSON object of house-rule switches")
    for key in options:
        if key not in OPTIONS:
            raise EntryError(f"unknown option {key!r}: Rummy 17 has no house-rule switches")


def read_meld(raw: object, *, player: str | None = None, number: int | None = None) -> Meld:
    """One meld of a player, parsed and checked (R17-9, R17-13, D17-6)."""
    prefix = where(player, number)
    if not isinstance(raw, list):
        raise EntryError(f"{prefix}a meld is a list of cards", player=player, meld=number)
    try:
        tokens = [parse_card(c, prefix=prefix) for c in raw]
    except EntryError as err:
        err.player, err.meld = player, number
        raise
    try:
        meld = analyse_meld(tokens)
    except MeldError as err:
        raise EntryError(
            prefix + err.message, player=player, meld=number, card=err.card, rule=err.rule
        ) from None
    if meld.ambiguous:
        joker = meld.joker
        assert joker is not None
        could = " or ".join(c.text for c in meld.readings)
        raise EntryError(
            f"{prefix}the joker {joker.bare} could stand for {could}; say which, like "
            f"*{meld.readings[0].text} (D17-6)",
            player=player,
            meld=number,
            card=joker.bare,
            rule="D17-6",
        )
    return meld


def _read_hand(raw: object, name: str) -> Hand:
    prefix = f"{name}'s hand: "
    if isinstance(raw, Mapping):
        _keys(raw, {"low", "high"}, f"{name}'s hand")
        counts = []
        for key in ("low", "high"):
            n = raw.get(key, 0)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise EntryError(
                    f"{prefix}{key} must be a whole number of cards, 0 or more", player=name
                )
            counts.append(n)
        return Hand(counts[0], counts[1])
    if not isinstance(raw, list):
        raise EntryError(
            f'{prefix}a hand is a list of cards or {{"low": N, "high": M}}', player=name
        )
    cards: list[Card] = []
    for c in raw:
        try:
            token = parse_card(c, prefix=prefix)
        except EntryError as err:
            err.player = name
            raise
        if isinstance(token, Joker):
            raise EntryError(
                f"{prefix}{token.bare} is a joker, and a joker never stays in a "
                f"hand: it is melded the turn it is taken (R17-13)",
                player=name,
                card=token.bare,
                rule="R17-13",
            )
        cards.append(token)
    return Hand.of(tuple(cards))


def _identity(token: Token) -> str:
    """What makes a card unique in the box: jokers by colour, stand-ins aside (R17-1)."""
    return token.bare if isinstance(token, Joker) else token.text


def _check_unique(seats: Sequence[Seat], last: Card | None) -> None:
    """D17-8: every card appears at most once across melds, hands and the last discard."""
    seen: dict[str, str] = {}
    for seat in seats:
        for number, meld in enumerate(seat.melds, start=1):
            for token in meld.cards:
                key = _identity(token)
                place = f"{seat.name}'s meld {number}"
                if key in seen:
                    raise EntryError(
                        f"{seat.name}, meld {number}: {key} appears twice (also in "
                        f"{seen[key]}); each card exists once (D17-8)",
                        player=seat.name,
                        meld=number,
                        card=key,
                        rule="D17-8",
                    )
                seen[key] = place
        for card in seat.hand.cards or ():
            if card.text in seen:
                raise EntryError(
                    f"{seat.name}'s hand: {card.text} appears twice (also in "
                    f"{seen[card.text]}); each card exists once (D17-8)",
                    player=seat.name,
                    card=card.text,
                    rule="D17-8",
                )
            seen[card.text] = f"{seat.name}'s hand"
    if last is not None and last.text in seen:
        raise EntryError(
            f"the last discard {last.text} also lies in {seen[last.text]}; each card exists "
            f"once (D17-8)",
            extra={"field": "last_discard"},
            card=last.text,
            rule="D17-8",
        )


def read_table(
    doc: object,
    *,
    names: Sequence[str] | None = None,
    game: str = "rummy17",
) -> Table:
    """A round document (contract ``score``) as a checked ``Table``."""
    doc = _object(doc, "a round")
    _keys(doc, ROUND_KEYS, "the round")
    _game(doc, game)
    _options(doc)
    raw_players = doc.get("players")
    if not isinstance(raw_players, list):
        raise EntryError("players must be a list, in seat order (clockwise)")
    for i, p in enumerate(raw_players, start=1):
        _keys(_object(p, f"player {i}"), PLAYER_KEYS, f"player {i}")
    seat_names = check_names([p.get("name") for p in raw_players])
    check_seats(seat_names, names)
    with about("bonus_cards"):
        bonus = _read_bonus_cards(doc.get("bonus_cards"))
    seats = []
    for name, raw in zip(seat_names, raw_players, strict=True):
        melds_raw = raw.get("melds", [])
        if not isinstance(melds_raw, list):
            raise EntryError(f"{name}: melds must be a list of melds", player=name)
        melds = tuple(read_meld(m, player=name, number=i) for i, m in enumerate(melds_raw, start=1))
        seats.append(Seat(name, melds, _read_hand(raw.get("hand", []), name)))
    went_out, last = _read_ending(doc, seats)
    _check_unique(seats, last)
    return Table(tuple(seats), bonus, went_out, last)


def _read_bonus_cards(raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list) or len(raw) != 5:
        count = len(raw) if isinstance(raw, list) else 0
        raise EntryError(f"a game has exactly five bonus cards, not {count} (R17-3)", rule="R17-3")
    out: list[str] = []
    for card in raw:
        key = card.strip().lower() if isinstance(card, str) else card
        if key not in BONUS_CARDS:
            raise EntryError(
                f"{card!r} is not a bonus card; the twelve are {', '.join(BONUS_CARDS)}",
                card=str(card),
                rule="R17-3",
            )
        if key in out:
            raise EntryError(
                f"the bonus card {key} is drawn twice; the five are all different (R17-3)",
                card=key,
                rule="R17-3",
            )
        out.append(key)
    return tuple(out)


def _read_ending(doc: Mapping[str, Any], seats: Sequence[Seat]) -> tuple[str | None, Card | None]:
    went_out = doc.get("went_out")
    raw_last = doc.get("last_discard")
    if went_out is None:
        if raw_last is not None:
            raise EntryError(
                "last_discard is only given when a player went out; the draw "
                "pile ran out (went_out is null) (R17-15b)",
                rule="R17-15",
                extra={"field": "last_discard"},
            )
        return None, None
    by_name = {s.name: s for s in seats}
    if not isinstance(went_out, str) or went_out.strip() not in by_name:
        raise EntryError(
            f"went_out names {went_out!r}, who is not a player here; the players "
            f"are {', '.join(by_name)}",
            extra={"field": "went_out"},
        )
    went_out = went_out.strip()
    hand = by_name[went_out].hand
    if hand.size:
        raise EntryError(
            f"{went_out} went out but still has {hand.size} card"
            f"{'s' if hand.size != 1 else ''} in hand; a player who goes out has "
            f"an empty hand (D17-8)",
            player=went_out,
            rule="D17-8",
        )
    with about("last_discard"):
        return went_out, _read_last_discard(raw_last, went_out)


def _read_last_discard(raw: object, went_out: str) -> Card:
    if raw is None:
        raise EntryError(
            f"{went_out} went out: which card did they discard last? (last_discard, R17-15a)",
            player=went_out,
            rule="R17-15",
        )
    last = parse_card(raw, prefix="the last discard: ")
    if isinstance(last, Joker):
        raise EntryError(
            f"the last discard cannot be the joker {last.bare}: a joker never "
            f"goes into a hand (R17-13)",
            card=last.bare,
            rule="R17-13",
        )
    return last


def doubles(went_out: str | None, last_discard: str | None) -> bool:
    """R17-15a for a form being filled in: did someone go out on a 17? Unreadable means no."""
    if not went_out or not last_discard:
        return False
    try:
        card = parse_card(last_discard)
    except EntryError:
        return False
    return isinstance(card, Card) and card.value == 17


def award_json(a: Award) -> dict[str, Any]:
    out = {
        "card": a.card,
        "winners": list(a.winners),
        "points": a.points,
        "figures": dict(a.figures),
        "rule": a.rule,
        "reason": a.reason,
    }
    if a.decision:
        out["decision"] = a.decision
    return out


def result_json(table: Table, result: GameResult) -> dict[str, Any]:
    """The contract's ``score`` result, plus each player's melds with stand-ins filled in."""
    players = []
    for seat, line in zip(table.seats, result.players, strict=True):
        players.append(
            {
                "name": line.name,
                "penalty": line.penalty,
                "bonus": line.bonus,
                "score": line.score,
                "bonus_cards": list(line.bonus_cards),
                "melds": [{"kind": m.kind, "cards": [c.text for c in m.cards]} for m in seat.melds],
                "hand": {"low": seat.hand.low, "high": seat.hand.high},
            }
        )
    return {
        "game": "rummy17",
        "rummy17": result.rummy17,
        "multiplier": result.multiplier,
        "went_out": table.went_out,
        "last_discard": table.last_discard.text if table.last_discard else None,
        "players": players,
        "awards": [award_json(a) for a in result.awards],
    }
