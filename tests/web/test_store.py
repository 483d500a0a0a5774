"""companion.store on SQLite and PostgreSQL: matches, games, renumbering and history."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, func, select
from support import load

from companion import store
from companion.models import Change, Game, Match
from companion.rules import EntryError, match_document

SERIES = load("rummy17-match.json")


def new_match(session: Session, games: int | None = None, **kwargs: object) -> Match:
    """The example series' match, with no games entered yet."""
    return store.create_match(
        session,
        players=SERIES["players"],
        first_dealer=SERIES["first_dealer"],
        games=games or len(SERIES["rounds"]) + 1,
        **kwargs,
    )


def full_match(session: Session) -> Match:
    match = new_match(session)
    for round_doc in SERIES["rounds"]:
        store.add_game(session, match, round_doc)
    return match


def row_counts(session: Session) -> tuple[int, int, int]:
    session.expire_all()
    return tuple(  # type: ignore[return-value]
        session.exec(select(func.count()).select_from(t)).one() for t in (Match, Game, Change)
    )


def fresh(app, match: Match) -> Match:
    """The match as another request would read it, from a new session."""
    with Session(app.extensions["companion_db"]) as other:
        found = store.get_by_edit_token(other, match.edit_token)
        assert found is not None
        store.as_document(found)  # load the rounds while the session is open
        store.history(found)
        return found


def test_create_match_keeps_seats_title_and_tokens(app, session):
    match = store.create_match(
        session,
        players=[" Zsófi ", "Márk", "Ёлка"],
        first_dealer="Márk",
        games=3,
        title="  Friday   night ",
        device="dev-1",
    )
    again = fresh(app, match)
    assert again.players == ["Zsófi", "Márk", "Ёлка"]
    assert (again.first_dealer, again.games, again.title) == ("Márk", 3, "Friday night")
    assert again.device == "dev-1"
    assert again.created.tzinfo is not None
    assert abs(again.created - datetime.now(UTC)) < timedelta(minutes=1)
    assert again.edit_token != again.view_token
    assert store.get_by_view_token(session, match.view_token).id == match.id
    assert store.get_by_edit_token(session, match.view_token) is None
    assert store.get_by_view_token(session, match.edit_token) is None
    assert store.get_by_edit_token(session, "") is None


@pytest.mark.parametrize(
    ("players", "dealer", "games", "rule"),
    [
        (["Anna"], "Anna", 2, "R17-1"),
        (["A", "B", "C", "D", "E", "F", "G"], "A", 2, "R17-1"),
        (["Anna", "anna"], "Anna", 2, None),
        (["Anna", "Béla"], "Cili", 2, None),
        (["Anna", "Béla"], "Anna", 0, None),
    ],
)
def test_create_match_refuses_bad_input_and_stores_nothing(session, players, dealer, games, rule):
    before = row_counts(session)
    with pytest.raises(EntryError) as caught:
        store.create_match(session, players=players, first_dealer=dealer, games=games)
    assert caught.value.rule == rule
    assert row_counts(session) == before


def test_default_document_round_trips_the_example_series(app, session):
    match = full_match(session)
    doc = store.as_document(fresh(app, match))
    expected = copy.deepcopy(SERIES)
    expected["games"] = len(SERIES["rounds"]) + 1
    assert doc == expected
    for number, round_doc in enumerate(SERIES["rounds"], start=1):
        assert store.round_document(match, number) == round_doc


def test_totals_equal_the_rules_core_on_the_same_data(app, session):
    match = full_match(session)
    result = store.result(fresh(app, match))
    assert result == match_document({**SERIES, "games": len(SERIES["rounds"]) + 1})
    expected = load("rummy17-match.expected.json")
    assert result["totals"] == expected["totals"]
    assert result["finished"] is False
    assert result["next"]["number"] == len(SERIES["rounds"]) + 1


def test_bad_game_leaves_the_database_untouched(app, session):
    match = full_match(session)
    before = row_counts(session)
    broken = copy.deepcopy(SERIES["rounds"][0])
    broken["players"][1]["melds"][0] = ["K2", "K2", "K3"]
    with pytest.raises(EntryError) as caught:
        store.add_game(session, match, broken)
    assert caught.value.message.startswith(f"game {len(SERIES['rounds']) + 1}: ")
    with pytest.raises(EntryError):
        store.update_game(session, match, 1, broken)
    assert row_counts(session) == before
    assert store.as_document(fresh(app, match))["rounds"] == SERIES["rounds"]


def test_a_game_with_other_players_is_refused(session):
    match = new_match(session)
    other = copy.deepcopy(SERIES["rounds"][0])
    other["players"].reverse()  # same names, wrong seat order
    with pytest.raises(EntryError, match="seat order"):
        store.add_game(session, match, other)
    assert match.rounds == []


def test_no_more_games_than_the_match_was_set_to(session):
    match = new_match(session, games=len(SERIES["rounds"]))
    for round_doc in SERIES["rounds"]:
        store.add_game(session, match, round_doc)
    assert store.result(match)["finished"] is True
    with pytest.raises(EntryError) as caught:
        store.add_game(session, match, SERIES["rounds"][0])
    assert caught.value.rule == "D17-7"


