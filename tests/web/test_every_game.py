"""One test over every registered game, Gin Rummy included, from the game's own example.

Each game gives a small legal round (``Game.example_round``). It is scored by the command
line (``companion score``) and by the API (``POST /api/v1/score``), each giving the rules
core's own result; then it is entered through the round form and posted to the API, and
comes back stored as it was, with the seats' names and the totals the rules core gives — on
SQLite and on PostgreSQL. No table of sample rounds is kept here: a game that joins brings
its example with it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support import every_game, gin_installed
from test_pages import form_data, start, stored_rounds, totals_shown

from companion.cli import main
from companion.domain import Game, get_game, match_document

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

GAMES = every_game()


@pytest.fixture
def game(request: pytest.FixtureRequest) -> Iterator[Game]:
    """The game of this id, with Gin Rummy installed (so every game is registered)."""
    with gin_installed():
        yield get_game(request.param)


def test_the_installed_game_is_among_them() -> None:
    assert GAMES == ["rummy17", "rummikub", "rummy-o", "manipulation", "gin"]


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_the_example_round_of_every_game_scores_alike_everywhere_and_round_trips(
    game: Game,
    client: FlaskClient,
    app: Flask,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    example = game.example_round()
    names = [p["name"] for p in example["players"]]
    outcome = game.score_round(example)  # the rules core's own result
    assert any(outcome.scores.values()), "an example where somebody scores"

    # The command line and the API score it as the rules core does.
    path = tmp_path / "round.json"
    path.write_text(json.dumps(example), encoding="utf-8")
    capsys.readouterr()
    assert main(["score", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == outcome.result
    scored = client.post("/api/v1/score", json=example)
    assert scored.status_code == 200, scored.get_json()
    assert scored.get_json() == outcome.result
    assert [p["name"] for p in scored.get_json()["players"]] == names

    # The round form: a match started on the game's page, the example typed in and saved.
    dealer = names[0]
    expected = match_document(
        {"game": game.id, "players": names, "first_dealer": dealer, "rounds": [example]}
    )
    assert expected["totals"] == outcome.scores  # one round: its scores are the totals
    first = game.first_seat_of(names, dealer)  # the start page asks for the dealer or starter
    edit = start(client, names, first=names.index(first), game=game.id)
    saved = client.post(f"/m/{edit}/rounds/new", data=form_data(example))
    assert saved.status_code == 302, saved.get_data(as_text=True)
    assert stored_rounds(app, edit) == [example]
    board = client.get(f"/m/{edit}").get_data(as_text=True)
    assert totals_shown(board) == [outcome.scores[n] for n in names]
    # the history, in the game's words (a deal of Rummy 17 is a game), and who is next
    assert ("Game 1 added" if game.id == "rummy17" else "Round 1 added") in board
    assert 'data-clear-draft="companion:' in board  # the saved round's draft goes
    nxt = expected["next"]
    if game.first_seat == "starter":  # RK-2, RO-3: nobody deals
        assert f": {nxt['starts']} starts." in board
    else:
        assert f"{nxt['dealer']} deals, {nxt['starts']} starts." in board
    read = client.get(f"/api/v1/matches/{edit}").get_json()
    assert read["document"]["players"] == names
    assert read["document"]["rounds"] == [example]
    assert read["result"]["totals"] == expected["totals"]

    # The API: a match made and the example posted; the same document and totals back.
    body = {"game": game.id, "players": names, "first_dealer": dealer}
    made = client.post("/api/v1/matches", json=body)
    assert made.status_code == 201, made.get_json()
    games = f"/api/v1/matches/{made.get_json()['edit']}/games"
    added = client.post(games, json=example, headers={"If-Match": made.headers["ETag"]})
    assert added.status_code == 201, added.get_json()
    assert added.get_json()["document"]["rounds"] == [example]
    assert added.get_json()["result"] == expected
