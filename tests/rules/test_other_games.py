"""Rummikub (RK, DK), Deluxe Rummy-O (RO, DO) and Manipulation Rummy (MR, DM) rounds and matches."""

import pytest
from support import load, subset

from companion.domain import EntryError, match_document, score_document


def rk(racks: dict, went_out=None, game="rummikub") -> dict:
    return {
        "game": game,
        "went_out": went_out,
        "players": [{"name": n, "rack": r} for n, r in racks.items()],
    }


def mr(hands: dict, knocked=None, went_out=None) -> dict:
    return {
        "game": "manipulation",
        "knocked": knocked,
        "went_out": went_out,
        "players": [{"name": n, "hand": h} for n, h in hands.items()],
    }


def scores(result: dict) -> dict:
    return {p["name"]: p["score"] for p in result["players"]}


@pytest.mark.parametrize("name", ["rummikub-round", "manipulation-round"])
def test_public_examples_reproduce_their_expected_results(name):
    assert subset(load(f"{name}.expected.json"), score_document(load(f"{name}.json")))


def test_RK_21_losers_pay_their_rack_a_joker_30_and_the_winner_collects():
    result = score_document(rk({"Anna": ["R5", "K13", "*"], "Cili": []}, went_out="Cili"))
    assert result["winners"] == ["Cili"]
    assert [p["rack_value"] for p in result["players"]] == [48, 0]
    assert scores(result) == {"Anna": -48, "Cili": 48}


def test_RK_22_when_the_pool_runs_out_the_lowest_rack_wins_the_differences():
    result = score_document(rk({"Anna": ["R5"], "Béla": ["K9"], "Cili": ["B12"]}))
    assert result["winners"] == ["Anna"]
    assert scores(result) == {"Anna": 4 + 7, "Béla": -4, "Cili": -7}


def test_DK_2_players_tied_lowest_each_score_as_if_they_won_alone():
    result = score_document(rk({"Anna": ["R5"], "Béla": ["K5"], "Cili": ["B12"]}))
    assert result["winners"] == ["Anna", "Béla"]
    assert scores(result) == {"Anna": 7, "Béla": 7, "Cili": -7}


def test_RK_20_the_winners_rack_is_empty():
    with pytest.raises(EntryError) as err:
        score_document(rk({"Anna": ["R5"], "Cili": ["K1"]}, went_out="Cili"))
    assert err.value.message == "Cili's rack: Cili went out, so nothing is left on it (RK-20)"
    assert (err.value.code, err.value.field) == ("went-out-rack-not-empty", "rack")


def test_DK_4_at_most_two_of_each_tile_and_two_jokers():
    with pytest.raises(EntryError) as err:
        score_document(rk({"Anna": ["R5", "R5"], "Cili": ["r5"]}))
    assert err.value.card == "R5" and err.value.rule == "DK-4"
    with pytest.raises(EntryError, match="more than 2 jokers"):
        score_document(rk({"Anna": ["*", "*"], "Cili": ["*"]}))


def test_RK_1_two_to_four_players():
    with pytest.raises(EntryError, match="2 to 4 players, not 5"):
        score_document(rk({n: [] for n in "ABCDE"}))


def test_RO_2_tile_values_1_11_12_13_are_ten_and_a_joker_25():
    result = score_document(
        rk(
            {"Anna": ["R1", "R11", "R12", "R13", "R5", "*"], "Cili": []},
            went_out="Cili",
            game="rummy-o",
        )
    )
    assert result["players"][0]["rack_value"] == 10 * 4 + 5 + 25


def test_RO_12_the_winner_scores_the_others_racks_and_the_others_nothing():
    result = score_document(
        rk({"Anna": ["R3"], "Béla": ["K12"], "Cili": []}, went_out="Cili", game="rummy-o")
    )
    assert scores(result) == {"Anna": 0, "Béla": 0, "Cili": 13}


def test_DO_4_pool_out_the_lowest_rack_wins_ties_each_score():
    result = score_document(rk({"Anna": ["R3"], "Béla": ["K3"], "Cili": ["B9"]}, game="rummy-o"))
    assert result["winners"] == ["Anna", "Béla"]
    assert scores(result) == {"Anna": 12, "Béla": 12, "Cili": 0}


def test_MR_8_card_values():
    result = score_document(
        mr({"Anna": ["AS", "10H", "JD", "QC", "KS", "*"], "Béla": []}, went_out="Béla")
    )
    assert result["players"][0]["hand_value"] == 1 + 10 + 10 + 10 + 10 + 25


def test_MR_11_two_players_the_winner_scores_the_difference():
    result = score_document(mr({"Anna": ["2S"], "Béla": ["KD"]}, knocked="Anna"))
    assert scores(result) == {"Anna": 8, "Béla": 0}


