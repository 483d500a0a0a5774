"""A game's description is typed: pages and sheets read attributes, the API
sends the same thing as JSON, and no template writes a game's number of its own."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from companion.domain import Description, Game, all_games

GAMES = all_games()
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_the_description_is_typed_and_its_json_is_the_descriptor(game: Game) -> None:
    described = game.describe()
    assert isinstance(described, Description)
    assert described.to_json() == game.descriptor()
    assert (
        described.cards.text(described.cards.colours[0].code, 7)
        == game.parse_card(described.cards.text(described.cards.colours[0].code, 7)).text
    )
    assert described.last_card == (described.last_card_doubles is not None)
    assert dict(described.numbers) == dict(game.numbers)


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_translated_turns_every_word_and_nothing_else(game: Game) -> None:
    plain = game.describe()
    loud = plain.translated(str.upper)
    assert loud.name == plain.name.upper()
    assert [c.name for c in loud.cards.colours] == [c.name.upper() for c in plain.cards.colours]
    assert [c.label for c in loud.columns] == [c.label.upper() for c in plain.columns]
    assert [e.question for e in loud.endings] == [e.question.upper() for e in plain.endings]
    # Codes, keys and clause ids are not words.
    assert [c.code for c in loud.cards.colours] == [c.code for c in plain.cards.colours]
    assert [(e.key, e.rule) for e in loud.endings] == [(e.key, e.rule) for e in plain.endings]
    assert loud.seats == plain.seats and loud.numbers == plain.numbers
    unchanged = {f.name for f in fields(Description)} - {
        "name",
        "first_question",
        "cards",
        "counts",
        "columns",
        "endings",
        "turn_penalty",
        "last_card_doubles",
        "bonus_cards",
    }
    assert {n: getattr(loud, n) for n in unchanged} == {n: getattr(plain, n) for n in unchanged}


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_no_template_of_a_game_writes_its_numbers(game: Game) -> None:
    """RK-21's joker 30, MR-16's 150 and 100…: the game says them (``game.numbers``)."""
    quoted = {str(n) for n in game.numbers.values() if n >= 20}
    for folder in (TEMPLATES / "games" / game.id, TEMPLATES / "sheets" / "games" / game.id):
        for template in folder.glob("*.html"):
            text = re.sub(r"\{#.*?#\}", "", template.read_text(encoding="utf-8"), flags=re.S)
            found = quoted & set(re.findall(r"(?<![\w.-])\d+(?![\w.])", text))
            assert not found, f"{template.name} writes {sorted(found)}"


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_the_copies_of_a_card_are_the_ones_the_entry_checks_allow(game: Game) -> None:
    """The walker's "All colours" key leaves out a card lying elsewhere ``copies`` times:
    the same number the rules core checks a round against (R17-1, DK-4, DO-6);
    Manipulation's depends on the table's decks (DM-8), so it gives none."""
    from companion.domain.games.rummy17.turn import ONCE

    copies = game.describe().cards.copies
    assert game.descriptor()["cards"]["copies"] == copies
    if game.id == "rummy17":
        assert copies == ONCE.copies == 1
    elif game.id == "manipulation":
        assert copies is None
    else:
        assert copies == game.limits({}).copies == 2  # type: ignore[attr-defined]
