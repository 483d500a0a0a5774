"""The contract's JSON documents for Rummy 17, read into rules values and written back.

Reading applies every entry check of D17-8 and reports every problem of a round at once, each
naming its player, meld, card or field. This module stays pure: plain dicts in and out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from itertools import islice, product
from typing import Any

from companion.domain.bounds import MAX_HAND_CARDS
from companion.domain.cards import Card, Joker, Token, parse_card
from companion.domain.errors import Collector, EntryError, about
from companion.domain.game import check_round_keys, get_game, part_object, round_object
from companion.domain.games.rummy17.bonus import BONUS_CARDS, Award
from companion.domain.games.rummy17.deck import RUMMY17
from companion.domain.games.rummy17.melds import Meld, MeldError, analyse_meld, resolve
from companion.domain.games.rummy17.play import BONUS_DRAWN
from companion.domain.games.rummy17.scoring import GameResult
from companion.domain.games.rummy17.table import Hand, LastDiscard, Seat, Seventeen, Table
from companion.domain.messages import ENGLISH, N_, NN_, Translator, register
from companion.domain.names import spelled
from companion.domain.seating import check_names, check_seats

PLAYER_KEYS = {"name", "melds", "hand"}

register(
    {
        "round-other-reader": N_("this is a Rummy 17 reader, not one for {game!r}"),
        "player-not-object": N_("player {number} must be a JSON object"),
        "player-forgotten": N_(
            'nothing entered; give their melds and the cards left in hand, or {{"low": N, '
            '"high": M}}'
        ),
        "melds-not-list": N_("not a list; give a list of melds, each a list of cards"),
        "meld-not-list": N_("a meld is a list of cards"),
        "meld-joker-ambiguous": N_(
            "the joker {card} could stand for {could}; say which, like *{first} ({rule})"
        ),
        "hand-not-list": N_('a hand is a list of cards or {{"low": N, "high": M}}'),
        "hand-unknown-field": N_(
            'unknown field {key!r}; the short form of a hand is {{"low": N, "high": M}}'
        ),
        "hand-count-not-number": N_("{key} must be a whole number of cards from 0 to {max}"),
        "joker-in-hand": N_(
            "{card} is a joker, and a joker never stays in a hand: it is melded the turn it is "
            "taken ({rule})"
        ),
        "card-twice": N_(
            "{card} appears twice (also in {other}'s meld {other_meld}); each card exists once "
            "({rule})"
        ),
        "card-twice-in-hand": N_(
            "{card} appears twice (also in {other}'s hand); each card exists once ({rule})"
        ),
        "last-discard-twice": N_(
            "the last discard {card} also lies in {other}'s meld {other_meld}; each card exists "
            "once ({rule})"
        ),
        "last-discard-twice-in-hand": N_(
            "the last discard {card} also lies in {other}'s hand; each card exists once ({rule})"
        ),
        "bonus-count": N_("a game has exactly five bonus cards, not {count} ({rule})"),
        "bonus-unknown": N_("{given!r} is not a bonus card; the twelve are {cards}"),
        "bonus-twice": N_(
            "the bonus card {card} is drawn twice; the five are all different ({rule})"
        ),
        "last-discard-without-out": N_(
            "last_discard is only given when a player went out; the draw pile ran out "
            "(went_out is null) (R17-15b)"
        ),
        "went-out-holds": NN_(
            "{player} went out but still has {count} card in hand; a player who goes out has "
            "an empty hand ({rule})",
            "{player} went out but still has {count} cards in hand; a player who goes out has "
            "an empty hand ({rule})",
            "count",
        ),
        "went-out-no-meld": N_(
            "{player} went out without a meld of their own: one adds to melds only after one's "
            "own first meld (D17-8, R17-10)"
        ),
        "last-discard-missing": N_(
            "{player} went out: which card did they discard last? (last_discard, R17-15a)"
        ),
        "last-discard-short": N_(
            'the last card is a card such as "R9", or {{"seventeen": false}} when only '
            "whether it was a 17 matters ({rule})"
        ),
        "last-discard-joker": N_(
            "the last discard cannot be the joker {card}: a joker never goes into a hand ({rule})"
        ),
        "hand-empty-other-out": N_(
            "it is empty, but {winner} went out: everyone else holds a card ({rule})"
        ),
        "hand-empty-pile-out": N_(
            "it is empty, so {player} went out and the draw pile did not run out ({rule})"
        ),
    }
)


def read_meld(raw: object, *, player: str | None = None, number: int | None = None) -> Meld:
    """One meld of a player, parsed and checked (R17-9, R17-13, D17-6); on its own, a joker at
    either open end must be named, since nothing else can settle it.

    :raises EntryError: every unreadable card of the meld, or why it is no legal meld.
    """
    meld = _analyse(_parse_meld(raw, player, number), (), player, number)
    if meld.ambiguous:
        raise _ambiguous(meld, player, number)
    return meld


def _parse_meld(raw: object, player: str | None, number: int | None) -> list[Token]:
    """A meld's cards as given; every unreadable card at once."""
    with about(player=player, meld=number):
        if not isinstance(raw, list):
            raise EntryError("meld-not-list")
        problems = Collector()
        tokens: list[Token] = []
        for c in raw:
            with problems.check():
                tokens.append(parse_card(c, RUMMY17))
        problems.raise_any()
    return tokens


