"""Schemathesis against ``/api/v1/openapi.json``, on SQLite (the API on PostgreSQL too:
test_matches_api.py).

Every operation of the document gets requests generated from its own schemas (valid and
invalid ones) and each answer is checked: never a 5xx, a status code the document lists,
JSON as it says, a body matching its schema. Writes go to a real match (its edit token put
into the path), so rounds are added, replaced and deleted for real. ``max_examples`` keeps
it bounded in CI (``COMPANION_SCHEMATHESIS_EXAMPLES``, 15 per operation by default).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from samples import PLAYERS, sample_round
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from companion.adapters import store
from companion.adapters.db import get_session

EXAMPLES = int(os.environ.get("COMPANION_SCHEMATHESIS_EXAMPLES", "15"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture
def edit_token(app: Any) -> str:
    """A Rummikub match of 60 rounds with one entered: the target of the generated writes."""
    with app.app_context():
        session = get_session()
        match = store.create_match(
            session, game="rummikub", players=PLAYERS, first_dealer="Anna", games=60
        )
        store.add_round(session, match, sample_round("rummikub", 1))
        return match.edit_token


@pytest.fixture
def part_token(app: Any, edit_token: str) -> str:
    """Anna's part token of that match's next round (own hands, contract "Own hands")."""
    with app.app_context():
        session = get_session()
        match = store.get_by_edit_token(session, edit_token)
        assert match is not None
        return store.open_parts(session, match).parts[0].token


def test_the_openapi_document_is_valid_openapi_3_1(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    document = response.get_json()
    assert document["openapi"] == "3.1.0"
    schema = schemathesis.openapi.from_dict(document)
    schema.validate()  # against the OpenAPI 3.1 meta-schema; raises when invalid
    paths = document["paths"]
    for path in (
        "/api/v1/score",
        "/api/v1/match",
        "/api/v1/check",
        "/api/v1/games",
        "/api/v1/games/{game_id}",
        "/api/v1/matches",
        "/api/v1/matches/{token}",
        "/api/v1/matches/{token}/games",
        "/api/v1/matches/{token}/games/{number}",
    ):
        assert path in paths, path
    put = paths["/api/v1/matches/{token}/games/{number}"]["put"]
    assert {p["name"] for p in put["parameters"]} >= {"If-Match", "Idempotency-Key"}
    assert {"412", "422", "428"} <= set(put["responses"])
    assert "ETag" in put["responses"]["200"]["headers"]


def test_every_api_route_is_in_the_document(app, client):
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        path = rule.rule.replace("<int:", "{").replace("<", "{").replace(">", "}")
        assert path in paths, f"{path} is missing from the OpenAPI document"
        documented = {m.upper() for m in paths[path]}
        assert set(rule.methods or ()) - {"HEAD", "OPTIONS"} <= documented, path


def test_request_bodies_are_the_edge_models(client):
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    melds = schemas["PlayerEntry"]["properties"]["melds"]["anyOf"][0]
    assert melds["maxItems"] == 30 and melds["items"]["maxItems"] == 20


OPERATIONS = [
    ("POST", "/api/v1/score"),
    ("POST", "/api/v1/match"),
    ("POST", "/api/v1/check"),
    ("GET", "/api/v1/games"),
    ("GET", "/api/v1/games/{game_id}"),
    ("POST", "/api/v1/matches"),
    ("GET", "/api/v1/matches/{token}"),
    ("POST", "/api/v1/matches/{token}/games"),
    ("PUT", "/api/v1/matches/{token}/games/{number}"),
    ("DELETE", "/api/v1/matches/{token}/games/{number}"),
    ("POST", "/api/v1/standings"),
    ("POST", "/api/v1/events"),
    ("GET", "/api/v1/events/{token}"),
    ("POST", "/api/v1/matches/{token}/parts"),
    ("GET", "/api/v1/matches/{token}/parts"),
    ("PUT", "/api/v1/parts/{token}"),
    ("GET", "/api/v1/parts/{token}"),
    ("DELETE", "/api/v1/matches/{token}/parts"),
]


# Schemathesis' own ``schema.parametrize()`` fails on pytest 9 (it reads a private node id),
# so each operation's strategy is drawn with Hypothesis directly.
# Negative cases only where something can be made invalid (a body, an Idempotency-Key).
CASES = [(m, p, GenerationMode.POSITIVE) for m, p in OPERATIONS] + [
    (m, p, GenerationMode.NEGATIVE)
    for m, p in OPERATIONS
    if m != "GET" and not p.endswith("/parts")  # opening and dropping parts take no body
]


@pytest.mark.parametrize(("method", "path", "mode"), CASES)
def test_api_conforms_to_its_openapi_document(app, edit_token, part_token, method, path, mode):
    operation = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)[path][method]
    token = part_token if path.startswith("/api/v1/parts/") else edit_token
    fixed = {"token": token} if "{token}" in path else None
    answered: list[int] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode, path_parameters=fixed))
    def run(case: Any) -> None:
        answered.append(case.call_and_validate(checks=CHECKS).status_code)

    run()
    assert answered and max(answered) < 500
