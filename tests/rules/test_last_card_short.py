"""The last card's short form ``{"seventeen": false}`` (contract ``score``, R17-15a, D17-8).

When only the doubling matters, the table says whether the last card was a 17 instead of
naming it; the short form takes part in no copy check, like a hand given as counts.
"""

from __future__ import annotations

import copy

import pytest
from support import load

from companion.domain import EntryError, localize, match_document, score_document
from companion.domain.games.rummy17.document import doubles
from companion.i18n.catalogues import translator


def round_with(last: object) -> dict:
    doc = copy.deepcopy(load("rummy17-round.json"))
    doc["last_discard"] = last
    return doc


def scores(result: dict) -> dict[str, int]:
    return {p["name"]: p["score"] for p in result["players"]}


def test_r17_15a_not_a_17_scores_as_the_card_it_stands_for():
    named = score_document(round_with("B11"))
    short = score_document(round_with({"seventeen": False}))
    assert short["multiplier"] == 1 and short["rummy17"] is False
    assert scores(short) == scores(named)
    assert short["last_discard"] == {"seventeen": False}


def test_r17_15a_a_17_of_no_recorded_colour_doubles_everything():
    short = score_document(round_with({"seventeen": True}))
    plain = score_document(round_with({"seventeen": False}))
    assert short["rummy17"] is True and short["multiplier"] == 2
    assert scores(short) == {name: 2 * s for name, s in scores(plain).items()}
    assert short["last_discard"] == {"seventeen": True}


def test_d17_8_the_short_form_takes_part_in_no_copy_check():
    doc = round_with("B11")
    held = next(p for p in doc["players"] if p.get("hand"))
    doc["last_discard"] = held["hand"][0] if isinstance(held["hand"], list) else "B11"
    with pytest.raises(EntryError) as caught:
        score_document(doc)
    assert any(p.code.startswith("last-discard-twice") for p in caught.value.problems)
    doc["last_discard"] = {"seventeen": False}
    assert score_document(doc)["multiplier"] == 1


@pytest.mark.parametrize(
    "bad", [{"seventeen": 1}, {"seventeen": "no"}, {}, {"seventeen": True, "colour": "R"}]
)
def test_r17_15a_a_short_form_says_true_or_false_and_nothing_else(bad):
    with pytest.raises(EntryError) as caught:
        score_document(round_with(bad))
    problem = next(p for p in caught.value.problems if p.code == "last-discard-short")
    assert problem.rule == "R17-15a" and problem.field == "last_discard"


def test_r17_15_no_last_card_of_any_form_when_the_pile_ran_out():
    doc = round_with({"seventeen": False})
    doc["went_out"] = None
    with pytest.raises(EntryError) as caught:
        score_document(doc)
    assert caught.value.first.code == "last-discard-without-out"


def test_the_went_out_award_says_what_was_recorded_in_every_language():
    for last, words in (({"seventeen": True}, "a 17"), ({"seventeen": False}, "not a 17")):
        result = score_document(round_with(last))
        award = next(a for a in result["awards"] if a["card"] == "went-out")
        assert words in award["reason"] and "R17-15a" in award["reason"]
    for lang in ("hu", "de", "bg"):
        result = localize(score_document(round_with({"seventeen": False})), translator(lang))
        award = next(a for a in result["awards"] if a["card"] == "went-out")
        assert "not a 17" not in award["reason"] and "R17-15a" in award["reason"]


def test_a_match_keeps_the_short_form_and_doubles_its_round():
    match = copy.deepcopy(load("rummy17-match.json"))
    first = match["rounds"][0]
    assert first["went_out"] is not None
    first["last_discard"] = {"seventeen": True}
    result = match_document(match)
    assert result["rounds"][0].get("rummy17") is True


def test_the_form_asks_the_doubling_of_a_short_form_too():
    assert doubles("Anna", {"seventeen": True}) is True
    assert doubles("Anna", {"seventeen": False}) is False
    assert doubles("Anna", {"seventeen": "yes"}) is False
    assert doubles(None, {"seventeen": True}) is False
    assert doubles("Anna", "K17") is True
