"""The filled score sheet of a match of any game, every number from the rules core.

Nothing here knows a game: the grid is built from the game's ``columns`` (what each player
scores in a round), the round's result as the game scored it, and the match result
(``match_document``). What only one game prints (Rummy 17's bonus cards, Manipulation's
knock) comes from that game's parts in ``templates/sheets/games/<id>/``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from companion.adapters.sheets.render import (
    check_paper,
    column_heads,
    game_macros,
    heads_fit,
    qr_data_uri,
    render_pdf,
    render_pdfs,
    short_labels,
)
from companion.domain import (
    ENGLISH,
    EntryError,
    Game,
    Translator,
    dealer_of,
    get_game,
    match_document,
)
from companion.i18n.catalogues import figure, number, signed

# Above this many characters a round's notes line uses the players' short labels.
FULL_NAME_LINE = 110
# What a notes line spends around each list of names (a bonus card's name, a label).
LIST_WIDTH = 16
# Beyond this many figures across, or this many rounds, the grid is set dense.
ROOMY_COLUMNS = 16
ROOMY_ROUNDS = 8


@dataclass(frozen=True)
class PlayerLine:
    """One player's figures for one round: the game's columns, then the running total."""

    cells: tuple[str, ...]
    won: bool = False


@dataclass(frozen=True)
class RoundRow:
    """One round on the sheet; ``played`` is false for rounds still to come."""

    number: int
    seat: str  # who dealt it, or who started it where the game asks for the starter
    played: bool
    lines: tuple[PlayerLine, ...] = ()
    #: The round's result as its game scored it (contract ``score``), for the game's parts.
    result: Mapping[str, Any] = field(default_factory=dict)
    #: The match result's line for the round (``winners``, ``rummy17``, …).
    line: Mapping[str, Any] = field(default_factory=dict)
    #: The round document as entered (who knocked, …).
    doc: Mapping[str, Any] = field(default_factory=dict)


def _seat(game: Game, dealer: str, seats: Sequence[str]) -> str:
    """Who a round's row names: its dealer, or who starts where the game asks for the starter."""
    return game.first_seat_of(seats, dealer)


def _named(value: object) -> int:
    """How wide the lists of winners in a round's result print, names and their labels."""
    if isinstance(value, Mapping):
        width = 0
        for key, item in value.items():
            if key == "winners" and isinstance(item, list):
                width += LIST_WIDTH + len(", ".join(map(str, item)))
            else:
                width += _named(item)
        return width
    if isinstance(value, list):
        return sum(_named(item) for item in value)
    return 0


def _rows(
    game: Game,
    doc: Mapping[str, Any],
    result: Mapping[str, Any],
    names: Sequence[str],
    tr: Translator,
) -> list[RoundRow]:
    """Every played round as its game scores it, then the rounds still to come."""
    rows: list[RoundRow] = []
    for raw, line in zip(doc.get("rounds", []), result["rounds"], strict=True):
        outcome = game.score_round(raw, names)
        figures = {p["name"]: p for p in outcome.result["players"]}
        lines = []
        for name in names:
            cells = [
                figure(c.sign, figures[name][c.key], tr)  # as on the screen and in the CSV
                for c in game.columns
            ]
            cells.append(number(line["totals"][name], tr))
            lines.append(PlayerLine(tuple(cells), name in outcome.winners))
        rows.append(
            RoundRow(
                line["number"],
                _seat(game, line["dealer"], names),
                True,
                tuple(lines),
                outcome.result,
                line,
                raw,
            )
        )
    upcoming = result.get("next")
    if upcoming:  # the deal passes clockwise from whoever deals next (R17-2)
        for n in range(len(rows) + 1, (result.get("games") or 0) + 1):
            dealer = dealer_of(names, upcoming["dealer"], n - upcoming["number"] + 1)
            rows.append(RoundRow(n, _seat(game, dealer, names), False))
    return rows


def _fmt_date(value: datetime | date | None) -> str:
    return (value or date.today()).strftime("%Y-%m-%d")


def _fmt_when(value: object) -> str:
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.strftime("%Y-%m-%d")
    return str(value or "")


