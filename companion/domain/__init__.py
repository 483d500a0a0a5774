"""The rules core: the rules of the games as pure code.

Nothing here imports a web, database or PDF library; the CLI, the web pages, the JSON API and
the score sheets all call these functions, so every rule exists once. Every game is reached
through ``get_game(id)`` (``game.py``); problems come back as codes with parameters
(``errors.py``) rendered to words by ``messages.render``. What belongs to one game is that
game's own (``companion.domain.games.rummy17``: its bonus cards, melds and round document).
"""

from collections.abc import Mapping
from typing import Any

from companion.domain.cards import Card, Joker, parse_card, split_cards
from companion.domain.description import Description
from companion.domain.documents import KnockBody, TurnBody, json_of
from companion.domain.errors import Collector, EntryError, Problem, about
from companion.domain.game import Column, Decision, Game, RoundOutcome, all_games, get_game
from companion.domain.messages import ENGLISH, Translator, localize, render
from companion.domain.scoring import match_document, score_document
from companion.domain.seating import check_names, dealer_of, left_of, standings


def check_meld(game: object, cards: list[object]) -> dict[str, object]:
    """The contract's ``check``: the verdict of ``game`` on one meld.

    A string holding several cards (``"R1,R2,R3"``, ``"R1 R2"``) counts as those cards.
    """
    found = get_game(game)
    with about(context=found.id):  # its problems said in the game's words
        return found.check_meld(split_cards(cards))


def check_turn(doc: TurnBody | object) -> dict[str, Any]:
    """The contract's ``turn``: is this turn legal? Every problem, each with its clause."""
    doc = json_of(doc)
    if not isinstance(doc, Mapping):
        raise EntryError("turn-not-object")
    game = get_game(doc.get("game"))
    with about(context=game.id):
        return game.check_turn(doc)


def knock(doc: KnockBody | object, tr: Translator = ENGLISH) -> dict[str, Any]:
    """The contract's ``knock``: who gets the face-up card? Asked of the game named by
    ``game`` (an extension), else of the first game whose rules let others knock (R17-8)."""
    doc = json_of(doc)
    if not isinstance(doc, Mapping):
        raise EntryError("knock-not-object")
    if "game" in doc:
        game = get_game(doc["game"])
    else:
        game = next(g for g in all_games() if g.knock_rule is not None)
    with about(context=game.id):
        return game.knock({k: v for k, v in doc.items() if k != "game"}, tr)


def check_redeal(game: object, tiles: list[object]) -> dict[str, Any]:
    """May a player with these first tiles ask for a reshuffle? (RK-3)"""
    found = get_game(game)
    with about(context=found.id):
        return found.check_redeal(tiles)


__all__ = [
    "ENGLISH",
    "Card",
    "Collector",
    "Column",
    "Decision",
    "Description",
    "EntryError",
    "Game",
    "Joker",
    "Problem",
    "RoundOutcome",
    "Translator",
    "check_meld",
    "check_redeal",
    "check_turn",
    "knock",
    "check_names",
    "dealer_of",
    "all_games",
    "get_game",
    "left_of",
    "localize",
    "match_document",
    "parse_card",
    "render",
    "score_document",
    "split_cards",
    "standings",
]
