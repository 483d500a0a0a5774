"""Taps for a round of a game whose leftovers are counted, not melded: Rummikub, Rummy-O and
Manipulation Rummy. ``bench/taps.py`` calls this for any game but Rummy 17.

The fastest path a practised scorekeeper takes on the round form: "Enter round", one tap per
ending question (who went out, who knocked, or its "nobody"), then each player's points on the
rack or in the hand typed into the form's number field (a tap on the field and a key per
digit; a player with nothing left is skipped, as the form counts an empty field as nothing
held), and "Save round". Everything comes from the game's description (its endings, its
``holding`` and its counts), so no game id is compared here. The points typed are the ones a
person adds up at the table, the rules core's ``<holding>_value`` for the document; the
scoreboard must then show ``companion score``'s scores.
"""

from __future__ import annotations

import re
from typing import Any

from companion.domain import get_game, score_document


def points(doc: dict[str, Any]) -> dict[str, int]:
    """What each player holds, counted as the rules count it (RK-20, RO-11, MR-16)."""
    game = get_game(doc["game"]).describe()
    key = f"{game.holding}_value"
    return {p["name"]: int(p[key]) for p in score_document(doc)["players"]}


def enter_counted_round(count: Any, doc: dict[str, Any]) -> None:
    """From the scoreboard, enter ``doc`` with each holding typed as its points; ``count``
    is taps.py's Counter (every click and key press is one)."""
    page = count.page
    game = get_game(doc["game"]).describe()
    count.tap(page.get_by_role("link", name=re.compile(r"^Enter (round|game)")), "enter round")
    page.wait_for_load_state()
    ending = page.locator("#ending")
    for question in game.endings:
        who = doc.get(question.key)
        group = ending.get_by_role("radiogroup", name=question.question)
        name = who if who is not None else question.nobody
        count.tap(group.get_by_role("radio", name=name, exact=True), f"{question.key}: {name}")
    label = game.counts[0].label
    held = points(doc)
    for i, player in enumerate(doc["players"]):
        if held[player["name"]] == 0:
            continue
        field = page.locator("fieldset.player").nth(i).get_by_role("spinbutton", name=label)
        count.type(field, str(held[player["name"]]))
    count.tap(page.get_by_role("button", name=re.compile(r"^Save (round|game)")), "save")
    page.wait_for_url(re.compile(r"/m/[^/]+$"))
    page.get_by_text(re.compile(r"(Round|Game) \d+ saved")).wait_for()
