"""Seeded random turns of every game, for the golden verdicts (``test_golden_turns.py``).

A turn starts from a legal table and a hand drawn from the game's cards, then a few random
changes are made to the table: new melds from the hand, cards added, taken back, moved, melds
split, jokers freed or swapped, cards from nowhere. Most turns break some clause, several at
once; some are bad input (a stand-in that no longer fits, too many copies). The same seed
gives the same turns.
"""

from __future__ import annotations

import random
from typing import Any

from companion.domain import Card, get_game

TILE_GAMES = ("rummikub", "rummy-o", "manipulation")
NAMES = ("Anna", "Béla", "Cili", "Dani")


def _text(game: str, colour: str, value: int) -> str:
    return Card(colour, value, get_game(game).deck).text


class _Pool:
    """The cards not dealt yet: each card ``copies`` times and the game's jokers."""

    def __init__(self, game: str, rng: random.Random) -> None:
        deck = get_game(game).deck
        self.game, self.rng = game, rng
        self.copies = 1 if game == "rummy17" else 2
        self.left: dict[str, int] = {
            _text(game, c, v): self.copies
            for c in deck.colours
            for v in range(deck.low, deck.high + 1)
        }
        if game == "rummy17":  # R17-1: one joker of each colour
            self.jokers = {f"*{c}": 1 for c in deck.colours}
        else:
            self.jokers = {"*": 2}

    def take(self, card: str) -> bool:
        """Take ``card`` (a joker by its bare text) if one is left."""
        store = self.jokers if card.startswith("*") else self.left
        if store.get(card, 0) > 0:
            store[card] -= 1
            return True
        return False

    def any_card(self) -> str | None:
        cards = [c for c, n in self.left.items() if n > 0]
        return self.rng.choice(cards) if cards else None

    def meld(self, colour: str | None = None, *, joker: float = 0.3) -> list[str] | None:
        """A legal run or set from the pool, perhaps with a joker that names its stand-in."""
        deck, rng = get_game(self.game).deck, self.rng
        for _ in range(20):
            if rng.random() < 0.55:
                c = colour or rng.choice(deck.colours)
                length = rng.randint(3, 6)
                start = rng.randint(deck.low, deck.high - length + 1)
                cards = [(c, v) for v in range(start, start + length)]
            else:
                value = rng.randint(deck.low, deck.high)
                colours = rng.sample(deck.colours, rng.randint(3, min(4, len(deck.colours))))
                cards = [(c, value) for c in colours]
            texts = [_text(self.game, c, v) for c, v in cards]
            use_joker = rng.random() < joker
            j = rng.randrange(len(texts))
            bare = f"*{cards[j][0]}" if self.game == "rummy17" else "*"
            wanted = [t for i, t in enumerate(texts) if not (use_joker and i == j)]
            if any(self.left.get(t, 0) < wanted.count(t) for t in wanted):
                continue
            if use_joker and self.jokers.get(bare, 0) == 0:
                continue
            for t in wanted:
                self.take(t)
            if use_joker:
                self.take(bare)
                # mostly the stand-in is named; a bare joker is left for the referee to read
                texts[j] = "*" + texts[j] if rng.random() < 0.8 else bare
            return texts
        return None


def _bare(card: str, game: str) -> str:
    if not card.startswith("*"):
        return card
    return card[:2] if game == "rummy17" else "*"


