"""Printable score sheets: a match's filled sheet and blank sheets for paper play (issue 4).

A shell over the rules core: every number on a sheet comes from ``companion.rules``; this
module only arranges them for paper (Jinja2 templates in ``templates/sheets/``, WeasyPrint).
"""

from __future__ import annotations

import gettext as gettext_module
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import segno

from companion.rules import (
    BONUS_CARDS,
    EntryError,
    dealer_of,
    match_document,
    read_table,
    score_game,
)

PAPERS = {"a4": "A4", "letter": "Letter"}
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # R17-1
MAX_BLANK_GAMES = 24
NAME_LIMIT = 40
# Above this many characters a game's bonus-card line uses the players' short labels.
FULL_NAME_LINE = 110


def _l(text: str) -> str:
    """Mark text for translation (pybabel -k _l); the sheet translates it when drawn."""
    return text


# The house interpretations in force (rules/rummy17.md, D17-2…D17-8), in plain words.
HOUSE_RULES: tuple[tuple[str, str], ...] = (
    ("D17-2", _l("Cards anyone adds to a meld count for the player who laid that meld down.")),
    (
        "D17-3",
        _l(
            "A joker on the table counts as a card, in its own colour, as the value it "
            "stands for, and as a joker."
        ),
    ),
    (
        "D17-4",
        _l(
            "“Most”, “longest” and “highest” cards need a figure above zero; “fewest” "
            "cards go to everyone at the lowest figure, zero included."
        ),
    ),
    ("D17-5", _l("When the draw pile runs out, nobody earns Went out and RUMMY 17 cannot apply.")),
    (
        "D17-6",
        _l(
            "A joker stands for the card its meld needs; where it could go at either end "
            "of a run, the entry says which."
        ),
    ),
    (
        "D17-7",
        _l(
            "A match is one game per player unless the table agrees otherwise; equal "
            "totals share a rank."
        ),
    ),
    (
        "D17-8",
        _l(
            "Entry checks: each card at most once, no joker left in a hand, whoever went "
            "out has an empty hand, every meld legal."
        ),
    ),
)


def _template_dirs() -> list[Path]:
    """templates/ when installed (companion/templates) and in a checkout (repository top)."""
    here = Path(__file__).parent
    return [p for p in (here / "templates", here.parent / "templates") if p.is_dir()]


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(p) for p in _template_dirs()]),
        autoescape=jinja2.select_autoescape(("html",)),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _translate() -> Callable[[str], str]:
    """The current request's translations when Flask-Babel is active, else English."""
    try:
        from flask import has_request_context
        from flask_babel import get_translations
    except ImportError:  # pragma: no cover - Flask is a dependency, but the CLI needs none
        return gettext_module.NullTranslations().gettext
    if has_request_context():
        try:
            return get_translations().gettext
        except (KeyError, RuntimeError):  # Babel not set up on this app
            pass
    return gettext_module.NullTranslations().gettext


def _paper(paper: str) -> str:
    key = (paper or "a4").strip().lower()
    if key not in PAPERS:
        raise EntryError(f"paper must be a4 or letter, not {paper!r}")
    return key


def short_labels(names: Sequence[str]) -> dict[str, str]:
    """Each name's shortest prefix no other name shares (case-insensitive), e.g. A, Bé, Bo."""
    folded = [n.casefold() for n in names]
    out: dict[str, str] = {}
    for name, fold in zip(names, folded, strict=True):
        for k in range(1, len(name) + 1):
            if not any(o != fold and o.startswith(fold[:k]) for o in folded):
                out[name] = name[:k]
                break
        else:  # the name is a prefix of another one: only the whole name will do
            out[name] = name
    return out


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _number(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


@dataclass
class Line:
    """One player's numbers for one game."""

    penalty: str
    bonus: str
    score: str
    total: str
    won: bool = False


@dataclass
class Award:
    """A drawn bonus card and who won it."""

    name: str
    rule: str
    winners: str


@dataclass
class GameRow:
    """One game on the filled sheet; ``played`` is false for games still to come."""

    number: int
    dealer: str
    played: bool
    rummy17: bool = False
    lines: list[Line] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)


def _fmt_date(value: datetime | date | None) -> str:
    value = value or date.today()
    return value.strftime("%Y-%m-%d")


def _fmt_when(value: object) -> str:
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.strftime("%Y-%m-%d")
    return str(value or "")


def _game_rows(
    doc: Mapping[str, Any], result: Mapping[str, Any], names: Sequence[str], labels: dict[str, str]
) -> list[GameRow]:
    """Every played game scored by the rules core, then the games still to come."""
    game = result["game"]
    rows: list[GameRow] = []
    for raw, summary in zip(doc.get("rounds", []), result["rounds"], strict=True):
        scored = score_game(read_table(raw, names=names, game=game))
        won = {p.name: bool(p.bonus_cards) for p in scored.players}
        lines = [
            Line(
                str(p.penalty),
                str(p.bonus),
                _signed(p.score),
                _number(summary["totals"][p.name]),
                won[p.name],
            )
            for p in scored.players
        ]
        awards = [
            Award(
                BONUS_CARDS[a.card].name,
                a.rule,
                ", ".join(labels[w] for w in a.winners) if a.winners else "—",
            )
            for a in scored.awards
        ]
        rows.append(
            GameRow(summary["number"], summary["dealer"], True, scored.rummy17, lines, awards)
        )
    first = doc.get("first_dealer", names[0])
    planned = doc.get("games") or 0
    for number in range(len(rows) + 1, planned + 1):
        rows.append(GameRow(number, dealer_of(names, first, number), False))
    return rows