def _analyse(
    tokens: list[Token], elsewhere: Collection[str], player: str | None, number: int | None
) -> Meld:
    """A meld's cards as a legal meld, its readings limited to cards in no other meld."""
    with about(player=player, meld=number):
        try:
            return analyse_meld(tokens, elsewhere)
        except MeldError as err:
            raise EntryError.of(err.problems) from None


def _ambiguous(meld: Meld, player: str | None, number: int | None) -> EntryError:
    """D17-6: the joker could stand at either open end; say which."""
    joker = meld.joker
    assert joker is not None
    could = [c.text for c in meld.readings]
    return EntryError(
        "meld-joker-ambiguous",
        player=player,
        meld=number,
        card=joker.bare,
        rule="D17-6",
        could=could,
        first=could[0],
    )


def _read_hand(raw: object, problems: Collector) -> Hand:
    """A hand as cards, or the short form ``{"low": N, "high": M}`` (R17-16).

    Problems go to ``problems``; the hand returned then holds the cards that could be read.
    """
    if isinstance(raw, Mapping):
        unknown = sorted(set(raw) - {"low", "high"})
        if unknown:
            problems.add(EntryError("hand-unknown-field", key=unknown[0]))
            return Hand(0, 0)
        counts = []
        for key in ("low", "high"):
            n = raw.get(key, 0)
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_HAND_CARDS:
                problems.add(EntryError("hand-count-not-number", key=key, max=MAX_HAND_CARDS))
                n = 0
            counts.append(n)
        return Hand(counts[0], counts[1])
    if not isinstance(raw, list):
        problems.add(EntryError("hand-not-list"))
        return Hand(0, 0)
    cards: list[Card] = []
    for c in raw:
        with problems.check():
            token = parse_card(c, RUMMY17)
            if isinstance(token, Joker):
                # R17-13, D17-8: a joker is melded the turn it is taken.
                raise EntryError("joker-in-hand", card=token.bare, rule="R17-13")
            cards.append(token)
    return Hand.of(tuple(cards))


def _identity(token: Token) -> str:
    """What makes a card unique in the box: jokers by colour, stand-ins aside (R17-1)."""
    return token.bare if isinstance(token, Joker) else token.text


def _check_unique(seats: Sequence[Seat], last: LastDiscard | None) -> None:
    """D17-8: every card appears at most once across melds, hands and the last discard."""
    problems = Collector()
    seen: dict[str, dict[str, Any]] = {}  # card → where it was first seen

    def place(code: str, key: str, **where: Any) -> None:
        first = seen[key]
        hand = first["other_meld"] is None
        params = {"other": first["other"]}
        if not hand:
            params["other_meld"] = first["other_meld"]
        problems.add(
            EntryError(
                code + ("-in-hand" if hand else ""), card=key, rule="D17-8", **where, **params
            )
        )

    for seat in seats:
        for number, meld in enumerate(seat.melds, start=1):
            for token in meld.cards:
                key = _identity(token)
                if key in seen:
                    place("card-twice", key, player=seat.name, meld=number)
                else:
                    seen[key] = {"other": seat.name, "other_meld": number}
        for card in seat.hand.cards or ():
            if card.text in seen:
                place("card-twice", card.text, player=seat.name, field="hand")
            else:
                seen[card.text] = {"other": seat.name, "other_meld": None}
    if isinstance(last, Card) and last.text in seen:
        place("last-discard-twice", last.text, field="last_discard")
    problems.raise_any()


