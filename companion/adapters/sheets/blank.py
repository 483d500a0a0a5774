"""Blank score sheets for paper play, for every game: its seats, its columns, its reference."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.adapters.sheets.render import (
    check_paper,
    column_heads,
    game_macros,
    heads_fit,
    render_pdf,
)
from companion.domain import ENGLISH, EntryError, Game, Translator, get_game
from companion.domain import all_games as all_games
from companion.domain.seating import NAME_LIMIT

MAX_BLANK_GAMES = 24
#: Rows on a blank sheet of a game played to a target score (Manipulation, MR-16).
TARGET_ROWS = 8
#: Beyond this many boxes across, the column heads are abbreviated (with a key).
FULL_HEADS = 16


def default_players(game_id: str | None = None) -> int:
    """Seats on a blank sheet when nobody says: four, or the game's most when that is fewer."""
    return min(4, _game(game_id).seats[1])


def _game(game_id: str | None) -> Game:
    """The game asked for; the first game (Rummy 17) when none is named."""
    return get_game(game_id) if game_id is not None else all_games()[0]


def blank_view(
    players: int | Sequence[str],
    games: int | None = None,
    *,
    game: str | None = None,
    tr: Translator = ENGLISH,
) -> dict[str, Any]:
    """What a blank sheet of ``game`` (default the first game) shows: seats, rows, reference."""
    kind = _game(game)
    if isinstance(players, int):
        count, names = players, [""] * players
    else:
        names = [str(n).strip() for n in players]
        count = len(names)
    low, high = kind.seats
    if not low <= count <= high:
        raise EntryError(
            "sheet-seats",
            field="players",
            rule=kind.seats_rule,
            game_name=kind.name,
            low=low,
            high=high,
            count=count,
        )
    rounds = games if games is not None else kind.default_length(count) or TARGET_ROWS
    whole = isinstance(rounds, int) and not isinstance(rounds, bool)
    if not whole or not 1 <= rounds <= MAX_BLANK_GAMES:
        too_many = EntryError("sheet-rounds", field="games", high=MAX_BLANK_GAMES)
        raise too_many.at(context=kind.id)  # Rummy 17: games
    for name in names:
        if len(name) > NAME_LIMIT:
            raise EntryError("sheet-name-too-long", field="names", name=name[:20], limit=NAME_LIMIT)
    heads = column_heads(kind.columns, tr)
    across = count * (len(heads) + 1)
    return {
        "game_id": kind.id,
        "game_name": kind.name,
        "parts": game_macros(kind),
        "descriptor": kind.describe(),
        "seat_word": kind.first_seat,
        "first_question": kind.first_question,
        "endings": kind.endings,
        "columns": heads,
        "decisions": [(d.rule, d.text) for d in kind.decisions],
        "abbreviate": across > FULL_HEADS or not heads_fit(heads, across, tr),
        "names": names,
        "count": count,
        "games": list(range(1, rounds + 1)),
        "planned": kind.default_length(count) is not None,
    }


def blank_sheet(
    players: int | Sequence[str],
    games: int | None = None,
    paper: str = "a4",
    *,
    game: str | None = None,
    tr: Translator = ENGLISH,
    rules_url: str | None = None,
) -> bytes:
    """A blank score sheet of ``game`` for its number of players (names optional) as PDF.

    ``rules_url``: the absolute address of the rules pages; clause ids then link to them.
    """
    paper = check_paper(paper)
    view = blank_view(players, games, game=game, tr=tr)
    return render_pdf("sheets/blank.html", paper, tr, rules_url=rules_url, **view)