def test_MR_12_undercut_the_winner_who_did_not_knock_gets_10():
    result = score_document(mr({"Anna": ["4S"], "Béla": ["2D"]}, knocked="Anna"))
    assert result["winners"] == ["Béla"] and result["players"][1]["undercut"] == 10
    assert scores(result) == {"Anna": 0, "Béla": 2 + 10}


def test_MR_13_a_knocker_tied_with_one_player_loses_the_tie():
    result = score_document(mr({"Anna": ["3S"], "Béla": ["3D"], "Cili": ["9C"]}, knocked="Anna"))
    assert result["winners"] == ["Béla"]
    assert scores(result) == {"Anna": 0, "Béla": 0 + 6 + 10, "Cili": 0}


def test_MR_13_a_knocker_tied_with_two_players_both_win_with_the_undercut():
    result = score_document(
        mr({"Anna": ["3S"], "Béla": ["3D"], "Cili": ["3C"], "Dani": ["9H"]}, knocked="Anna")
    )
    assert result["winners"] == ["Béla", "Cili"]
    assert scores(result)["Béla"] == scores(result)["Cili"] == 6 + 10


def test_MR_14_DM_4_going_out_earns_25_when_the_player_wins():
    result = score_document(mr({"Anna": [], "Béla": ["5D"]}, went_out="Anna"))
    assert result["players"][0]["went_out_bonus"] == 25
    assert scores(result) == {"Anna": 5 + 25, "Béla": 0}


def test_MR_15_DM_5_no_knock_no_undercut():
    result = score_document(mr({"Anna": ["9S"], "Béla": ["2D"]}))
    assert result["winners"] == ["Béla"] and result["players"][1]["undercut"] == 0


def test_DM_6_a_knock_above_five_is_an_entry_error():
    with pytest.raises(EntryError) as err:
        score_document(mr({"Anna": ["9S"], "Béla": ["2D"]}, knocked="Anna"))
    assert err.value.rule == "DM-6" and err.value.player == "Anna"


def test_DM_8_two_players_have_one_deck():
    with pytest.raises(EntryError, match="more than once"):
        score_document(mr({"Anna": ["9S"], "Béla": ["9s"]}))
    score_document(mr({"Anna": ["9S"], "Béla": ["9s"], "Cili": []}, went_out="Cili"))


def test_MR_16_DM_7_the_match_ends_at_150_with_end_bonuses():
    big = mr(
        {"Anna": [], "Béla": ["KS", "KD", "KC", "KH", "QS", "QD", "QC", "QH"]}, went_out="Anna"
    )
    small = mr({"Anna": ["AS"], "Béla": ["2D"]}, knocked="Anna")
    doc = {
        "game": "manipulation",
        "players": ["Anna", "Béla"],
        "first_dealer": "Béla",
        "rounds": [small, big],
    }
    # small: Anna 2 - 1 = 1; big: Anna 80 + 25 for going out (she knocked, so no undercut).
    assert match_document(doc)["totals"] == {"Anna": 106, "Béla": 0}
    assert not match_document(doc)["finished"]
    doc["rounds"].append(big)  # 211: past 150 after game 3
    result = match_document(doc)
    assert result["finished"] and "next" not in result
    assert result["end_bonus"] == {"Anna": 100 + 3 * 25, "Béla": 0}
    assert result["totals"] == {"Anna": 211 + 175, "Béla": 0}
    assert [r["winners"] for r in result["rounds"]] == [["Anna"]] * 3
    doc["rounds"].append(small)
    with pytest.raises(EntryError, match="already ended after round 3"):
        match_document(doc)


def test_DK_3_a_rummikub_match_adds_rounds_and_passes_the_deal():
    doc = {
        "game": "rummikub",
        "players": ["Anna", "Béla"],
        "first_dealer": "Anna",
        "rounds": [
            rk({"Anna": ["R5"], "Béla": []}, went_out="Béla"),
            rk({"Anna": [], "Béla": ["K9", "*"]}, went_out="Anna"),
        ],
    }
    result = match_document(doc)
    assert result["totals"] == {"Anna": -5 + 39, "Béla": 5 - 39}
    assert [r["dealer"] for r in result["rounds"]] == ["Anna", "Béla"]
    assert result["standings"][0] == {"rank": 1, "name": "Anna", "total": 34}


def verdict(game: str, *cards: str) -> dict:
    from companion.domain import check_meld

    return check_meld(game, list(cards))


def test_RK_5_the_contract_example_1_cannot_follow_13():
    assert verdict("rummikub", "K12", "K13", "K1") == {
        "valid": False,
        "kind": None,
        "reason": "1 cannot follow 13 in a run",
        "rule": "RK-5",
        # Extension: the reason as a code with parameters, for a shell to say it anew.
        "code": "run-wraps",
        "params": {"rule": "RK-5"},
    }


