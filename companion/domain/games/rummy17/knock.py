"""Who gets the face-up card? The contract's ``knock`` (R17-8).

When the current player draws from the face-down pile, the others may knock for the face-up
card; it goes to the knocker who comes first clockwise after the current player, not to the
first to knock. The discarder and the current player may not knock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.domain.errors import EntryError, Problem
from companion.domain.games.rummy17 import play
from companion.domain.messages import ENGLISH, N_, Translator, register
from companion.domain.names import spelled
from companion.domain.seating import check_names

register(
    {
        "knock-unknown-field": N_(
            "the knock has an unknown field {key!r}; the fields are {fields}"
        ),
        "knock-players-not-list": N_("players must be a list of names, in seat order (clockwise)"),
        "knock-knocks-not-list": N_("knocks must be a list of names, in the order people knocked"),
        "knock-not-a-player": N_(
            "{key} names {name!r}, who is not a player here; the players are {names}"
        ),
        "knock-first-after": N_("{winner} knocked and comes first after {current}"),
        "knock-none-stands": N_("no knock stands, so nobody takes the card"),
        "knock-refused-discarder": N_("{player} discarded this card and may not knock for it"),
        "knock-refused-current": N_("{player} is the current player and draws instead of knocking"),
    }
)

KNOCK_KEYS = ("players", "current", "discarded_by", "knocks")


def _player(doc: Mapping[str, Any], field: str, names: tuple[str, ...]) -> str:
    value = doc.get(field)
    if not isinstance(value, str) or spelled(value) not in names:
        raise EntryError(
            "knock-not-a-player", field=field, key=field, name=value, names=", ".join(names)
        )
    return spelled(value)


def knock_document(doc: object, tr: Translator = ENGLISH) -> dict[str, Any]:
    """The contract's ``knock``: who gets the face-up card, and every knock refused (R17-8).

    :raises EntryError: a field missing or unknown, or a name that is not a player.
    """
    if not isinstance(doc, Mapping):
        raise EntryError("knock-not-object")
    unknown = sorted(set(doc) - set(KNOCK_KEYS))
    if unknown:
        raise EntryError("knock-unknown-field", key=unknown[0], fields=", ".join(KNOCK_KEYS))
    raw = doc.get("players")
    if not isinstance(raw, list):
        raise EntryError("knock-players-not-list", field="players")
    names = check_names(raw)
    current = _player(doc, "current", names)
    if "discarded_by" not in doc:  # the player before the current one discarded it
        discarder: str | None = names[(names.index(current) - 1) % len(names)]
    elif doc["discarded_by"] is None:  # turned up at the deal (R17-5)
        discarder = None
    else:
        discarder = _player(doc, "discarded_by", names)
    knocks = doc.get("knocks")
    if not isinstance(knocks, list):
        raise EntryError("knock-knocks-not-list", field="knocks")
    knockers: list[str] = []
    for i in range(len(knocks)):
        name = _player({"knocks": knocks[i]}, "knocks", names)
        if name not in knockers:
            knockers.append(name)
    refused: dict[str, str] = {}
    for name in knockers:
        if name == current:
            refused[name] = Problem("knock-refused-current", {"player": name}).reason(tr)
        elif name == discarder:
            refused[name] = Problem("knock-refused-discarder", {"player": name}).reason(tr)
    # R17-8 once, in ``play.knock``: the first knocker clockwise after the current player.
    winner = play.knock(names, current, discarder or "", knockers).player
    if winner is not None:
        problem = Problem("knock-first-after", {"winner": winner, "current": current})
    else:
        problem = Problem("knock-none-stands" if knockers else "knock-nobody")
    problem.rule = "R17-8"
    return {
        "gets": winner,
        "rule": "R17-8",
        "reason": problem.reason(tr),
        "refused": refused,
        "code": problem.code,
        "params": problem.values(),
    }
