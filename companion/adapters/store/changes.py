"""A match's history: one entry per revision, written with the change it records, and read
back a page at a time and in the reader's language.

Entries are message codes with parameters (no words are stored), rendered in the reader's
language by ``describe``; an edit keeps the old and new value of every field that changed
(``diff_rounds``), so a correction and its reversal (12 → 24 → 12) both stay visible. Every
revision writes exactly one entry (creating the match writes the first), so the entries
after revision r are the last ``match.revision - r``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from companion.adapters.models import Change, Match, utcnow
from companion.domain import ENGLISH, Translator, all_games, get_game, left_of
from companion.domain.messages import MESSAGES, N_, NN_, register, render

register(
    {
        # History entries.
        # RK-2, RO-3: nobody deals in the tile games; the history says who starts.
        "match-started-starts": NN_(
            "Match started: {players}; {starts} starts; {games} round",
            "Match started: {players}; {starts} starts; {games} rounds",
            "games",
        ),
        "rematch-started-starts": NN_(
            "Rematch started: {players}; {starts} starts; {games} round",
            "Rematch started: {players}; {starts} starts; {games} rounds",
            "games",
        ),
        "match-started": NN_(
            "Match started: {players}; {dealer} deals first; {games} round",
            "Match started: {players}; {dealer} deals first; {games} rounds",
            "games",
        ),
        "match-started-target": N_(
            "Match started: {players}; {dealer} deals first; played to the target"
        ),
        "rematch-started": NN_(
            "Rematch started: {players}; {dealer} deals first; {games} round",
            "Rematch started: {players}; {dealer} deals first; {games} rounds",
            "games",
        ),
        "rematch-started-target": N_(
            "Rematch started: {players}; {dealer} deals first; played to the target"
        ),
        "round-added": N_("Round {number} added"),
        "round-added-parts": N_("Round {number} added; {parts}"),
        # Who entered each part of a round entered on the players' own phones.
        "part-own": N_("{player} on their own phone"),
        "part-own-phones": NN_(
            "{player} on their own phone",
            "{player} on their own link from {phones} phones (the last one sent counts)",
            "phones",
        ),
        "part-changed": N_("{player} on their own phone, changed by the scorekeeper"),
        "part-keeper": N_("{player} by the scorekeeper"),
        "round-edited": N_("Round {number} edited: {changes}"),
        "round-unchanged": N_("Round {number} saved again with the same cards and choices"),
        "round-deleted": N_("Round {number} deleted"),
        "round-deleted-moved": N_("Round {number} deleted; round {next} is now round {number}"),
        "round-deleted-renumbered": N_("Round {number} deleted; rounds {first}–{last} renumbered"),
        "round-restored": N_("Round {number} deleted earlier is back (undone)"),
        "match-lengthened": N_("Match lengthened from {old} to {new} rounds"),
        "legacy-note": N_("{text}"),
        # One changed field of a round, inside "round-edited" (code "change-" + field).
        "change-hand": N_("{player}'s hand: {old} → {new}"),
        "change-rack": N_("{player}'s rack: {old} → {new}"),
        "change-melds": N_("{player}'s melds: {old} → {new}"),
        "change-player": N_("{player}, {what}: {old} → {new}"),
        "change-went_out": N_("who went out: {old} → {new}"),
        "change-knocked": N_("who knocked: {old} → {new}"),
        "change-bonus_cards": N_("bonus cards: {old} → {new}"),
        "change-last_discard": N_("last card: {old} → {new}"),
        "change-field": N_("{what}: {old} → {new}"),
        "value-none": N_("nobody"),
        "value-empty": N_("none"),
        "value-count": N_("{key}: {value}"),
        "value-points": NN_("{value} point", "{value} points", "value"),
        # The last card's short form (R17-15a): only whether it was a 17 was recorded.
        "value-seventeen": N_("a 17"),
        "value-not-seventeen": N_("not a 17"),
    }
)


def record(session: Session, match: Match, code: str, **params: Any) -> None:
    """Add a history entry: a code and its parameters (``number``: the round it is about)."""
    number = params.get("number")
    session.add(Change(match=match, code=code, params=params, number=number, when=utcnow()))


def record_start(
    session: Session, match: Match, code: str, seats: list[str], dealer: str, games: int | None
) -> None:
    """The first entry of a match (``code``: match-started or rematch-started): its seats,
    who deals or starts (RK-2, RO-3: nobody deals in the tile games) and its length."""
    if games is None:
        record(session, match, f"{code}-target", players=seats, dealer=dealer)
    elif get_game(match.game).first_seat == "starter":
        record(
            session,
            match,
            f"{code}-starts",
            players=seats,
            starts=left_of(seats, dealer),
            games=games,
        )
    else:
        record(session, match, code, players=seats, dealer=dealer, games=games)


#: History codes of a deleted round (which keep the round, for undoing) and of an undo.
DELETIONS = ("round-deleted", "round-deleted-moved", "round-deleted-renumbered")
RESTORED = "round-restored"


def undoable(session: Session, match: Match) -> set[int]:
    """The history entries (ids) of deletions that can still be undone; only the deletions
    and undos are read, not the whole history."""
    rows = session.exec(
        select(Change).where(
            Change.match_id == match.id, col(Change.code).in_([*DELETIONS, RESTORED])
        )
    ).all()
    undone = {c.params.get("undone") for c in rows if c.code == RESTORED}
    return {c.id for c in rows if c.id is not None and "undo" in c.params and c.id not in undone}


def is_correction(code: str) -> bool:
    """A history entry that changed a round already played (or the series): not the start of
    the match nor a round entered for the first time (or saved again unchanged)."""
    started = code.startswith(("match-started", "rematch-started"))
    return not started and code not in ("round-added", "round-unchanged")


def history(match: Match) -> list[dict[str, Any]]:
    """Every change to the match, oldest first: when (UTC), round number, code and params."""
    return [_entry(c) for c in sorted(match.changes, key=lambda c: c.id or 0)]


def _entry(change: Change) -> dict[str, Any]:
    return {
        "id": change.id,
        "when": change.when,
        "number": change.number,
        "code": change.code,
        "params": copy.deepcopy(change.params),
    }


#: History entries a match page shows at once (the rest is paged).
HISTORY_PAGE = 20


def history_page(
    session: Session, match: Match, page: int = 1, size: int = HISTORY_PAGE
) -> tuple[list[dict[str, Any]], int]:
    """One page of the history, newest first (page 1: the latest ``size`` changes), and the
    number of pages; only that page is read from the database."""
    total = session.exec(
        select(func.count()).select_from(Change).where(Change.match_id == match.id)
    ).one()
    pages = max(1, -(-int(total) // size))
    page = min(max(page, 1), pages)
    rows = session.exec(
        select(Change)
        .where(Change.match_id == match.id)
        .order_by(col(Change.id).desc())
        .offset((page - 1) * size)
        .limit(size)
    ).all()
    return [_entry(c) for c in rows], pages


#: The fields of a round whose old and new values are cards as written (R7 B3, [R1 R2 R3]).
CARD_FIELDS = frozenset({"hand", "rack", "melds", "last_discard"})
Cards = Callable[[str], str]


def describe(
    entry: Mapping[str, Any],
    tr: Translator = ENGLISH,
    game: str | None = None,
    cards: Cards | None = None,
) -> str:
    """A history entry in words, in the language of ``tr`` and the words of ``game``'s box.

    ``cards``, if given, writes each value of cards in the text (a page marks them there, to
    draw them as cards: web/chips.py); without it they read as typed.
    """
    params = dict(entry.get("params") or {})
    params.pop("undo", None)  # the deleted round itself, kept for undoing
    if entry["code"] not in MESSAGES:  # written by a newer version of the app
        return render("legacy-note", {"text": entry["code"]}, tr)
    if "changes" in params:
        params["changes"] = "; ".join(_describe_change(c, tr, cards) for c in params["changes"])
    code = entry["code"]
    if params.get("parts"):  # a round entered on the players' own phones: who entered what
        params["parts"] = "; ".join(_describe_part(p, tr) for p in params["parts"])
        code = f"{code}-parts"
    return render(code, params, tr, context=game)


def _describe_part(part: Mapping[str, Any], tr: Translator) -> str:
    how = part.get("how")
    phones = int(part.get("phones") or 1)
    values = {"player": part.get("player"), "phones": phones}
    if how == "own":
        return render("part-own-phones" if phones > 1 else "part-own", values, tr)
    return render("part-changed" if how == "changed" else "part-keeper", values, tr)


def _describe_change(change: Mapping[str, Any], tr: Translator, cards: Cards | None) -> str:
    what = str(change.get("what"))
    player = change.get("player")
    code = f"change-{what}"
    if code not in MESSAGES:
        code = "change-player" if player is not None else "change-field"
    written = cards if what in CARD_FIELDS else None
    values = {
        "what": what,
        "player": player,
        "old": _value_text(change.get("old"), tr, written),
        "new": _value_text(change.get("new"), tr, written),
    }
    return render(code, {k: v for k, v in values.items() if v is not None}, tr)


def _count_label(key: str) -> str:
    """A short form's count by the label its game gives it ("low" → "Cards 1–9")."""
    labels = {c.key: c.label for game in all_games() for c in game.counts}
    return labels.get(key, key)


