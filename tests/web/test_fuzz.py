"""Hostile input never gets a 500: random and malicious bodies, form posts, query strings and
paths against every API route and every form route (on SQLite: what a database does with them is
test_store.py's, on both).

Hypothesis draws JSON of any shape (huge numbers, NaN, lone surrogates, NUL bytes, deep
nesting), valid documents with one value swapped for such a thing, raw bytes, and form posts
with hostile values, names (huge list indices) and file uploads in place of text. Every
answer must be below 500. ``COMPANION_FUZZ_EXAMPLES`` sets the examples per route (100 in
CI, 50 otherwise); ``COMPANION_FUZZ_COUNT_ONLY=1`` with ``COMPANION_FUZZ_REPORT=<file>``
counts the answers by route and status (and each 5xx by its exception) instead of failing.
"""

from __future__ import annotations

import io
import json
import os
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from samples import PLAYERS, sample_round

from companion.adapters import store
from companion.adapters.db import get_session
from companion.domain import all_games
from companion.web.pages.forms import round_form_class

EXAMPLES = int(
    os.environ.get("COMPANION_FUZZ_EXAMPLES", "100" if os.environ.get("CI") == "true" else "50")
)
#: Set to 1 to count the answers instead of failing at the first 5xx (for measuring).
COUNT_ONLY = os.environ.get("COMPANION_FUZZ_COUNT_ONLY") == "1"
ANSWERS: Counter[str] = Counter()

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI is reproducible
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

GAME_IDS = [g.id for g in all_games()]

# --- strategies ------------------------------------------------------------------------------

HOSTILE_TEXT = [
    "",
    "\x00",
    "Anna\x00",
    "\ud800",
    "a\udfffb",
    "²",
    "١٢",  # Arabic-Indic digits: isdigit() is True
    "9" * 30,
    "9" * 5000,
    "-1",
    "1e999",
    "NaN",
    "R3 R4 R5",
    "💥" * 50,
    "x" * 5000,
]

texts = st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=30))
numbers = st.one_of(
    st.integers(),
    st.integers(min_value=-(10**80), max_value=10**80),
    st.sampled_from([2**63, -(2**63) - 1, 10**4000]),
    st.floats(allow_nan=True, allow_infinity=True),
)
leaves = st.one_of(st.none(), st.booleans(), numbers, texts)
json_values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*prefix, i))
    return out


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    here = copy
    for step in path[:-1]:
        here = here[step]
    here[path[-1]] = new
    return copy


@st.composite
def mutated(draw: st.DrawFn, valid: list[Any]) -> Any:
    """A valid document with one value (anywhere in it) swapped for something hostile."""
    doc = draw(st.sampled_from(valid))
    path = draw(st.sampled_from(_paths(doc)))
    return _replace(doc, path, draw(json_values))


def deep(n: int) -> bytes:
    return b"[" * n + b"]" * n


RAW = [
    deep(100_000),
    b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    deep(900),  # under Python's recursion limit: parsed, then too deep for the rules core
    b"NaN",
    b'{"game": NaN}',
    b'{"game": "rummikub", "players": [Infinity]}',
    b'"\\ud800"',
    b'{"title": "\\udfff"}',
    b'{"game": "\\u0000"}',
    b"1e999",
    b"9" * 5000,
    b"\xff\xfe",
    b"",
    b"null",
]

bodies = st.one_of(
    st.sampled_from(RAW),
    st.binary(max_size=40),
    json_values.map(lambda v: json.dumps(v, allow_nan=True).encode()),
)


def api_bodies(valid: list[Any]) -> st.SearchStrategy[bytes]:
    docs = mutated(valid).map(lambda v: json.dumps(v, allow_nan=True).encode())
    return st.one_of(bodies, docs, docs)


# --- the matches under attack ----------------------------------------------------------------


@pytest.fixture
def edits(app: Any) -> dict[str, str]:
    """An edit token per game, of a match of 60 rounds (manipulation: to the target) with one."""
    out = {}
    with app.app_context():
        session = get_session()
        for game in GAME_IDS:
            length = None if game == "manipulation" else 60
            match = store.create_match(
                session, game=game, players=PLAYERS, first_dealer="Anna", games=length
            )
            store.add_round(session, match, sample_round(game, 1))
            out[game] = match.edit_token
    return out


