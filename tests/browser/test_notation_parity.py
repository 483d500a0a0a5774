"""The scripts write and read cards as the rules core does: the notation
comes to JavaScript from the game's descriptor only (static/js/game.js), so every card, joker
and stand-in the pickers can write is what companion.domain.cards writes, and a typed line
splits into the same cards on the phone and on the server."""

from __future__ import annotations

from typing import Any

from companion.domain import Card, Joker, all_games
from companion.domain.cards import SEPARATORS

TYPED = "r1 R2,R3;\tR4 ,; *  10H\n"


def test_every_card_the_scripts_write_is_the_rules_cores(server: Any, page: Any) -> None:
    for game in all_games():
        desc = game.descriptor()
        page.goto(f"{server.url}/referee/turn?game={game.id}")
        written = page.evaluate(
            """(typed) => {
              const n = Companion.cards, out = {cards: [], standing: [], jokers: []};
              n.colours.forEach(c => {
                Companion.game.cards.values.forEach(v => {
                  out.cards.push(n.card(c, v.value));
                  out.standing.push(n.standing(c, v.value));
                });
                out.jokers.push(n.joker(c));
              });
              out.plain = n.joker(null);
              out.split = n.split(typed);
              return out;
            }""",
            TYPED,
        )
        colours = [c["code"] for c in desc["cards"]["colours"]]
        values = [v["value"] for v in desc["cards"]["values"]]
        cards = [Card(c, v, game.deck) for c in colours for v in values]
        assert written["cards"] == [card.text for card in cards], game.id
        coloured = desc["cards"]["coloured_jokers"]
        standing = [Joker(c.colour if coloured else None, c, game.deck).text for c in cards]
        assert written["standing"] == standing, game.id
        jokers = [Joker(c if coloured else None, None, game.deck).bare for c in colours]
        assert written["jokers"] == jokers and written["plain"] == "*", game.id
        for text in written["cards"] + written["standing"] + written["jokers"]:
            assert game.parse_card(text).text == text  # read back as it was written
        assert written["split"] == [p for p in SEPARATORS.split(TYPED) if p]
        assert written["split"] == ["r1", "R2", "R3", "R4", "*", "10H"]
