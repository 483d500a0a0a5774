"""Own hands on the pages, through the test client: the round form offers
"Everyone enters their own" with a QR code and link per seat, a player's own page sends only
their part, the form is filled in from the parts that came, and once the round is saved (or
the scorekeeper takes it over) the player's page says so. The parts' store on both
databases: test_parts_api.py."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader

from companion.domain import all_games

GAME_IDS = [g.id for g in all_games() if g.id in ("rummy17", "rummikub", "rummy-o", "manipulation")]
NAMES = ["Anna", "Béla", "Cili"]

#: What Béla types on his own page, per game (the form's own field names), and the part.
TYPED: dict[str, tuple[dict[str, str], dict[str, Any]]] = {
    "rummy17": (
        {"players-0-melds": "R7 R8 R9\nG1 Y1 K1", "players-0-hand": "R4 G9"},
        {"melds": [["R7", "R8", "R9"], ["G1", "Y1", "K1"]], "hand": ["R4", "G9"]},
    ),
    "rummikub": ({"players-0-rack": "K1 R13 *"}, {"rack": ["K1", "R13", "*"]}),
    "rummy-o": ({"players-0-points": "14"}, {"rack": {"points": 14}}),
    "manipulation": ({"players-0-hand": "KS 2H"}, {"hand": ["KS", "2H"]}),
}


def _start(client: FlaskClient, game: str) -> str:
    data = {f"names-{i}": n for i, n in enumerate(NAMES)}
    data.update(first="0", games="", title="")
    answer = client.post(f"/start/{game}", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return answer.headers["Location"].rsplit("/", 1)[1]


def _open(client: FlaskClient, edit: str, **typed: str) -> str:
    page = client.post(f"/m/{edit}/rounds/new/parts", data={"parts": "open", **typed})
    assert page.status_code == 200
    return page.get_data(as_text=True)


def _links(html: str) -> dict[str, str]:
    """Each seat's link as the round form shows it (name → token)."""
    found = re.findall(r'data-share="[^"]*/p/([\w-]+)" data-title="([^"]+)"', html)
    return {name: token for token, name in found}


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_round_form_offers_own_parts_with_a_code_and_link_per_seat(
    client: FlaskClient, game: str
) -> None:
    edit = _start(client, game)
    form = client.get(f"/m/{edit}/rounds/new").get_data(as_text=True)
    assert 'id="parts-open"' in form and "Everyone enters their own" in form
    html = _open(client, edit)
    links = _links(html)
    assert list(links) == NAMES
    assert html.count("<svg") >= len(NAMES)  # one QR code per seat
    assert html.count("Waiting for their phone") >= len(NAMES)
    assert 'id="parts-drop"' in html
    # The same links when the form is loaded again; an edit of an earlier round offers none.
    assert _links(client.get(f"/m/{edit}/rounds/new").get_data(as_text=True)) == links


