"""The twelve bonus cards R17-B1…B12, ties (R17-17) and the house decisions D17-2…D17-5."""

from helpers import FILLER, Catalogue, award_of, game, scored, with_card

from companion.domain import score_document
from companion.domain.games.rummy17 import BONUS_CARDS
from companion.domain.messages import render


def two(card: str, anna: list[list[str]], bela: list[list[str]], **kw) -> dict:
    """Anna and Béla; Anna went out unless ``went_out`` says otherwise (then she holds B2)."""
    went_out = kw.get("went_out", "Anna")
    return game(
        {"Anna": (anna, [] if went_out == "Anna" else ["B2"]), "Béla": (bela, ["B1"])},
        bonus=with_card(card, FILLER),
        went_out=went_out,
        last=kw.get("last", "Y10"),
    )


def test_the_twelve_bonus_cards_have_the_rulebook_ids():
    assert [c.rule for c in BONUS_CARDS.values()] == [f"R17-B{i}" for i in range(1, 13)]


def test_R17_B1_most_cards_counts_every_card_in_front():
    a = award_of(two("most-cards", [["R3", "R4", "R5", "R6"]], [["Y8", "B8", "G8"]]), "most-cards")
    assert a.winners == ("Anna",) and a.figures == {"Anna": 4, "Béla": 3}
    assert a.reason == "Anna has the most cards in front: 4 (Béla 3)" and a.rule == "R17-B1"


def test_R17_B2_most_sets():
    a = award_of(
        two("most-sets", [["Y8", "B8", "G8"], ["R9", "B9", "K9"]], [["R3", "R4", "R5"]], last="Y2"),
        "most-sets",
    )
    assert a.winners == ("Anna",) and a.figures == {"Anna": 2, "Béla": 0}


def test_R17_B3_most_runs_with_the_reason_of_the_rulebook_example():
    doc = game(
        {
            "Zsófi": ([["G7", "G8", "G9"]], []),
            "Márk": ([["K2", "K3", "K4"], ["Y5", "Y6", "Y7"]], ["K9"]),
            "Lili": ([], ["B5"]),
        },
        bonus=with_card("most-runs", FILLER),
        went_out="Zsófi",
        last="R1",
    )
    a = award_of(doc, "most-runs")
    assert a.reason == "Márk has the most runs: 2 (Zsófi 1, Lili 0)"
    assert a.reason_code == "award-won"
    assert a.reason_params == {
        "winners": ["Márk"],
        "phrase": "the most runs",
        "best": 2,
        "others": {"Zsófi": 1, "Lili": 0},
    }


def test_R17_B4_longest_set():
    a = award_of(
        two("longest-set", [["Y8", "B8", "G8", "K8"]], [["R9", "B9", "K9"]]), "longest-set"
    )
    assert a.winners == ("Anna",) and a.figures == {"Anna": 4, "Béla": 3}


def test_R17_B5_longest_run():
    a = award_of(
        two("longest-run", [["R3", "R4", "R5"]], [["B10", "B11", "B12", "B13"]]), "longest-run"
    )
    assert a.winners == ("Béla",) and a.figures == {"Anna": 3, "Béla": 4}


def test_R17_B6_most_1_2_3():
    a = award_of(two("most-1-2-3", [["R1", "R2", "R3", "R4"]], [["K3", "Y3", "G3"]]), "most-1-2-3")
    assert a.figures == {"Anna": 3, "Béla": 3} and a.winners == ("Anna", "Béla")


def test_R17_B7_most_8_16():
    a = award_of(two("most-8-16", [["R14", "R15", "R16"]], [["Y8", "B8", "G8"]]), "most-8-16")
    assert a.winners == ("Béla",) and a.figures == {"Anna": 1, "Béla": 3}


def test_R17_B8_most_red():
    a = award_of(two("most-red", [["R14", "R15", "R16"]], [["R8", "B8", "G8"]]), "most-red")
    assert a.winners == ("Anna",) and a.figures == {"Anna": 3, "Béla": 1}


def test_R17_B9_fewest_blue():
    a = award_of(two("fewest-blue", [["B14", "B15", "B16"]], [["R8", "B8", "G8"]]), "fewest-blue")
    assert a.winners == ("Béla",) and a.figures == {"Anna": 3, "Béla": 1}


def test_R17_B10_fewest_jokers():
    a = award_of(
        two("fewest-jokers", [["R14", "R15", "*R16"]], [["R8", "B8", "G8"]]), "fewest-jokers"
    )
    assert a.winners == ("Béla",) and a.figures == {"Anna": 1, "Béla": 0}


def test_R17_B11_highest_triple_counts_only_melds_of_exactly_three():
    a = award_of(
        two("highest-triple", [["R14", "R15", "R16", "R17"]], [["R8", "B8", "G8"]]),
        "highest-triple",
    )
    assert a.winners == ("Béla",) and a.figures == {"Anna": 0, "Béla": 24}


def test_R17_B12_went_out_goes_to_the_player_who_discarded_last():
    a = award_of(two("went-out", [["R3", "R4", "R5"]], []), "went-out")
    assert a.winners == ("Anna",) and a.figures == {"Anna": 1, "Béla": 0}
    assert "Anna went out" in a.reason and "R17-15a" in a.reason