def test_RK_12_a_joker_fills_a_run_and_RK_6_counts_the_tile_it_stands_for():
    v = verdict("rummikub", "K12", "K13", "*")
    assert v == {"valid": True, "kind": "run", "cards": ["*K11", "K12", "K13"], "value": 36}


def test_RK_4_a_group_joker_needs_no_stand_in_whichever_colour_is_open():
    # Contract "Games and cards": every reading of a set's joker is the same meld and worth.
    v = verdict("rummikub", "R5", "B5", "*")
    assert v == {"valid": True, "kind": "set", "cards": ["*K5", "R5", "B5"], "value": 15}
    assert verdict("rummikub", "R5", "B5", "*O5")["value"] == 15


def test_RK_12_a_joker_that_is_a_set_or_a_run_still_lists_every_reading():
    v = verdict("rummikub", "K9", "*", "*")
    assert v["valid"] and v["rule"] == "RK-12"
    kinds = [r["kind"] for r in v["readings"]]
    assert kinds.count("set") == 1 and kinds.count("run") == 3


def test_RK_4_a_group_has_at_most_four_tiles_of_different_colours():
    assert not verdict("rummikub", "R5", "R5", "B5")["valid"]


def test_RO_6_DO_3_the_initial_meld_value_uses_the_rummy_o_points():
    assert verdict("rummy-o", "R11", "R12", "R13")["value"] == 30


def test_DO_2_one_never_follows_13_in_rummy_o():
    assert verdict("rummy-o", "G12", "G13", "G1")["rule"] == "DO-2"


def test_MR_4_aces_high_or_low_but_never_round_the_corner():
    assert verdict("manipulation", "QH", "KH", "AH")["cards"] == ["QH", "KH", "AH"]
    assert verdict("manipulation", "AH", "2H", "3H")["valid"]
    assert not verdict("manipulation", "KH", "AH", "2H")["valid"]


def test_MR_3_a_group_never_holds_two_identical_cards():
    v = verdict("manipulation", "8S", "8S", "8H")
    assert not v["valid"] and v["rule"] == "MR-3" and "8S appears twice" in v["reason"]


def test_MR_7_a_stated_joker_is_held_to_its_card():
    assert verdict("manipulation", "8S", "8H", "*8D")["cards"] == ["8S", "8H", "*8D"]
    assert not verdict("manipulation", "8S", "8H", "*9D")["valid"]


def refused(doc: dict) -> EntryError:
    with pytest.raises(EntryError) as err:
        score_document(doc)
    return err.value


@pytest.mark.parametrize(("game", "rule"), [("rummikub", "DK-4"), ("rummy-o", "DO-6")])
def test_DK_4_DO_6_only_the_winners_rack_is_empty(game, rule):
    err = refused(rk({"Anna": [], "Béla": ["R5"], "Cili": []}, went_out="Anna", game=game))
    assert err.codes == ["rack-empty-not-out"]
    assert (err.player, err.field, err.rule) == ("Cili", "rack", rule)
    assert err.message == (
        f"Cili's rack: it is empty, but Anna went out: every other rack holds a tile ({rule})"
    )


@pytest.mark.parametrize(("game", "rule"), [("rummikub", "DK-4"), ("rummy-o", "DO-6")])
def test_DK_4_DO_6_when_the_pool_ran_out_no_rack_is_empty_every_one_reported(game, rule):
    err = refused(rk({"Anna": [], "Béla": ["R5"], "Cili": {"points": 0}}, game=game))
    assert err.codes == ["rack-empty-pool-out", "rack-empty-pool-out"]
    assert [p.player for p in err.problems] == ["Anna", "Cili"]
    assert {p.rule for p in err.problems} == {rule}


def test_DO_4_the_rulebook_example_tied_lowest_racks_each_score_every_other_rack():
    # DO-4: A 5, B 5, C 10 — A and B score 15 each (a co-winner's rack included).
    result = score_document(rk({"A": ["R5"], "B": ["K5"], "C": ["B10"]}, game="rummy-o"))
    assert result["winners"] == ["A", "B"]
    assert scores(result) == {"A": 15, "B": 15, "C": 0}


def test_DM_4_a_knock_with_an_empty_hand_is_going_out():
    knocked = score_document(mr({"Anna": [], "Béla": ["5D"]}, knocked="Anna"))
    went_out = score_document(mr({"Anna": [], "Béla": ["5D"]}, went_out="Anna"))
    assert knocked == went_out
    assert knocked["players"][0]["went_out_bonus"] == 25 and knocked["winners"] == ["Anna"]