def test_opening_the_parts_keeps_what_was_typed(client: FlaskClient) -> None:
    edit = _start(client, "rummy17")
    html = _open(client, edit, bonus_cards="most-red", **{"players-2-hand": "K3 B2"})
    assert re.search(r'value="most-red"\s+data-name="[^"]+"\s+checked', html)
    assert 'value="K3 B2"' in html


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_player_sends_their_own_part_and_the_form_fills_it_in(
    client: FlaskClient, game: str
) -> None:
    edit = _start(client, game)
    token = _links(_open(client, edit))["Béla"]
    page = client.get(f"/p/{token}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert '<h1 class="part-name">Béla</h1>' in html
    assert html.count('class="player"') == 1  # only their own part
    assert "Anna" not in html and "Cili" not in html
    typed, part = TYPED[game]
    sent = client.post(f"/p/{token}", data={**typed, "save": "1"})
    assert sent.status_code == 302 and sent.headers["Location"].endswith(f"/p/{token}")
    again = client.get(f"/p/{token}").get_data(as_text=True)
    assert 'id="part-sent"' in again
    assert client.get(f"/api/v1/parts/{token}").get_json()["part"] == part
    # The scorekeeper's form: the live news, and the form loaded again, filled in.
    news = client.get(f"/m/{edit}/parts.json").get_json()
    assert news["open"] is True
    seat = news["seats"][1]
    assert seat["sent"] and seat["status"] == "Sent ✓"
    for name, value in typed.items():
        assert seat["fields"][name.replace("players-0", "players-1")] == value
    form = client.get(f"/m/{edit}/rounds/new").get_data(as_text=True)
    first = next(iter(typed.values())).split("\n")[0]
    assert first in form


def test_a_part_bad_on_its_own_comes_back_with_its_problem_and_what_was_typed(
    client: FlaskClient,
) -> None:
    edit = _start(client, "rummy17")
    token = _links(_open(client, edit))["Cili"]
    answer = client.post(
        f"/p/{token}", data={"players-0-melds": "R1 R2", "players-0-hand": "*K", "save": "1"}
    )
    assert answer.status_code == 422
    html = answer.get_data(as_text=True)
    assert "Nothing was sent" in html
    assert "R17-9" in html and "R17-13" in html
    assert "R1 R2" in html and 'value="*K"' in html  # nothing typed is lost
    assert client.get(f"/api/v1/parts/{token}").get_json()["part"] is None


def test_saving_the_round_closes_the_parts_and_the_player_is_told(client: FlaskClient) -> None:
    edit = _start(client, "rummikub")
    links = _links(_open(client, edit))
    client.post(f"/p/{links['Béla']}", data={"players-0-rack": "K1 R13", "save": "1"})
    client.post(f"/p/{links['Cili']}", data={"players-0-points": "9", "save": "1"})
    # The scorekeeper changes Béla's rack before saving (one tile less).
    round_form = {
        "went_out": "Anna",
        "players-0-rack": "",
        "players-1-rack": "K1",
        "players-2-points": "9",
        "save": "1",
    }
    saved = client.post(f"/m/{edit}/rounds/new", data=round_form)
    assert saved.status_code == 302
    bela = client.get(f"/p/{links['Béla']}")
    assert bela.status_code == 410
    html = bela.get_data(as_text=True)
    assert "Round 1 was saved" in html
    assert "The scorekeeper changed your part" in html
    cili = client.get(f"/p/{links['Cili']}").get_data(as_text=True)
    assert "Saved as you sent it" in cili
    late = client.post(f"/p/{links['Cili']}", data={"players-0-points": "3", "save": "1"})
    assert late.status_code == 410
    assert "Round 1 was saved" in late.get_data(as_text=True)
    # The scoreboard's history says who entered what.
    board = client.get(f"/m/{edit}").get_data(as_text=True)
    assert "Béla on their own phone, changed by the scorekeeper" in board
    assert "Cili on their own phone" in board
    assert "Anna by the scorekeeper" in board


def test_the_scorekeeper_can_take_the_round_back(client: FlaskClient) -> None:
    edit = _start(client, "manipulation")
    links = _links(_open(client, edit))
    html = client.post(f"/m/{edit}/rounds/new/parts", data={"parts": "drop"}).get_data(as_text=True)
    assert 'id="parts-open"' in html
    gone = client.get(f"/p/{links['Anna']}")
    assert gone.status_code == 410
    assert "The scorekeeper enters round 1" in gone.get_data(as_text=True)


def test_a_part_token_reaches_nothing_else(client: FlaskClient) -> None:
    edit = _start(client, "rummy17")
    token = _links(_open(client, edit))["Anna"]
    for path in (f"/m/{token}", f"/m/{token}/rounds/new", f"/v/{token}", f"/m/{token}/parts.json"):
        assert client.get(path).status_code == 404, path
    assert client.get("/p/nothing-here-at-all-xxxxxxxx").status_code == 404
    view = re.search(r"/v/([\w-]+)", client.get(f"/m/{edit}").get_data(as_text=True))
    assert view is not None
    for path in (f"/v/{view[1]}", f"/v/{view[1]}.json", f"/m/{edit}/export.csv"):
        assert token not in client.get(path).get_data(as_text=True), path
    pdf = client.get(f"/m/{edit}/sheet.pdf")
    assert pdf.status_code == 200
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert token not in text


def test_the_player_page_keeps_its_form_posts_to_its_csrf(csrf_app: Any) -> None:
    client = csrf_app.test_client()
    page = client.get("/start/rummy17")
    csrf = re.search(
        r'name="csrf_token" type="hidden" value="([^"]+)"', page.get_data(as_text=True)
    )
    assert csrf is not None
    data = {f"names-{i}": n for i, n in enumerate(NAMES)}
    data.update(first="0", games="", title="", csrf_token=csrf[1])
    edit = client.post("/start/rummy17", data=data).headers["Location"].rsplit("/", 1)[1]
    form = client.get(f"/m/{edit}/rounds/new").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form)
    assert csrf is not None
    html = client.post(
        f"/m/{edit}/rounds/new/parts", data={"parts": "open", "csrf_token": csrf[1]}
    ).get_data(as_text=True)
    token = _links(html)["Anna"]
    other = csrf_app.test_client()  # Anna's own phone: no session of the scorekeeper's
    assert other.post(f"/p/{token}", data={"players-0-hand": "R4", "save": "1"}).status_code == 400
    own = other.get(f"/p/{token}").get_data(as_text=True)
    mine = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', own)
    assert mine is not None
    sent = other.post(f"/p/{token}", data={"players-0-hand": "R4", "csrf_token": mine[1]})
    assert sent.status_code == 302


