"""The table's language everywhere: the same numbers and winners, every reason in its words."""

from __future__ import annotations

import json
import re

import pytest
from support import DATA, load, run_main

from companion.domain import EntryError, render, score_document
from companion.i18n.catalogues import number, signed, translator

LANGUAGES = ("hu", "de", "bg")


def _score(*args: str) -> dict:
    proc = run_main(*args)
    return json.loads(proc.stdout)


def _numbers(result: dict) -> list:
    """Everything of a result but its words."""
    return [
        [(p["name"], p["penalty"], p["bonus"], p["score"], p["bonus_cards"])
         for p in result["players"]],
        [(a["card"], a["winners"], a["points"], a["figures"], a["rule"])
         for a in result["awards"]],
        result["multiplier"],
    ]  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("where", ["before", "after"])
def test_cli_lang_changes_only_the_words_of_every_award(lang: str, where: str) -> None:
    english = _score("score", str(DATA / "rummy17-round.json"))
    args = ["--lang", lang]
    words = _score(
        *(args + ["score"] if where == "before" else ["score"] + args),
        str(DATA / "rummy17-round.json"),
    )
    assert _numbers(words) == _numbers(english)
    for ours, theirs in zip(words["awards"], english["awards"], strict=True):
        assert ours["reason"] and ours["reason"] != theirs["reason"]
        for name in ours["winners"]:
            assert name in ours["reason"]  # the names stay as the table typed them


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cli_errors_speak_the_language_from_the_environment(lang: str) -> None:
    doc = load("rummy17-round.json")
    doc["players"][1]["melds"].append(["R5", "R5", "R5"])
    import os
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "companion", "score", "-"],
        input=json.dumps(doc),
        capture_output=True,
        text=True,
        env={**os.environ, "COMPANION_LANG": lang},
        check=False,
    )
    english = run_main("score", "-", stdin=json.dumps(doc))
    assert proc.returncode == english.returncode == 2
    ours, theirs = json.loads(proc.stdout)["error"], json.loads(english.stdout)["error"]
    assert ours["code"] == theirs["code"] and ours.get("rule") == theirs.get("rule")
    assert ours["message"] != theirs["message"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_registered_message_renders_in_every_language(lang: str) -> None:
    """A translation whose placeholders do not fit its message fails here, not at a table."""
    from string import Formatter

    from companion.domain.messages import MESSAGES

    tr = translator(lang)
    for code, text in MESSAGES.items():
        english = text[1] if isinstance(text, tuple) else text
        names = {field for _, field, _, _ in Formatter().parse(english) if field}
        params = {name: 2 for name in names}
        if isinstance(text, tuple):
            params[text[2]] = 2
        assert render(code, params, tr)  # no KeyError, IndexError or ValueError


def test_numbers_follow_the_language() -> None:
    assert signed(12, translator("de")) == "+12"
    assert signed(-3, translator("hu")) == number(-3, translator("hu"))
    assert number(1234, translator("de")) == "1.234"
    assert signed(0, translator("bg")) == "0"


def test_the_rules_core_words_are_english_without_a_translator() -> None:
    with pytest.raises(EntryError) as caught:
        score_document({"game": "rummy17"})
    assert caught.value.message.isascii()


#: A Rummy 17 joker named by its colour, as each language says it: by rule, with
#: the adjective's ending (de) or the definite form (bg), never "der Joker (rot)".
JOKER = {
    "en": ["the red joker cannot", "in a blue run", "Add 1 more green card",
           "where the black joker was"],
    "hu": ["a piros joker nem", "kék sorban", "Tegyél még 1 zöld lapot", "a fekete joker helyére"],
    "de": ["der rote Joker kann", "in einer blauen Folge", "Noch 1 grüne Karte",
           "des schwarzen Jokers"],
    "bg": ["червеният жокер не може", "в синя поредица", "още 1 зелена карта",
           "на черния жокер"],
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_a_coloured_joker_is_named_by_the_grammar_of_the_language(lang: str) -> None:
    import companion.domain.fixes  # noqa: F401  (the fixes' words)

    tr = translator(lang)
    said = [
        render("run-joker-colour", {"colour": "red", "colour2": "blue", "rule": "R17-13"}, tr),
        render("run-joker-colour", {"colour": "red", "colour2": "blue", "rule": "R17-13"}, tr),
        render("fix-turn17-joker-short", {"colour": "green", "short": 1}, tr),
        render(
            "fix-turn17-swap-card-missing",
            {"colour": "black", "stand": "K5", "owner": "Lili", "number": 2},
            tr,
        ),
    ]
    for text, words in zip(said, JOKER[lang], strict=True):
        assert words in text, (lang, text)
    assert not re.search(r"\((?:rot|blau|червен|син)\)", " ".join(said))
    plural = render("fix-turn17-joker-short", {"colour": "yellow", "short": 2}, tr)
    assert {"en": "2 more yellow cards", "hu": "2 sárga lapot", "de": "2 gelbe Karten",
            "bg": "2 жълти карти"}[lang] in plural  # fmt: skip


@pytest.mark.parametrize(
    ("lang", "tiles", "cards"),
    [
        ("en", ("R14 is not a tile", "identical tiles"), "identical cards"),
        ("hu", ("R14 nem játéklap", "azonos játéklap"), "azonos lap"),
        ("de", ("R14 ist kein Stein", "gleiche Steine"), "gleiche Karten"),
        ("bg", ("R14 не е плочка", "еднакви плочки"), "еднакви карти"),
    ],
)
def test_the_tile_games_say_tiles_where_the_card_games_say_cards(
    lang: str, tiles: tuple[str, str], cards: str
) -> None:
    # a text shared with the card games says the tile games' word in their context.
    from companion.domain import check_meld, localize

    tr = translator(lang)
    with pytest.raises(EntryError) as caught:
        check_meld("rummikub", ["R14"])
    assert caught.value.first.message(tr).startswith(tiles[0])
    assert caught.value.first.message().startswith("R14 is not a card")  # the core's English
    group = check_meld("rummy-o", ["R1", "B1", "K1", "G1", "B1"])
    assert tiles[1] in localize(group, tr, "rummy-o")["reason"]
    assert cards in localize(group, tr)["reason"]  # the card games' words (Manipulation)