def match_view(
    doc: Mapping[str, Any],
    *,
    title: str | None = None,
    created: datetime | date | None = None,
    history: Sequence[Mapping[str, Any]] = (),
    readonly_url: str | None = None,
    result: Mapping[str, Any] | None = None,
    tr: Translator = ENGLISH,
) -> dict[str, Any]:
    """Everything the filled sheet shows, computed by the rules core; raises ``EntryError``.

    ``history`` holds ``{"when", "what"}`` entries, ``what`` already in the table's language.
    ``result`` is the document's match result when the caller has it already (the store's
    keeps each round's dealer as played); otherwise the rules core computes it.
    """
    if result is None:
        result = match_document(doc)
    game = get_game(result["game"])
    names = list(result["totals"])
    rows = _rows(game, doc, result, names, tr)
    labels = short_labels(names)
    across = len(names) * (len(game.columns) + 1)
    heads = column_heads(game.columns, tr)
    dense = across > ROOMY_COLUMNS or len(rows) > ROOMY_ROUNDS or not heads_fit(heads, across, tr)
    widest = max((_named(r.result) for r in rows), default=0)
    # A dense grid keeps each round's notes to one line with the players' short labels.
    abbreviate = dense and widest > FULL_NAME_LINE and any(labels[n] != n for n in names)
    end_bonus = result.get("end_bonus")
    return {
        "game_id": game.id,
        "game_name": game.name,
        "parts": game_macros(game),
        "descriptor": game.describe(),
        "columns": heads,
        "seat_word": game.first_seat,
        "endings": game.endings,
        "series_rule": game.series_rule,
        "title": title or doc.get("title") or tr.gettext(game.name),
        "date": _fmt_date(created),
        "names": names,
        "labels": labels,
        "shown": labels if abbreviate else {n: n for n in names},
        "abbreviate": abbreviate,
        "first_dealer": doc.get("first_dealer", names[0]),
        "first_seat": _seat(game, doc.get("first_dealer", names[0]), names),
        "rows": rows,
        "played": len(result["rounds"]),
        "planned": result.get("games"),
        "finished": result["finished"],
        "next": result.get("next"),
        "end_bonus": {n: signed(v, tr) for n, v in end_bonus.items()} if end_bonus else None,
        "totals": {n: number(t, tr) for n, t in result["totals"].items()},
        "standings": [
            {"rank": s["rank"], "name": s["name"], "total": number(s["total"], tr)}
            for s in result["standings"]
        ],
        "decisions": [(d.rule, d.text) for d in game.decisions],
        "history": [
            {"when": _fmt_when(h.get("when")), "what": str(h.get("what", ""))} for h in history
        ],
        "readonly_url": readonly_url,
        "qr": qr_data_uri(readonly_url) if readonly_url else None,
        "density": "dense" if dense else "roomy",
    }


def match_sheet(
    doc: Mapping[str, Any],
    *,
    paper: str = "a4",
    title: str | None = None,
    created: datetime | date | None = None,
    history: Sequence[Mapping[str, Any]] = (),
    readonly_url: str | None = None,
    result: Mapping[str, Any] | None = None,
    tr: Translator = ENGLISH,
    rules_url: str | None = None,
) -> bytes:
    """The filled score sheet of a match document (contract "match") as PDF bytes.

    ``rules_url``: the absolute address of the rules pages; clause ids then link to them.
    """
    paper = check_paper(paper)
    view = match_view(
        doc,
        title=title,
        created=created,
        history=history,
        readonly_url=readonly_url,
        result=result,
        tr=tr,
    )
    return render_pdf("sheets/match.html", paper, tr, rules_url=rules_url, **view)


def match_sheet_from_document(doc: object, paper: str = "a4", tr: Translator = ENGLISH) -> bytes:
    """``companion pdf``: any JSON value in, a sheet out, or an ``EntryError`` for bad input."""
    if not isinstance(doc, Mapping):
        match_document(doc)  # the rules core says what is wrong, as `companion match` does
        raise EntryError("not-object", what="a match")  # pragma: no cover - raised above
    return match_sheet(doc, paper=paper, tr=tr)


def match_sheets(
    matches: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]],
    *,
    paper: str = "a4",
    tr: Translator = ENGLISH,
) -> bytes:
    """Several matches' filled sheets, one after the other in one PDF (an event's tables).

    ``matches``: each match document with its result (the store's keeps the dealers).
    """
    paper = check_paper(paper)
    parts = [
        ("sheets/match.html", match_view(doc, result=result, tr=tr)) for doc, result in matches
    ]
    return render_pdfs(parts, paper, tr)
