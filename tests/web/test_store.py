"""The store on SQLite and PostgreSQL: matches, rounds, revisions, dealers and history."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import pytest
from samples import GAMES, PLAYERS, holding, sample_round
from sqlmodel import Session, func, select
from support import load

from companion.adapters import store
from companion.adapters.models import Change, Match, Round
from companion.domain import EntryError, get_game, match_document

pytestmark = pytest.mark.both_databases  # the store's own behaviour (conftest.py)

SERIES = load("rummy17-match.json")


def new_match(session: Session, games: int | None = None, **kwargs: object) -> Match:
    """The example series' match, with no rounds entered yet."""
    return store.create_match(
        session,
        game=SERIES["game"],
        players=SERIES["players"],
        first_dealer=SERIES["first_dealer"],
        games=games or len(SERIES["rounds"]) + 1,
        **kwargs,
    )


def full_match(session: Session) -> Match:
    match = new_match(session)
    for round_doc in SERIES["rounds"]:
        store.add_round(session, match, round_doc)
    return match


def table_match(session: Session, game: str = "rummikub", games: int | None = 6) -> Match:
    """A match of ``game`` for three players, Anna dealing first."""
    if get_game(game).default_length(3) is None:
        games = None
    return store.create_match(session, game=game, players=PLAYERS, first_dealer="Anna", games=games)


