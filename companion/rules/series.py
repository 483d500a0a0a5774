"""One entry point for every game: score a round, score a whole match (contract)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cards import DECKS
from .document import score_rummy17
from .errors import EntryError
from .manipulation import end_bonus, score_manipulation
from .match import check_names, dealer_of, left_of, running, standings
from .tiles import RoundOutcome, score_tiles

Scorer = Callable[[Any, Sequence[str] | None], RoundOutcome]
SCORERS: dict[str, Scorer] = {
    "rummy17": score_rummy17,
    "rummikub": lambda doc, names: score_tiles(doc, "rummikub", names),
    "rummy-o": lambda doc, names: score_tiles(doc, "rummy-o", names),
    "manipulation": score_manipulation,
}
# How many may sit at each game's table, and the clause that says so.
SEATS: dict[str, tuple[tuple[int, int], str, str]] = {
    "rummy17": ((2, 6), "R17-1", "Rummy 17"),
    "rummikub": ((2, 4), "RK-1", "Rummikub"),
    "rummy-o": ((2, 4), "RO-1", "Rummy-O"),
    "manipulation": ((2, 5), "MR-1", "Manipulation Rummy"),
}
MATCH_KEYS = {"game", "players", "first_dealer", "rounds", "options", "games", "title"}


def _game_of(doc: Mapping[str, Any], default: str | None = None) -> str:
    game = doc.get("game", default)
    if game not in SCORERS:
        raise EntryError(f"unknown game {game!r}: the games are {', '.join(DECKS)}")
    return game


def _object(doc: object, what: str) -> Mapping[str, Any]:
    if not isinstance(doc, Mapping):
        raise EntryError(f"{what} must be a JSON object")
    return doc


def score_document(doc: object) -> dict[str, Any]:
    """``companion score``: a round document of any game in, the contract's result out."""
    doc = _object(doc, "a round")
    return SCORERS[_game_of(doc)](doc, None).result


def match_document(doc: object) -> dict[str, Any]:
    """``companion match``: a match document in, the contract's result out."""
    doc = _object(doc, "a match")
    unknown = sorted(set(doc) - MATCH_KEYS)
    if unknown:
        raise EntryError(
            f"the match has an unknown field {unknown[0]!r}; the fields are "
            f"{', '.join(sorted(MATCH_KEYS))}"
        )
    game = _game_of(doc)
    if doc.get("options"):
        raise EntryError(
            f"unknown option {next(iter(doc['options']))!r}: {SEATS[game][2]} has "
            "no house-rule switches"
        )
    raw_names = doc.get("players")
    if not isinstance(raw_names, list):
        raise EntryError("players must be a list of names, in seat order (clockwise)")
    players, rule, label = SEATS[game]
    seats = check_names(raw_names, players=players, rule=rule, game=label)
    first = doc.get("first_dealer", seats[0])
    if first not in seats:
        raise EntryError(
            f"first_dealer names {first!r}, who is not a player here; the players "
            f"are {', '.join(seats)}"
        )
    rounds = doc.get("rounds", [])
    if not isinstance(rounds, list):
        raise EntryError("rounds must be a list of round documents")
    games = doc.get("games")
    if games is not None and (isinstance(games, bool) or not isinstance(games, int) or games < 1):
        raise EntryError("games must be a whole number of games, 1 or more")
    if games is not None and len(rounds) > games:
        raise EntryError(
            f"the match was set to {games} games but has {len(rounds)} (D17-7)", rule="D17-7"
        )
    outcomes: list[RoundOutcome] = []
    bonus: dict[str, int] | None = None
    for number, raw in enumerate(rounds, start=1):
        if bonus is not None:
            raise EntryError(
                f"game {number}: the match already ended after game {number - 1}, "
                "when a player reached 150 (MR-16)",
                rule="MR-16",
                extra={"round": number},
            )
        raw = _object(raw, f"game {number}")
        try:
            if raw.get("game", game) != game:
                raise EntryError(f"this round is {raw.get('game')!r}, the match is {game}")
            outcomes.append(SCORERS[game](raw, seats))
        except EntryError as err:
            err.message = f"game {number}: {err.message}"
            err.extra["round"] = number
            raise
        if game == "manipulation":
            _, running_totals = running(seats, first, [o.scores for o in outcomes])
            won = {n: sum(n in o.winners for o in outcomes) for n in seats}
            bonus = end_bonus(running_totals, won)  # DM-7: checked after each round
    lines, totals = running(seats, first, [o.scores for o in outcomes])
    if bonus is not None:
        totals = {n: totals[n] + bonus[n] for n in seats}
    out: dict[str, Any] = {
        "game": game,
        "rounds": [_round_line(line, o, game) for line, o in zip(lines, outcomes, strict=True)],
        "totals": totals,
        "standings": [
            {"rank": s.rank, "name": s.name, "total": s.total} for s in standings(totals, seats)
        ],
        "finished": bonus is not None or (games is not None and len(rounds) >= games),
    }
    if bonus is not None:
        out["end_bonus"] = bonus
    if not out["finished"]:
        # Extension: who deals and starts the next game (R17-2, R17-6).
        dealer = dealer_of(seats, first, len(rounds) + 1)
        out["next"] = {
            "number": len(rounds) + 1,
            "dealer": dealer,
            "starts": left_of(seats, dealer),
        }
    return out


def _round_line(line: Any, outcome: RoundOutcome, game: str) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "number": line.number,
        "dealer": line.dealer,
        "starts": line.starts,
        "scores": line.scores,
        "totals": line.totals,
    }
    if game == "rummy17":
        entry["rummy17"] = outcome.result["rummy17"]
    else:
        entry["winners"] = list(outcome.winners)
    return entry