def _qr_data_uri(url: str) -> str:
    """The QR code as a one-pixel-per-module PNG: the PDF scales it up without blurring."""
    return segno.make(url, error="m").png_data_uri(scale=1, border=0)


def _render(template: str, paper: str, **context: Any) -> bytes:
    from weasyprint import HTML  # imported late: `companion score` should not pay for it

    _ = _translate()
    html = _environment().get_template(template).render(paper=PAPERS[_paper(paper)], _=_, **context)
    base = _template_dirs()[0] if _template_dirs() else Path.cwd()
    return HTML(string=html, base_url=str(base)).write_pdf()


def match_view(
    doc: dict,
    *,
    title: str | None = None,
    created: datetime | date | None = None,
    history: Sequence[dict] = (),
    readonly_url: str | None = None,
) -> dict[str, Any]:
    """Everything the filled sheet shows, computed by the rules core; raises EntryError."""
    result = match_document(doc)
    names = list(result["totals"])
    full = {n: n for n in names}
    rows = _game_rows(doc, result, names, full)
    widest = max((sum(len(a.name) + len(a.winners) + 4 for a in r.awards) for r in rows), default=0)
    labels = short_labels(names)
    played = len(result["rounds"])
    dense = len(rows) > 8 or len(names) > 4
    # A dense grid keeps each game's bonus-card line to one line with short labels.
    abbreviate = dense and widest > FULL_NAME_LINE and any(labels[n] != n for n in names)
    if abbreviate:
        rows = _game_rows(doc, result, names, labels)
    return {
        "title": title or doc.get("title") or "Rummy 17",
        "date": _fmt_date(created),
        "names": names,
        "labels": labels,
        "abbreviate": abbreviate,
        "first_dealer": doc.get("first_dealer", names[0]),
        "rows": rows,
        "played": played,
        "planned": doc.get("games"),
        "finished": result["finished"],
        "next": result.get("next"),
        "totals": {n: _number(t) for n, t in result["totals"].items()},
        "standings": [
            {"rank": s["rank"], "name": s["name"], "total": _number(s["total"])}
            for s in result["standings"]
        ],
        "doubled": any(r.rummy17 for r in rows),
        "house_rules": HOUSE_RULES,
        "history": [
            {"when": _fmt_when(h.get("when")), "what": str(h.get("what", ""))} for h in history
        ],
        "readonly_url": readonly_url,
        "qr": _qr_data_uri(readonly_url) if readonly_url else None,
        "density": "dense" if dense else "roomy",
    }


def match_sheet(
    doc: dict,
    *,
    paper: str = "a4",
    title: str | None = None,
    created: datetime | date | None = None,
    history: Sequence[dict] = (),
    readonly_url: str | None = None,
) -> bytes:
    """The filled score sheet of a match document (contract "match") as PDF bytes."""
    paper = _paper(paper)
    view = match_view(doc, title=title, created=created, history=history, readonly_url=readonly_url)
    return _render("sheets/match.html", paper, **view)


def match_sheet_from_document(doc: object, paper: str = "a4") -> bytes:
    """``companion pdf``: any JSON value in, a sheet out, or an EntryError for bad input."""
    if not isinstance(doc, dict):
        raise EntryError("a match must be a JSON object")
    return match_sheet(doc, paper=paper)


def blank_view(players: int | Sequence[str], games: int | None = None) -> dict[str, Any]:
    """What a blank Rummy 17 sheet shows: seats, game rows and the reference panel."""
    if isinstance(players, int) and not isinstance(players, bool):
        count, names = players, [""] * players
    else:
        names = [str(n).strip() for n in players]
        count = len(names)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise EntryError(f"Rummy 17 is for 2 to 6 players, not {count} (R17-1)", rule="R17-1")
    games = count if games is None else games  # D17-7: one game per player by default
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_BLANK_GAMES:
        raise EntryError(f"games must be a whole number from 1 to {MAX_BLANK_GAMES}")
    for name in names:
        if len(name) > NAME_LIMIT:
            raise EntryError(f"the name {name[:20]}… is longer than {NAME_LIMIT} characters")
    return {
        "names": names,
        "count": count,
        "games": list(range(1, games + 1)),
        "bonus_cards": [
            {"number": i, "rule": c.rule, "name": c.name, "condition": c.condition}
            for i, c in enumerate(BONUS_CARDS.values(), start=1)
        ],
    }


def blank_sheet(players: int | Sequence[str], games: int | None = None, paper: str = "a4") -> bytes:
    """A blank Rummy 17 score sheet for 2–6 players (names optional) as PDF bytes."""
    paper = _paper(paper)
    return _render("sheets/blank.html", paper, **blank_view(players, games))
