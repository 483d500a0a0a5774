"""Invariants over random legal tables (Hypothesis)."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.domain import score_document
from companion.domain.games.rummy17 import BONUS_CARDS

COLOURS = "RBGYK"
NAMES = ["Anna", "Béla", "Cili", "Dani", "Emő", "Феня"]


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    """A legal Rummy 17 round document: disjoint melds, hands, a last discard."""
    rnd = draw(st.randoms(use_true_random=False))
    free = {f"{c}{v}" for c in COLOURS for v in range(1, 18)}
    free_jokers = set(COLOURS)
    n = draw(st.integers(2, 6))
    players: list[dict[str, Any]] = []
    for name in NAMES[:n]:
        melds = []
        for _ in range(draw(st.integers(0, 3))):
            if len(free) < 45:  # keep enough cards for every hand and the last discard
                break
            meld = _meld(rnd, free)
            if meld is None:
                continue
            i = rnd.randrange(len(meld))
            colour = meld[i][0]  # a joker only stands for its own colour (R17-13)
            if colour in free_jokers and rnd.random() < 0.4:
                meld[i] = "*" + meld[i]  # the stand-in stated, so never ambiguous (D17-6)
                free_jokers.discard(colour)
            rnd.shuffle(meld)
            melds.append(meld)
        players.append({"name": name, "melds": melds, "hand": []})
    # D17-8: whoever went out has a meld of their own; everyone else holds a card.
    went_out = draw(st.sampled_from([None, *(p["name"] for p in players if p["melds"])]))
    for p in players:
        if p["name"] != went_out:
            size = rnd.randrange(1, 6)
            p["hand"] = rnd.sample(sorted(free), size)
            free.difference_update(p["hand"])
    doc: dict[str, Any] = {
        "game": "rummy17",
        "bonus_cards": rnd.sample(sorted(BONUS_CARDS), 5),
        "went_out": went_out,
        "players": players,
    }
    if went_out is not None:
        non17 = sorted(c for c in free if not c.endswith("17"))
        doc["last_discard"] = rnd.choice(non17)
        free.discard(doc["last_discard"])
    doc["_free"] = sorted(free)  # cards still in the box, for properties that need one
    return doc


def _meld(rnd: random.Random, free: set[str]) -> list[str] | None:
    for _ in range(20):
        if rnd.random() < 0.5:
            colour = rnd.choice(COLOURS)
            length = rnd.randint(3, 6)
            start = rnd.randint(1, 18 - length)
            cards = [f"{colour}{v}" for v in range(start, start + length)]
        else:
            value = rnd.randint(1, 17)
            cards = [f"{c}{value}" for c in rnd.sample(COLOURS, rnd.randint(3, 5))]
        if all(c in free for c in cards):
            free.difference_update(cards)
            return cards
    return None


def score(doc: dict[str, Any]) -> dict[str, Any]:
    clean = {k: v for k, v in doc.items() if not k.startswith("_")}
    return score_document(copy.deepcopy(clean))


def essentials(result: dict[str, Any]) -> tuple:
    players = [
        (p["name"], p["penalty"], p["bonus"], p["score"], tuple(p["bonus_cards"]))
        for p in result["players"]
    ]
    awards = [
        (a["card"], tuple(a["winners"]), a["points"], tuple(sorted(a["figures"].items())))
        for a in result["awards"]
    ]
    return result["multiplier"], players, awards


@settings(max_examples=150, deadline=None)
@given(tables())
def test_rummy17_doubles_every_figure_and_nothing_else(doc):
    assume(doc["went_out"] is not None)
    seventeens = [c for c in doc["_free"] if c.endswith("17")]
    assume(seventeens)
    plain = score(doc)
    doubled_doc = copy.deepcopy(doc)
    doubled_doc["last_discard"] = seventeens[0]
    doubled = score(doubled_doc)
    assert (plain["multiplier"], doubled["multiplier"]) == (1, 2) and doubled["rummy17"]
    for a, b in zip(plain["players"], doubled["players"], strict=True):
        assert (b["penalty"], b["bonus"], b["score"]) == (
            2 * a["penalty"],
            2 * a["bonus"],
            2 * a["score"],
        )
        assert a["bonus_cards"] == b["bonus_cards"]
    for a, b in zip(plain["awards"], doubled["awards"], strict=True):
        assert b["points"] == 2 * a["points"]
        assert (a["winners"], a["figures"]) == (b["winners"], b["figures"])


@settings(max_examples=150, deadline=None)
@given(tables(), st.randoms(use_true_random=False))
def test_reordering_melds_or_cards_within_a_meld_changes_nothing(doc, rnd):
    before = essentials(score(doc))
    shuffled = copy.deepcopy(doc)
    for p in shuffled["players"]:
        rnd.shuffle(p["melds"])
        for meld in p["melds"]:
            rnd.shuffle(meld)
    assert essentials(score(shuffled)) == before


@settings(max_examples=100, deadline=None)
@given(tables())
def test_renaming_players_changes_only_names(doc):
    before = score(doc)
    new = {p["name"]: f"X{i}-{p['name'][::-1]}" for i, p in enumerate(doc["players"])}
    renamed = copy.deepcopy(doc)
    for p in renamed["players"]:
        p["name"] = new[p["name"]]
    if renamed["went_out"]:
        renamed["went_out"] = new[renamed["went_out"]]
    after = score(renamed)
    for a, b in zip(before["players"], after["players"], strict=True):
        assert b["name"] == new[a["name"]]
        assert {k: v for k, v in a.items() if k != "name"} == {
            k: v for k, v in b.items() if k != "name"
        }
    for a, b in zip(before["awards"], after["awards"], strict=True):
        assert [new[w] for w in a["winners"]] == b["winners"]
        assert {new[k]: v for k, v in a["figures"].items()} == b["figures"]


@settings(max_examples=150, deadline=None)
@given(tables())
def test_replacing_a_joker_by_its_card_changes_only_the_fewest_jokers_figures(doc):
    where = [
        (i, j, k)
        for i, p in enumerate(doc["players"])
        for j, m in enumerate(p["melds"])
        for k, c in enumerate(m)
        if c.startswith("*")
    ]
    assume(where)
    i, j, k = where[0]
    replaced = copy.deepcopy(doc)
    replaced["players"][i]["melds"][j][k] = doc["players"][i]["melds"][j][k][1:]
    before, after = score(doc), score(replaced)
    owner = doc["players"][i]["name"]
    for a, b in zip(before["awards"], after["awards"], strict=True):
        if a["card"] == "fewest-jokers":
            changed = {n for n in a["figures"] if a["figures"][n] != b["figures"][n]}
            assert changed == {owner}
            assert b["figures"][owner] == a["figures"][owner] - 1
        else:
            assert (a["winners"], a["figures"]) == (b["winners"], b["figures"])


@settings(max_examples=200, deadline=None)
@given(tables())
def test_awarded_points_are_three_per_winner_times_the_multiplier(doc):
    result = score(doc)
    winners = sum(len(a["winners"]) for a in result["awards"])
    assert sum(p["bonus"] for p in result["players"]) == 3 * winners * result["multiplier"]
    assert all(p["score"] == p["bonus"] - p["penalty"] for p in result["players"])
