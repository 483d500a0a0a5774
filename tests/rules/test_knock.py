"""``knock``: who gets the face-up card? (contract ``knock``, R17-8)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.domain import EntryError
from companion.domain import knock as knock_document
from companion.i18n.catalogues import translator

SEATS = ["Anna", "Béla", "Cili", "Dani"]


def knock(knocks: list[str], current: str = "Béla", **extra: object) -> dict:
    return knock_document({"players": SEATS, "current": current, "knocks": knocks, **extra})


def test_contract_example():
    doc = {"players": SEATS, "current": "Béla", "discarded_by": "Anna", "knocks": ["Dani", "Cili"]}
    result = knock_document(doc)
    assert {k: result[k] for k in ("gets", "rule", "reason", "refused")} == {
        "gets": "Cili",
        "rule": "R17-8",
        "reason": "Cili knocked and comes first after Béla",
        "refused": {},
    }


def test_r17_8_first_clockwise_after_the_current_player_not_first_to_knock():
    assert knock(["Anna", "Dani"], current="Cili", discarded_by=None)["gets"] == "Dani"
    assert knock(["Anna", "Béla"], current="Cili", discarded_by=None)["gets"] == "Anna"


def test_r17_8_the_discarder_may_not_knock():
    result = knock(["Anna"])  # Anna sits before Béla: she discarded it
    assert result["gets"] is None
    assert list(result["refused"]) == ["Anna"]
    assert "discarded" in result["refused"]["Anna"]


def test_r17_8_the_current_player_may_not_knock():
    result = knock(["Béla", "Dani"])
    assert result["gets"] == "Dani"
    assert list(result["refused"]) == ["Béla"]


def test_r17_8_a_card_turned_up_at_the_deal_has_no_discarder():
    assert knock(["Anna"], discarded_by=None)["gets"] == "Anna"


def test_r17_8_nobody_knocked():
    result = knock([])
    assert result["gets"] is None
    assert result["refused"] == {}


def test_refusals_follow_the_language():
    doc = {"players": SEATS, "current": "Béla", "knocks": ["Anna"]}
    hu = knock_document(doc, translator("hu"))
    assert hu["refused"]["Anna"] != knock_document(doc)["refused"]["Anna"]
    assert "Anna" in hu["refused"]["Anna"]


@pytest.mark.parametrize(
    "doc",
    [
        [],
        {"players": SEATS, "current": "Zoé", "knocks": []},
        {"players": SEATS, "current": "Béla", "knocks": ["Zoé"]},
        {"players": SEATS, "current": "Béla", "knocks": "Dani"},
        {"players": SEATS, "current": "Béla", "knocks": [], "when": 1},
        {"players": "Anna", "current": "Béla", "knocks": []},
        {"players": SEATS, "current": "Béla", "knocks": [], "discarded_by": "Zoé"},
    ],
)
def test_bad_input(doc):
    with pytest.raises(EntryError):
        knock_document(doc)


@given(
    st.integers(2, 6).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.integers(0, n - 1),
            st.lists(st.integers(0, n - 1), unique=True),
        )
    )
)
def test_r17_8_the_winner_does_not_depend_on_the_order_of_knocks(case):
    n, current, knocks = case
    seats = [f"P{i}" for i in range(n)]
    doc = {"players": seats, "current": seats[current], "knocks": [seats[k] for k in knocks]}
    forward = knock_document(doc)
    backward = knock_document({**doc, "knocks": list(reversed(doc["knocks"]))})
    assert forward["gets"] == backward["gets"]
    assert forward["gets"] not in (seats[current], seats[current - 1])
