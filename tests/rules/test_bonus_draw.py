"""Drawing the bonus cards is the game's (R17-3): ``Game.draw_bonus_cards`` with the random
source passed in, so a seeded source draws the same cards every time."""

from __future__ import annotations

from random import Random

from companion.domain import get_game


def test_rummy17_draws_its_bonus_cards_from_the_source_given():
    game = get_game("rummy17")
    bonus = game.describe().bonus_cards
    assert bonus is not None
    drawn = game.draw_bonus_cards(Random(7))
    assert drawn == game.draw_bonus_cards(Random(7))  # deterministic with a seeded source
    assert len(drawn) == bonus.draw == len(set(drawn))
    assert set(drawn) <= {c.id for c in bonus.cards}
    others = {tuple(game.draw_bonus_cards(Random(seed))) for seed in range(20)}
    assert len(others) > 1  # and it is a draw


def test_a_game_without_bonus_cards_draws_none():
    for game_id in ("rummikub", "rummy-o", "manipulation"):
        assert get_game(game_id).draw_bonus_cards(Random(1)) == []
