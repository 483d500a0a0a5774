"""Tables for the rescue tests and ``bench/rescue_bench.py``: full, random legal, impossible.

A legal table is built from melds of the game's deck (two of each card, two jokers), so the
tests know an arrangement exists without asking the solver.
"""

from __future__ import annotations

import random
from collections import Counter

from companion.domain import Card, get_game


def faces(game: str) -> list[str]:
    """One of every card of the game, in the notation."""
    deck = get_game(game).deck
    return [Card(c, v, deck).text for c in deck.colours for v in range(deck.low, deck.high + 1)]


def full_table(game: str) -> tuple[list[str], list[list[str]]]:
    """Every card twice and both jokers (106), and a legal arrangement of them."""
    deck = get_game(game).deck
    melds: list[list[str]] = []
    for copy in range(2):
        for c in deck.colours:
            run = [Card(c, v, deck).text for v in range(deck.low + 1, deck.high + 1)]
            if copy == 0 and c == deck.colours[0] or copy == 1 and c == deck.colours[1]:
                run = ["*" + Card(c, deck.low, deck).text, *run]
            melds.append(run)
        melds.append([Card(c, deck.low, deck).text for c in deck.colours])
    cards = [t if not t.startswith("*") else "*" for m in melds for t in m]
    return cards, melds


def legal_table(game: str, rng: random.Random, tries: int = 30) -> list[list[str]]:
    """Random legal melds from one game's cards (two of each, two jokers), jokers as ``*X``."""
    deck = get_game(game).deck
    left = Counter({f: 2 for f in faces(game)})
    jokers = 2
    top = deck.high + 1 if game == "manipulation" else deck.high  # MR-4: Q-K-A
    melds: list[list[str]] = []
    for _ in range(tries):
        if rng.random() < 0.5:
            colour = rng.choice(deck.colours)
            length = rng.randint(3, 7)
            start = rng.randint(deck.low, top - length + 1)
            want = [
                Card(colour, deck.low if p > deck.high else p, deck).text
                for p in range(start, start + length)
            ]
        else:
            value = rng.randint(deck.low, deck.high)
            colours = rng.sample(deck.colours, rng.choice((3, 4)))
            want = [Card(c, value, deck).text for c in colours]
        meld: list[str] = []
        used = 0
        for face in want:
            if jokers - used > 0 and rng.random() < 0.1:
                meld.append("*" + face)
                used += 1
            else:
                meld.append(face)
        need = Counter(t for t in meld if not t.startswith("*"))
        if all(left[f] >= n for f, n in need.items()) and used < len(meld):
            left -= need
            jokers -= used
            melds.append(meld)
    return melds


def cards_of(melds: list[list[str]], rng: random.Random | None = None) -> list[str]:
    """The cards of the melds as they lie in a heap: jokers bare, in any order."""
    cards = ["*" if t.startswith("*") else t for m in melds for t in m]
    if rng is not None:
        rng.shuffle(cards)
    return cards


def impossible_table(game: str) -> tuple[list[str], str]:
    """Every card but the jokers, the other 1s and one 2 of a colour twice: one lone 1 is left."""
    deck = get_game(game).deck
    lone = Card(deck.colours[0], deck.low, deck).text
    out = Counter({f: 2 for f in faces(game)})
    for c in deck.colours:
        out[Card(c, deck.low, deck).text] = 0
    out[Card(deck.colours[0], deck.low + 1, deck).text] = 0
    if game == "manipulation":  # MR-4: the ace also ends Q-K-A
        out[Card(deck.colours[0], deck.high, deck).text] = 0
    out[lone] = 1
    return list(out.elements()), lone
