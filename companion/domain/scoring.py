"""One entry point for every game: score a round, score a whole match (contract).

Nothing here knows a game: each round is read and scored by its game (``get_game``), which
also says how long a series runs and what ends it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.domain.documents import MatchDocument, Round, json_of
from companion.domain.errors import EntryError, about
from companion.domain.game import Game, RoundOutcome, get_game
from companion.domain.messages import N_, register
from companion.domain.names import spelled
from companion.domain.seating import RoundLine, check_names, dealer_of, left_of, running, standings

register(
    {
        "match-not-object": N_("a match must be a JSON object"),
        "match-unknown-field": N_(
            "the match has an unknown field {key!r}; the fields are {fields}"
        ),
        "match-players-not-list": N_("players must be a list of names, in seat order (clockwise)"),
        "first-dealer-unknown": N_(
            "first_dealer names {name!r}, who is not a player here; the players are {names}"
        ),
        "rounds-not-list": N_("{field} must be a list of round documents"),
        "games-not-number": N_("{field} must be a whole number of rounds, 1 or more"),
        "series-too-long": N_(
            "the match was set to {games} rounds but has {count}; lengthen the series to add "
            "one ({rule})"
        ),
        "series-ended": N_(
            "the match already ended after round {last}, when a player reached 150 (MR-16)"
        ),
        "round-other-game": N_("this round is {other!r}, the match is {game}"),
    }
)

MATCH_KEYS = frozenset({"game", "players", "first_dealer", "rounds", "options", "games", "title"})


def _object(doc: object, code: str) -> Mapping[str, Any]:
    if not isinstance(doc, Mapping):
        raise EntryError(code)
    return doc


def score_document(doc: Round | object) -> dict[str, Any]:
    """``companion score``: a round document of any game in, the contract's result out
    (typed, or as the CLI read it: ``json_of``)."""
    doc = _object(json_of(doc), "round-not-object")
    game = get_game(doc.get("game"))
    with about(context=game.id):  # its problems said in the game's words
        return game.score_round(doc).result


def series_length(game: Game, doc: Mapping[str, Any], players: int) -> int | None:
    """The number of rounds the match is set to (D17-7, DK-3, DO-5), None for a target."""
    games = doc.get("games")
    with about(field="games"):
        game.check_length(games)
        if games is not None and (
            isinstance(games, bool) or not isinstance(games, int) or games < 1
        ):
            raise EntryError("games-not-number", field="games")
    return games if games is not None else game.default_length(players)


def match_document(doc: MatchDocument | object) -> dict[str, Any]:
    """``companion match``: a match document in, the contract's result out (typed, or as the
    CLI read it: ``json_of``)."""
    doc = _object(json_of(doc), "match-not-object")
    unknown = sorted(set(doc) - MATCH_KEYS)
    if unknown:
        raise EntryError(
            "match-unknown-field", key=unknown[0], fields=", ".join(sorted(MATCH_KEYS))
        )
    game = get_game(doc.get("game"))
    with about(context=game.id):  # every problem said in the game's words
        return _scored(game, doc)


def _scored(game: Game, doc: Mapping[str, Any]) -> dict[str, Any]:
    """The match result of a match document of ``game`` (``match_document``)."""
    with about(field="options"):
        for key in doc.get("options") or {}:
            raise EntryError("unknown-option", key=key, game_name=game.name)
    raw_names = doc.get("players")
    if not isinstance(raw_names, list):
        raise EntryError("match-players-not-list", field="players")
    with about(field="players"):
        seats = check_names(raw_names, players=game.seats, rule=game.seats_rule, game=game.name)
    given = doc.get("first_dealer", seats[0])
    first = spelled(given) if isinstance(given, str) else given  # as the seats are read
    if first not in seats:
        raise EntryError(
            "first-dealer-unknown", field="first_dealer", name=given, names=", ".join(seats)
        )
    rounds = doc.get("rounds", [])
    if not isinstance(rounds, list):
        raise EntryError("rounds-not-list", field="rounds")
    length = series_length(game, doc, len(seats))
    if length is not None and len(rounds) > length:
        raise EntryError(
            "series-too-long",
            field="rounds",
            rule=game.series_rule,
            games=length,
            count=len(rounds),
        )
    outcomes: list[RoundOutcome] = []
    bonus: dict[str, int] | None = None
    for number, raw in enumerate(rounds, start=1):
        with about(round=number, context=game.id):  # said in the game's words
            if bonus is not None:
                raise EntryError("series-ended", rule=game.series_rule, last=number - 1)
            raw = _object(raw, "round-not-object")
            if raw.get("game", game.id) != game.id:
                raise EntryError("round-other-game", other=raw.get("game"), game=game.id)
            outcomes.append(game.score_round(raw, seats))
        _, running_totals = running(seats, first, [o.scores for o in outcomes])
        bonus = game.end_bonus(running_totals, outcomes)  # DM-7: after each round
    lines, totals = running(seats, first, [o.scores for o in outcomes])
    if bonus is not None:
        totals = {n: totals[n] + bonus[n] for n in seats}
    finished = bonus is not None or (length is not None and len(rounds) >= length)
    out: dict[str, Any] = {
        "game": game.id,
        "rounds": [_round_line(game, line, o) for line, o in zip(lines, outcomes, strict=True)],
        "totals": totals,
        "standings": [
            {"rank": s.rank, "name": s.name, "total": s.total} for s in standings(totals, seats)
        ],
        "finished": finished,
        "games": length,
    }
    if bonus is not None:
        out["end_bonus"] = bonus
    if not finished:
        # Extension: who deals and starts the next round (R17-2, R17-6).
        dealer = dealer_of(seats, first, len(rounds) + 1)
        out["next"] = {
            "number": len(rounds) + 1,
            "dealer": dealer,
            "starts": left_of(seats, dealer),
        }
    return out


def _round_line(game: Game, line: RoundLine, outcome: RoundOutcome) -> dict[str, Any]:
    return {
        "number": line.number,
        "dealer": line.dealer,
        "starts": line.starts,
        "scores": line.scores,
        "totals": line.totals,
        **game.round_line(outcome),
    }