def read_table(
    doc: object,
    *,
    names: Sequence[str] | None = None,
    game: str = "rummy17",
) -> Table:
    """A round document (contract ``score``) as a checked ``Table``.

    A document that is no round at all (not an object, players not a list, bad names) stops at
    the first problem; otherwise every problem of every meld, hand, bonus card and the ending is
    raised at once in one ``EntryError`` (D17-8).
    """
    doc = round_object(doc)
    if doc.get("game", game) != "rummy17":
        raise EntryError("round-other-reader", game=doc.get("game", game))
    check_round_keys(get_game("rummy17"), doc)
    raw_players = doc.get("players")
    if not isinstance(raw_players, list):
        raise EntryError("players-not-list", field="players")
    for i, p in enumerate(raw_players, start=1):
        if not isinstance(p, Mapping):
            raise EntryError("player-not-object", field="players", number=i)
        extra = sorted(set(p) - PLAYER_KEYS)
        if extra:
            raise EntryError(
                "player-unknown-field", field="players", number=i, key=extra[0], key2="melds, hand"
            )
    seat_names = check_names([p.get("name") for p in raw_players])
    check_seats(seat_names, names)

    problems = Collector()
    bonus: tuple[str, ...] = ()
    with problems.check(field="bonus_cards"):
        bonus = _read_bonus_cards(doc.get("bonus_cards"))
    # Two passes, the problems in document order: first every card is read, then each meld
    # is checked against the cards of the other melds (D17-6: a card that lies in another
    # meld is no joker's reading, R17-1; a card in a hand is, R17-12).
    given: dict[str, list[list[Token] | Collector]] = {}  # each meld's cards, or its problems
    hands: dict[str, Hand | None] = {}  # None: the hand could not be read
    held: dict[str, Hand] = {}  # the cards of each hand that could be read
    hand_problems: dict[str, Collector] = {}
    for name, raw in zip(seat_names, raw_players, strict=True):
        given[name] = []
        melds_raw = raw.get("melds", [])
        if not isinstance(melds_raw, list):
            given[name].append(_failed(EntryError("melds-not-list").at(player=name, field="melds")))
            melds_raw = []
        for i, m in enumerate(melds_raw, start=1):
            parsed = Collector()
            with parsed.check():
                given[name].append(_parse_meld(m, name, i))
            if parsed:
                given[name].append(parsed)  # in meld i's place: the numbers stay
        found = Collector()
        hand = _read_hand(raw.get("hand", []), found)
        hand_problems[name] = Collector()
        if found:
            hand_problems[name].add(EntryError.of(found.problems).at(player=name, field="hand"))
        hands[name] = None if found else hand
        held[name] = hand
    ending = Collector()
    bare = [Seat(name, (), hand) for name, hand in held.items()]
    went_out, last, settled = _read_ending(doc, bare, ending)
    cards = _melded(m for ms in given.values() for m in ms if isinstance(m, list))
    if isinstance(last, Card):  # it lies on the discard pile: no joker stands for it (R17-1)
        cards[last.text] += 1
    seats = []
    for name in seat_names:
        melds: list[Meld] = []
        for number, tokens in enumerate(given[name], start=1):
            if isinstance(tokens, Collector):
                problems.problems.extend(tokens.problems)
                continue
            elsewhere = +(cards - Counter(t.text for t in tokens if _real(t)))
            with problems.check():
                melds.append(_analyse(tokens, elsewhere, name, number))
        problems.problems.extend(hand_problems[name].problems)
        seats.append(Seat(name, tuple(melds), held[name]))
    problems.problems.extend(ending.problems)
    if settled:
        _check_everyone_played(raw_players, seats, hands, went_out, problems)
    with problems.check():
        _check_unique(seats, last)
    problems.raise_any()
    return _settled(Table(tuple(seats), bonus, went_out, last))


