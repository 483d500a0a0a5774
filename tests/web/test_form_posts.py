"""Hypothesis-driven posts to the forms with a valid CSRF token.

The start form, the round form and the blank sheet's form get values of every kind —
wrong types, huge texts and numbers, odd unicode, fields left out, fields no form has —
and must answer without a server error; a refused form comes back with what was typed.
``COMPANION_FUZZ_EXAMPLES`` sets the examples per form (50 by default, as test_fuzz.py).
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape
from samples import PLAYERS

from companion.adapters import store
from companion.adapters.db import get_session

EXAMPLES = int(os.environ.get("COMPANION_FUZZ_EXAMPLES", "50"))
FORMS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)

#: What someone typed that the test looks for on a refused form.
TYPED_NAME = "Zsófi Ünal"
TYPED_RACK = "R3 K13 *"

ODD = [
    "²",
    "١٢",
    "\u202eRTL",
    "e\u0301",
    "\u200b",
    "🂡🂱",
    "<b>x</b>",
    "' OR 1=1 --",
    "9" * 40,
    "-1",
    "1e999",
    "NaN",
    "x" * 3000,
    "R3\nR4\r\nR5",
]
#: Text a browser can send (no lone surrogates; a NUL is refused as a whole post, tested apart).
typed = st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00"))
values = st.one_of(
    st.sampled_from(ODD),
    typed.filter(lambda t: len(t) < 60),
    st.integers().map(str),
    st.floats(allow_nan=True).map(str),
)
EXTRA = ["extra", "players-0-extra", "names-99", "players-7-rack", "games-0", "bonus_cards-1"]


def posts(fields: list[str]) -> st.SearchStrategy[dict[str, str]]:
    """Some of ``fields`` (others left out) and some fields no form has, each with a value."""
    names = st.one_of(st.sampled_from(fields), st.sampled_from(EXTRA))
    return st.dictionaries(names, values, max_size=10)


def csrf(client: Any, url: str) -> str:
    page = client.get(url).get_data(as_text=True)
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert found, url
    return found.group(1)


def kept(page: str, value: str) -> bool:
    return str(escape(value)) in page


START_FIELDS = [
    "names-0",
    *(f"names-{i}" for i in range(2, 6)),
    "first",
    "games",
    "title",
    "random",
    "key",
]


@pytest.mark.parametrize("game", ["rummy17", "rummikub", "manipulation"])
def test_start_form_posts_never_fail_and_keep_what_was_typed(csrf_app, game):
    client = csrf_app.test_client()
    token = csrf(client, f"/start/{game}")
    statuses: list[int] = []

    @FORMS
    @given(data=posts(START_FIELDS))
    def run(data: dict[str, str]) -> None:
        sent = {**data, "names-1": TYPED_NAME, "csrf_token": token}
        response = client.post(f"/start/{game}", data=sent)
        statuses.append(response.status_code)
        assert response.status_code < 500
        if response.status_code == 422:
            assert kept(response.get_data(as_text=True), TYPED_NAME)

    run()
    assert 422 in statuses  # some posts were refused, and kept what was typed


@pytest.fixture
def edit(csrf_app: Any) -> str:
    with csrf_app.app_context():
        match = store.create_match(
            get_session(), game="rummikub", players=PLAYERS, first_dealer="Anna", games=60
        )
        return match.edit_token


ROUND_FIELDS = [
    "players-1-rack",
    "players-2-rack",
    "players-0-points",
    "players-1-points",
    "went_out",
    "revision",
    "key",
    "preview",
]


def test_round_form_posts_never_fail_and_keep_what_was_typed(csrf_app, edit):
    client = csrf_app.test_client()
    url = f"/m/{edit}/rounds/new"
    token = csrf(client, url)
    statuses: list[int] = []

    @FORMS
    @given(data=posts(ROUND_FIELDS))
    def run(data: dict[str, str]) -> None:
        sent = {**data, "players-0-rack": TYPED_RACK, "csrf_token": token}
        response = client.post(url, data=sent)
        statuses.append(response.status_code)
        assert response.status_code < 500
        if response.status_code in (409, 422):
            assert kept(response.get_data(as_text=True), TYPED_RACK)

    run()
    assert 422 in statuses


def test_blank_sheet_form_never_fails(client):
    @settings(FORMS, max_examples=max(5, EXAMPLES // 5))  # a PDF takes a while to draw
    @given(
        data=st.dictionaries(
            st.sampled_from(["game", "players", "games", "paper", "extra"]), values, max_size=5
        )
    )
    def run(data: dict[str, str]) -> None:
        query = "&".join(f"{k}={quote(v.encode('utf-8'), safe='')}" for k, v in data.items())
        response = client.get(f"/sheets/blank.pdf?{query}")
        assert response.status_code < 500
        if response.status_code == 200:
            assert response.data.startswith(b"%PDF")

    run()
