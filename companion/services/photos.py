"""The tiles read off a photo (contract "Photos"): one photo's bytes → the contract's object.

The game decides whether its pieces can be read and how the reader's inks are written
(``Game.photo_inks``: Rummy-O's green is read where Rummikub has orange, RO-1). The photo is
read in memory and dropped: nothing here stores, logs or caches it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from companion.adapters import reader
from companion.domain import EntryError, Game, get_game
from companion.domain.messages import N_, register

#: What a photo may be read as: a rack (or hand), or the table's melds.
AS = ("rack", "table")

register(
    {
        "photo-game-not-read": N_(
            "{game_name} cannot be read from a photo yet: enter the cards by hand"
        ),
        "photo-as": N_("as={value!r} is not a way to read a photo; say rack or table"),
        "photo-unreadable": N_(
            "{file} cannot be read as a photo: send a JPEG, PNG or WebP picture"
        ),
        "photo-too-many-pixels": N_(
            "{file} has too many pixels to be a photo; send one of at most {most} megapixels"
        ),
        "photo-body-unreadable": N_(
            "This cannot be read as a photo: send a JPEG, PNG or WebP picture"
        ),
        "photo-body-too-many-pixels": N_(
            "This picture has too many pixels to be a photo; send one of at most {most} megapixels"
        ),
    }
)


def inks(game_id: object) -> tuple[str, str, str, str]:
    """The game's letters for the reader's inks, in the reader's order; an ``EntryError``
    for a game whose pieces cannot be read from photos (the card games, for now)."""
    game = get_game(game_id)
    if game.photo_inks is None:
        raise EntryError("photo-game-not-read", game_name=game.name)
    black, red, blue, orange = (game.photo_inks[name] for name in reader.COLOUR_NAMES)
    return black, red, blue, orange


def warm() -> None:
    """Load the reader's networks ahead of the first photo (``companion serve``'s workers do
    it as they start, beside serving pages)."""
    reader.warm()


def check_as(value: object) -> str:
    """``rack`` or ``table``; anything else is bad input."""
    if value not in AS:
        raise EntryError("photo-as", value=value)
    return str(value)


#: One photo read at a time in a server process: the reader takes both cores for a moment,
#: and the pages of the other tables must keep answering while four phones send photos.
_reading = threading.Lock()


def read(
    game_id: object, data: bytes, as_: object = "rack", file: str | None = None
) -> dict[str, Any]:
    """The contract's object for one photo; ``file`` names it in an error (the command
    line), else the error speaks of "this" photo (the HTTP body)."""
    colours = inks(game_id)
    kind = check_as(as_)
    try:
        with _reading:
            reading = reader.read_photo(data, colours=colours, as_table=kind == "table")
    except reader.PhotoError as err:
        most = reader.MAX_PIXELS // 1_000_000
        if file is None:
            if err.code == "too-large":
                raise EntryError("photo-body-too-many-pixels", most=most) from None
            raise EntryError("photo-body-unreadable") from None
        if err.code == "too-large":
            raise EntryError("photo-too-many-pixels", file=file, most=most) from None
        raise EntryError("photo-unreadable", file=file) from None
    out: dict[str, Any] = {
        "game": get_game(game_id).id,
        "as": kind,
        "tiles": list(reading.tiles),
        "boxes": [[round(v, 4) for v in box] for box in reading.boxes],
        "unsure": list(reading.unsure),
    }
    if kind == "table":
        tiles, melds = table_melds(get_game(game_id), reading.tiles, reading.lines)
        out["tiles"] = tiles
        out["melds"] = melds
        out["loose"] = list(reading.loose)
    return out


def table_melds(
    game: Game, tiles: Sequence[str], lines: Sequence[Sequence[int]]
) -> tuple[list[str], list[list[str]]]:
    """The tiles and the melds of a table: each line of tiles side by side is one meld, as it
    lies (contract "Photos"), with one reading put right by the game's own rule: a 6 in a line
    that holds together only as a 9 is a 9 seen upside down, and the other way round (tiles
    on a table face every way; 6 and 9 differ only by the mark under them)."""
    read = list(tiles)
    for line in lines:
        fixed = _six_or_nine(game, [read[i] for i in line])
        for i, tile in zip(line, fixed, strict=True):
            read[i] = tile
    return read, [[read[i] for i in line] for line in lines]


def _as_laid(game: Game, line: list[str]) -> bool:
    """Whether the tiles make a meld in the order they lie: a group in any order, a run from
    its low end on the left (``Game.check_meld``, whose readings give a run in order). A
    line holding more copies of a tile than the box has (a misreading) is no meld."""
    try:
        verdict = game.check_meld(line)
    except EntryError:
        return False
    if not verdict["valid"]:
        return False
    return any(
        reading["kind"] != "run"
        or [card[0] if card.startswith("*") else card for card in reading["cards"]] == line
        for reading in verdict.get("readings") or [verdict]
    )


def _six_or_nine(game: Game, line: list[str]) -> list[str]:
    if _as_laid(game, line):
        return line
    for k, tile in enumerate(line):
        if tile != "*" and tile[1:] in ("6", "9"):
            turned = [*line[:k], tile[0] + ("9" if tile[1:] == "6" else "6"), *line[k + 1 :]]
            if _as_laid(game, turned):
                return turned
    return line