def row_counts(session: Session) -> tuple[int, int, int]:
    session.expire_all()
    return tuple(  # type: ignore[return-value]
        session.exec(select(func.count()).select_from(t)).one() for t in (Match, Round, Change)
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
    before = datetime.now(UTC)
    match = store.create_match(
        session,
        game="rummy17",
        players=[" Zsófi ", "Márk", "Ёлка"],
        first_dealer="Márk",
        games=3,
        title="  Friday   night ",
        device="dev-1",
    )
    again = fresh(app, match)
    assert again.players == ["Zsófi", "Márk", "Ёлка"]
    assert (again.first_dealer, again.games, again.title) == ("Márk", 3, "Friday night")
    assert (again.game, again.revision) == ("rummy17", 1)
    assert again.device == "dev-1"
    assert again.created.tzinfo is not None
    assert before <= again.created <= datetime.now(UTC)  # made now, however slow the machine
    assert again.edit_token != again.view_token
    assert store.get_by_view_token(session, match.view_token).id == match.id
    assert store.get_by_edit_token(session, match.view_token) is None
    assert store.get_by_view_token(session, match.edit_token) is None
    assert store.get_by_edit_token(session, "") is None


@pytest.mark.parametrize("game", GAMES)
def test_create_match_without_a_length_takes_the_games_default(session, game):
    match = store.create_match(session, game=game, players=PLAYERS, first_dealer="Béla", games=None)
    assert match.games == get_game(game).default_length(len(PLAYERS))
    assert store.result(match)["games"] == match.games
    assert ("games" in store.as_document(match)) is (match.games is not None)


@pytest.mark.parametrize(
    ("game", "players", "dealer", "games", "rule"),
    [
        ("rummy17", ["Anna"], "Anna", 2, "R17-1"),
        ("rummy17", ["A", "B", "C", "D", "E", "F", "G"], "A", 2, "R17-1"),
        ("rummy17", ["Anna", "anna"], "Anna", 2, None),
        ("rummy17", ["Anna", "Béla"], "Cili", 2, None),
        ("rummy17", ["Anna", "Béla"], "Anna", 0, None),
        ("manipulation", ["Anna", "Béla"], "Anna", 5, "MR-16"),
        ("chess", ["Anna", "Béla"], "Anna", 2, None),
    ],
)
def test_create_match_refuses_bad_input_and_stores_nothing(
    session, game, players, dealer, games, rule
):
    before = row_counts(session)
    with pytest.raises(EntryError) as caught:
        store.create_match(session, game=game, players=players, first_dealer=dealer, games=games)
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


def test_bad_round_leaves_the_database_untouched(app, session):
    match = full_match(session)
    before = row_counts(session)
    revision = match.revision
    broken = copy.deepcopy(SERIES["rounds"][0])
    broken["players"][1]["melds"][0] = ["K2", "K2", "K3"]
    with pytest.raises(EntryError) as caught:
        store.add_round(session, match, broken)
    assert caught.value.first.round == len(SERIES["rounds"]) + 1
    with pytest.raises(EntryError):
        store.update_round(session, match, 1, broken)
    assert row_counts(session) == before
    again = fresh(app, match)
    assert store.as_document(again)["rounds"] == SERIES["rounds"]
    assert again.revision == revision


def test_a_round_with_other_players_is_refused(session):
    match = new_match(session)
    other = copy.deepcopy(SERIES["rounds"][0])
    other["players"].reverse()  # same names, wrong seat order
    with pytest.raises(EntryError):
        store.add_round(session, match, other)
    assert match.rounds == []


def test_no_more_rounds_than_the_match_was_set_to(session):
    match = new_match(session, games=len(SERIES["rounds"]))
    for round_doc in SERIES["rounds"]:
        store.add_round(session, match, round_doc)
    assert store.result(match)["finished"] is True
    with pytest.raises(EntryError) as caught:
        store.add_round(session, match, SERIES["rounds"][0])
    assert caught.value.rule == "D17-7"


def test_every_change_adds_one_to_the_revision_and_one_history_entry(session):
    match = table_match(session)
    seen = [match.revision]
    store.add_round(session, match, sample_round("rummikub", 1))
    seen.append(match.revision)
    store.add_round(session, match, sample_round("rummikub", 2), revision=match.revision)
    seen.append(match.revision)
    store.update_round(session, match, 1, sample_round("rummikub", 5), revision=match.revision)
    seen.append(match.revision)
    store.lengthen(session, match, revision=match.revision)
    seen.append(match.revision)
    store.delete_round(session, match, 1, revision=match.revision)
    seen.append(match.revision)
    assert seen == [1, 2, 3, 4, 5, 6]
    assert len(store.history(match)) == match.revision


def test_update_round_with_the_same_document_changes_nothing(session):
    match = full_match(session)
    revision, entries = match.revision, len(store.history(match))
    store.update_round(session, match, 1, store.round_document(match, 1), revision=revision)
    assert match.revision == revision
    assert len(store.history(match)) == entries


def test_update_round_rescores_and_keeps_old_and_new_values(app, session):
    match = full_match(session)
    edited = store.round_document(match, 2)
    second = edited["players"][1]
    old_hand = " ".join(second["hand"])
    second["hand"] = [*second["hand"], "G17"]
    old_bonus = " ".join(edited["bonus_cards"])
    edited["bonus_cards"] = list(reversed(edited["bonus_cards"]))
    store.update_round(session, match, 2, edited)
    again = fresh(app, match)
    assert store.round_document(again, 2) == edited
    rounds = copy.deepcopy(SERIES["rounds"])
    rounds[1] = edited
    assert store.result(again) == match_document({**store.as_document(again), "rounds": rounds})
    last = store.history(again)[-1]
    assert (last["code"], last["number"], last["params"]["number"]) == ("round-edited", 2, 2)
    assert last["params"]["changes"] == [
        {"what": "hand", "player": second["name"], "old": old_hand, "new": f"{old_hand} G17"},
        {"what": "bonus_cards", "old": old_bonus, "new": " ".join(edited["bonus_cards"])},
    ]
    assert store.describe(last) == (
        f"Round 2 edited: {second['name']}'s hand: {old_hand} → {old_hand} G17; "
        f"bonus cards: {old_bonus} → {' '.join(edited['bonus_cards'])}"
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_correction_and_its_reversal_both_stay_in_the_history(app, session, game):
    match = table_match(session, game)
    store.add_round(session, match, sample_round(game, 12))
    key, twelve = holding(sample_round(game, 12), 0)
    _, twenty_four = holding(sample_round(game, 24), 0)
    wrong = sample_round(game, 12)
    wrong["players"][0][key] = twenty_four
    store.update_round(session, match, 1, wrong, revision=match.revision)
    store.update_round(session, match, 1, sample_round(game, 12), revision=match.revision)
    edits = [e for e in store.history(fresh(app, match)) if e["code"] == "round-edited"]
    changes = [e["params"]["changes"] for e in edits]
    assert changes == [
        [{"what": key, "player": "Anna", "old": twelve, "new": twenty_four}],
        [{"what": key, "player": "Anna", "old": twenty_four, "new": twelve}],
    ]
    texts = [store.describe(e) for e in edits]
    assert all(t.startswith("Round 1 edited: Anna's ") for t in texts)
    assert "12" in texts[0].split("→")[0] and "24" in texts[0].split("→")[1]
    assert "24" in texts[1].split("→")[0] and "12" in texts[1].split("→")[1]


def test_describe_renders_through_a_translator(session):
    match = full_match(session)

    class Hungarian:
        def gettext(self, message: str) -> str:
            return {"Round {number} added": "{number}. kör hozzáadva"}.get(message, message)

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return singular if n == 1 else plural

    entry = store.history(match)[1]
    assert (entry["code"], entry["params"]) == ("round-added", {"number": 1})  # no words
    assert store.describe(entry, Hungarian()) == "1. kör hozzáadva"


def test_delete_round_renumbers_the_later_rounds(app, session):
    match = new_match(session, games=5)
    rounds = [SERIES["rounds"][i % len(SERIES["rounds"])] for i in range(4)]
    for round_doc in rounds:
        store.add_round(session, match, round_doc)
    dealers = [r.dealer for r in sorted(match.rounds, key=lambda r: r.number)]
    store.delete_round(session, match, 2)
    again = fresh(app, match)
    assert [r.number for r in again.rounds] == [1, 2, 3]
    assert store.as_document(again)["rounds"] == [rounds[0], rounds[2], rounds[3]]
    last = store.history(again)[-1]
    undo = last["params"].pop("undo")  # the round as it was, for undoing the deletion
    assert undo == {"dealer": dealers[1], "document": rounds[1]}
    assert (last["code"], last["params"]) == (
        "round-deleted-renumbered",
        {"number": 2, "first": 3, "last": 4},
    )
    assert store.describe(last) == "Round 2 deleted; rounds 3–4 renumbered"
    assert store.result(again)["next"]["number"] == 4
    store.delete_round(session, match, 3)
    assert store.describe(store.history(match)[-1]) == "Round 3 deleted"
    store.delete_round(session, match, 1)
    assert store.describe(store.history(match)[-1]) == "Round 1 deleted; round 2 is now round 1"
    assert [r.number for r in fresh(app, match).rounds] == [1]


def test_a_deleted_round_never_changes_who_dealt_the_others(app, session):
    match = table_match(session)  # Anna, Béla, Cili; Anna deals first
    for points in range(1, 5):
        store.add_round(session, match, sample_round("rummikub", points))
    assert [r.dealer for r in match.rounds] == ["Anna", "Béla", "Cili", "Anna"]
    store.delete_round(session, match, 2)
    again = fresh(app, match)
    assert [(r.number, r.dealer) for r in again.rounds] == [(1, "Anna"), (2, "Cili"), (3, "Anna")]
    result = store.result(again)
    assert [line["dealer"] for line in result["rounds"]] == ["Anna", "Cili", "Anna"]
    assert [line["starts"] for line in result["rounds"]] == ["Béla", "Anna", "Béla"]
    # The deal passes on from whoever dealt last (R17-2): nobody deals twice in a row.
    assert (result["next"]["dealer"], result["next"]["starts"]) == ("Béla", "Cili")
    store.add_round(session, match, sample_round("rummikub", 9))
    assert [r.dealer for r in fresh(app, match).rounds] == ["Anna", "Cili", "Anna", "Béla"]
    # Scores are the rules core's all the same.
    assert result["totals"] == match_document(store.as_document(again))["totals"]


def test_unknown_round_number_is_an_entry_error(session):
    match = full_match(session)
    before = row_counts(session)
    for call in (
        lambda: store.round_document(match, 9),
        lambda: store.delete_round(session, match, 9),
        lambda: store.update_round(session, match, 0, SERIES["rounds"][0]),
    ):
        with pytest.raises(store.RoundMissing) as caught:
            call()
        assert caught.value.code == "round-missing"
        assert "there is no round" in caught.value.message
    assert row_counts(session) == before


def test_history_lists_every_change_oldest_first_in_utc(app, session):
    match = full_match(session)
    edited = store.round_document(match, 1)
    edited["players"][1]["melds"] = edited["players"][1]["melds"][:-1] or [["B1", "B2", "B3"]]
    store.update_round(session, match, 1, edited)
    store.delete_round(session, match, 1)
    entries = store.history(fresh(app, match))
    names = SERIES["players"]
    count = len(SERIES["rounds"])
    texts = [store.describe(e) for e in entries]
    assert texts[0] == (
        f"Match started: {' and '.join(names)}; {SERIES['first_dealer']} deals first; "
        f"{count + 1} rounds"
    )
    assert texts[1 : count + 1] == [f"Round {n} added" for n in range(1, count + 1)]
    assert texts[count + 1].startswith(f"Round 1 edited: {names[1]}'s melds: ")
    assert texts[count + 2] == "Round 1 deleted; round 2 is now round 1"
    assert [e["code"] for e in entries] == [
        "match-started",
        *["round-added"] * count,
        "round-edited",
        "round-deleted-moved",
    ]
    assert all(set(e) == {"id", "when", "number", "code", "params"} for e in entries)
    assert [e["id"] for e in entries] == sorted(e["id"] for e in entries)
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


# --- revisions and races ------------------------------------------------------------------


def test_a_write_on_an_older_revision_changes_nothing(app, session):
    match = table_match(session)
    store.add_round(session, match, sample_round("rummikub", 1))
    before = row_counts(session)
    for call in (
        lambda: store.add_round(session, match, sample_round("rummikub"), revision=1),
        lambda: store.update_round(session, match, 1, sample_round("rummikub", 3), revision=1),
        lambda: store.delete_round(session, match, 1, revision=1),
        lambda: store.lengthen(session, match, revision=1),
        lambda: store.add_round(session, match, {"nonsense": True}, revision=7),
    ):
        with pytest.raises(store.StaleRevision) as caught:
            call()
        assert isinstance(caught.value, EntryError)
        assert caught.value.code == "stale-revision"
        assert caught.value.revision == caught.value.first.params["revision"] == 2
    assert row_counts(session) == before
    assert fresh(app, match).revision == 2


def test_two_phones_adding_the_same_round_number_is_a_conflict_not_round_4(app, session):
    match = new_match(session)
    with Session(app.extensions["companion_db"], expire_on_commit=False) as other:
        stale = store.get_by_edit_token(other, match.edit_token)
        assert stale.rounds == []  # the other phone loaded the match before the save below
        store.add_round(session, match, SERIES["rounds"][0])
        before = row_counts(session)
        with pytest.raises(store.ConflictError) as caught:
            store.add_round(other, stale, SERIES["rounds"][1])
        assert isinstance(caught.value, EntryError)
        assert not isinstance(caught.value, store.StaleRevision)
        assert "reload" in caught.value.message
        assert [r.number for r in stale.rounds] == [1]  # reloaded after the rollback
        assert stale.revision == 2
    with Session(app.extensions["companion_db"], expire_on_commit=False) as third:
        late = store.get_by_edit_token(third, match.edit_token)
        store.add_round(session, match, SERIES["rounds"][1], revision=2)
        with pytest.raises(store.StaleRevision) as caught:
            store.add_round(third, late, SERIES["rounds"][1], revision=late.revision)
        assert caught.value.revision == 3
    assert row_counts(session)[1] == before[1] + 1


# --- lengthen and rematch -----------------------------------------------------------------


def test_lengthen_adds_a_round_to_a_finished_series(app, session):
    match = new_match(session, games=len(SERIES["rounds"]))
    for round_doc in SERIES["rounds"]:
        store.add_round(session, match, round_doc)
    assert store.result(match)["finished"] is True
    store.lengthen(session, match, revision=match.revision)
    again = fresh(app, match)
    assert again.games == len(SERIES["rounds"]) + 1
    assert store.result(again)["finished"] is False
    last = store.history(again)[-1]
    assert (last["code"], last["params"]) == (
        "match-lengthened",
        {"old": len(SERIES["rounds"]), "new": len(SERIES["rounds"]) + 1},
    )
    store.add_round(session, match, SERIES["rounds"][0])
    store.lengthen(session, match, by=2)
    assert match.games == len(SERIES["rounds"]) + 3


@pytest.mark.parametrize("by", [0, -1, True, 1.5, "2"])
def test_lengthen_by_less_than_one_round_is_refused(session, by):
    match = new_match(session)
    with pytest.raises(EntryError) as caught:
        store.lengthen(session, match, by=by)
    assert caught.value.code == "lengthen-by"
    assert match.revision == 1


def test_a_game_played_to_a_target_cannot_be_lengthened(session):
    game = next(g for g in GAMES if get_game(g).default_length(3) is None)
    match = table_match(session, game)
    assert match.games is None
    before = row_counts(session)
    with pytest.raises(EntryError) as caught:
        store.lengthen(session, match)
    assert caught.value.code == "series-no-length"
    assert caught.value.rule == get_game(game).series_rule
    assert row_counts(session) == before


@pytest.mark.parametrize("game", GAMES)
def test_rematch_same_table_next_dealer_same_length(app, session, game):
    match = table_match(session, game, games=4)
    store.add_round(session, match, sample_round(game))
    again = store.rematch(session, match, device="phone-2")
    assert again.id != match.id
    assert (again.game, again.players, again.games) == (match.game, match.players, match.games)
    assert again.first_dealer == "Béla"  # clockwise after Anna
    assert (again.revision, again.rounds, again.device) == (1, [], "phone-2")
    assert {again.edit_token, again.view_token}.isdisjoint({match.edit_token, match.view_token})
    if match.games is None:
        expected = "rematch-started-target"  # MR-16: played to 150
    elif get_game(game).first_seat == "starter":
        expected = "rematch-started-starts"  # RK-2, RO-3: nobody deals
    else:
        expected = "rematch-started"
    assert [e["code"] for e in store.history(fresh(app, again))] == [expected]
    assert store.rematch(session, again).first_dealer == "Cili"
    assert fresh(app, match).revision == 2  # the old match is left as it was


# --- migrations ---------------------------------------------------------------------------


def test_the_migrations_build_exactly_the_tables_of_the_models(app):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlmodel import SQLModel

    with app.extensions["companion_db"].connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, SQLModel.metadata) == []


def test_the_migrations_go_down_and_up_again(app):
    from sqlalchemy import inspect

    from companion.adapters.db import downgrade, upgrade

    engine = app.extensions["companion_db"]
    downgrade(engine, "0001")
    assert {"match", "game", "change"} <= set(inspect(engine).get_table_names())
    assert "round" not in inspect(engine).get_table_names()
    downgrade(engine, "base")
    assert not {"match", "game", "round", "change"} & set(inspect(engine).get_table_names())
    upgrade(engine)
    tables = set(inspect(engine).get_table_names())
    assert {"match", "round", "change"} <= tables
    assert "game" not in tables


def test_an_entry_from_a_newer_app_is_shown_by_its_code(session):
    assert store.describe({"code": "from-the-future", "params": {"x": 1}}) == "from-the-future"


def test_sqlite_busy_past_its_timeout_is_a_conflict_not_a_crash(tmp_path):
    from companion.adapters.db import make_engine, upgrade

    engine = make_engine(
        f"sqlite:///{tmp_path / 'busy.sqlite3'}",
        connect_args={"check_same_thread": False, "timeout": 0.1},
    )
    upgrade(engine)
    with Session(engine, expire_on_commit=False) as session:
        match = store.create_match(
            session, game="rummikub", players=PLAYERS, first_dealer="Anna", games=3
        )
        blocker = engine.raw_connection()
        try:
            blocker.execute("BEGIN IMMEDIATE")  # another writer holds the lock
            with pytest.raises(store.ConflictError) as caught:
                store.add_round(session, match, sample_round("rummikub"), revision=1)
            assert not isinstance(caught.value, store.StaleRevision)  # 1 is still current
        finally:
            blocker.rollback()
            blocker.close()
        store.add_round(session, match, sample_round("rummikub"), revision=1)
        assert match.revision == 2
    engine.dispose()


def test_RK_2_the_history_of_a_tile_game_says_who_starts_not_who_deals(session: Session) -> None:
    match = store.create_match(
        session, game="rummikub", players=["Anna", "Béla", "Cili"], first_dealer="Anna", games=3
    )
    again = store.rematch(session, match)
    assert store.describe(store.history(match)[0]) == (
        "Match started: Anna, Béla and Cili; Béla starts; 3 rounds"
    )
    assert store.describe(store.history(again)[0]) == (
        "Rematch started: Anna, Béla and Cili; Cili starts; 3 rounds"
    )