def test_update_game_rescores_and_says_what_changed(app, session):
    match = full_match(session)
    edited = store.round_document(match, 2)
    second = edited["players"][1]
    second["hand"] = [*second["hand"], "G17"]
    edited["bonus_cards"] = list(reversed(edited["bonus_cards"]))
    store.update_game(session, match, 2, edited)
    again = fresh(app, match)
    assert store.round_document(again, 2) == edited
    rounds = copy.deepcopy(SERIES["rounds"])
    rounds[1] = edited
    assert store.result(again) == match_document({**store.as_document(again), "rounds": rounds})
    last = store.history(again)[-1]
    assert last["what"] == f"Game 2 edited: {second['name']}'s hand, bonus cards"
    assert last["number"] == 2


def test_update_game_with_the_same_document_records_no_change(session):
    match = full_match(session)
    store.update_game(session, match, 1, store.round_document(match, 1))
    assert store.history(match)[-1]["what"] == "Game 1 saved, unchanged"


def test_delete_game_renumbers_the_later_games(app, session):
    match = new_match(session, games=5)
    rounds = [SERIES["rounds"][i % len(SERIES["rounds"])] for i in range(4)]
    for round_doc in rounds:
        store.add_game(session, match, round_doc)
    store.delete_game(session, match, 2)
    again = fresh(app, match)
    assert [g.number for g in again.rounds] == [1, 2, 3]
    assert store.as_document(again)["rounds"] == [rounds[0], rounds[2], rounds[3]]
    assert store.history(again)[-1]["what"] == "Game 2 deleted; games 3–4 renumbered"
    assert store.result(again)["next"]["number"] == 4
    store.delete_game(session, match, 3)
    assert store.history(match)[-1]["what"] == "Game 3 deleted"
    assert [g.number for g in fresh(app, match).rounds] == [1, 2]


def test_unknown_game_number_is_an_entry_error(session):
    match = full_match(session)
    before = row_counts(session)
    for call in (
        lambda: store.round_document(match, 9),
        lambda: store.delete_game(session, match, 9),
        lambda: store.update_game(session, match, 0, SERIES["rounds"][0]),
    ):
        with pytest.raises(EntryError, match="no game"):
            call()
    assert row_counts(session) == before


def test_history_lists_every_change_oldest_first_in_utc(app, session):
    match = full_match(session)
    edited = store.round_document(match, 1)
    edited["players"][1]["melds"] = edited["players"][1]["melds"][:-1] or [["B1", "B2", "B3"]]
    store.update_game(session, match, 1, edited)
    store.delete_game(session, match, 1)
    entries = store.history(fresh(app, match))
    names = SERIES["players"]
    assert [e["what"] for e in entries] == [
        f"Match started: {', '.join(names)}; {SERIES['first_dealer']} deals first; "
        f"{len(SERIES['rounds']) + 1} games",
        *(f"Game {n} added" for n in range(1, len(SERIES["rounds"]) + 1)),
        f"Game 1 edited: {names[1]}'s melds",
        "Game 1 deleted; game 2 is now game 1",
    ]
    times = [e["when"] for e in entries]
    assert all(t.tzinfo is not None and t.utcoffset() == timedelta(0) for t in times)
    assert times == sorted(times)


def test_matches_for_device_newest_first(session):
    device = "device-" + store.new_token()
    first = new_match(session, device=device)
    second = new_match(session, device=device)
    new_match(session, device="someone-else")
    assert [m.id for m in store.matches_for_device(session, device)] == [second.id, first.id]
    assert store.matches_for_device(session, "") == []


def test_tokens_are_long_random_and_distinct(session):
    matches = [new_match(session) for _ in range(5)]
    tokens = [m.edit_token for m in matches] + [m.view_token for m in matches]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 32 for t in tokens)  # 24 bytes of secrets.token_urlsafe: 192 bits


def test_two_phones_adding_the_same_game_number_is_a_conflict_not_a_crash(app, session):
    match = new_match(session)
    with Session(app.extensions["companion_db"], expire_on_commit=False) as other:
        stale = store.get_by_edit_token(other, match.edit_token)
        assert stale.rounds == []  # the other phone loaded the match before the save below
        store.add_game(session, match, SERIES["rounds"][0])
        before = row_counts(session)
        with pytest.raises(store.ConflictError) as caught:
            store.add_game(other, stale, SERIES["rounds"][1])
        assert isinstance(caught.value, EntryError)
        assert "reload" in caught.value.message
        assert [g.number for g in stale.rounds] == [1]  # reloaded after the rollback
    assert row_counts(session) == before


def test_the_migrations_build_exactly_the_tables_of_the_models(app):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlmodel import SQLModel

    with app.extensions["companion_db"].connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, SQLModel.metadata) == []


def test_the_migrations_go_down_and_up_again(app):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    from companion.db import MIGRATIONS, upgrade

    engine = app.extensions["companion_db"]
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "base")
    assert not {"match", "game", "change"} & set(inspect(engine).get_table_names())
    upgrade(engine)
    assert {"match", "game", "change"} <= set(inspect(engine).get_table_names())