def _value_text(value: Any, tr: Translator, cards: Cards | None = None) -> str:
    """A stored old/new value in words: cards as written (or through ``cards``), counts with
    their names."""
    if cards is not None and isinstance(value, str) and value.strip():
        return cards(value)
    if value is None:
        return render("value-none", {}, tr)
    if value == "" or value == [] or value == {}:
        return render("value-empty", {}, tr)
    if isinstance(value, Mapping) and set(value) == {"points"}:
        return render("value-points", {"value": value["points"]}, tr)
    if isinstance(value, Mapping) and set(value) == {"seventeen"}:
        return render("value-seventeen" if value["seventeen"] else "value-not-seventeen", {}, tr)
    if isinstance(value, Mapping):
        return ", ".join(
            render("value-count", {"key": tr.gettext(_count_label(str(k))), "value": v}, tr)
            for k, v in value.items()
        )
    return str(value)


def _norm(value: Any) -> Any:
    """Cards and names compared as the rules core reads them: case and spaces ignored."""
    if isinstance(value, str):
        return value.strip().upper()
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    return value


def _text(value: Any) -> Any:
    """A value as the history keeps it: cards and melds as written, counts and names as they are."""
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):  # melds
            return " ".join("[" + " ".join(map(str, v)) + "]" for v in value)
        return " ".join(map(str, value))
    return copy.deepcopy(value)


def diff_rounds(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What differs between two round documents: each field's old and new value, by player."""
    changes: list[dict[str, Any]] = []
    old_players = {
        _norm(p.get("name")): p for p in old.get("players", []) if isinstance(p, Mapping)
    }
    for player in new.get("players", []):
        if not isinstance(player, Mapping):
            continue
        before = old_players.get(_norm(player.get("name")), {})
        for key in [k for k in player if k != "name"] + [
            k for k in before if k != "name" and k not in player
        ]:
            if _norm(before.get(key)) != _norm(player.get(key)):
                changes.append(
                    {
                        "what": key,
                        "player": player.get("name"),
                        "old": _text(before.get(key)),
                        "new": _text(player.get(key)),
                    }
                )
    keys = [k for k in new if k not in ("players", "game")]
    keys += [k for k in old if k not in ("players", "game") and k not in new]
    for key in keys:
        if _norm(old.get(key)) != _norm(new.get(key)):
            changes.append({"what": key, "old": _text(old.get(key)), "new": _text(new.get(key))})
    return changes
