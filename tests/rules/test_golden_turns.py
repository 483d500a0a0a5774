"""Golden verdicts of ``turn`` (contract ``turn``): every answer stays byte for byte the same.

``tests/data/turn-verdicts.jsonl.gz`` holds one turn a line with the answer the referee gave
it when the file was made: the verdict (``valid``, ``played``, ``value``, the problems in their
order with code, text, params and ``fix``, the melds) or, for bad input, the error. Its turns
are every turn the rules, CLI and web tests checked at the time, and seeded random turns of
each game (``turn_samples.py``). A refactor of the checkers must leave every line as it is; a
change that means to change an answer rewrites the file on purpose, and is told which answers
changed:

    python tests/rules/test_golden_turns.py --write

The file is compressed (1.5 MB of long lines would drown every grep of the tests) and written
without a timestamp, so the same answers give the same bytes.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.rules import EntryError, get_game

GOLDEN = Path(__file__).parent.parent / "data" / "turn-verdicts.jsonl.gz"
GAMES = ("rummikub", "rummy-o", "manipulation", "rummy17")


def answer(doc: dict[str, Any]) -> dict[str, Any]:
    """The referee's answer to one turn: its verdict, or the error of bad input."""
    try:
        return {"verdict": get_game(doc.get("game")).check_turn(doc)}
    except EntryError as err:
        return {"error": err.to_json()}


def line(doc: dict[str, Any]) -> str:
    """One line of the golden file: the turn and its answer."""
    return json.dumps({"doc": doc, **answer(doc)}, ensure_ascii=False)


def golden() -> list[tuple[dict[str, Any], str]]:
    """Each turn of the file with its line as stored."""
    lines = gzip.decompress(GOLDEN.read_bytes()).decode("utf-8").splitlines()
    return [(json.loads(text)["doc"], text) for text in lines]


@pytest.mark.parametrize("game", GAMES)
def test_every_golden_turn_gets_the_same_answer_byte_for_byte(game: str) -> None:
    turns = [(doc, text) for doc, text in golden() if doc.get("game") == game]
    answers = [(text, line(doc)) for doc, text in turns]
    changed = [(old, new) for old, new in answers if old != new]
    assert len(turns) >= 300
    assert not changed, f"{len(changed)} of {len(turns)} answers changed; the first:\n" + (
        "\n".join(changed[0])
    )


def test_the_golden_turns_reach_every_problem_of_every_game() -> None:
    """Every problem a turn reports, of every game, is in the file, in a verdict with others."""
    codes: Counter[str] = Counter()
    together: set[str] = set()
    for _, text in golden():
        verdict = json.loads(text).get("verdict")
        if verdict is None:
            continue
        found = [p["code"] for p in verdict["problems"]]
        codes.update(found)
        if len(set(found)) > 1:
            together.update(found)
    turn_codes = {
        "turn-left-table-tile",
        "turn-left-table-card",
        "turn-joker-left-tile",
        "turn-joker-left-card",
        "turn-nothing-played-tile",
        "turn-nothing-played-card",
        "turn-not-in-hand-tile",
        "turn-not-in-hand-card",
        "turn-initial-touched",
        "turn-initial-joker",
        "turn-initial-value",
        "turn-freed-joker-old-meld",
        "turn-joker-renamed",
        "turn-joker-freed-unplayed",
        "turn-joker-freed-unplayed-rank",
        "turn17-meld-gone",
        "turn17-card-moved",
        "turn17-new-meld-other",
        "turn17-add-before-meld",
        "turn17-joker-added",
        "turn17-joker-set",
        "turn17-joker-short",
        "turn17-swap-not-opened",
        "turn17-swap-card-missing",
        "turn17-joker-not-melded",
        "turn17-not-in-hand",
        "turn17-no-discard",
    }
    assert turn_codes <= set(codes), sorted(turn_codes - set(codes))
    assert len(turn_codes & together) >= len(turn_codes) - 2, sorted(turn_codes - together)


def store(docs: list[dict[str, Any]]) -> None:
    """Write the file: each turn with its answer now, the same bytes for the same answers."""
    text = "".join(line(doc) + "\n" for doc in docs)
    with GOLDEN.open("wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as out:
        out.write(text.encode("utf-8"))


def write() -> None:
    """Answer the file's turns anew (only when an answer is meant to change), saying which."""
    turns = golden()
    for doc, text in turns:
        if line(doc) != text:
            print(f"was: {text}\nnow: {line(doc)}\n")
    store([doc for doc, _ in turns])
    print(f"{len(turns)} turns answered anew in {GOLDEN}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit(__doc__)
    write()
