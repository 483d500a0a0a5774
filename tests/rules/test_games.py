"""Every registered game keeps the seam's promises (domain/game.py), one test over them all."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from support import every_game, gin_installed

from companion.domain import Card, EntryError, Game, all_games, get_game, score_document

#: Every game that registers: the rulebooks' four and Gin Rummy, installed by the tests.
GAMES = every_game()


@pytest.fixture
def game(request: pytest.FixtureRequest) -> Iterator[Game]:
    """The game of this id, with Gin Rummy installed (so every game is registered)."""
    with gin_installed():
        yield get_game(request.param)


def test_rummy_17_comes_first_and_the_installed_game_after_the_rulebooks():
    assert GAMES == ["rummy17", "rummikub", "rummy-o", "manipulation", "gin"]


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_every_game_gives_an_example_round_of_its_own_a_new_one_each_time(game: Game):
    example = game.example_round()
    assert example["game"] == game.id and set(example) <= game.round_keys
    assert all(e.key in example for e in game.endings)
    assert json.loads(json.dumps(example)) == example  # the contract's JSON
    example["players"].clear()
    assert game.example_round()["players"], "each call gives a new document"


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_the_descriptor_is_plain_json_a_page_can_draw_from(game: Game):
    descriptor = game.descriptor()
    assert json.loads(json.dumps(descriptor)) == descriptor
    assert descriptor["id"] == game.id and get_game(game.id) is game
    assert descriptor["holding"] in ("hand", "rack")
    assert {c["code"] for c in descriptor["cards"]["colours"]} == set(game.deck.colours)
    assert all(e["key"] in game.round_keys for e in descriptor["endings"])
    assert (
        all(c["key"] for c in descriptor["columns"]) and descriptor["columns"][-1]["key"] == "score"
    )
    assert repr(game) == f"get_game({game.id!r})"


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_seat_limits_are_sane_and_enforced(game: Game):
    low, high = game.seats
    assert 2 <= low <= high <= 6 and game.seats_rule
    assert game.default_length(low) in (low, None)
    round_ = game.example_round()
    players = round_["players"]
    extra = {k: ([] if isinstance(v, list) else v) for k, v in players[1].items()}
    round_["players"] = players + [{**extra, "name": f"P{i}"} for i in range(high)]
    with pytest.raises(EntryError) as err:
        score_document(round_)
    assert (err.value.code, err.value.rule) == ("player-count", game.seats_rule)


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_the_example_round_scores_through_the_game_and_through_score(game: Game):
    example = game.example_round()
    outcome = game.score_round(example)
    assert list(outcome.scores) == [p["name"] for p in example["players"]]
    assert all(isinstance(v, int) for v in outcome.scores.values())
    assert any(outcome.scores.values()), "a round where somebody scores"
    assert outcome.result == score_document(example)
    assert json.loads(json.dumps(outcome.result)) == outcome.result
    line = game.round_line(outcome)
    assert json.loads(json.dumps(line)) == line
    for column in game.columns:
        assert all(column.key in p for p in outcome.result["players"])


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_an_empty_round_is_refused_in_words_not_a_crash(game: Game):
    for doc in ({}, {"players": []}, [], "round"):
        with pytest.raises(EntryError) as err:
            game.score_round(doc)
        json.dumps(err.value.to_json())
        assert err.value.message


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_check_meld_answers_for_a_run_and_refuses_an_unreadable_card(game: Game):
    deck = game.deck
    run = [Card(deck.colours[0], v, deck).text for v in (deck.low, deck.low + 1, deck.low + 2)]
    verdict = game.check_meld(run)
    assert verdict["valid"] and verdict["kind"] == "run" and verdict["cards"] == run
    assert json.loads(json.dumps(verdict)) == verdict
    bad = game.check_meld(run[:2])
    assert not bad["valid"] and bad["rule"] and bad["reason"] and bad["code"]
    with pytest.raises(EntryError) as err:
        game.check_meld([*run[:2], "?"])
    assert err.value.card == "?"


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_every_card_of_the_deck_reads_back_as_itself(game: Game):
    deck = game.deck
    for colour in deck.colours:
        for value in range(deck.low, deck.high + 1):
            card = Card(colour, value, deck)
            assert game.parse_card(card.text.lower()) == card


def test_games_come_in_the_rulebooks_order_whichever_was_registered_first():
    from companion.domain.game import forget_games, register_game

    saved = list(all_games())
    try:
        forget_games()
        for game in reversed(saved):  # Manipulation found first, …
            register_game(game)
        assert [g.id for g in all_games()] == ["rummy17", "rummikub", "rummy-o", "manipulation"]
    finally:
        forget_games()
    assert [g.id for g in all_games()] == [g.id for g in saved]


def test_R17_15a_the_form_asks_the_game_whether_a_round_doubles():
    rummy17 = get_game("rummy17")
    assert rummy17.multiplier({"went_out": "Anna", "last_discard": "k17"}) == 2
    assert rummy17.multiplier({"went_out": "Anna", "last_discard": "K16"}) == 1
    assert rummy17.multiplier({"went_out": None, "last_discard": "K17"}) == 1  # D17-5
    assert rummy17.multiplier({"went_out": "Anna", "last_discard": "17"}) == 1  # unreadable
    assert get_game("rummikub").multiplier({"went_out": "Anna"}) == 1


def test_a_game_brings_its_own_cards_and_melds_and_asks_the_registry_for_nothing():
    """The tile machinery (melds, turns, rescue, racks) takes the deck, style and worth from the
    game that asks, never from the registry by its id: a game not registered, here a Rummikub
    under another id, answers as Rummikub does."""
    from companion.domain.games.rummikub import Rummikub

    class Unlisted(Rummikub):
        id = "unlisted"

    game, rummikub = Unlisted(), get_game("rummikub")
    assert "unlisted" not in [g.id for g in all_games()]
    assert game.parse_card("O13").deck is game.deck
    meld = ["R1", "R2", "*"]
    assert game.check_meld(meld) == rummikub.check_meld(meld)
    turn = {"opened": False, "before": [["R1", "R2", "R3"]], "after": [["R1", "R2", "R3"], meld]}
    assert game.check_turn(turn) == rummikub.check_turn(turn)
    table = ["R5", "R6", "R7", "*", "K9", "B9"]
    assert game.rescue(table) == rummikub.rescue(table)
    first = [f"{c}{v}" for c in "RB" for v in range(1, 8)]  # 14 first tiles, no pair
    assert game.check_redeal(first) == rummikub.check_redeal(first)
    racks = [{"name": "Anna", "rack": []}, {"name": "Béla", "rack": ["R5", "*"]}]
    doc = {"went_out": "Anna", "players": racks}
    assert (
        game.score_round(doc).scores
        == rummikub.score_round(doc).scores
        == {
            "Anna": 35,
            "Béla": -35,
        }
    )
