"""Migration 0007 on SQLite and PostgreSQL: an idempotency key may name an event (its
``event_id``, cascading with the event) instead of a match; going down drops the events' keys
and keeps the matches'."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, MetaData, func, select
from sqlmodel import Session

from companion.adapters import store
from companion.adapters.db import downgrade, make_engine, upgrade
from companion.adapters.models import IdempotencyKey
from companion.adapters.store import events

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)


@pytest.fixture
def engine(empty_database_url: str) -> Iterator[Engine]:
    engine = make_engine(empty_database_url)
    yield engine
    engine.dispose()


def keys(engine: Engine) -> list[tuple[int | None, int | None]]:
    table = MetaData()
    table.reflect(engine, only=["idempotency_key"])
    rows = table.tables["idempotency_key"]
    with engine.connect() as connection:
        found = connection.execute(select(rows).order_by(rows.c.id)).mappings().all()
    return [(row["match_id"], row.get("event_id")) for row in found]


def test_0007_keys_name_a_match_or_an_event_and_go_down_keeping_the_matches(engine):
    upgrade(engine)
    with Session(engine, expire_on_commit=False) as session:
        match = store.create_match(
            session,
            game="rummikub",
            players=["Anna", "Béla"],
            first_dealer="Anna",
            games=2,
            once=store.Once("api:create", "m-1"),
        )
        event = events.create_event(
            session,
            game="rummikub",
            entrants=["Anna", "Béla", "Cili", "Dani"],
            sessions=1,
            once=store.Once("api:create-event", "e-1"),
        )
    assert keys(engine) == [(match.id, None), (None, event.id)]
    with Session(engine) as session:  # the key goes with its event
        session.delete(session.get(type(event), event.id))
        session.commit()
        assert session.execute(select(func.count()).select_from(IdempotencyKey)).scalar_one() == 1
    with Session(engine, expire_on_commit=False) as session:
        events.create_event(
            session,
            game="rummikub",
            entrants=["Anna", "Béla", "Cili", "Dani"],
            sessions=1,
            once=store.Once("api:create-event", "e-2"),
        )
    downgrade(engine, "0006")
    assert keys(engine) == [(match.id, None)]
    upgrade(engine)
    assert keys(engine) == [(match.id, None)]
