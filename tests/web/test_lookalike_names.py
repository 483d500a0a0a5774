"""Every way a name comes in refuses one that only looks different (rules.names): the start
page, the matches API, an event's entrants on the page and over the API, and a late entrant;
the refusal names both spellings, in the page's language."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient

FULL_WIDTH = "\uff21nna"  # looks like Anna
HIDDEN = "Anna\u200b"  # Anna and a zero-width space
SAID = "“Anna” and “\uff21nna” are the same name"


def test_the_start_page_refuses_a_lookalike_next_to_it(client: FlaskClient) -> None:
    data = {"names-0": "Anna", "names-1": FULL_WIDTH, "names-2": "Béla", "first": "0"}
    answer = client.post("/start/rummikub", data=data)
    assert answer.status_code == 422
    page = html.unescape(answer.get_data(as_text=True))
    assert SAID in page
    hungarian = client.post("/start/rummikub", data=data, headers={"Accept-Language": "hu"})
    said = html.unescape(hungarian.get_data(as_text=True))
    assert "„Anna” és „\uff21nna” ugyanaz a név" in said


def test_the_matches_api_refuses_a_lookalike(client: FlaskClient) -> None:
    body = {"game": "rummikub", "players": ["Anna", HIDDEN], "first_dealer": "Anna"}
    answer = client.post("/api/v1/matches", json=body)
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error["code"] == "name-alike"
    assert error["message"].startswith("“Anna” and “Anna[U+200B]” are the same name")


def test_a_match_keeps_the_name_normalised(client: FlaskClient) -> None:
    body = {"game": "rummikub", "players": [FULL_WIDTH, "Béla\u202e"], "first_dealer": FULL_WIDTH}
    answer = client.post("/api/v1/matches", json=body)
    assert answer.status_code == 201, answer.get_json()
    match = answer.get_json()
    assert match["document"]["players"] == ["Anna", "Béla"]
    assert match["document"]["first_dealer"] == "Anna"


def test_an_event_refuses_a_lookalike_entrant_on_the_page_and_over_the_api(
    client: FlaskClient,
) -> None:
    data = {"game": "rummikub", "entrants": f"Anna\nBéla\n{FULL_WIDTH}", "sessions": "1"}
    answer = client.post("/events/new", data={**data, "size": "4"})
    assert answer.status_code == 422
    assert SAID in html.unescape(answer.get_data(as_text=True))
    body = {"game": "rummikub", "entrants": ["Anna", "Béla", FULL_WIDTH]}
    error = client.post("/api/v1/events", json=body).get_json()["error"]
    assert error["code"] == "event-name-alike" and SAID in error["message"]


def test_a_late_entrant_who_looks_like_an_entrant_is_refused(client: FlaskClient) -> None:
    body = {"game": "rummikub", "entrants": ["Anna", "Béla", "Cili"]}
    created = client.post("/api/v1/events", json=body)
    assert created.status_code == 201
    edit = created.get_json()["edit"]
    joined = client.post(
        f"/api/v1/events/{edit}/entrants", json={"name": FULL_WIDTH}, headers={"If-Match": "*"}
    )
    assert joined.status_code == 422
    assert SAID in joined.get_json()["error"]["message"]
    page = client.post(f"/e/{edit}/entrants", data={"name": HIDDEN}, follow_redirects=True)
    assert "are the same name" in html.unescape(page.get_data(as_text=True))
    left = client.delete(f"/api/v1/events/{edit}/entrants/{FULL_WIDTH}")
    assert left.status_code == 200 and left.get_json()["event"]["withdrawn"] == ["Anna"]
    back = client.post(
        f"/api/v1/events/{edit}/entrants", json={"name": HIDDEN}, headers={"If-Match": "*"}
    )
    assert back.status_code == 200 and back.get_json()["event"]["withdrawn"] == []
    assert re.findall("Anna", str(back.get_json()["event"]["entrants"])) == ["Anna"]
