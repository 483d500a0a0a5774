"""The referee at the table, beyond one meld: who gets the face-up card (R17-8) and is this
turn legal (contract ``turn``). The views read the form and ask the rules core; the answer
names the clause."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, render_template, request, url_for

from companion import domain as rules
from companion.domain import EntryError, all_games, check_turn, get_game, localize
from companion.domain.cards import SEPARATORS
from companion.web.language import translator
from companion.web.pages.common import descriptor, sentence

bp = Blueprint("referee", __name__)

NAMES = re.compile(r"\s*[,\n]\s*")
#: At most this many characters of a typed list of names (six names of 40 and commas).
NAMES_LIMIT = 300


def _names(text: str) -> list[str]:
    return [n for n in NAMES.split(text[:NAMES_LIMIT].strip()) if n]


@bp.get("/referee/knock")
def knock() -> str:
    """Who gets the face-up card? Tap the seats in the order people knocked (R17-8)."""
    args = request.args
    names = _names(args.get("players", ""))
    current = args.get("current", "")
    knocks = _names(args.get("knocks", ""))
    result: dict[str, Any] | None = None
    error: str | None = None
    if names and current:
        doc: dict[str, Any] = {"players": names, "current": current, "knocks": knocks}
        if args.get("deal"):
            doc["discarded_by"] = None
        try:
            result = rules.knock(doc, translator())
        except EntryError as err:
            error = sentence(err.first.message(translator()))
    return render_template(
        "knock.html",
        names=names,
        current=current,
        knocks=knocks,
        deal=bool(args.get("deal")),
        result=result,
        error=error,
    )


#: At most this many characters of one typed table (a full table of 106 tiles fits easily).
TABLE_LIMIT = 2000


def _melds(text: str) -> list[list[str]]:
    """One meld per line, its cards separated as the notation says (``cards.SEPARATORS``)."""
    lines = text[:TABLE_LIMIT].splitlines()
    melds = ([c for c in SEPARATORS.split(line) if c] for line in lines)
    return [cards for cards in melds if cards]


def _cards(text: str) -> list[str]:
    return [c for c in SEPARATORS.split(text[:TABLE_LIMIT]) if c]


@bp.get("/referee/turn")
def turn() -> str:
    """Is this turn legal? The table before and after, whether the player had opened, and
    optionally their hand; the answer lists every problem with its clause (contract ``turn``)."""
    args = request.args
    ids = [g.id for g in all_games()]
    game_id = args.get("game", "")
    game = get_game(game_id if game_id in ids else ids[0])
    desc = descriptor(game)
    names = _names(args.get("players", "")) if desc.melds else []
    player = args.get("player", "")
    opened = args.get("opened") == "1" if "asked" in args else True
    hand = args.get("hand", "")
    typed: dict[str, Any] = {
        "before": args.get("before", ""),
        "after": args.get("after", ""),
        "before_seats": [args.get(f"before-{i}", "") for i in range(len(names))],
        "after_seats": [args.get(f"after-{i}", "") for i in range(len(names))],
    }
    verdict: dict[str, Any] | None = None
    error: str | None = None
    if "asked" in args and (names or not desc.melds):
        doc: dict[str, Any] = {"game": game.id, "opened": opened}
        if desc.melds:
            doc["player"] = player
            doc["before"] = {
                n: _melds(t) for n, t in zip(names, typed["before_seats"], strict=True)
            }
            doc["after"] = {n: _melds(t) for n, t in zip(names, typed["after_seats"], strict=True)}
        else:
            doc["before"] = _melds(typed["before"])
            doc["after"] = _melds(typed["after"])
        if hand.strip():
            doc["hand"] = _cards(hand)
        try:
            verdict = localize(check_turn(doc), translator(), game.id)
        except EntryError as err:
            error = sentence(err.first.message(translator()))
    rescue_url = None
    if verdict is not None and not verdict["valid"] and game.rescues:
        # RK-11: an illegal table is put back; the rescue starts from the table before.
        tiles = " ".join(c for meld in _melds(typed["before"]) for c in meld)
        if tiles:
            rescue_url = url_for("tools.rescue", game=game.id, cards=tiles, before=tiles)
    return render_template(
        "turn.html",
        rescue_url=rescue_url,
        game=desc,
        games=[descriptor(g) for g in all_games()],
        names=names,
        player=player,
        opened=opened,
        hand=hand,
        typed=typed,
        verdict=verdict,
        error=error,
        example=json.dumps(desc.cards.colours[0].code),
    )
