"""The contract's documents are typed models, parsed once at the edge (``documents.parse``):
the typed object is what the rules take, its JSON form is the body as sent, and a refusal is
said in the project's codes (never pydantic's English)."""

import json
from pathlib import Path

import pytest

from companion.domain import EntryError, check_turn, knock, match_document, score_document
from companion.domain.club import standings
from companion.domain.documents import (
    EventDocument,
    KnockBody,
    MatchDocument,
    PartBody,
    Round,
    TurnBody,
    parse,
)

DATA = Path(__file__).parent.parent / "data"
ROUNDS = ["rummy17-round", "rummy17-doubled", "rummikub-round", "manipulation-round"]


def load(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ROUNDS)
def test_a_typed_round_is_scored_as_the_round_as_sent(name):
    raw = load(name)
    typed = parse(Round, raw)
    assert isinstance(typed, Round)
    assert score_document(typed) == score_document(raw)


@pytest.mark.parametrize("name", [*ROUNDS, "dense-round", "taps-round"])
def test_the_json_form_is_the_body_as_sent_in_its_order(name):
    raw = load(name)
    assert json.dumps(parse(Round, raw).as_json()) == json.dumps(raw)


def test_a_typed_match_and_event_give_the_same_results():
    raw = load("rummy17-match")
    assert match_document(parse(MatchDocument, raw)) == match_document(raw)
    event = load("event")
    assert standings(parse(EventDocument, event)) == standings(event)


def test_extra_fields_stay_for_the_rules_to_name_in_their_words():
    raw = {**load("rummy17-round"), "colour": "red"}
    typed = parse(Round, raw)
    assert typed.as_json()["colour"] == "red"
    with pytest.raises(EntryError) as typed_err:
        score_document(typed)
    with pytest.raises(EntryError) as raw_err:
        score_document(raw)
    assert typed_err.value.to_json() == raw_err.value.to_json()
    assert typed_err.value.problems[0].code == "round-unknown-field"


@pytest.mark.parametrize(
    ("model", "code"),
    [
        (Round, "round-not-object"),
        (MatchDocument, "match-not-object"),
        (EventDocument, "event-not-object"),
        (TurnBody, "turn-not-object"),
        (KnockBody, "knock-not-object"),
    ],
)
def test_a_body_that_is_no_object_gets_the_rules_own_code(model, code):
    with pytest.raises(EntryError) as err:
        parse(model, ["R1", "R2"])
    assert [p.code for p in err.value.problems] == [code]


def test_a_pydantic_refusal_is_a_code_naming_the_player_not_pydantic_english():
    raw = {"game": "rummy17", "players": [{"name": "Anna", "hand": 5}, {"name": "Béla"}]}
    with pytest.raises(EntryError) as err:
        parse(Round, raw)
    (problem,) = err.value.problems
    assert (problem.code, problem.player, problem.field) == (
        "edge-not-cards",
        "Anna",
        "players[0].hand",
    )
    assert "Input should be" not in json.dumps(err.value.to_json())


def test_a_part_keeps_its_counts_object_as_sent():
    raw = {"hand": {"points": 12}}
    assert parse(PartBody, raw).as_json() == raw


def test_a_typed_turn_and_knock_are_judged_as_the_bodies_as_sent():
    turn = {
        "game": "rummikub",
        "opened": True,
        "before": [["R1", "R2", "R3"]],
        "after": [["R1", "R2", "R3", "R4"]],
        "hand": ["R4", "K9"],
    }
    assert check_turn(parse(TurnBody, turn)) == check_turn(turn)
    ask = {"players": ["Anna", "Béla", "Csaba"], "current": "Anna", "discarded_by": "Csaba"}
    ask["knocks"] = ["Béla"]
    assert knock(parse(KnockBody, ask)) == knock(ask)


def test_the_cli_hands_a_well_shaped_document_typed_and_a_misshapen_one_as_read():
    from companion.cli import typed

    assert isinstance(typed(Round, load("rummy17-round")), Round)
    bad = {"game": "rummy17", "players": [{"name": "Anna", "hand": 5}]}
    assert typed(Round, bad) is bad  # the rules name every problem, as the command always did
