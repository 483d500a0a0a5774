"""An event on paper: the standings (EV-6) and a card per table of a session (EV-4).

Plain values in (already in the table's language), PDF bytes out, through the same
WeasyPrint renderer as the score sheets. A table card carries a QR code of that table's edit
link: the table scans it and keeps score on its own phone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.adapters.sheets.render import check_paper, qr_data_uri, render_pdf
from companion.domain import ENGLISH, Description, Translator


def standings_sheet(
    *,
    title: str,
    game_name: str,
    head: Sequence[str],
    rows: Sequence[Sequence[object]],
    finished: bool,
    tr: Translator = ENGLISH,
    paper: str = "a4",
    game: str | None = None,
) -> bytes:
    """The standings as a table on one page or more, marked final or provisional (EV-7); the
    rules line in the words of ``game`` (its id: Rummy 17 has no winner of a game)."""
    return render_pdf(
        "sheets/event_standings.html",
        check_paper(paper),
        tr,
        title=title,
        game_name=game_name,
        game_id=game,
        head=list(head),
        rows=[list(r) for r in rows],
        finished=finished,
    )


def table_cards(
    *,
    title: str,
    game: Description,
    session: int,
    cards: Sequence[Mapping[str, Any]],
    tr: Translator = ENGLISH,
    paper: str = "a4",
) -> bytes:
    """One card per table: event, session, table, seats in order, first seat, QR of its link."""
    return render_pdf(
        "sheets/event_cards.html",
        check_paper(paper),
        tr,
        title=title,
        game_name=game.name,
        game=game,
        session=session,
        cards=[{**c, "qr": qr_data_uri(str(c["url"]))} for c in cards],
    )