def test_DM_4_the_player_who_went_out_is_the_only_knocker():
    err = refused(mr({"Anna": [], "Béla": ["2D"], "Cili": ["9C"]}, knocked="Béla", went_out="Anna"))
    assert (err.code, err.player, err.field, err.rule) == (
        "went-out-not-knocker",
        "Béla",
        "knocked",
        "DM-4",
    )


def test_DM_8_only_the_player_who_went_out_holds_no_cards():
    err = refused(mr({"Anna": [], "Béla": [], "Cili": ["3S"]}, went_out="Anna"))
    assert (err.codes, err.player, err.field, err.rule) == (
        ["hand-empty-not-out"],
        "Béla",
        "hand",
        "DM-8",
    )
    err = refused(mr({"Anna": ["2S"], "Béla": {"points": 0}}))
    assert err.codes == ["hand-empty-not-out"] and err.player == "Béla"


def test_DM_8_three_players_have_two_decks_and_two_jokers():
    score_document(mr({"Anna": ["9S", "*"], "Béla": ["9s", "*"], "Cili": []}, went_out="Cili"))
    err = refused(mr({"Anna": ["9S", "9S"], "Béla": ["9s"], "Cili": []}, went_out="Cili"))
    assert (err.code, err.card, err.rule) == ("too-many-copies", "9S", "DM-8")
    assert err.message == "Béla's hand: 9S appears more than 2 times in the round (DM-8)"


@pytest.mark.parametrize("game", ["rummikub", "rummy-o"])
def test_a_rack_may_be_given_as_the_points_the_table_counted(game):
    result = score_document(rk({"Anna": {"points": 48}, "Cili": []}, went_out="Cili", game=game))
    assert [p["rack_value"] for p in result["players"]] == [48, 0]
    assert scores(result)["Cili"] == 48


def test_a_hand_may_be_given_as_the_points_the_table_counted():
    result = score_document(mr({"Anna": {"points": 3}, "Béla": ["9S"]}, knocked="Anna"))
    assert [p["hand_value"] for p in result["players"]] == [3, 9]
    assert scores(result) == {"Anna": 6, "Béla": 0}


@pytest.mark.parametrize("points", [-1, 1.5, "7", True])
def test_the_points_short_form_is_a_whole_number(points):
    err = refused(rk({"Anna": {"points": points}, "Cili": []}, went_out="Cili"))
    assert (err.code, err.player, err.field) == ("points-not-number", "Anna", "rack")


def test_a_forgotten_player_is_an_entry_error_not_a_silent_zero():
    doc = rk({"Anna": [], "Cili": ["R5"]}, went_out="Anna")
    doc["players"].append({"name": "Béla"})
    err = refused(doc)
    assert (err.codes, err.player, err.field) == (["holding-missing"], "Béla", "rack")
    doc = mr({"Anna": ["2S"], "Béla": ["9D"]})
    del doc["players"][1]["hand"]
    assert refused(doc).codes == ["holding-missing"]


def test_every_unreadable_tile_and_copy_is_reported_at_once():
    err = refused(rk({"Anna": ["R14", "X1"], "Béla": ["R5", "R5", "r5"], "Cili": []}, "Cili"))
    assert err.codes == ["value-out-of-range", "not-a-card", "too-many-copies"]
    assert [p.player for p in err.problems] == ["Anna", "Anna", "Béla"]


def test_DK_4_a_third_copy_is_found_beside_an_unreadable_tile():
    """Every problem at once: the unreadable tile and the third R5 on the same rack."""
    doc = {
        "game": "rummikub",
        "went_out": "Cili",
        "players": [
            {"name": "Anna", "rack": ["R5", "R5", "X9"]},
            {"name": "Béla", "rack": ["R5"]},
            {"name": "Cili", "rack": []},
        ],
    }
    with pytest.raises(EntryError) as caught:
        score_document(doc)
    assert [(p.code, p.card) for p in caught.value.problems] == [
        ("not-a-card", "X9"),
        ("too-many-copies", "R5"),
    ]


def test_DK_4_a_bad_tile_and_a_missing_ending_are_reported_together():
    doc = {
        "game": "rummikub",
        "players": [{"name": "Anna", "rack": ["R5", "X9"]}, {"name": "Béla", "rack": []}],
    }
    with pytest.raises(EntryError) as caught:
        score_document(doc)
    assert caught.value.codes == ["not-a-card", "went-out-missing"]


def test_DM_6_a_bad_card_and_a_high_knock_elsewhere_are_reported_together():
    doc = {
        "game": "manipulation",
        "knocked": "Béla",
        "went_out": None,
        "players": [{"name": "Anna", "hand": ["ZZ"]}, {"name": "Béla", "hand": ["KD"]}],
    }
    with pytest.raises(EntryError) as caught:
        score_document(doc)
    assert caught.value.codes == ["not-a-card-suit", "knock-too-high"]
