"""Own hands at the table, through the test client: a card in two
players' parts is flagged as the second part arrives (D17-8, DK-4, DO-6, DM-8); the
scorekeeper's change to a part reaches the player's page before the round is saved; and
"Stop: enter every part here" loses nothing a player typed or sent."""

from __future__ import annotations

import html
import json
import re

import pytest
from flask.testing import FlaskClient
from support import unlinked
from test_parts_pages import NAMES, _links, _open, _start


def _send(client: FlaskClient, token: str, **typed: str) -> None:
    answer = client.post(f"/p/{token}", data={**typed, "save": "1"})
    assert answer.status_code == 302, answer.get_data(as_text=True)


def _page(client: FlaskClient, path: str) -> str:
    """A page's words, clause links back to plain ids."""
    return unlinked(client.get(path).get_data(as_text=True))


def _box(page: str, marker: str) -> str:
    """The element that starts at ``marker`` up to the end of its block."""
    start = page.index(marker)
    return page[start : page.index("</div>", start)]


def _fields(**typed: str) -> dict[str, str]:
    """Every seat's fields of the Rummy 17 round form, as a browser posts them (empty ones
    too), with what was typed."""
    out = {
        f"players-{seat}-{key}": ""
        for seat in range(len(NAMES))
        for key in ("melds", "hand", "low", "high")
    }
    return {**out, **typed}


def _seat(news: dict, seat: int) -> dict:
    return next(s for s in news["seats"] if s["seat"] == seat)


# --- a card in two players' parts --------------------------------------------------------------


def test_d17_8_a_card_in_two_parts_is_flagged_when_the_second_arrives(client: FlaskClient) -> None:
    edit = _start(client, "rummy17")
    links = _links(_open(client, edit))
    _send(client, links["Anna"], **{"players-0-melds": "R5 R6 R7", "players-0-hand": "B3"})
    news = client.get(f"/m/{edit}/parts.json").get_json()
    assert all(not s["flags"] for s in news["seats"])  # one part: nothing to compare yet
    _send(client, links["Béla"], **{"players-0-melds": "R5 G5 Y5", "players-0-hand": "K9"})
    # The seat of the part that came second says it, naming both players.
    news = client.get(f"/m/{edit}/parts.json").get_json()
    flags = _seat(news, 1)["flags"]
    assert flags == [
        "Béla, meld 1: R5 appears twice (also in Anna's meld 1); each card exists once (D17-8)"
    ]
    assert _seat(news, 0)["flags"] == [] and _seat(news, 2)["flags"] == []
    form = _page(client, f"/m/{edit}/rounds/new")
    panel = form[form.index('data-part-seat="1"') :]
    assert flags[0] in panel[: panel.index("</li>")]  # on the seat panel, as the form loads
    # Béla's phone says it as soon as his part is sent (the page he is sent back to) …
    bela = _page(client, f"/p/{links['Béla']}")
    assert 'id="part-sent"' in bela
    box = _box(bela, 'id="part-flags"')
    assert "hidden" not in box.split(">", 1)[0] and flags[0] in box
    assert client.get(f"/p/{links['Béla']}/news.json").get_json()["flags"] == flags
    # … and Anna's, whose part came first, is not blamed for it.
    anna = _page(client, f"/p/{links['Anna']}")
    assert 'class="error-box hidden" role="alert" id="part-flags"' in anna
    assert client.get(f"/p/{links['Anna']}/news.json").get_json()["flags"] == []
    # Béla puts it right: the flag is gone. Both still came in as sent ("Sent ✓").
    _send(client, links["Béla"], **{"players-0-melds": "B5 G5 Y5", "players-0-hand": "K9"})
    news = client.get(f"/m/{edit}/parts.json").get_json()
    assert [_seat(news, s)["flags"] for s in range(3)] == [[], [], []]
    assert [_seat(news, s)["status"] for s in (0, 1)] == ["Sent ✓", "Sent ✓"]