def read_part(raw: object, name: str) -> dict[str, Any]:
    """One player's melds and hand on their own (contract "Own hands"): every card readable,
    every meld a meld (R17-9, R17-13), no joker in the hand (R17-13), no card twice within the
    part (D17-8). A joker whose reading only the rest of the table can settle (D17-6) is no
    problem here: the round asks about it when it is saved. Returns the part as given.

    :raises EntryError: every problem of the part at once, each placed at ``name``.
    """
    with about(player=name):
        part = part_object(raw, ("melds", "hand"))
    problems = Collector()
    melds_raw = part.get("melds", [])
    given: list[tuple[int, list[Token]]] = []  # each readable meld, with its number
    if not isinstance(melds_raw, list):
        problems.add(EntryError("melds-not-list").at(player=name, field="melds"))
        melds_raw = []
    for i, m in enumerate(melds_raw, start=1):
        with problems.check():
            given.append((i, _parse_meld(m, name, i)))
    found = Collector()
    hand = _read_hand(part.get("hand", []), found)
    if found:
        problems.add(EntryError.of(found.problems).at(player=name, field="hand"))
    cards = _melded(m for _, m in given)
    melds: list[Meld] = []
    for number, tokens in given:
        elsewhere = +(cards - Counter(t.text for t in tokens if _real(t)))
        with problems.check():
            melds.append(_analyse(tokens, elsewhere, name, number))
    if not problems:
        with problems.check():
            _check_unique([Seat(name, tuple(melds), hand)], None)
    problems.raise_any()
    return dict(part)


def check_parts(parts: Mapping[str, Mapping[str, Any]]) -> None:
    """D17-8 across the parts that came so far, in the order they came: a card in two
    players' parts is placed at the later one, naming the other (``card-twice``: "also in
    Anna's meld 2"). A part that cannot be read is left to its own check (``read_part``).

    :raises EntryError: every card given twice.
    """
    seats = []
    for name, part in parts.items():
        found = Collector()
        melds = []
        for number, raw in enumerate(part.get("melds", []), start=1):
            with found.check():
                melds.append(Meld(tuple(_parse_meld(raw, name, number)), "part"))
        hand = _read_hand(part.get("hand", []), found)
        if not found:
            seats.append(Seat(name, tuple(melds), hand))
    _check_unique(seats, None)


def _open(table: Table, places: Sequence[tuple[int, int]]) -> list[Meld]:
    return [table.seats[si].melds[mi] for si, mi in places]


def _failed(err: EntryError) -> Collector:
    out = Collector()
    out.add(err)
    return out


def _real(token: Token) -> bool:
    return isinstance(token, Card)


def _melded(melds: Iterable[Sequence[Token]]) -> Counter[str]:
    """The cards lying in melds, which narrow a joker's reading (D17-6, contract "Games and
    cards"), as the last discard does. A card in a hand never does: its holder may swap it in
    for the joker (R17-12)."""
    return Counter(t.text for m in melds for t in m if _real(t))


#: At most this many readings of a game are tried before the table is asked (five jokers at
#: either open end make 32).
MOST_READINGS = 64


