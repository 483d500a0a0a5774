"""Problems as codes with parameters (errors.py) and their words (messages.py)."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest
from helpers import Catalogue

from companion.domain import Collector, EntryError, Problem, all_games, parse_card
from companion.domain.errors import about
from companion.domain.games.rummy17 import BONUS_CARDS
from companion.domain.games.rummy17.deck import RUMMY17
from companion.domain.messages import MESSAGES, TERMS, join, location, render

RULES = Path(__file__).parents[2] / "companion" / "domain"
CODE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)+$")

#: A plausible value for every parameter a message uses: a new parameter must be added here.
SAMPLES: dict[str, object] = {
    "best": 2,
    "bonus_name": "Most runs",
    "card": "R5",
    "cards": ["R4", "R5"],
    "colour": "red",
    "colour2": "blue",
    "colours": {"R": "red", "B": "blue"},
    "could": ["R4", "R7"],
    "count": 2,
    "current": "Béla",
    "discarder": "Anna",
    "example": "R7",
    "field": "before",
    "fields": "game, players",
    "first": "R4",
    "game": "chess",
    "game_name": "Rummy 17",
    "games": 3,
    "given": "best-hand",
    "high": 17,
    "jokers": ["*R", "*B"],
    "key": "went-out",
    "key2": "rack",
    "last": 2,
    "least": 4,
    "letter": "R",
    "limit": 40,
    "method": "swiss",
    "methods": "draw, standings",
    "low": 1,
    "max": 802,
    "min": 1,
    "most": 2,
    "name": "Zoli",
    "names": "Anna, Béla",
    "nobody": "nobody has a set",
    "number": 2,
    "other": "Anna",
    "other_meld": 1,
    "others": {"Zsófi": 1, "Lili": 0},
    "owner": "Cili",
    "pairs": 2,
    "phrase": "the most runs",
    "player": "Béla",
    "rank": "7",
    "rule": "D17-8",
    "short": 1,
    "size": 6,
    "stand": "R6",
    "stated": "R9",
    "text": "Q5",
    "value": 5,
    "what": "a round",
    "winner": "Anna",
    "winners": ["Anna", "Béla"],
}


def _fields(text: str) -> set[str]:
    return {f.split("!")[0] for _, f, _, _ in string.Formatter().parse(text) if f}


def _texts(code: str) -> list[str]:
    text = MESSAGES[code]
    return list(text[:2]) if isinstance(text, tuple) else [text]


def _registered_in_rules() -> list[str]:
    """The codes the rules core registers (the shells register their own)."""
    found = []
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "register"
                and node.args
                and isinstance(node.args[0], ast.Dict)
            ):
                found += [k.value for k in node.args[0].keys if isinstance(k, ast.Constant)]
    return sorted(found)


def _load_every_rules_module() -> None:
    """The referee's, the solver's and the events' modules load only when asked; their codes
    register then. Load them all here, as a long-running server ends up doing."""
    import importlib
    import pkgutil

    import companion.domain as core

    for found in pkgutil.walk_packages(core.__path__, "companion.domain."):
        importlib.import_module(found.name)


_load_every_rules_module()

RULES_CODES = _registered_in_rules()


def _codes_in_source() -> set[str]:
    """Every string in the rules core that looks like a code (``card-twice``)."""
    found = set()
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if CODE.match(node.value):
                    found.add(node.value)
    return found


def test_every_code_raised_in_the_rules_core_has_a_message():
    ids = set(BONUS_CARDS) | {g.id for g in all_games()}  # ids of bonus cards and games, not codes
    assert _codes_in_source() - ids - set(MESSAGES) == set()


def test_every_code_is_a_code_not_a_sentence():
    assert RULES_CODES and set(RULES_CODES) <= set(MESSAGES)
    assert all(CODE.match(code) for code in RULES_CODES)
    assert not [code for code in MESSAGES if " " in code]


@pytest.mark.parametrize("code", RULES_CODES)
def test_every_message_renders_with_plausible_parameters(code):
    fields = set().union(*(_fields(t) for t in _texts(code)))
    assert fields <= set(SAMPLES), f"add a sample for {fields - set(SAMPLES)}"
    for count in (1, 2):
        params = {k: SAMPLES[k] for k in fields}
        if isinstance(MESSAGES[code], tuple):
            params[MESSAGES[code][2]] = count
        text = render(code, params)
        assert text and "{" not in text.replace('{"', "") and "[" not in text
        assert text == render(code, params, Catalogue({}))
        json.dumps(params)  # parameters travel as JSON to the shells


def test_an_unknown_code_is_a_bug_not_a_message():
    with pytest.raises(KeyError):
        render("no-such-code", {})


def test_list_and_object_parameters_read_as_words():
    assert join(["A"]) == "A" and join(["A", "B", "C"]) == "A, B and C"
    assert join(["A", "B"], word="or") == "A or B"
    assert render("run-joker-stand-in", {**SAMPLES, "could": ["R4", "R7"]}).endswith(
        "it can stand for R4 or R7 (D17-8)"
    )
    could = [["R6", "R7"], ["R7", "R8"]]
    assert render("tiles-joker-could", {"could": could, "first": "R6", "rule": "RK-12"}) == (
        "the joker could stand for R6 and R7 or R7 and R8; say which, like *R6 (RK-12)"
    )


def test_words_of_the_game_are_translated_with_the_sentence():
    hungarian = Catalogue(
        {
            "the {colour} joker cannot stand for {stand}: a joker only stands for a card of its "
            "own colour ({rule})": "a {colour} joker nem állhat {stand} helyett ({rule})",
            "red": "piros",
            "blue": "kék",
        }
    )
    with pytest.raises(EntryError) as err:
        parse_card("*RB6", RUMMY17)
    assert err.value.first.message(hungarian) == "a piros joker nem állhat B6 helyett (R17-13)"
    assert {"colour", "colours", "game_name", "bonus_name", "phrase", "nobody"} <= TERMS
    assert render("not-a-card", {**SAMPLES}, hungarian).startswith(
        "Q5 is not a card: a card is a colour (R piros, B kék)"
    )


def test_plurals_go_through_the_catalogue():
    catalogue = Catalogue(
        {
            "{cards} is missing between {low} and {high}: a run has consecutive values ({rule})": (
                "{cards} hiányzik",
                "{cards} hiányoznak",
            )
        }
    )
    one = {"cards": ["R4"], "count": 1, "low": "R3", "high": "R5", "rule": "R17-9"}
    assert render("run-gap", one, catalogue) == "R4 hiányzik"
    assert render("run-gap", {**one, "cards": ["R4", "R5"], "count": 2}, catalogue) == (
        "R4 and R5 hiányoznak"
    )


@pytest.mark.parametrize(
    ("places", "prefix"),
    [
        ({}, ""),
        ({"round": 2}, "round 2: "),
        ({"player": "Béla", "meld": 2}, "Béla, meld 2: "),
        ({"round": 3, "player": "Béla", "meld": 2}, "round 3: Béla, meld 2: "),
        ({"player": "Béla", "field": "hand"}, "Béla's hand: "),
        ({"player": "Béla", "field": "rack"}, "Béla's rack: "),
        ({"player": "Béla", "field": "melds"}, "Béla's melds: "),
        ({"player": "Béla", "field": "went_out"}, ""),  # the sentence names the player itself
        ({"field": "last_discard"}, ""),
    ],
)
def test_where_a_problem_is_starts_its_message(places, prefix):
    assert (
        location(places.get("round"), places.get("player"), places.get("meld"), places.get("field"))
        == prefix
    )
    problem = Problem("meld-not-list", **places)
    assert problem.message() == prefix + "a meld is a list of cards"


def test_a_collector_keeps_every_problem_with_its_place_and_raises_them_together():
    problems = Collector()
    assert not problems
    problems.raise_any()  # nothing found, nothing raised
    for number, cards in enumerate([["R3", "Q4"], ["R3", "R4"], ["X1"]], start=1):
        with problems.check(player="Anna", meld=number):
            for card in cards:
                parse_card(card, RUMMY17)
    with pytest.raises(EntryError) as err:
        problems.raise_any()
    assert err.value.codes == ["not-a-card-coloured-joker", "not-a-card-coloured-joker"]
    assert [(p.meld, p.card) for p in err.value.problems] == [(1, "Q4"), (3, "X1")]
    assert str(err.value).count("Anna, meld") == 2


def test_about_fills_in_only_the_places_not_known_yet():
    with pytest.raises(EntryError) as err, about(player="Anna", round=2):
        raise EntryError("name-twice", player="Béla", name="Béla")
    assert (err.value.player, err.value.round) == ("Béla", 2)


def test_an_error_of_no_problem_is_a_bug():
    with pytest.raises(ValueError):
        EntryError.of([])


def test_the_error_object_carries_code_params_and_places():
    err = EntryError(
        "card-twice", player="Béla", meld=2, card="R5", rule="D17-8", other="Anna", other_meld=1
    )
    assert err.to_json() == {
        "error": {
            "message": (
                "Béla, meld 2: R5 appears twice (also in Anna's meld 1); each card exists once "
                "(D17-8)"
            ),
            "code": "card-twice",
            "player": "Béla",
            "meld": 2,
            "card": "R5",
            "rule": "D17-8",
            "params": {"other": "Anna", "other_meld": 1},
        }
    }
    assert err.message == err.to_json()["error"]["message"]


def test_a_word_of_the_game_takes_the_form_the_sentence_asks_for():
    # the parameter stays "red"; the translation asks for a form by its tag and the
    # catalogue lists the word's forms in the context "forms" (messages.inflect).
    german = Catalogue(
        {
            "red": "rot",
            "blue": "blau",
            "forms\x04red": "rot; e=rote; en=roten; er=roter",
            "forms\x04blue": "blau; e=blaue; en=blauen; er=blauer",
            MESSAGES["run-joker-colour"]: (
                "der {colour}[e] Joker kann nicht in einer {colour2}[en] Folge stehen ({rule})"
            ),
        }
    )
    params = {"colour": "red", "colour2": "blue", "rule": "R17-13"}
    said = render("run-joker-colour", params, german)
    assert said == "der rote Joker kann nicht in einer blauen Folge stehen (R17-13)"
    # English has no forms: the word as it is, the rules core's sentence unchanged
    assert render("run-joker-colour", params).startswith("the red joker cannot stand in a blue run")


def test_a_form_a_word_does_not_list_reads_as_the_word():
    tr = Catalogue({"red": "piros", MESSAGES["turn17-joker-set"]: "a {colour}[m-def] joker"})
    assert render("turn17-joker-set", {"colour": "red"}, tr) == "a piros joker"