def answered(send: Any, where: str) -> None:
    """Send a request (``send()`` gives the response); its answer must be below 500."""
    try:
        status = send().status_code
    except Exception as failure:  # the test client re-raises what would have been a 500
        last = traceback.extract_tb(failure.__traceback__)[-1]
        at = f"{Path(last.filename).name}:{last.lineno}"
        ANSWERS[f"{where} 5xx {type(failure).__name__} {at}"] += 1
        if COUNT_ONLY:
            return
        raise
    ANSWERS[f"{where} {status // 100}xx"] += 1
    if not COUNT_ONLY:
        assert status < 500, where


@pytest.fixture(scope="module", autouse=True)
def report() -> Any:
    yield
    path = os.environ.get("COMPANION_FUZZ_REPORT")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            for key, count in sorted(ANSWERS.items()):
                out.write(f"{key}\t{count}\n")


# --- the API ---------------------------------------------------------------------------------

ROUNDS = [sample_round(g, 1) for g in GAME_IDS]
MATCH_DOC = {"game": "rummikub", "players": PLAYERS, "first_dealer": "Anna", "rounds": ROUNDS[1:2]}
CREATE = [{"game": g, "players": PLAYERS, "first_dealer": "Anna", "games": 3} for g in GAME_IDS]
CHECK = [{"game": g, "cards": ["R3", "R4", "R5"]} for g in GAME_IDS]
TURN = [
    {
        "game": "rummikub",
        "opened": False,
        "before": [["R5", "R6", "R7"]],
        "after": [["R5", "R6", "R7"], ["K9", "B9", "O9", "*"]],
        "hand": ["K9", "B9", "O9", "*"],
    },
    {
        "game": "rummy17",
        "player": "Anna",
        "opened": False,
        "before": {"Anna": [], "Béla": [["K10", "K11", "K12"]]},
        "after": {"Anna": [["R3", "R4", "R5", "*R"]], "Béla": [["K9", "K10", "K11", "K12"]]},
    },
]
KNOCK = [{"players": PLAYERS, "current": PLAYERS[1], "discarded_by": None, "knocks": PLAYERS[::-1]}]
REDEAL = [
    {
        "game": "rummikub",
        "tiles": [
            "R1",
            "R1",
            "K2",
            "K2",
            "B3",
            "B3",
            "O1",
            "O2",
            "O3",
            "O4",
            "O5",
            "O6",
            "O7",
            "*",
        ],
    }
]


@pytest.mark.parametrize(
    ("path", "valid"),
    [
        ("/api/v1/score", ROUNDS),
        ("/api/v1/match", [MATCH_DOC]),
        ("/api/v1/check", CHECK),
        ("/api/v1/turn", TURN),
        ("/api/v1/knock", KNOCK),
        ("/api/v1/redeal", REDEAL),
        ("/api/v1/rescue", CHECK),
        ("/api/v1/matches", CREATE),
    ],
)
def test_api_documents(client, path, valid):
    @FUZZ
    @given(body=api_bodies(valid))
    def run(body: bytes) -> None:
        answered(lambda: client.post(path, data=body, content_type="application/json"), path)

    run()


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_api_match_writes(client, edits, method):
    @FUZZ
    @given(game=st.sampled_from(GAME_IDS), body=api_bodies(ROUNDS), number=st.sampled_from([1, 2]))
    def run(game: str, body: bytes, number: int) -> None:
        base = f"/api/v1/matches/{edits[game]}/games"
        url = base if method == "post" else f"{base}/{number}"
        headers = {"If-Match": "*"}  # every write names its revision (or 428)
        answered(
            lambda: getattr(client, method)(
                url, data=body, content_type="application/json", headers=headers
            ),
            f"{method.upper()} /api/v1/matches/<edit>/games",
        )

    run()


# --- the forms -------------------------------------------------------------------------------

UPLOAD = object()  # a file where text is expected