def _settled(table: Table) -> Table:
    """The game with every joker at either open end read (D17-6, contract "Games and cards").

    A drawn bonus card whose figure differs between the readings makes the table say which
    card the joker stands for; otherwise the first reading is scored and the meld keeps every
    reading (``could``).

    :raises EntryError: a drawn bonus card's figure depends on a joker the entry leaves open.
    """
    places = [
        (si, mi)
        for si, seat in enumerate(table.seats)
        for mi, meld in enumerate(seat.melds)
        if meld.ambiguous
    ]
    if not places:
        return table
    options = [resolve(table.seats[si].melds[mi]) for si, mi in places]
    drawn = [BONUS_CARDS[c] for c in table.bonus_cards]

    def read(picks: Sequence[Meld]) -> Table:
        melds = [list(s.melds) for s in table.seats]
        for (si, mi), meld in zip(places, picks, strict=True):
            melds[si][mi] = meld
        seats = zip(table.seats, melds, strict=True)
        return replace(table, seats=tuple(replace(s, melds=tuple(m)) for s, m in seats))

    def figures(picks: Sequence[Meld]) -> list[list[int]]:
        t = read(picks)
        return [[card.figure(s, t) for s in t.seats] for card in drawn]

    first = [o[0] for o in options]
    base = figures(first)
    combos = list(islice(product(*options), MOST_READINGS + 1))
    if len(combos) > MOST_READINGS or any(figures(c) != base for c in combos):
        problems = Collector()
        for n, (si, mi) in enumerate(places):
            if len(combos) > MOST_READINGS or any(
                figures([*first[:n], o, *first[n + 1 :]]) != base for o in options[n][1:]
            ):
                problems.add(_ambiguous(table.seats[si].melds[mi], table.seats[si].name, mi + 1))
        if not problems:  # only together do they change a figure: ask about each
            for si, mi in places:
                problems.add(_ambiguous(table.seats[si].melds[mi], table.seats[si].name, mi + 1))
        problems.raise_any()
    # The first reading is scored; the meld keeps every reading it could be.
    opened = _open(table, places)
    kept = [replace(m, readings=o.readings) for m, o in zip(first, opened, strict=True)]
    return read(kept)


def _read_bonus_cards(raw: object) -> tuple[str, ...]:
    """R17-3: five of the twelve bonus cards, all different."""
    problems = Collector()
    if not isinstance(raw, list) or len(raw) != BONUS_DRAWN:
        count = len(raw) if isinstance(raw, list) else 0
        problems.add(EntryError("bonus-count", rule="R17-3", count=count))
    out: list[str] = []
    twice: set[str] = set()
    for card in raw if isinstance(raw, list) else []:
        key = card.strip().lower() if isinstance(card, str) else None  # a list, say
        if key not in BONUS_CARDS:
            problems.add(
                EntryError(
                    "bonus-unknown",
                    card=str(card),
                    rule="R17-3",
                    given=card,
                    cards=", ".join(BONUS_CARDS),
                )
            )
        elif key in out:
            if key not in twice:
                problems.add(EntryError("bonus-twice", card=key, rule="R17-3"))
            twice.add(key)
        else:
            out.append(key)
    problems.raise_any()
    return tuple(out)


def _read_ending(
    doc: Mapping[str, Any], seats: Sequence[Seat], problems: Collector
) -> tuple[str | None, LastDiscard | None, bool]:
    """Who went out and their last discard (R17-15); ``settled``: the ending could be read."""
    went_out = doc.get("went_out")
    raw_last = doc.get("last_discard")
    if went_out is None:
        if raw_last is not None:
            problems.add(
                EntryError("last-discard-without-out", field="last_discard", rule="R17-15")
            )
        return None, None, True
    by_name = {s.name: s for s in seats}
    if not isinstance(went_out, str) or spelled(went_out) not in by_name:
        problems.add(
            EntryError(
                "not-a-player",
                field="went_out",
                key="went_out",
                name=went_out,
                names=", ".join(by_name),
            )
        )
        return None, None, False
    went_out = spelled(went_out)
    hand = by_name[went_out].hand
    if hand.size:
        problems.add(
            EntryError(
                "went-out-holds", player=went_out, field="went_out", rule="D17-8", count=hand.size
            )
        )
    last: LastDiscard | None = None
    with problems.check(field="last_discard"):
        last = _read_last_discard(raw_last, went_out)
    return went_out, last, True


def _read_last_discard(raw: object, went_out: str) -> LastDiscard:
    if raw is None:
        raise EntryError("last-discard-missing", player=went_out, rule="R17-15")
    if isinstance(raw, Mapping):
        return read_seventeen(raw)
    last = parse_card(raw, RUMMY17)
    if isinstance(last, Joker):
        raise EntryError("last-discard-joker", card=last.bare, rule="R17-13")
    return last