def test_R17_17_tied_players_each_get_three_points():
    doc = two("most-runs", [["R3", "R4", "R5"]], [["B10", "B11", "B12"]])
    result = scored(doc)
    a = next(x for x in result.awards if x.card == "most-runs")
    assert a.winners == ("Anna", "Béla") and a.points == 3
    assert a.reason == "Anna and Béla both have the most runs: 1 each, so each earns it (R17-17)"
    assert all("most-runs" in p.bonus_cards for p in result.players)


def test_D17_2_cards_added_to_a_meld_count_for_its_owner():
    # Béla laid Y8 B8 G8 K8 and then added R6 and R7 to Anna's R3 R4 R5. Counted by who laid
    # each card, Béla would have 6 in front and Anna 3; by the table as it lies (D17-2), the
    # run with all five is Anna's.
    doc = two("most-cards", [["R3", "R4", "R5", "R6", "R7"]], [["Y8", "B8", "G8", "K8"]])
    a = award_of(doc, "most-cards")
    assert a.winners == ("Anna",) and a.figures == {"Anna": 5, "Béla": 4}


def test_D17_3_a_joker_counts_as_a_card_in_its_colour_and_as_its_stand_in_value():
    doc = two("most-red", [["R1", "R2", "*R3"]], [["B8", "G8", "Y8"]])
    doc["bonus_cards"] = ["most-red", "most-cards", "most-1-2-3", "highest-triple", "fewest-jokers"]
    result = {a.card: a for a in scored(doc).awards}
    assert result["most-red"].figures["Anna"] == 3
    assert result["most-cards"].figures["Anna"] == 3
    assert result["most-1-2-3"].figures["Anna"] == 3
    assert result["highest-triple"].figures == {"Anna": 6, "Béla": 24}
    assert result["fewest-jokers"].figures == {"Anna": 1, "Béla": 0}
    assert result["most-red"].decision == "D17-3"


def test_D17_3_a_blue_joker_counts_as_blue():
    a = award_of(two("fewest-blue", [["Y8", "G8", "*B"]], [["R3", "R4", "R5"]]), "fewest-blue")
    assert a.figures == {"Anna": 1, "Béla": 0}


def test_D17_4_nobody_earns_most_when_the_best_figure_is_zero():
    a = award_of(two("most-sets", [["R3", "R4", "R5"]], [["B10", "B11", "B12"]]), "most-sets")
    assert a.winners == () and a.decision == "D17-4"
    assert a.reason == "nobody has a set, so nobody earns Most sets (D17-4)"


def test_D17_4_nobody_earns_highest_triple_without_a_three_card_meld():
    a = award_of(two("highest-triple", [["R3", "R4", "R5", "R6"]], []), "highest-triple")
    assert a.winners == () and "nobody has a meld of exactly three cards" in a.reason


def test_D17_4_fewest_goes_to_everyone_at_the_minimum_zero_included():
    a = award_of(
        two("fewest-jokers", [["R3", "R4", "R5"]], [["B10", "B11", "B12"]]), "fewest-jokers"
    )
    assert a.winners == ("Anna", "Béla") and a.figures == {"Anna": 0, "Béla": 0}


def test_R17_17_a_tie_beside_a_lower_figure_names_it_and_three_winners_all_have():
    doc = game(
        {
            "Anna": ([["R3", "R4", "R5"]], []),
            "Béla": ([["B10", "B11", "B12"]], ["B1"]),
            "Cili": ([["G10", "G11", "G12"]], ["B2"]),
            "Dani": ([["Y8", "B8", "G8"]], ["B3"]),
        },
        bonus=with_card("most-runs", FILLER),
        went_out="Anna",
        last="K2",
    )
    a = award_of(doc, "most-runs")
    assert a.reason == (
        "Anna, Béla and Cili all have the most runs: 1 each (Dani 0), so each earns it (R17-17)"
    )
    doc["players"].pop()  # without Dani nobody is left below them
    a = award_of(doc, "most-runs")
    assert a.reason_code == "award-tie"
    assert a.reason.endswith("all have the most runs: 1 each, so each earns it (R17-17)")


def test_award_reasons_travel_as_codes_a_shell_can_say_in_another_language():
    doc = two("most-runs", [["R3", "R4", "R5"]], [["Y8", "B8", "G8"]])
    award = next(a for a in score_document(doc)["awards"] if a["card"] == "most-runs")
    assert award["reason"] == "Anna has the most runs: 1 (Béla 0)"
    assert render(award["reason_code"], award["reason_params"]) == award["reason"]

    german = Catalogue(
        {
            "{winners} has {phrase}: {best} ({others})": (
                "{winners} hat {phrase}: {best} ({others})"
            ),
            "the most runs": "die meisten Reihen",
        }
    )
    # The bonus card's phrase is a word of the game: translated with the sentence.
    assert render(award["reason_code"], award["reason_params"], german) == (
        "Anna hat die meisten Reihen: 1 (Béla 0)"
    )


def test_D17_5_went_out_goes_to_nobody_when_the_draw_pile_ran_out():
    doc = two("went-out", [["R3", "R4", "R5"]], [], went_out=None)
    doc.pop("last_discard")
    a = award_of(doc, "went-out")
    assert a.winners == () and a.decision == "D17-5"
    assert a.reason == "the draw pile ran out, so nobody earns Went out (D17-5)"