@pytest.mark.parametrize(
    ("game", "field", "parts", "flag"),
    [
        (
            "rummikub",
            "rack",
            ("O5 O5 K1", "R2", "O5 *"),
            "Cili's rack: the box has only 2 of O5, and Anna sent it too (DK-4)",
        ),
        (
            "rummy-o",
            "rack",
            ("* G3", "* R9", "* K1"),
            "Cili's rack: the box has only 2 of *, and Anna, Béla sent it too (DO-6)",
        ),
        (
            "manipulation",
            "hand",
            ("AS 2H", "AS", "AS KD"),
            "Cili's hand: the box has only 2 of AS, and Anna, Béla sent it too (DM-8)",
        ),
    ],
)
def test_a_card_beyond_the_box_is_flagged_at_the_part_that_brought_it(
    client: FlaskClient, game: str, field: str, parts: tuple[str, ...], flag: str
) -> None:
    edit = _start(client, game)
    links = _links(_open(client, edit))
    for name, cards in zip(NAMES, parts, strict=True):
        _send(client, links[name], **{f"players-0-{field}": cards})
    news = client.get(f"/m/{edit}/parts.json").get_json()
    assert [_seat(news, s)["flags"] for s in range(3)] == [[], [], [flag]]
    assert flag in _box(_page(client, f"/p/{links['Cili']}"), 'id="part-flags"')


# --- the scorekeeper's change, on the player's phone ------------------------------------------


def test_the_scorekeepers_change_reaches_the_players_page_before_the_round_is_saved(
    client: FlaskClient,
) -> None:
    edit = _start(client, "rummy17")
    links = _links(_open(client, edit))
    anna = links["Anna"]
    _send(
        client, anna, **{"players-0-melds": "R1 R2 R3", "players-0-low": "2", "players-0-high": "1"}
    )
    news = client.get(f"/p/{anna}/news.json").get_json()
    assert news["state"] == "open" and news["kept"] is False
    assert news["fields"]["players-0-low"] == "2"
    # The scorekeeper counts Anna's hand again: 3 low cards. The round form sends her fields.
    keep = client.post(
        f"/m/{edit}/parts/0",
        data={"players-0-melds": "R1 R2 R3", "players-0-low": "3", "players-0-high": "1"},
    )
    assert keep.status_code == 200 and keep.get_json() == {"kept": True}
    news = client.get(f"/p/{anna}/news.json").get_json()
    assert news["kept"] is True
    assert news["fields"]["players-0-low"] == "3" and news["fields"]["players-0-high"] == "1"
    assert "Cards 1–9: 3" in html.unescape(news["shown"])
    # Her page, loaded now, shows the scorekeeper's version, not "Sent ✓ … You can still
    # change it" with the old cards; what she sent is still hers (the API's part).
    page = _page(client, f"/p/{anna}")
    assert re.search(r'id="players-0-low" [^>]*value="3"', page)
    assert 'class="notice sent hidden" id="part-sent"' in page
    kept = _box(page, 'id="part-kept"')
    assert "hidden" not in kept.split(">", 1)[0]
    assert "The scorekeeper changed your part" in kept and "Cards 1–9: 3" in kept
    assert client.get(f"/api/v1/parts/{anna}").get_json()["part"]["hand"] == {"low": 2, "high": 1}
    # The scorekeeper's form, loaded again, has the change; the player's phone sent the other.
    form = _page(client, f"/m/{edit}/rounds/new")
    assert re.search(r'id="players-0-low" [^>]*value="3"', form)
    # Put back as she sent it: no change to show. A part that is no part yet is refused.
    client.post(
        f"/m/{edit}/parts/0",
        data={"players-0-melds": "R1 R2 R3", "players-0-low": "2", "players-0-high": "1"},
    )
    assert client.get(f"/p/{anna}/news.json").get_json()["kept"] is False
    bad = client.post(f"/m/{edit}/parts/0", data={"players-0-melds": "R1 R2"})
    assert bad.status_code == 422 and "R17-9" in json.dumps(bad.get_json(), ensure_ascii=False)
    # Her own send replaces the scorekeeper's change (the later one counts).
    client.post(f"/m/{edit}/parts/0", data={"players-0-melds": "R1 R2 R3", "players-0-low": "5"})
    _send(client, anna, **{"players-0-melds": "R1 R2 R3", "players-0-low": "4"})
    assert client.get(f"/p/{anna}/news.json").get_json()["kept"] is False