def _check_everyone_played(
    raw_players: Sequence[Mapping[str, Any]],
    seats: Sequence[Seat],
    hands: Mapping[str, Hand | None],
    went_out: str | None,
    problems: Collector,
) -> None:
    """D17-8: whoever went out has a meld of their own; everyone else still holds a card."""
    for raw, seat in zip(raw_players, seats, strict=True):
        name = seat.name
        if name == went_out:
            if not raw.get("melds"):
                # R17-10: one adds to melds only after one's own first meld.
                problems.add(
                    EntryError("went-out-no-meld", player=name, field="went_out", rule="D17-8")
                )
            continue
        if "melds" not in raw and "hand" not in raw:
            # Contract: a forgotten player is an entry error, never a silent 0.
            problems.add(EntryError("player-forgotten", player=name, field="hand", rule="D17-8"))
            continue
        hand = hands[name]
        if hand is not None and hand.size == 0:
            # A player who melds their last card has gone out (D17-8).
            code = "hand-empty-other-out" if went_out else "hand-empty-pile-out"
            problems.add(EntryError(code, player=name, field="hand", rule="D17-8", winner=went_out))


def read_seventeen(raw: Mapping[Any, Any]) -> Seventeen:
    """The last card's short form ``{"seventeen": true|false}`` (R17-15a), or bad input."""
    if set(raw) != {"seventeen"} or not isinstance(raw["seventeen"], bool):
        raise EntryError("last-discard-short", rule="R17-15a")
    return Seventeen(raw["seventeen"])


def doubles(went_out: str | None, last_discard: object) -> bool:
    """R17-15a for a form being filled in: did someone go out on a 17? Unreadable means no."""
    if not went_out or not last_discard:
        return False
    if isinstance(last_discard, Mapping):
        return isinstance(last_discard.get("seventeen"), bool) and last_discard["seventeen"]
    if not isinstance(last_discard, str):
        return False
    try:
        card = parse_card(last_discard, RUMMY17)
    except EntryError:
        return False
    return isinstance(card, Card) and card.value == 17


def last_json(last: LastDiscard | None) -> str | dict[str, bool] | None:
    """The last discard as the contract writes it: ``"R17"``, ``{"seventeen": false}``, null."""
    if last is None:
        return None
    return last.json() if isinstance(last, Seventeen) else last.text


def _meld_json(meld: Meld) -> dict[str, Any]:
    """A meld of the result: its kind, its cards with stand-ins, and the readings it left open
    (D17-6, contract "Games and cards")."""
    out: dict[str, Any] = {"kind": meld.kind, "cards": [c.text for c in meld.cards]}
    if meld.ambiguous:
        out["could"] = [c.text for c in meld.readings]
    return out


def award_json(a: Award, tr: Translator = ENGLISH) -> dict[str, Any]:
    """One award as the contract writes it; ``reason_code`` and ``reason_params`` extend it."""
    out = {
        "card": a.card,
        "winners": list(a.winners),
        "points": a.points,
        "figures": dict(a.figures),
        "rule": a.rule,
        "reason": a.explain(tr),
        "reason_code": a.reason_code,
        "reason_params": dict(a.reason_params),
    }
    if a.decision:
        out["decision"] = a.decision
    return out


def result_json(table: Table, result: GameResult, tr: Translator = ENGLISH) -> dict[str, Any]:
    """The contract's ``score`` result, plus each player's melds with stand-ins filled in.

    ``tr`` chooses the language of the awards' ``reason``.
    """
    players = []
    for seat, line in zip(table.seats, result.players, strict=True):
        players.append(
            {
                "name": line.name,
                "penalty": line.penalty,
                "bonus": line.bonus,
                "score": line.score,
                "bonus_cards": list(line.bonus_cards),
                "melds": [_meld_json(m) for m in seat.melds],
                "hand": {"low": seat.hand.low, "high": seat.hand.high},
            }
        )
    return {
        "game": "rummy17",
        "rummy17": result.rummy17,
        "multiplier": result.multiplier,
        "went_out": table.went_out,
        "last_discard": last_json(table.last_discard),
        "players": players,
        "awards": [award_json(a, tr) for a in result.awards],
    }
