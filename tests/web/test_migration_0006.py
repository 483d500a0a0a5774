"""Migration 0006 on SQLite and PostgreSQL: a stored Rummy 17 round whose joker only a hand
settled keeps that reading, stated, so it reads and scores as it was saved
(D17-6: a card in a hand no longer rules a reading out)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Engine, MetaData, select

from companion.adapters.db import downgrade, make_engine, upgrade
from companion.domain import EntryError, match_document, score_document

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

PLAYERS = ["Anna", "Béla"]
START = datetime(2026, 11, 20, 19, 30, tzinfo=UTC)
BONUS = ["most-8-16", "most-cards", "most-sets", "most-runs", "longest-run"]


def game(anna: list, bela: list, bela_hand: list, last: str | None = None) -> dict[str, Any]:
    return {
        "game": "rummy17",
        "bonus_cards": BONUS,
        "went_out": "Anna" if last else None,
        "last_discard": last,
        "players": [
            {"name": "Anna", "melds": anna, "hand": [] if last else ["G2"]},
            {"name": "Béla", "melds": bela, "hand": bela_hand},
        ],
    }


#: Stored by the app before D17-6 let hands be readings; what 0006 makes of each.
ROUNDS = [
    # K16 in Béla's hand settled K13; most-8-16 depends on it: stated, or unreadable.
    (game([["K14", "K15", "*K"]], [["B7", "B8", "B9"]], ["K16"]), [["K14", "K15", "*K13"]]),
    # The last discard K16 settles it still (it narrows a reading as a melded card does).
    (
        game([["k14", "K15", "*k"]], [["B7", "B8", "B9"]], ["G3"], last="K16"),
        [["k14", "K15", "*k"]],
    ),
    # A meld settles it (K13 laid): nothing to state.
    (game([["K14", "K15", "*K"]], [["K11", "K12", "K13"]], ["G3"]), [["K14", "K15", "*K"]]),
    # Gap, set, stated: nothing to state.
    (
        game([["K9", "*K", "K11"], ["R8", "B8", "*G"]], [], ["K10"]),
        [["K9", "*K", "K11"], ["R8", "B8", "*G"]],
    ),
]


@pytest.fixture
def engine(empty_database_url: str) -> Iterator[Engine]:
    engine = make_engine(empty_database_url)
    yield engine
    engine.dispose()


def stored(engine: Engine) -> list[dict[str, Any]]:
    meta = MetaData()
    meta.reflect(engine)
    round_ = meta.tables["round"]
    with engine.connect() as conn:
        rows = conn.execute(select(round_.c.document).order_by(round_.c.id)).all()
    return [row.document for row in rows]


def fill_0005(engine: Engine) -> None:
    upgrade(engine, "0005")
    meta = MetaData()
    meta.reflect(engine)
    match, round_ = meta.tables["match"], meta.tables["round"]
    with engine.begin() as conn:
        for id_, (doc, _) in enumerate(ROUNDS, start=1):
            conn.execute(
                match.insert().values(
                    id=id_,
                    game="rummy17",
                    players=PLAYERS,
                    first_dealer="Anna",
                    games=2,
                    created=START,
                    edit_token=f"edit-{id_}",
                    view_token=f"view-{id_}",
                    revision=2,
                )
            )
            conn.execute(
                round_.insert().values(
                    match_id=id_,
                    number=1,
                    dealer="Anna",
                    document=copy.deepcopy(doc),
                    created=START,
                    updated=START,
                )
            )


def test_a_round_a_hand_settled_is_unreadable_under_D17_6_without_0006() -> None:
    doc, _ = ROUNDS[0]
    match = {"game": "rummy17", "players": PLAYERS, "first_dealer": "Anna", "rounds": [doc]}
    with pytest.raises(EntryError) as caught:
        match_document(copy.deepcopy(match))
    assert caught.value.rule == "D17-6"


def test_0006_states_the_stand_ins_hands_settled_and_every_match_reads_again(engine) -> None:
    fill_0005(engine)
    upgrade(engine)
    documents = stored(engine)
    assert [d["players"][0]["melds"] for d in documents] == [melds for _, melds in ROUNDS]
    for doc, (before, _) in zip(documents, ROUNDS, strict=True):
        assert {**doc, "players": None} == {**before, "players": None}  # nothing else changed
        assert doc["players"][1] == before["players"][1]
        match = {"game": "rummy17", "players": PLAYERS, "first_dealer": "Anna", "rounds": [doc]}
        match_document(match)  # readable: no joker left to ask about
    (award,) = [a for a in score_document(documents[0])["awards"] if a["card"] == "most-8-16"]
    assert award["winners"] == ["Béla"]  # the joker as K13, as it was scored when saved


def test_0006_goes_down_and_up_again_keeping_the_stated_stand_ins(engine) -> None:
    fill_0005(engine)
    upgrade(engine)
    once = stored(engine)
    downgrade(engine, "0005")
    assert stored(engine) == once
    upgrade(engine)
    assert stored(engine) == once