def test_a_part_that_never_came_is_not_the_scorekeepers_to_send(client: FlaskClient) -> None:
    edit = _start(client, "rummikub")
    links = _links(_open(client, edit))
    answer = client.post(f"/m/{edit}/parts/2", data={"players-0-rack": "K1"})
    assert answer.status_code == 200 and answer.get_json() == {"kept": False}
    news = client.get(f"/p/{links['Cili']}/news.json").get_json()
    assert news["kept"] is False and news["fields"] == {}
    assert client.post(f"/m/{edit}/parts/7", data={}).status_code == 410  # no such seat


# --- "Stop: enter every part here" ------------------------------------------------------------


def test_stopping_fills_in_what_came_and_says_whose_parts_never_came(client: FlaskClient) -> None:
    edit = _start(client, "rummy17")
    links = _links(_open(client, edit))
    # Anna's part came after the form last asked: its fields are still empty there.
    _send(client, links["Anna"], **{"players-0-melds": "R1 R2 R3", "players-0-hand": "B4"})
    # Béla's came, and the scorekeeper typed something else for him meanwhile.
    _send(client, links["Béla"], **{"players-0-hand": "K9 K10"})
    typed = _fields(**{"players-1-hand": "K9"})
    stopped = client.post(f"/m/{edit}/rounds/new/parts", data={"parts": "drop", **typed})
    assert stopped.status_code == 200
    page = unlinked(stopped.get_data(as_text=True))
    said = _box(page, 'id="parts-stopped"')
    assert "Not sent from their phones: Cili. Enter their parts below." in said
    assert "Filled in below as their phones sent them: Anna." in said
    assert "differs from the form for Béla" in said
    assert 'id="players-0-melds"' in page and "R1 R2 R3</textarea>" in page
    assert re.search(r'id="players-0-hand" [^>]*value="B4"', page)
    assert re.search(r'id="players-1-hand" [^>]*value="K9"', page)  # as typed here
    offer = re.search(r"data-offer-fields='([^']+)'", page)
    assert offer and json.loads(offer[1])["players-1-hand"] == "K9 K10"  # what his phone sent
    cili = page[page.index('data-name="Cili"') :]
    assert "Not sent from their phone: enter it here." in cili[: cili.index("</fieldset>")]
    # The players' pages: no longer open, the scorekeeper enters them.
    news = client.get(f"/p/{links['Cili']}/news.json")
    assert news.status_code == 410 and news.get_json() == {"state": "dropped"}


def test_after_the_stop_a_players_page_keeps_what_was_typed(client: FlaskClient) -> None:
    edit = _start(client, "rummy17")
    token = _links(_open(client, edit))["Cili"]
    client.post(f"/m/{edit}/rounds/new/parts", data={"parts": "drop", **_fields()})
    # Cili taps Send on what she typed after the stop (or her outbox sends it now).
    late = client.post(
        f"/p/{token}", data={"players-0-melds": "G7 G8 G9", "players-0-hand": "R2", "save": "1"}
    )
    assert late.status_code == 410
    page = unlinked(late.get_data(as_text=True))
    assert "The scorekeeper enters game 1" in page  # Rummy 17 says game
    assert "What you typed here (not sent): tell the scorekeeper" in page
    unsent = page[page.index('id="part-unsent"') :]
    assert all(f'data-card="{c}"' in unsent for c in ("G7", "G8", "G9", "R2"))
    # Loaded again later, the page offers what the phone kept as typed (its draft).
    again = _page(client, f"/p/{token}")
    draft = _box(again, 'id="part-draft"')
    assert f'data-draft="companion:part:{token[:12]}"' in draft
    labels = json.loads(re.search(r"data-labels='([^']+)'", draft)[1])
    assert labels["players-0-melds"] == "Melds in front"
    assert labels["players-0-hand"] == "Cards left in hand"