def test_the_scoreboard_opens_the_parts_in_one_tap_with_the_revision_kept(
    client: FlaskClient,
) -> None:
    edit = _start(client, "rummy17")
    board = client.get(f"/m/{edit}").get_data(as_text=True)
    assert 'id="parts-open-board"' in board
    html = client.post(f"/m/{edit}/rounds/new/parts", data={"parts": "open"}).get_data(as_text=True)
    assert list(_links(html)) == NAMES
    # The form came without a revision: it is the one loaded now, so a save is checked.
    assert re.search(r'name="revision" type="hidden" value="1"', html)
    assert re.search(r'name="intended" type="hidden" value="1"', html)
    # A finished match's scoreboard offers nothing to enter.
    made = client.post(
        "/api/v1/matches",
        json={"game": "rummikub", "players": NAMES, "first_dealer": "Anna", "games": 1},
    ).get_json()
    racks = [{"name": "Anna", "rack": []}, {"name": "Béla", "rack": ["K1"]}]
    doc = {"went_out": "Anna", "players": [*racks, {"name": "Cili", "rack": ["R2"]}]}
    assert (
        client.post(
            f"/api/v1/matches/{made['edit']}/games", json=doc, headers={"If-Match": "*"}
        ).status_code
        == 201
    )
    finished = client.get(f"/m/{made['edit']}").get_data(as_text=True)
    assert 'id="parts-open-board"' not in finished


def test_two_phones_on_one_link_keep_the_later_part_and_the_history_says_so(
    app: Any, client: FlaskClient
) -> None:
    edit = _start(client, "rummikub")
    link = f"/p/{_links(_open(client, edit))['Cili']}"
    first, second = app.test_client(), app.test_client()  # two phones, each its own cookie
    for phone, rack in ((first, "K1 K2"), (second, "R7")):
        assert phone.get(link).status_code == 200
        assert phone.post(link, data={"players-0-rack": rack, "save": "1"}).status_code == 302
    token = link.rsplit("/", 1)[1]
    assert client.get(f"/api/v1/parts/{token}").get_json()["part"] == {"rack": ["R7"]}
    saved = client.post(
        f"/m/{edit}/rounds/new",
        data={
            "went_out": "Anna",
            "players-0-rack": "",
            "players-1-points": "4",
            "players-2-rack": "R7",
            "save": "1",
        },
    )
    assert saved.status_code == 302
    board = client.get(f"/m/{edit}").get_data(as_text=True)
    assert "Cili on their own link from 2 phones (the last one sent counts)" in board
