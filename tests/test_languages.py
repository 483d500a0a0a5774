"""The table's language everywhere: the same numbers and winners, every reason in its words."""

from __future__ import annotations

import json

import pytest
from support import DATA, load, run_companion

from companion.catalogues import number, signed, translator
from companion.rules import EntryError, render, score_document

LANGUAGES = ("hu", "de", "bg")


def _score(*args: str) -> dict:
    proc = run_companion(*args)
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
    english = run_companion("score", "-", stdin=json.dumps(doc))
    assert proc.returncode == english.returncode == 2
    ours, theirs = json.loads(proc.stdout)["error"], json.loads(english.stdout)["error"]
    assert ours["code"] == theirs["code"] and ours.get("rule") == theirs.get("rule")
    assert ours["message"] != theirs["message"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_registered_message_renders_in_every_language(lang: str) -> None:
    """A translation whose placeholders do not fit its message fails here, not at a table."""
    from string import Formatter

    from companion.rules.messages import MESSAGES

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
