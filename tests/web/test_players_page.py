"""Across matches through the test client: the players page, a match as CSV, the chart."""

from __future__ import annotations

import csv
import html
import io
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from support import load

from companion.adapters import store
from companion.adapters.db import get_session
from companion.domain.stats import across_matches


def start(client: FlaskClient, game: str, names: list[str], title: str = "") -> str:
    """Start a match on this client's device; the edit token."""
    data = {f"names-{i}": n for i, n in enumerate(names)}
    data.update(first="1", games="", title=title)
    answer = client.post(f"/start/{game}", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return answer.headers["Location"].rsplit("/", 1)[-1]


def play(app: Flask, edit: str, rounds: list[dict[str, Any]]) -> None:
    """Store rounds as the round form would (each checked by the rules core)."""
    with app.app_context():
        session = get_session()
        match = store.get_by_edit_token(session, edit)
        assert match is not None
        for doc in rounds:
            store.add_round(session, match, doc)


def tiles(went_out: str | None, racks: dict[str, int]) -> dict[str, Any]:
    return {
        "game": "rummikub",
        "went_out": went_out,
        "players": [{"name": n, "rack": {"points": p}} for n, p in racks.items()],
    }


def rummy17_match(client: FlaskClient, app: Flask, title: str = "") -> str:
    """tests/data/rummy17-match.json on this device: Márk 18 wins, Zsófi 14 (2 of 2 rounds)."""
    doc = load("rummy17-match.json")
    edit = start(client, "rummy17", doc["players"], title)  # Márk deals first (first=1)
    play(app, edit, [{"game": "rummy17", **r} for r in doc["rounds"]])
    return edit


def view_token(client: FlaskClient, edit: str) -> str:
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    found = re.search(r'id="view-link"[^>]*value="[^"]*/v/([\w-]+)"', page)
    assert found
    return found.group(1)


def result_of(app: Flask, edit: str) -> dict[str, Any]:
    with app.app_context():
        match = store.get_by_edit_token(get_session(), edit)
        assert match is not None
        return store.result(match)


# --- the players page ---------------------------------------------------------------------


def test_the_players_page_explains_itself_before_any_round(client: FlaskClient) -> None:
    page = client.get("/players")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'id="players-empty"' in text and "No figures yet." in text
    start(client, "rummy17", ["Anna", "Béla"])  # a match, but no round yet
    text = client.get("/players").get_data(as_text=True)
    assert 'id="players-empty"' in text
    assert 'id="counted"' in text  # the device's matches are still listed


def test_home_links_the_players_page_from_the_devices_matches(client: FlaskClient) -> None:
    start(client, "rummy17", ["Anna", "Béla"])
    home = client.get("/").get_data(as_text=True)
    assert 'href="/players" id="players-link"' in home


def test_R17_17_the_players_figures_are_the_rules_cores(client: FlaskClient, app: Flask) -> None:
    edit = rummy17_match(client, app, title="Friday")
    other = start(client, "rummikub", ["ZSÓFI", "Cili"])
    play(app, other, [tiles("ZSÓFI", {"ZSÓFI": 0, "Cili": 30})])
    text = html.unescape(client.get("/players").get_data(as_text=True))
    with app.app_context():
        matches = store.matches_for_device(
            get_session(), store.get_by_edit_token(get_session(), edit).device or ""
        )
        expected = across_matches((str(m.id), store.as_document(m)) for m in matches)
    assert [g.game for g in expected] == ["rummikub", "rummy17"]  # newest first
    for figures in expected:
        section = text.split(f'data-game="{figures.game}"', 1)[1].split("</section>", 1)[0]
        for player in figures.players:
            card = section.split(f'data-player="{player.name}"', 1)[1].split("</li>", 1)[0]
            assert f'data-figure="rounds">{player.rounds}<' in card
            assert f"{player.won} of {player.matches}" in card
            assert ('data-figure="round-wins"' in card) == (player.round_wins is not None)
    rummy17 = text.split('data-game="rummy17"', 1)[1].split("</section>", 1)[0]
    mark = rummy17.split('data-player="Márk"', 1)[1].split("</li>", 1)[0]
    assert "1 of 1" in mark and 'data-figure="average">9.0<' in mark  # (5 + 13) / 2
    assert f'href="/m/{edit}/rounds/2"' in mark and "Friday, game 2" in mark  # 13, R17-18
    # Each game's section in its own words: Rummy 17's games, Rummikub's rounds.
    assert "Games played" in rummy17 and "Best game" in rummy17 and "Rounds played" not in rummy17
    rummikub = text.split('data-game="rummikub"', 1)[1].split("</section>", 1)[0]
    assert "Rounds played" in rummikub and "Games played" not in rummikub
    zsofi = rummy17.split('data-player="Zsófi"', 1)[1].split("</li>", 1)[0]
    # R17-17: from each round's awards, the three won most (equal counts in the order met).
    assert "Most runs ×1" in zsofi and zsofi.count('class="won-card"') == 3
    tiles_part = text.split('data-game="rummikub"', 1)[1].split("</section>", 1)[0]
    assert 'data-figure="round-wins">1<' in tiles_part  # RK-22: ZSÓFI went out
    assert 'data-player="Cili"' in tiles_part
    raw = client.get("/players").get_data()
    assert len(raw) <= 60_000  # first load of every page ≤ 60 KB
    assert b"<script>" not in raw and b"style=" not in raw  # CSP: no inline script or style


def test_another_devices_matches_are_not_counted(app: Flask, client: FlaskClient) -> None:
    rummy17_match(client, app)
    other = app.test_client()
    text = other.get("/players").get_data(as_text=True)
    assert 'id="players-empty"' in text and "Márk" not in text


def test_the_players_page_speaks_the_pages_language(client: FlaskClient, app: Flask) -> None:
    rummy17_match(client, app)
    text = client.get("/players", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert 'data-figure="average">9,0<' in text  # Babel's decimal comma


# --- a match as CSV -----------------------------------------------------------------------


def read_csv(body: bytes) -> list[list[str]]:
    assert body.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_R17_19_the_csv_has_each_rounds_scores_and_running_totals(
    client: FlaskClient, app: Flask
) -> None:
    edit = rummy17_match(client, app, title="Пятница / Béla")
    answer = client.get(f"/m/{edit}/export.csv")
    assert answer.status_code == 200
    assert answer.mimetype == "text/csv"
    disposition = answer.headers["Content-Disposition"]
    assert disposition.startswith("attachment")
    assert (
        "filename*=UTF-8''%D0%9F%D1%8F%D1%82%D0%BD%D0%B8%D1%86%D0%B0-B%C3%A9la.csv" in disposition
    )
    rows = read_csv(answer.get_data())
    result = result_of(app, edit)
    players = list(result["totals"])
    # Rummy 17 calls a deal a game; each player's penalty and bonus come first,
    # as the rulebook counts them (R17-16, R17-17), then the score and the total.
    assert rows[0] == ["Game", "Dealer"] + [
        x for n in players for x in (f"{n}: Penalty", f"{n}: Bonus", n, f"{n} (total)")
    ]
    assert len(rows) == 1 + len(result["rounds"])
    for row, line in zip(rows[1:], result["rounds"], strict=True):
        assert row[:2] == [str(line["number"]), line["dealer"]]
        for i, name in enumerate(players):
            penalty, bonus, score, total = row[2 + 4 * i : 6 + 4 * i]
            assert [score, total] == [str(line["scores"][name]), str(line["totals"][name])]
            assert int(bonus) - int(penalty) == line["scores"][name]  # R17-18, undoubled
            assert int(penalty) >= 0
    assert rows[-1][5::4] == [str(result["totals"][n]) for n in players]


def test_the_read_only_csv_is_the_same_file_and_no_token_leaks(
    client: FlaskClient, app: Flask
) -> None:
    edit = rummy17_match(client, app)
    view = view_token(client, edit)
    by_view = client.get(f"/v/{view}/export.csv")
    assert by_view.get_data() == client.get(f"/m/{edit}/export.csv").get_data()
    assert edit not in by_view.get_data(as_text=True)
    page = client.get(f"/v/{view}").get_data(as_text=True)
    assert f'href="/v/{view}/export.csv"' in page and edit not in page
    board = client.get(f"/m/{edit}").get_data(as_text=True)
    assert f'href="/m/{edit}/export.csv" download id="csv-link"' in board


def test_RK_2_where_nobody_deals_the_csv_says_who_started(client: FlaskClient, app: Flask) -> None:
    edit = start(client, "rummikub", ["Anna", "Béla"])
    play(app, edit, [tiles("Anna", {"Anna": 0, "Béla": 7})])
    rows = read_csv(client.get(f"/m/{edit}/export.csv").get_data())
    result = result_of(app, edit)
    assert rows[0][:2] == ["Round", "Starts"]
    assert rows[1][:2] == ["1", result["rounds"][0]["starts"]]
    disposition = client.get(f"/m/{edit}/export.csv").headers["Content-Disposition"]
    assert "Rummikub.csv" in disposition  # no title: the game's name


def test_MR_16_the_csv_ends_with_the_end_bonuses_and_the_final_totals(
    client: FlaskClient, app: Flask
) -> None:
    names = ["Zsófi", "Márk", "Lili"]
    edit = start(client, "manipulation", names)
    big = {
        "game": "manipulation",
        "knocked": None,
        "went_out": "Lili",
        "players": [
            {"name": "Zsófi", "hand": {"points": 60}},
            {"name": "Márk", "hand": {"points": 50}},
            {"name": "Lili", "hand": []},
        ],
    }
    play(app, edit, [big, big])
    result = result_of(app, edit)
    assert result["finished"] and "end_bonus" in result
    rows = read_csv(client.get(f"/m/{edit}/export.csv").get_data())
    assert len(rows) == 2 + len(result["rounds"])
    assert rows[-1][0] == "End bonus"
    # each player: hand, undercut, going out (empty here), then the end bonus and the total
    assert rows[-1][2::5] == rows[-1][3::5] == rows[-1][4::5] == ["", "", ""]
    assert rows[-1][5::5] == [str(result["end_bonus"][n]) for n in names]
    assert rows[-1][6::5] == [str(result["totals"][n]) for n in names]


def test_a_name_a_spreadsheet_would_run_is_written_as_text(client: FlaskClient, app: Flask) -> None:
    edit = start(client, "rummikub", ["=1+1", "@Béla"])
    play(app, edit, [tiles("=1+1", {"=1+1": 0, "@Béla": 7})])
    rows = read_csv(client.get(f"/m/{edit}/export.csv").get_data())
    assert rows[0][2:5] == ["'=1+1: Rack", "'=1+1", "'=1+1 (total)"]
    assert rows[0][6] == "'@Béla"
    assert rows[1][2:] == ["0", "7", "7", "7", "-7", "-7"]  # numbers stay numbers (RK-21)


#: Names a spreadsheet would run as a formula (OWASP "CSV injection"), each a legal name.
HOSTILE = ['=HYPERLINK("http://x")', "@SUM(A1)", "+1", "-2+3"]


def test_every_hostile_name_is_text_in_the_match_csv(client: FlaskClient, app: Flask) -> None:
    edit = start(client, "rummikub", HOSTILE)
    play(app, edit, [tiles(HOSTILE[0], {HOSTILE[0]: 0, **dict.fromkeys(HOSTILE[1:], 7)})])
    rows = read_csv(client.get(f"/m/{edit}/export.csv").get_data())
    assert rows[0][3::3] == [f"'{n}" for n in HOSTILE]
    assert all(cell.startswith("'") for cell in rows[0][2:])  # "=…: Rack", "=… (total)" too
    assert rows[1][1] == "'" + result_of(app, edit)["rounds"][0]["starts"]
    assert rows[1][2:5] == ["0", "21", "21"] and rows[1][5:8] == ["7", "-7", "-7"]  # numbers


def test_csv_of_an_unknown_match_is_404(client: FlaskClient) -> None:
    assert client.get("/m/nothing-here/export.csv").status_code == 404
    assert client.get("/v/nothing-here/export.csv").status_code == 404


# --- the chart ----------------------------------------------------------------------------


def polylines(page: str) -> dict[str, list[tuple[float, float]]]:
    found = re.findall(r'<polyline class="line s\d" points="([^"]*)" data-player="([^"]*)"', page)
    return {
        html.unescape(name): [tuple(map(float, p.split(","))) for p in pts.split()]
        for pts, name in found
    }


def test_R17_19_the_chart_draws_each_players_totals_round_by_round(
    client: FlaskClient, app: Flask
) -> None:
    edit = rummy17_match(client, app)
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    assert page.count('<svg class="chart"') == 1
    assert '<title id="chart-title">Totals game by game</title>' in page  # Rummy 17's word
    assert "Márk: 5, 18" in page and "Zsófi: 12, 14" in page  # desc: the totals in words
    lines = polylines(page)
    result = result_of(app, edit)
    assert set(lines) == set(result["totals"])
    for points in lines.values():
        assert len(points) == len(result["rounds"])
        xs = [x for x, _ in points]
        assert xs == sorted(xs) and 0 <= min(xs) and max(xs) <= 360
    # A higher total is drawn higher (a smaller y); Márk ends above Zsófi (18 > 14).
    assert lines["Márk"][-1][1] < lines["Zsófi"][-1][1]
    legend = page.split('class="chart-legend"', 1)[1].split("</ul>", 1)[0]
    assert "Márk" in legend and "Zsófi" in legend
    view = view_token(client, edit)
    assert set(polylines(client.get(f"/v/{view}").get_data(as_text=True))) == set(lines)


def test_no_chart_before_the_second_round(client: FlaskClient, app: Flask) -> None:
    edit = start(client, "rummikub", ["Anna", "<b>Béla</b>"])
    assert '<svg class="chart"' not in client.get(f"/m/{edit}").get_data(as_text=True)
    play(app, edit, [tiles("Anna", {"Anna": 0, "<b>Béla</b>": 7})])
    assert '<svg class="chart"' not in client.get(f"/m/{edit}").get_data(as_text=True)
    play(app, edit, [tiles(None, {"Anna": 3, "<b>Béla</b>": 7})])
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    assert '<svg class="chart"' in page and "<b>Béla</b>" not in page  # escaped
    assert len(polylines(page)["<b>Béla</b>"]) == 2
