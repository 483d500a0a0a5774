"""Two servers on one PostgreSQL (issue 26 item 3): the database is the shared state.

A club that outgrows one computer runs ``companion serve`` on two (README: "A club on two
computers"), each with its own instance folder and the same secret key, behind one proxy.
Nothing a page shows may then depend on which server answers: every revision comes from
the database, and a process keeps only caches keyed by it.

First, several processes migrating one empty database at once: each must come up (one
migrates, the others wait for its lock and find the schema up to date).
"""

from __future__ import annotations

import multiprocessing
from typing import Any

from support import postgres_schema

from companion import db

MIGRATORS = 3


def _migrate(url: str, barrier: Any, answers: Any) -> None:
    """One server's start: its own engine, then the migrations, the moment all are ready."""
    engine = db.make_engine(url)
    try:
        barrier.wait(timeout=60)
        db.upgrade(engine)
        answers.put("ok")
    except Exception as err:  # reported to the test, which names it
        answers.put(f"{type(err).__name__}: {err}".splitlines()[0])
    finally:
        engine.dispose()


def test_processes_migrating_one_empty_database_at_once_all_succeed() -> None:
    """Without the migration lock, all but one failed here (a table made twice)."""
    forked = multiprocessing.get_context("fork")
    with postgres_schema("migrate_at_once") as url:
        barrier, answers = forked.Barrier(MIGRATORS), forked.Queue()
        workers = [
            forked.Process(target=_migrate, args=(url, barrier, answers)) for _ in range(MIGRATORS)
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
        got = [answers.get(timeout=10) for _ in workers]
        assert got == ["ok"] * MIGRATORS
        engine = db.make_engine(url)
        try:
            with engine.connect() as connection:
                versions = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
                assert len(versions.all()) == 1
        finally:
            engine.dispose()
