"""A Rummy 17 player's own page says *game* where the tile games say *round* (R17-15: Piatnik's
box counts games, *játék / Spiel / игра*), in every language: the page asks the game for its
word (``gw``), never plain ``_()`` (docs/glossary.md, "Words per game")."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

NAMES = ["Anna", "Béla", "Cili"]

#: The word of a Rummy 17 deal, and the tile games' word it never uses (docs/glossary.md).
WORDS = {
    "en": ("game", r"\bround"),
    "hu": ("játék", r"forduló"),
    "de": ("Spiel", r"Runde"),
    "bg": ("игра", r"рунд"),
}


def _text(html: str) -> str:
    """What the page says: its words without tags, scripts or attributes."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _part_link(client: FlaskClient, lang: str) -> str:
    data = {f"names-{i}": n for i, n in enumerate(NAMES)}
    data.update(first="0", games="", title="")
    started = client.post(f"/start/rummy17?lang={lang}", data=data)
    assert started.status_code == 302, started.get_data(as_text=True)
    edit = started.headers["Location"].rsplit("/", 1)[1]
    form = client.post(f"/m/{edit}/rounds/new/parts?lang={lang}", data={"parts": "open"})
    found = re.search(r'data-share="[^"]*/p/([\w-]+)" data-title="Béla"', form.get_data(True))
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("lang", WORDS)
def test_a_rummy17_players_page_says_game_not_round(client: FlaskClient, lang: str) -> None:
    game, never = WORDS[lang]
    token = _part_link(client, lang)
    typed = {"players-0-melds": "R7 R8 R9", "players-0-hand": "R4 G9", "save": "1"}
    sent = client.post(f"/p/{token}?lang={lang}", data=typed)
    assert sent.status_code == 302, sent.get_data(as_text=True)
    page = _text(client.get(f"/p/{token}?lang={lang}").get_data(as_text=True))
    # The notice after sending and the hint under the form both name the deal.
    assert 'id="part-sent"' in client.get(f"/p/{token}?lang={lang}").get_data(as_text=True)
    assert re.findall(never, page, flags=re.I) == [], page
    assert page.lower().count(game.lower()) >= 3  # the heading, the notice and the hint
