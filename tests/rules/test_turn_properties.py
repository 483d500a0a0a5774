"""Properties of ``turn`` (contract ``turn``) over generated tables of the tile games."""

from __future__ import annotations

from collections import Counter

from hypothesis import assume, given
from hypothesis import strategies as st

from companion.rules import check_turn, get_game

GAMES = ["rummikub", "rummy-o", "manipulation"]


def text(game: str, colour: str, value: int) -> str:
    deck = get_game(game).deck
    rank = deck.value_text(value)
    return f"{rank}{colour}" if deck.suit_last else f"{colour}{rank}"


@st.composite
def meld(draw: st.DrawFn, game: str) -> list[str]:
    """A legal group or run, perhaps with one joker that says what it stands for."""
    deck = get_game(game).deck
    if draw(st.booleans()):
        start = draw(st.integers(1, 11))
        length = draw(st.integers(3, min(5, 14 - start)))
        colour = draw(st.sampled_from(deck.colours))
        cards = [text(game, colour, v) for v in range(start, start + length)]
    else:
        value = draw(st.integers(1, 13))
        colours = draw(st.lists(st.sampled_from(deck.colours), min_size=3, max_size=4, unique=True))
        cards = [text(game, c, value) for c in colours]
    if draw(st.booleans()):
        i = draw(st.integers(0, len(cards) - 1))
        cards[i] = "*" + cards[i]
    return cards


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, list[list[str]], list[list[str]]]:
    """A game, the melds on the table, and new melds from a hand: within the game's copies."""
    game = draw(st.sampled_from(GAMES))
    before = draw(st.lists(meld(game), min_size=1, max_size=4))
    new = draw(st.lists(meld(game), min_size=1, max_size=3))
    counts = Counter("*" if c.startswith("*") else c for m in before + new for c in m)
    assume(all(n <= 2 for n in counts.values()))
    return game, before, new


def _hand(melds: list[list[str]]) -> list[str]:
    return ["*" if c.startswith("*") else c for m in melds for c in m]


@given(tables())
def test_a_turn_that_only_adds_legal_melds_from_the_hand_is_legal(case):
    game, before, new = case
    doc = {"game": game, "before": before, "after": before + new, "hand": _hand(new)}
    verdict = check_turn(doc)
    assert verdict["valid"], verdict["problems"]
    assert sorted(verdict["played"]) == sorted(_hand(new))


@given(tables(), st.data())
def test_removing_any_card_of_before_from_after_makes_the_turn_illegal(case, data):
    game, before, new = case
    m = data.draw(st.integers(0, len(before) - 1))
    c = data.draw(st.integers(0, len(before[m]) - 1))
    # Two copies of a tile are the same tile: the hand's copy may take the table's place.
    assume(_hand([[before[m][c]]])[0] not in _hand(new))
    after = [list(x) for x in before] + new
    del after[m][c]
    verdict = check_turn({"game": game, "before": before, "after": after, "hand": _hand(new)})
    assert not verdict["valid"]
    assert verdict["problems"]


@given(tables(), st.randoms(use_true_random=False), st.booleans())
def test_reordering_melds_changes_nothing(case, random, opened):
    game, before, new = case
    after = before + new
    doc = {"game": game, "opened": opened, "before": before, "after": after}
    shuffled_after = [random.sample(m, len(m)) for m in random.sample(after, len(after))]
    shuffled = {**doc, "before": random.sample(before, len(before)), "after": shuffled_after}

    def essence(verdict: dict) -> tuple:
        problems = sorted((p["rule"], p["code"], p.get("card", "")) for p in verdict["problems"])
        return verdict["valid"], verdict["played"], verdict["value"], problems

    assert essence(check_turn(doc)) == essence(check_turn(shuffled))


@st.composite
def rummy17_tables(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str]]]:
    """Béla's melds on the table and Anna's new melds from her hand: runs, each card once."""
    colours = draw(st.permutations(["R", "B", "G", "Y", "K"]))
    runs = []
    for colour in colours[: draw(st.integers(2, 5))]:
        start = draw(st.integers(1, 15))
        length = draw(st.integers(3, min(5, 18 - start)))
        runs.append([f"{colour}{v}" for v in range(start, start + length)])
    split = draw(st.integers(1, len(runs) - 1))
    return runs[:split], runs[split:]


def _kept(*tables: list[list[str]]) -> str:
    """A card on no table: the one the hand keeps for the discard (R17-14, D17-11)."""
    used = {c for t in tables for m in t for c in m}
    return next(f"{c}{v}" for c in "RBGYK" for v in range(1, 18) if f"{c}{v}" not in used)


@given(rummy17_tables(), st.booleans())
def test_r17_a_turn_that_only_lays_legal_melds_from_the_hand_is_legal(case, opened):
    table, new = case
    doc = {
        "game": "rummy17",
        "player": "Anna",
        "opened": opened,
        "before": {"Anna": [], "Béla": table},
        "after": {"Anna": new, "Béla": table},
        "hand": [*_hand(new), _kept(table, new)],
    }
    verdict = check_turn(doc)
    assert verdict["valid"], verdict["problems"]


@given(rummy17_tables(), st.booleans())
def test_D17_11_melding_the_whole_hand_is_illegal_for_that_alone(case, opened):
    table, new = case
    doc = {
        "game": "rummy17",
        "player": "Anna",
        "opened": opened,
        "before": {"Anna": [], "Béla": table},
        "after": {"Anna": new, "Béla": table},
        "hand": _hand(new),
    }
    verdict = check_turn(doc)
    assert [(p["rule"], p["code"]) for p in verdict["problems"]] == [
        ("D17-11", "turn17-no-discard")
    ]


@given(rummy17_tables(), st.data())
def test_r17_removing_any_card_of_before_from_after_makes_the_turn_illegal(case, data):
    table, new = case
    m = data.draw(st.integers(0, len(table) - 1))
    c = data.draw(st.integers(0, len(table[m]) - 1))
    after = [list(x) for x in table]
    del after[m][c]
    doc = {
        "game": "rummy17",
        "player": "Anna",
        "before": {"Anna": [], "Béla": table},
        "after": {"Anna": new, "Béla": after},
    }
    verdict = check_turn(doc)
    assert not verdict["valid"]
    assert "R17-10" in [p["rule"] for p in verdict["problems"]]
