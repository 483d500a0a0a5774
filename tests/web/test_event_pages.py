"""Club nights in the web app and over HTTP (EV-1…EV-7), on SQLite and PostgreSQL.

An event is a thin layer over matches: each table is an ordinary match; standings are the
rules core's over the tables' match results and equal ``companion standings`` on the same
documents.
"""

from __future__ import annotations

import csv
import html
import io
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from companion.adapters.db import get_session
from companion.adapters.store import events
from companion.domain.club import standings
from companion.web.pages import events as events_web

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

NAMES = ["Anna", "Béla", "Cili", "Dani", "Emil", "Feri", "Gabi", "Hanna", "Ildi", "Jenő"]


def start(client: FlaskClient, names: list[str] = NAMES, **extra: str) -> str:
    data = {"game": "rummikub", "entrants": "\n".join(names), "sessions": "2", "size": "4"}
    data.update(extra)
    answer = client.post("/events/new", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    found = re.fullmatch(r"/e/([\w-]+)", answer.headers["Location"])
    assert found
    return found.group(1)


def event_of(app: Flask, edit: str) -> Any:
    with app.app_context():
        return events.by_edit_token(get_session(), edit)


def seat(client: FlaskClient, edit: str, revision: int) -> None:
    answer = client.post(f"/e/{edit}/seat", data={"revision": str(revision)})
    assert answer.status_code == 302


def tables(app: Flask, edit: str) -> list[list[dict[str, Any]]]:
    with app.app_context():
        session = get_session()
        event = events.by_edit_token(session, edit)
        rows = events.table_rows(session, event)
        return [
            events.table_states(session, [r for r in rows if r.session == number])
            for number in sorted({r.session for r in rows})
        ]


def play(client: FlaskClient, table: dict[str, Any], points: int = 5) -> None:
    """The table saves a round on its own phone (the match's API, as any phone's outbox)."""
    match = client.get(f"/api/v1/matches/{table['edit']}").get_json()
    players = table["players"]
    body = {
        "went_out": players[0],
        "players": [
            {"name": n, "rack": [] if i == 0 else {"points": points * i}}
            for i, n in enumerate(players)
        ],
    }
    answer = client.post(
        f"/api/v1/matches/{table['edit']}/games",
        json=body,
        headers={"If-Match": f'"{match["revision"]}"'},
    )
    assert answer.status_code == 201, answer.get_json()


def test_ev1_start_an_event_and_seat_session_one_at_tables_of_four_three_three(app, client):
    edit = start(client)
    page = client.get(f"/e/{edit}").get_data(as_text=True)
    assert "Seat session 1" in page and "/ev/" in page
    seat(client, edit, 1)
    (session1,) = tables(app, edit)
    assert sorted(len(t["players"]) for t in session1) == [3, 3, 4]
    seated = [n for t in session1 for n in t["players"]]
    assert sorted(seated) == sorted(NAMES)
    for table in session1:  # every table is an ordinary match with its own pages
        board = client.get(f"/m/{table['edit']}")
        assert board.status_code == 200
        assert all(html.escape(n) in board.get_data(as_text=True) for n in table["players"])


def test_bad_input_keeps_what_was_typed_and_names_the_problem(client):
    answer = client.post(
        "/events/new",
        data={"game": "rummikub", "entrants": "Anna\nBéla\nanna", "sessions": "30", "size": "4"},
    )
    assert answer.status_code == 422
    page = html.unescape(answer.get_data(as_text=True))
    assert "anna is entered twice" in page.lower()
    assert "1 to 20 sessions, not 30" in page
    assert "Anna\nBéla\nanna</textarea>" in page


def test_ev3_redraw_before_play_retires_the_old_links_and_is_refused_once_played(app, client):
    edit = start(client)
    seat(client, edit, 1)
    old = tables(app, edit)[0]
    answer = client.post(f"/e/{edit}/redraw", data={"revision": "2"})
    assert answer.status_code == 302
    new = tables(app, edit)[0]
    assert {t["edit"] for t in new}.isdisjoint({t["edit"] for t in old})
    gone = client.get(f"/m/{old[0]['edit']}")
    assert gone.status_code == 410
    assert "This table was drawn again" in gone.get_data(as_text=True)
    play(client, new[0])
    answer = client.post(f"/e/{edit}/redraw", data={"revision": "3"}, follow_redirects=True)
    assert "session 1 has started" in html.unescape(answer.get_data(as_text=True)).lower()
    assert [t["edit"] for t in tables(app, edit)[0]] == [t["edit"] for t in new]


def test_a_stale_organiser_page_changes_nothing(app, client):
    edit = start(client)
    seat(client, edit, 1)
    answer = client.post(f"/e/{edit}/seat", data={"revision": "1"}, follow_redirects=True)
    assert "Someone else changed this event" in answer.get_data(as_text=True)
    assert len(tables(app, edit)) == 1


def test_ev4_seating_the_next_session_while_tables_still_play_asks_first(app, client):
    """One tap seated session 2 over tables with rounds still to enter: now the organiser is
    asked, the tables named, and nothing is seated until "anyway" (or every table is done)."""
    edit = start(client)
    seat(client, edit, 1)
    session1 = tables(app, edit)[0]
    play(client, session1[0])  # table 1 has begun: one round of its four saved
    revision = event_of(app, edit).revision
    answer = client.post(f"/e/{edit}/seat", data={"revision": str(revision)})
    assert answer.status_code == 409
    page = html.unescape(answer.get_data(as_text=True))
    ask = page[page.index('id="seat-ask"') :]
    ask = ask[: ask.index("</div>")]
    assert "Session 1 is still being played at these tables:" in ask
    for table in session1:  # every table of session 1 still has rounds to enter, each named
        assert f"Table {table['number']}: {', '.join(table['players'])}" in ask
    assert "playing: 1 round saved" in ask and "not started" in ask
    assert 'id="seat-anyway"' in ask and "Seat session 2 anyway" in ask
    assert len(tables(app, edit)) == 1  # nothing was seated
    assert event_of(app, edit).revision == revision
    hu = client.post(f"/e/{edit}/seat?lang=hu", data={"revision": str(revision)})
    assert "1. menet: ezeknél az asztaloknál még játszanak:" in html.unescape(
        hu.get_data(as_text=True)
    )
    answer = client.post(f"/e/{edit}/seat", data={"revision": str(revision), "anyway": "1"})
    assert answer.status_code == 302
    assert len(tables(app, edit)) == 2


def test_ev4_the_next_session_is_seated_in_one_tap_once_every_table_is_finished(app, client):
    edit = start(client, NAMES[:4])
    seat(client, edit, 1)
    (table,) = tables(app, edit)[0]
    for _ in table["players"]:  # one round per seat: the match is finished (D17-7, DK-3)
        play(client, table)
    assert tables(app, edit)[0][0]["finished"]
    seat(client, edit, event_of(app, edit).revision)
    assert len(tables(app, edit)) == 2


def test_ev2_fewer_present_than_a_table_is_refused_in_words(app, client):
    edit = start(client, ["Anna", "Béla"])
    client.post(f"/e/{edit}/withdraw", data={"name": "Béla", "revision": "1"})
    answer = client.post(f"/e/{edit}/seat", data={"revision": "2"}, follow_redirects=True)
    assert "1 present cannot fill a table" in answer.get_data(as_text=True)
    assert tables(app, edit) == []


def test_ev5_the_live_standings_equal_companion_standings_and_update(app, client, monkeypatch):
    monkeypatch.setattr(events_web, "FRESH", 0)  # every save shows at once (no 2 s window)
    edit = start(client)
    seat(client, edit, 1)
    view = event_of(app, edit).view_token
    first = client.get(f"/ev/{view}/live")
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert client.get(f"/ev/{view}/live", headers={"If-None-Match": tag}).status_code == 304
    for table in tables(app, edit)[0]:
        play(client, table)
    again = client.get(f"/ev/{view}/live", headers={"If-None-Match": tag})
    assert again.status_code == 200 and again.headers["ETag"] != tag
    with app.app_context():
        event = events.by_edit_token(get_session(), edit)
        expected = standings(events.document(event))
    api = client.get(f"/api/v1/events/{view}").get_json()
    assert api["standings"]["standings"] == expected["standings"]
    top = expected["standings"][0]
    assert top["score"] == 100.0 and top["provisional"]  # one round of one per seat
    assert html.escape(top["name"]) in again.get_data(as_text=True)


def test_the_standings_live_in_the_database_not_in_one_process(app_factory, client):
    first, second = app_factory(), app_factory()
    one, two = first.test_client(), second.test_client()
    edit = start(one)
    seat(one, edit, 1)
    view = event_of(first, edit).view_token
    before = two.get(f"/api/v1/events/{view}").get_json()["standings"]
    table = tables(first, edit)[0][0]
    play(one, table)
    after = two.get(f"/api/v1/events/{view}").get_json()["standings"]
    assert before != after
    assert any(line["sessions"] == [100.0] for line in after["standings"])


def test_ev7_an_edit_after_the_end_recomputes_and_shows_in_the_history(app, client):
    edit = start(client, NAMES[:4], sessions="1")
    seat(client, edit, 1)
    (table,) = tables(app, edit)[0]
    play(client, table)
    view = event_of(app, edit).view_token
    final = client.get(f"/api/v1/events/{view}").get_json()["standings"]
    if not final["finished"]:  # one round per seat: play them all
        for _ in range(len(table["players"]) - 1):
            play(client, table)
        final = client.get(f"/api/v1/events/{view}").get_json()["standings"]
    assert final["finished"] is True
    match = client.get(f"/api/v1/matches/{table['edit']}").get_json()
    doc = match["document"]["rounds"][0]
    doc["went_out"] = table["players"][1]
    for p in doc["players"]:
        p["rack"] = [] if p["name"] == table["players"][1] else {"points": 9}
    answer = client.put(
        f"/api/v1/matches/{table['edit']}/games/1",
        json=doc,
        headers={"If-Match": f'"{match["revision"]}"'},
    )
    assert answer.status_code == 200
    later = client.get(f"/api/v1/events/{view}").get_json()["standings"]
    assert later != final
    page = client.get(f"/ev/{view}").get_data(as_text=True)
    assert "Session 1, table 1: Round 1 edited" in html.unescape(page)


def test_table_cards_sheets_and_standings_on_paper_and_in_a_spreadsheet(app, client):
    edit = start(client)
    seat(client, edit, 1)
    session1 = tables(app, edit)[0]
    cards = client.get(f"/e/{edit}/cards.pdf")
    assert cards.status_code == 200 and cards.data.startswith(b"%PDF")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(cards.data)).pages)
    for table in session1:
        assert f"Table {table['number']}" in text
        assert all(n in text for n in table["players"])
    sheets = client.get(f"/e/{edit}/sheets.pdf")
    assert len(PdfReader(io.BytesIO(sheets.data)).pages) >= len(session1)
    view = event_of(app, edit).view_token
    rows = list(
        csv.reader(io.StringIO(client.get(f"/ev/{view}/standings.csv").data.decode("utf-8-sig")))
    )
    assert rows[0][:3] == ["Rank", "Name", "Sum of session percentages"] and len(rows) == 11
    pdf = client.get(f"/ev/{view}/standings.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


#: The standings' first figure in each language: its short head on a page, its long name
#: (the head's tooltip, and the head of the PDF and the CSV).
SUM_WORDS = {
    "en": ("Sum %", "Sum of session percentages"),
    "hu": ("Összeg %", "Menetszázalékok összege"),
    "de": ("Summe %", "Summe der Durchgangsprozente"),
    "bg": ("Сбор %", "Сбор от процентите на сесиите"),
}


def test_ev6_the_standings_figure_is_named_a_sum_of_session_percentages(app, client):
    """150.0 after two sessions is no percentage: the head says it is their sum, in every
    language, on the page, the big screen, the PDF and the CSV."""
    edit = start(client, NAMES[:4], sessions="2")
    seat(client, edit, 1)
    view = event_of(app, edit).view_token
    for lang, (short, long) in SUM_WORDS.items():
        for url in (f"/ev/{view}?lang={lang}", f"/ev/{view}/screen?lang={lang}"):
            page = html.unescape(client.get(url).get_data(as_text=True))
            head = re.search(r'<table class="event-standings">.*?</thead>', page, re.S)
            assert head, url
            assert f'<abbr title="{long}">{short}</abbr>' in head.group(0), (url, head.group(0))
            assert ">%<" not in head.group(0)
            assert f"{short}: " in page  # the hint under the table starts with it
        body = client.get(f"/ev/{view}/standings.csv?lang={lang}").data.decode("utf-8-sig")
        assert next(csv.reader(io.StringIO(body)))[2] == long
        pdf = client.get(f"/ev/{view}/standings.pdf?lang={lang}")
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
        assert long in " ".join(text.split()), lang


def test_a_hostile_entrant_is_text_in_the_standings_csv(app, client):
    hostile = ['=HYPERLINK("http://x")', "@SUM(A1)", "+1", "-2+3"]
    edit = start(client, [*hostile, "Anna", "Béla"])
    seat(client, edit, 1)
    view = event_of(app, edit).view_token
    body = client.get(f"/ev/{view}/standings.csv").data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    names = [row[1] for row in rows[1:]]
    assert sorted(names) == sorted([f"'{n}" for n in hostile] + ["Anna", "Béla"])
    assert all(row[0].isdigit() for row in rows[1:])  # ranks stay numbers


def test_the_projector_page_and_the_read_only_page_show_no_organiser_controls(app, client):
    edit = start(client)
    seat(client, edit, 1)
    view = event_of(app, edit).view_token
    page = client.get(f"/ev/{view}").get_data(as_text=True)
    assert edit not in page and "Seat session" not in page
    screen = client.get(f"/ev/{view}/screen").get_data(as_text=True)
    assert 'class="big"' in screen and edit not in screen


def test_events_over_http(client):
    made = client.post(
        "/api/v1/events",
        json={"game": "rummy17", "entrants": NAMES[:7], "sessions": 2, "size": 4},
    )
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    edit, view = body["edit"], body["view"]
    assert body["revision"] == 1 and made.headers["ETag"] == '"1"'
    seated = client.post(f"/api/v1/events/{edit}/sessions", headers={"If-Match": '"1"'})
    assert seated.status_code == 201
    tables_ = seated.get_json()["event"]["seated"][0]
    assert sorted(len(t["players"]) for t in tables_) == [3, 4]
    assert all("edit" in t["match"] for t in tables_)
    public = client.get(f"/api/v1/events/{view}").get_json()
    assert "edit" not in public and all(
        "edit" not in t["match"] for t in public["event"]["seated"][0]
    )
    stale = client.post(f"/api/v1/events/{edit}/sessions", headers={"If-Match": '"1"'})
    assert stale.status_code == 412 and stale.get_json()["revision"] == 2
    assert client.post(f"/api/v1/events/{view}/sessions").status_code == 404
    joined = client.post(
        f"/api/v1/events/{edit}/entrants", json={"name": "Zoli"}, headers={"If-Match": "*"}
    )
    assert joined.status_code == 200 and "Zoli" in joined.get_json()["event"]["entrants"]
    twice = client.post(
        f"/api/v1/events/{edit}/entrants", json={"name": "zoli"}, headers={"If-Match": "*"}
    )
    assert twice.status_code == 422 and twice.get_json()["error"]["rule"] == "EV-1"
    left = client.delete(f"/api/v1/events/{edit}/entrants/Anna")
    assert left.status_code == 200 and left.get_json()["event"]["withdrawn"] == ["Anna"]
    bad = client.post("/api/v1/events", json={"game": "rummikub", "entrants": ["A"]})
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "event-entrant-count"


def test_a_read_only_page_is_drawn_at_most_once_per_window(app, client, monkeypatch):
    monkeypatch.setattr(events_web, "FRESH", 3600.0)
    edit = start(client)
    seat(client, edit, 1)
    view = event_of(app, edit).view_token
    before = client.get(f"/ev/{view}/live")
    play(client, tables(app, edit)[0][0])
    assert client.get(f"/ev/{view}/live").data == before.data  # within the window
    monkeypatch.setattr(events_web, "FRESH", 0)
    assert client.get(f"/ev/{view}/live").data != before.data  # a new window draws anew


def test_each_table_offers_own_parts_and_the_table_cards_say_so(app, client):
    edit = start(client)
    seat(client, edit, 1)
    table = tables(app, edit)[0][0]
    html_page = client.get(f"/m/{table['edit']}/rounds/new").get_data(as_text=True)
    assert 'id="parts-open"' in html_page
    opened = client.post(f"/api/v1/matches/{table['edit']}/parts")
    assert opened.status_code == 201
    assert [s["name"] for s in opened.get_json()["seats"]] == table["players"]
    cards = client.get(f"/e/{edit}/cards.pdf")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(cards.data)).pages)
    assert "Everyone enters their own" in " ".join(text.split())
