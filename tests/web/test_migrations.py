"""Migration 0002 on SQLite and PostgreSQL: games become rounds with dealers, history becomes
codes, revisions are counted, and nothing is lost going down and up again."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, MetaData, inspect, select
from sqlmodel import Session

from companion.adapters import store
from companion.adapters.db import alembic_config, downgrade, make_engine, upgrade

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

PLAYERS = ["Anna", "Béla", "Cili"]
START = datetime(2026, 11, 20, 19, 30, tzinfo=UTC)

HISTORY = [
    "Match started: Anna, Béla, Cili; Béla deals first; 3 games",
    "Game 1 added",
    "Game 2 added",
    "Game 3 added",
    "Game 4 added",
    "Game 2 edited: Anna's hand, bonus cards",
    "Game 2 deleted; games 3–4 renumbered",
    "Game 1 saved, unchanged",
]


def rummikub_round(points: int) -> dict[str, Any]:
    return {
        "game": "rummikub",
        "went_out": "Cili",
        "players": [
            {"name": "Anna", "rack": {"points": points}},
            {"name": "Béla", "rack": {"points": points + 1}},
            {"name": "Cili", "rack": []},
        ],
    }


@pytest.fixture
def engine(empty_database_url: str) -> Iterator[Engine]:
    """An engine on an empty database of this test's own."""
    engine = make_engine(empty_database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def sqlite_engine(tmp_path: Path) -> Iterator[Engine]:
    """An engine on an empty SQLite file (what batch mode is for)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    yield engine
    engine.dispose()


def tables(engine: Engine) -> MetaData:
    meta = MetaData()
    meta.reflect(engine)
    return meta


def fill_0001(engine: Engine) -> None:
    """What the app of migration 0001 stored: two matches, rounds in table game, history text."""
    upgrade(engine, "0001")
    meta = tables(engine)
    match, game, change = meta.tables["match"], meta.tables["game"], meta.tables["change"]
    with engine.begin() as conn:
        for id_, games in ((1, 4), (2, 3)):
            conn.execute(
                match.insert().values(
                    id=id_,
                    title="Péntek" if id_ == 1 else None,
                    game="rummikub",
                    players=PLAYERS,
                    first_dealer="Béla",
                    games=games,
                    created=START,
                    edit_token=f"edit-{id_}",
                    view_token=f"view-{id_}",
                    device=None,
                )
            )
        for number in (1, 2, 3):  # the rounds left after "Game 2 deleted"
            conn.execute(
                game.insert().values(
                    match_id=1,
                    number=number,
                    document=rummikub_round(number * 10),
                    created=START + timedelta(minutes=number),
                    updated=START + timedelta(minutes=number),
                )
            )
        for i, what in enumerate(HISTORY):
            number = int(what.split()[1]) if what.startswith("Game") else None
            conn.execute(
                change.insert().values(
                    match_id=1, when=START + timedelta(seconds=i), what=what, number=number
                )
            )
        conn.execute(change.insert().values(match_id=2, when=START, what="Match started"))


def test_0002_moves_games_into_rounds_with_their_dealers_and_codes_the_history(engine):
    fill_0001(engine)
    upgrade(engine)
    names = set(inspect(engine).get_table_names())
    assert {"match", "round", "change"} <= names
    assert "game" not in names
    with Session(engine) as session:
        match = store.get_by_edit_token(session, "edit-1")
        assert (match.revision, match.games, match.title) == (len(HISTORY), 4, "Péntek")
        assert [(r.number, r.dealer) for r in match.rounds] == [
            (1, "Béla"),  # dealt by rotation from the first dealer (R17-2)
            (2, "Cili"),
            (3, "Anna"),
        ]
        assert [r.document for r in match.rounds] == [rummikub_round(p) for p in (10, 20, 30)]
        assert match.rounds[0].created == START + timedelta(minutes=1)
        entries = store.history(match)
        assert [(e["code"], e["params"], e["number"]) for e in entries] == [
            ("legacy-note", {"text": HISTORY[0]}, None),
            ("round-added", {"number": 1}, 1),
            ("round-added", {"number": 2}, 2),
            ("round-added", {"number": 3}, 3),
            ("round-added", {"number": 4}, 4),
            ("legacy-note", {"text": HISTORY[5]}, 2),
            ("round-deleted-renumbered", {"number": 2, "first": 3, "last": 4}, 2),
            ("round-unchanged", {"number": 1}, 1),
        ]
        assert [store.describe(e) for e in entries][:2] == [HISTORY[0], "Round 1 added"]
        assert store.get_by_edit_token(session, "edit-2").revision == 1
        # The migrated match works with revisions at once.
        with pytest.raises(store.StaleRevision):
            store.add_round(session, match, rummikub_round(5), revision=1)
        store.add_round(session, match, rummikub_round(5), revision=len(HISTORY))
        assert (match.revision, match.rounds[-1].dealer) == (len(HISTORY) + 1, "Béla")


def test_0002_goes_down_and_up_again_keeping_the_data(engine):
    fill_0001(engine)
    upgrade(engine)
    downgrade(engine, "0001")
    meta = tables(engine)
    assert "round" not in meta.tables
    with engine.connect() as conn:
        game, change = meta.tables["game"], meta.tables["change"]
        rows = conn.execute(select(game.c.number, game.c.document).order_by(game.c.number)).all()
        assert [(n, d) for n, d in rows] == [(n, rummikub_round(n * 10)) for n in (1, 2, 3)]
        whats = conn.execute(
            select(change.c.what).where(change.c.match_id == 1).order_by(change.c.id)
        ).scalars()
        assert list(whats) == HISTORY
        assert "revision" not in meta.tables["match"].c
    upgrade(engine)
    with Session(engine) as session:
        match = store.get_by_edit_token(session, "edit-1")
        assert [r.dealer for r in match.rounds] == ["Béla", "Cili", "Anna"]
        assert match.revision == len(HISTORY)


def test_a_match_played_to_a_target_goes_down_with_one_round_per_player(engine):
    upgrade(engine)
    with Session(engine) as session:
        store.create_match(
            session, game="manipulation", players=PLAYERS, first_dealer="Anna", games=None
        )
    downgrade(engine, "0001")
    meta = tables(engine)
    with engine.connect() as conn:
        assert conn.execute(select(meta.tables["match"].c.games)).scalars().all() == [3]
        assert conn.execute(select(meta.tables["change"].c.what)).scalars().all() == [
            "Match started: Anna, Béla, Cili; Anna deals first"
        ]


def test_sqlite_keeps_foreign_keys_on_after_migrating(sqlite_engine):
    engine = sqlite_engine
    fill_0001(engine)
    upgrade(engine)
    for _ in range(3):  # every pooled connection
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_sqlite_refuses_to_migrate_rows_with_foreign_keys_on(sqlite_engine):
    """Batch mode would cascade-delete every round; the migration stops instead."""
    from alembic import command

    engine = sqlite_engine
    fill_0001(engine)
    with pytest.raises(RuntimeError, match="foreign_keys"), engine.begin() as conn:
        command.upgrade(alembic_config(conn), "head")
    meta = tables(engine)
    assert "round" not in meta.tables
    with engine.connect() as conn:
        assert len(conn.execute(select(meta.tables["game"])).all()) == 3