def _round_fields(game: str) -> list[str]:
    form = round_form_class(game)
    names = []
    desc = form.descriptor
    for seat in range(len(PLAYERS)):
        if desc.melds:
            names.append(f"players-{seat}-melds")
        names.append(f"players-{seat}-{desc.holding}")
        names += [f"players-{seat}-{c.key}" for c in desc.counts]
    names += [e.key for e in desc.endings]
    if desc.bonus_cards:
        names.append("bonus_cards")
    if desc.last_card:
        names.append("last_discard")
    return [*names, "revision", "key", "preview", "notice", "draw"]


START_FIELDS = [*(f"names-{i}" for i in range(6)), "first", "games", "title", "random", "key"]
HOSTILE_NAMES = [
    "players-" + "9" * 5000 + "-melds",
    "players-99999999999999999999-hand",
    "players-²-rack",
    "names-" + "9" * 5000,
    "names-99999999999",
    "names-١",
    "\x00",
]
# A browser sends what it cannot encode as "?" (there are no lone surrogates in a form post).
form_texts = texts.map(lambda t: t.encode("utf-8", "replace").decode("utf-8"))
form_values = st.one_of(form_texts, st.integers().map(str), st.just(UPLOAD))


def form_posts(fields: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    names = st.one_of(
        st.sampled_from(fields), st.sampled_from(fields), st.sampled_from(HOSTILE_NAMES)
    )
    return st.dictionaries(names, form_values, max_size=8)


def _post(client: Any, url: str, data: dict[str, Any]) -> Any:
    files = any(v is UPLOAD for v in data.values())
    sent = {k: ((io.BytesIO(b"R3 R4"), "f.txt") if v is UPLOAD else v) for k, v in data.items()}
    kind = "multipart/form-data" if files else None
    return lambda: client.post(url, data=sent, content_type=kind)


@pytest.mark.parametrize("game", GAME_IDS)
def test_start_form(client, game):
    @FUZZ
    @given(data=form_posts(START_FIELDS))
    def run(data: dict[str, Any]) -> None:
        answered(_post(client, f"/start/{game}", data), "POST /start/<game>")

    run()


@pytest.mark.parametrize("game", GAME_IDS)
def test_round_forms(client, edits, game):
    @FUZZ
    @given(
        data=form_posts(_round_fields(game)),
        action=st.sampled_from(["rounds/new", "rounds/1/edit", "rounds/1/delete"]),
    )
    def run(data: dict[str, Any], action: str) -> None:
        answered(_post(client, f"/m/{edits[game]}/{action}", data), f"POST /m/<edit>/{action}")

    run()


def test_confirm_forms(client, edits):
    @FUZZ
    @given(
        data=form_posts(["revision", "key", "csrf_token"]),
        action=st.sampled_from(["lengthen", "rematch"]),
    )
    def run(data: dict[str, Any], action: str) -> None:
        answered(_post(client, f"/m/{edits['rummikub']}/{action}", data), f"POST {action}")

    run()


# --- query strings, paths and cookies ----------------------------------------------------------


#: Device cookies as a browser could send them: ``"\\000"`` is a NUL once unquoted.
COOKIES = ['"\\000"', '"a\\000b"', "x" * 5000, '"\\377"']


def test_queries_paths_and_cookies(client, edits):
    @FUZZ
    @given(
        value=texts,
        where=st.sampled_from(
            [
                "/check?game=rummikub&cards={}",
                "/check?game={}&cards=R3",
                "/rescue?game=rummy-o&cards={}",
                "/rescue?game={}&cards=R3",
                "/sheets/blank.pdf?players={}&games=0",
                "/sheets/blank.pdf?games={}&players=9",
                "/sheets/blank.pdf?paper={}&players=0",
                "/m/{}",
                "/v/{}",
                "/m/{}/sheet.pdf",
                "/v/{}.json",
                "/api/v1/matches/{}",
                "/api/v1/games/{}",
                "/m/{}/rounds/1",
            ]
        ),
        cookie=st.one_of(st.sampled_from(COOKIES), texts),
    )
    def run(value: str, where: str, cookie: str) -> None:
        from urllib.parse import quote

        quoted = quote(value.encode("utf-8", "surrogatepass"), safe="")
        if cookie not in COOKIES:
            cookie = quote(cookie.encode("utf-8", "surrogatepass"))
        headers = {"Cookie": "companion_device=" + cookie}
        url = where.format(quoted)
        answered(lambda: client.get(url, headers=headers), "GET " + where.split("?")[0])

    run()