def _change(rng: random.Random, pool: _Pool, melds: list[list[str]], hand: list[str]) -> None:
    """One random change to the melds of a table (``melds``, changed in place)."""
    game = pool.game
    what = rng.choice(
        ["new", "new", "extend", "back", "move", "split", "free", "swap", "nowhere", "shuffle"]
    )
    if what == "new":
        new = pool.meld()
        if new is not None:
            melds.append(new)
            if rng.random() < 0.8:  # D17-8: a Rummy 17 joker comes from beside the table
                hand.extend(_bare(c, game) for c in new if game != "rummy17" or c[0] != "*")
    elif what == "extend" and melds:
        card = pool.any_card() if rng.random() < 0.85 else rng.choice(list(pool.jokers))
        if card is not None and pool.take(card):
            rng.choice(melds).append(card)
            if rng.random() < 0.8:
                hand.append(card)
    elif what == "back" and melds:
        meld = rng.choice(melds)
        meld.pop(rng.randrange(len(meld)))
        if not meld:
            melds.remove(meld)
    elif what == "move" and len(melds) > 1:
        a, b = rng.sample(range(len(melds)), 2)
        card = melds[a].pop(rng.randrange(len(melds[a])))
        melds[b].insert(rng.randint(0, len(melds[b])), card)
        if not melds[a]:
            del melds[a]
    elif what == "split" and melds:
        meld = rng.choice(melds)
        if len(meld) >= 4:
            cut = rng.randint(1, len(meld) - 1)
            melds.insert(melds.index(meld) + 1, meld[cut:])
            del meld[cut:]
    elif what in ("free", "swap"):
        _free_a_joker(rng, pool, melds, hand, keep=what == "swap")
    elif what == "nowhere" and melds:
        card = pool.any_card()
        if card is not None and pool.take(card):
            rng.choice(melds).insert(0, card)
    elif what == "shuffle" and melds:
        rng.shuffle(rng.choice(melds))


def _free_a_joker(
    rng: random.Random, pool: _Pool, melds: list[list[str]], hand: list[str], *, keep: bool
) -> None:
    """Put a stand-in's card in a joker's place; with ``keep`` the joker goes into a new meld."""
    places = [(m, i) for m, meld in enumerate(melds) for i, c in enumerate(meld) if len(c) > 2]
    places = [(m, i) for m, i in places if melds[m][i].startswith("*")]
    if not places:
        return
    m, i = rng.choice(places)
    joker = melds[m][i]
    card = joker[1:]
    if pool.take(card):
        hand.append(card)
    melds[m][i] = card
    if keep:
        new = pool.meld(joker=0.0)
        if new is not None:
            new[rng.randrange(len(new))] = _bare(joker, pool.game)
            melds.append(new)
            hand.extend(c for c in new if not c.startswith("*"))


def tile_turn(game: str, rng: random.Random) -> dict[str, Any]:
    """A random turn of a tile game (contract ``turn``)."""
    pool = _Pool(game, rng)
    before = [m for m in (pool.meld() for _ in range(rng.randint(0, 4))) if m is not None]
    hand = [c for c in (pool.any_card() for _ in range(rng.randint(0, 5))) if c and pool.take(c)]
    after = [list(m) for m in before]
    for _ in range(rng.randint(0, 3)):
        _change(rng, pool, after, hand)
    doc: dict[str, Any] = {"game": game, "before": before, "after": after}
    if rng.random() < 0.8:
        doc["opened"] = rng.random() < 0.5
    if rng.random() < 0.7:
        doc["hand"] = sorted(hand)
    return doc


def rummy17_turn(rng: random.Random) -> dict[str, Any]:
    """A random turn of Rummy 17: melds in front of each player, in seat order."""
    pool = _Pool("rummy17", rng)
    names = list(NAMES[: rng.randint(2, 4)])
    player = rng.choice(names)
    before = {
        n: [m for m in (pool.meld() for _ in range(rng.randint(0, 2))) if m is not None]
        for n in names
    }
    hand = [c for c in (pool.any_card() for _ in range(rng.randint(0, 5))) if c and pool.take(c)]
    after = {n: [list(m) for m in melds] for n, melds in before.items()}
    for _ in range(rng.randint(0, 3)):
        owner = player if rng.random() < 0.6 else rng.choice(names)
        _change(rng, pool, after[owner], hand)
    if rng.random() < 0.15:  # a meld handed to someone else, or lost
        a, b = rng.sample(names, 2)
        if after[a]:
            moved = after[a].pop(0)
            if rng.random() < 0.5:
                after[b].append(moved)
    doc: dict[str, Any] = {"game": "rummy17", "player": player, "before": before, "after": after}
    if rng.random() < 0.8:
        doc["opened"] = rng.random() < 0.5
    if rng.random() < 0.7:
        doc["hand"] = sorted(hand)
    return doc


def random_turns(game: str, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` random turns of ``game``; the same seed gives the same turns."""
    rng = random.Random(f"{game}:{seed}")
    if game == "rummy17":
        return [rummy17_turn(rng) for _ in range(count)]
    return [tile_turn(game, rng) for _ in range(count)]
