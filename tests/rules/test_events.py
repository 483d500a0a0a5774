"""Club nights and tournaments (rules/events.md EV-1…EV-7, contract ``standings``).

Clause by clause, then Hypothesis invariants: shares sum to n/2 per table, seating never puts
a person at two tables, table sizes differ by at most one, a seed gives the same seating.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import load

from companion.domain import EntryError, get_game
from companion.domain.club import (
    event_standings,
    met_pairs,
    read_event,
    repeats,
    seat_session,
    session_shares,
    standings,
    table_sizes,
)

RUMMIKUB = get_game("rummikub")
NAMES = [f"P{i:03}" for i in range(200)]


def rack(name: str, points: int) -> dict:
    return {"name": name, "rack": {"points": points}}


def table(players: list[str], points: list[int], games: int = 1) -> dict:
    """A Rummikub table of one round: the first player with 0 points went out."""
    went_out = players[points.index(0)] if 0 in points else None
    return {
        "players": players,
        "first_dealer": players[0],
        "games": games,
        "rounds": [
            {
                "went_out": went_out,
                "players": [rack(n, p) for n, p in zip(players, points, strict=True)],
            }
        ],
    }


def lines(result: dict) -> dict[str, dict]:
    return {line["name"]: line for line in result["standings"]}


# --- EV-1 the event ----------------------------------------------------------------------


def test_ev1_the_example_event_is_read_and_ranked():
    result = standings(load("event.json"))
    assert result["game"] == "rummikub"
    assert [line["rank"] for line in result["standings"]] == sorted(
        line["rank"] for line in result["standings"]
    )
    assert {line["name"] for line in result["standings"]} == set(load("event.json")["entrants"])


@pytest.mark.parametrize("entrants", [["Anna"], [f"N{i}" for i in range(201)]])
def test_ev1_two_to_two_hundred_entrants(entrants):
    with pytest.raises(EntryError) as caught:
        read_event({"game": "rummikub", "entrants": entrants})
    assert caught.value.code == "event-entrant-count" and caught.value.rule == "EV-1"


def test_ev1_a_name_entered_twice_is_named():
    with pytest.raises(EntryError) as caught:
        read_event({"game": "rummy17", "entrants": ["Anna", "Béla", "anna "]})
    assert caught.value.code == "event-name-twice"
    assert "anna" in caught.value.message


def test_ev1_at_most_twenty_sessions():
    doc = {"game": "rummikub", "entrants": ["A", "B"], "sessions": [{"tables": []}] * 21}
    with pytest.raises(EntryError) as caught:
        read_event(doc)
    assert caught.value.code == "event-session-count"


# --- EV-2 seating: sizes -----------------------------------------------------------------


def test_ev2_ten_at_four_sit_four_three_three():
    assert table_sizes(10, RUMMIKUB, 4) == (4, 3, 3)


@pytest.mark.parametrize(
    ("present", "game", "preferred", "sizes"),
    [
        (7, "rummikub", 4, (4, 3)),
        (8, "rummikub", 4, (4, 4)),
        (5, "rummikub", 4, (3, 2)),
        (3, "rummikub", 4, (3,)),
        (2, "rummy-o", 4, (2,)),
        (13, "rummy17", 6, (5, 4, 4)),
        (11, "manipulation", 5, (4, 4, 3)),
        (9, "rummikub", 2, (3, 2, 2, 2)),
    ],
)
def test_ev2_sizes_as_equal_as_possible_within_the_games_seats(present, game, preferred, sizes):
    got = table_sizes(present, get_game(game), preferred)
    assert got == sizes
    low, high = get_game(game).seats
    assert all(low <= s <= high for s in got) and sum(got) == present


def test_ev2_fewer_entrants_than_a_table_is_bad_input():
    with pytest.raises(EntryError) as caught:
        table_sizes(1, RUMMIKUB, 4)
    assert caught.value.code == "event-too-few" and caught.value.rule == "EV-2"


def test_ev2_a_preferred_size_outside_the_seats_is_bad_input():
    with pytest.raises(EntryError) as caught:
        table_sizes(10, RUMMIKUB, 6)
    assert caught.value.code == "event-size-outside"
    assert "Rummikub" in caught.value.message


def test_ev2_an_entrant_at_two_tables_of_one_session_is_bad_input():
    doc = {
        "game": "rummikub",
        "entrants": ["A", "B", "C", "D", "E"],
        "sessions": [{"tables": [table(["A", "B", "C"], [0, 3, 4]), table(["D", "A"], [0, 5])]}],
    }
    with pytest.raises(EntryError) as caught:
        standings(doc)
    problem = caught.value.first
    assert problem.code == "event-seated-twice" and problem.player == "A"
    assert caught.value.message.startswith("session 1, table 2: ")


def test_ev2_a_table_player_who_is_not_an_entrant_is_bad_input():
    doc = {
        "game": "rummikub",
        "entrants": ["A", "B", "C"],
        "sessions": [{"tables": [table(["A", "B", "Zoli"], [0, 3, 4])]}],
    }
    with pytest.raises(EntryError) as caught:
        standings(doc)
    assert caught.value.code == "event-not-entrant" and caught.value.player == "Zoli"


def test_ev2_a_table_size_outside_the_games_seats_is_bad_input():
    five = ["A", "B", "C", "D", "E"]
    doc = {"game": "rummikub", "entrants": five, "sessions": [{"tables": [table(five, [0] * 5)]}]}
    with pytest.raises(EntryError) as caught:
        standings(doc)
    assert caught.value.code == "player-count" and caught.value.rule == "RK-1"
    assert "session 1, table 1" in caught.value.message


def test_ev4_whatever_match_refuses_in_a_table_is_bad_input_naming_the_table():
    doc = {
        "game": "rummikub",
        "entrants": ["A", "B", "C"],
        "sessions": [{"tables": [table(["A", "B", "C"], [0, 3, 4])]}],
    }
    doc["sessions"][0]["tables"][0]["rounds"][0]["players"][1]["rack"] = ["R99"]
    with pytest.raises(EntryError) as caught:
        standings(doc)
    assert caught.value.first.session == 1 and caught.value.first.table == 1
    assert caught.value.player == "B"


# --- EV-3 seating: draw and standings ----------------------------------------------------


def test_ev3_a_draw_is_the_same_for_the_same_seed_and_seats_everyone_once():
    present = NAMES[:14]
    first = seat_session(present, RUMMIKUB, seed=7)
    assert first == seat_session(present, RUMMIKUB, seed=7)
    assert sorted(n for t in first for n in t) == sorted(present)
    assert [len(t) for t in first] == [4, 4, 3, 3]


def test_ev3_a_draw_prefers_seating_fewer_pairs_who_already_met():
    present = NAMES[:8]
    session1 = seat_session(present, RUMMIKUB, seed=1)
    met = met_pairs([session1])
    session2 = seat_session(present, RUMMIKUB, seed=2, met=met)
    # Two tables of four can always keep at most two pairs from each old table apart.
    assert repeats(session2, met) <= 4
    assert repeats(session2, met) < repeats(session1, met)


def test_ev3_by_standings_fills_table_one_from_the_top():
    order = NAMES[:8]
    tables = seat_session(order, RUMMIKUB, method="standings", seed=3, order=order)
    assert set(tables[0]) == set(order[:4]) and set(tables[1]) == set(order[4:])


def test_ev3_by_standings_swaps_neighbours_across_tables_and_nobody_moves_two_tables():
    order = NAMES[:12]
    met = met_pairs([[order[0:4], order[4:8], order[8:12]]])
    tables = seat_session(order, RUMMIKUB, method="standings", seed=3, order=order, met=met)
    assert repeats(tables, met) < repeats([order[0:4], order[4:8], order[8:12]], met)
    where = {n: i for i, t in enumerate(tables) for n in t}
    assert all(abs(where[n] - order.index(n) // 4) <= 1 for n in order)


def test_ev3_an_unknown_method_is_named():
    with pytest.raises(EntryError) as caught:
        seat_session(NAMES[:4], RUMMIKUB, seed=1, method="swiss")
    assert caught.value.code == "event-method-unknown"


# --- EV-5 session score ------------------------------------------------------------------


def test_ev5_a_table_of_four_gives_100_66_33_0():
    shares = session_shares([("A", 1), ("B", 2), ("C", 3), ("D", 4)])
    assert [round(100 * shares[n], 1) for n in "ABCD"] == [100.0, 66.7, 33.3, 0.0]


def test_ev5_a_table_of_three_gives_100_50_0():
    shares = session_shares([("A", 1), ("B", 2), ("C", 3)])
    assert [shares[n] for n in "ABC"] == [1.0, 0.5, 0.0]


def test_ev5_ties_count_half():
    shares = session_shares([("A", 1), ("B", 2), ("C", 2), ("D", 4)])
    assert shares["B"] == shares["C"] == pytest.approx(0.5)


def test_ev5_manipulation_ranks_as_its_end_bonuses_leave_it():
    from companion.domain import match_document

    doc = load("manipulation-round.json")
    players = [p["name"] for p in doc["players"]]
    match = {"players": players, "first_dealer": players[0], "rounds": [doc]}
    result = match_document({**match, "game": "manipulation"})
    event_doc = {"game": "manipulation", "entrants": players, "sessions": [{"tables": [match]}]}
    by = lines(standings(event_doc))
    expected = session_shares([(line["name"], line["rank"]) for line in result["standings"]])
    for name in players:
        assert by[name]["sessions"] == [round(100 * expected[name], 1)]
        assert by[name]["totals"] == result["totals"][name]


# --- EV-6 standings ----------------------------------------------------------------------


def event(*sessions: list[dict], entrants: list[str] | None = None) -> dict:
    names = entrants or sorted({n for s in sessions for t in s for n in t["players"]})
    return {"game": "rummikub", "entrants": names, "sessions": [{"tables": s} for s in sessions]}


def test_ev6_the_sum_of_session_scores_ranks_first():
    doc = event(
        [table(["A", "B", "C"], [0, 5, 10]), table(["D", "E"], [0, 40])],
        [table(["A", "D", "E"], [7, 0, 9]), table(["B", "C"], [0, 1])],
    )
    result = lines(standings(doc))
    assert result["A"]["sessions"] == [100.0, 50.0] and result["A"]["score"] == 150.0
    assert result["D"]["sessions"] == [100.0, 100.0] and result["D"]["rank"] == 1


def test_ev6_ties_broken_by_totals_then_rounds_won_then_shared():
    doc = event(
        [table(["A", "B"], [0, 10]), table(["C", "D"], [0, 3])],
    )
    result = lines(standings(doc))
    assert result["A"]["score"] == result["C"]["score"] == 100.0
    assert result["A"]["totals"] == 10 and result["C"]["totals"] == 3
    assert (result["A"]["rank"], result["C"]["rank"]) == (1, 2)
    same = lines(standings(event([table(["A", "B"], [0, 4]), table(["C", "D"], [0, 4])])))
    assert same["A"]["rank"] == same["C"]["rank"] == 1
    assert same["B"]["rank"] == same["D"]["rank"] == 3
    assert same["A"]["rounds_won"] == 1


def test_ev6_a_missed_session_scores_zero_and_is_marked():
    doc = event(
        [table(["A", "B"], [0, 10])],
        [table(["A", "C"], [0, 2])],
        entrants=["A", "B", "C"],
    )
    result = lines(standings(doc))
    assert result["B"]["sessions"] == [0.0, None] and result["B"]["missed"] == 1
    assert result["C"]["sessions"] == [None, 0.0] and result["C"]["missed"] == 1
    assert result["A"]["missed"] == 0


def test_ev4_a_table_still_playing_is_provisional_and_the_event_not_finished():
    unfinished = table(["A", "B"], [0, 10], games=2)
    result = standings(event([unfinished, table(["C", "D"], [0, 3])]))
    assert result["finished"] is False
    by = lines(result)
    assert by["A"]["provisional"] and by["B"]["provisional"]
    assert not by["C"]["provisional"] and not by["D"]["provisional"]


def test_ev7_finished_when_every_table_is():
    assert standings(event([table(["A", "B"], [0, 10])]))["finished"] is True


def test_contract_percentages_to_one_decimal_ranks_from_unrounded_figures():
    doc = event([table(["A", "B", "C", "D"], [0, 3, 6, 9])])
    result = lines(standings(doc))
    assert [result[n]["score"] for n in "ABCD"] == [100.0, 66.7, 33.3, 0.0]


# --- invariants --------------------------------------------------------------------------


@given(
    n=st.integers(2, 120),
    game=st.sampled_from(["rummy17", "rummikub", "rummy-o", "manipulation"]),
    data=st.data(),
)
def test_seating_seats_everyone_once_at_tables_differing_by_at_most_one(n, game, data):
    g = get_game(game)
    preferred = data.draw(st.integers(*g.seats))
    seed = data.draw(st.integers(0, 2**32))
    present = NAMES[:n]
    method = data.draw(st.sampled_from(["draw", "standings"]))
    tables = seat_session(present, g, preferred=preferred, seed=seed, method=method, order=present)
    seated = [name for t in tables for name in t]
    assert sorted(seated) == sorted(present)
    sizes = [len(t) for t in tables]
    assert max(sizes) - min(sizes) <= 1
    assert all(g.seats[0] <= s <= g.seats[1] for s in sizes)
    assert max(sizes) <= max(preferred, -(-n // len(sizes)))
    assert tables == seat_session(
        present, g, preferred=preferred, seed=seed, method=method, order=present
    )


@given(ranks=st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_shares_sum_to_half_the_table(ranks):
    ranking = [(f"N{i}", r) for i, r in enumerate(ranks)]
    shares = session_shares(ranking)
    assert sum(shares.values()) == pytest.approx(len(ranks) / 2)
    assert all(0 <= s <= 1 for s in shares.values())


@given(
    points=st.lists(st.lists(st.integers(1, 60), min_size=2, max_size=4), min_size=1, max_size=5)
)
def test_standings_share_per_table_sums_to_half_its_size(points):
    tables, at = [], 0
    for row in points:
        players = [f"E{at + i}" for i in range(len(row))]
        at += len(row)
        row = [0, *row[1:]]
        tables.append(table(players, row))
    result = standings(event(tables))
    by = lines(result)
    for t in tables:
        shares = sum(by[n]["sessions"][0] for n in t["players"])
        assert shares == pytest.approx(100 * len(t["players"]) / 2, abs=0.2)
    assert [line["rank"] for line in result["standings"]][0] == 1


def test_event_standings_are_pure_over_match_results():
    doc = event([table(["A", "B", "C"], [0, 5, 10])])
    from companion.domain import match_document

    results = [[match_document({**doc["sessions"][0]["tables"][0], "game": "rummikub"})]]
    direct = event_standings(doc["entrants"], results)
    assert [s.to_json() for s in direct] == standings(doc)["standings"]
    assert all(len(set(pair)) == 2 for pair in combinations(doc["entrants"], 2))
