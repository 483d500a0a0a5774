"""D17-8 and every malformed document: refused with the player, meld and card named."""

import pytest
from helpers import game

from companion.domain import EntryError, score_document


def base() -> dict:
    return game(
        {
            "Anna": ([["R3", "R4", "R5"], ["Y8", "B8", "G8"]], []),
            "Béla": ([["K10", "K11", "K12"]], ["B3", "G12"]),
        },
        went_out="Anna",
        last="R17",
    )


def refused(doc: dict) -> EntryError:
    with pytest.raises(EntryError) as err:
        score_document(doc)
    return err.value


def test_the_base_document_is_fine():
    assert score_document(base())["multiplier"] == 2


def test_D17_8_a_card_twice_across_melds_and_hands_names_both_places():
    doc = base()
    doc["players"][1]["melds"].append(["R5", "B5", "K5"])
    err = refused(doc)
    assert err.message == (
        "Béla, meld 2: R5 appears twice (also in Anna's meld 1); each card exists once (D17-8)"
    )
    assert (err.player, err.meld, err.card, err.rule) == ("Béla", 2, "R5", "D17-8")


def test_D17_8_a_joker_twice_is_a_card_twice():
    doc = base()
    doc["players"][0]["melds"][0] = ["R3", "R4", "*R5"]
    doc["players"][1]["melds"][0] = ["R10", "R11", "*R12"]
    err = refused(doc)
    assert err.card == "*R" and "appears twice" in err.message


def test_D17_8_no_joker_in_a_hand():
    doc = base()
    doc["players"][1]["hand"] = ["*B"]
    err = refused(doc)
    assert err.message.startswith("Béla's hand: *B is a joker") and err.rule == "R17-13"


def test_D17_8_the_player_who_went_out_has_an_empty_hand():
    doc = base()
    doc["players"][0]["hand"] = ["K1"]
    err = refused(doc)
    assert err.message.startswith("Anna went out but still has 1 card in hand")


def test_D17_8_each_meld_is_legal():
    doc = base()
    doc["players"][1]["melds"][0] = ["K10", "K11", "K13"]
    err = refused(doc)
    assert err.message.startswith("Béla, meld 1: K12 is missing") and err.meld == 1


def test_a_meld_of_two_cards():
    doc = base()
    doc["players"][1]["melds"][0] = ["K10", "K11"]
    assert "at least three cards" in refused(doc).message


def test_two_jokers_in_a_meld():
    doc = base()
    doc["players"][1]["melds"][0] = ["K10", "*K", "K12", "*K"]
    assert "at most one joker" in refused(doc).message


def test_a_wrong_colour_joker():
    doc = base()
    doc["players"][1]["melds"][0] = ["K10", "K11", "*B"]
    err = refused(doc)
    assert err.message.startswith("Béla, meld 1: the blue joker cannot stand in a black run")
    assert err.card == "*B"


@pytest.mark.parametrize(
    ("card", "words"), [("Q5", "Q5 is not a card"), ("R18", "values run from 1 to 17")]
)
def test_an_unknown_card_or_a_value_out_of_range(card, words):
    doc = base()
    doc["players"][1]["hand"] = ["B3", card]
    err = refused(doc)
    assert err.message.startswith(f"Béla's hand: {card}") and words in err.message
    assert (err.card, err.player) == (card, "Béla")


def test_an_unknown_card_in_a_meld_names_player_and_meld():
    doc = base()
    doc["players"][0]["melds"][1] = ["Y8", "B8", "Q8"]
    err = refused(doc)
    assert err.message.startswith("Anna, meld 2: Q8 is not a card")
    assert (err.player, err.meld, err.card) == ("Anna", 2, "Q8")


@pytest.mark.parametrize(
    "cards",
    [
        ["most-cards"] * 5,
        ["most-cards", "most-sets"],
        ["most-cards", "most-sets", "most-runs", "longest-run", "best-hand"],
    ],
)
def test_five_bonus_cards_distinct_and_known(cards):
    doc = base()
    doc["bonus_cards"] = cards
    assert refused(doc).rule == "R17-3"


def test_went_out_must_be_a_player():
    doc = base()
    doc["went_out"] = "Zoli"
    assert "Zoli" in refused(doc).message


def test_last_discard_missing():
    doc = base()
    del doc["last_discard"]
    assert "which card did they discard last" in refused(doc).message


def test_last_discard_given_when_the_draw_pile_ran_out():
    doc = base()
    doc["went_out"] = None
    assert "only given when a player went out" in refused(doc).message


def test_last_discard_on_the_table():
    doc = base()
    doc["last_discard"] = "R4"
    assert refused(doc).message == (
        "the last discard R4 also lies in Anna's meld 1; each card exists once (D17-8)"
    )


def test_R17_14_the_last_discard_is_never_a_joker():
    doc = base()
    doc["last_discard"] = "*K"
    assert refused(doc).rule == "R17-13"


def test_R17_1_seven_players_are_too_many():
    doc = base()
    doc["players"] = [{"name": f"P{i}", "melds": [], "hand": []} for i in range(7)]
    assert refused(doc).message == "Rummy 17 is for 2 to 6 players, not 7 (R17-1)"


@pytest.mark.parametrize(
    ("names", "words"),
    [
        (["Anna", "anna"], "used twice"),
        (["Anna", " "], "player 2 has no name"),
        (["Anna", "x" * 41], "longer than 40"),
    ],
)
def test_duplicate_empty_or_long_names(names, words):
    doc = base()
    for p, n in zip(doc["players"], names, strict=True):
        p["name"] = n
    doc["went_out"] = None
    doc.pop("last_discard")
    assert words in refused(doc).message


@pytest.mark.parametrize(
    "doc",
    [[], "text", {"game": "chess"}, {"game": "rummy17"}, {"game": "rummy17", "players": [1, 2]}],
)
def test_malformed_documents_are_bad_input_not_crashes(doc):
    refused(doc)


def test_an_unknown_field_or_option_is_bad_input():
    doc = base()
    doc["went-out"] = "Anna"
    assert "unknown field 'went-out'" in refused(doc).message
    doc = base()
    doc["options"] = {"double-everything": True}
    assert "unknown option" in refused(doc).message


def test_hand_short_form_must_be_whole_numbers():
    doc = base()
    doc["players"][1]["hand"] = {"low": -1, "high": 2}
    assert "whole number" in refused(doc).message


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(bonus_cards=["most-cards"]), "bonus_cards"),
        (lambda d: d.update(last_discard="R4"), "last_discard"),
        (lambda d: d.update(last_discard="*K"), "last_discard"),
        (lambda d: d.pop("last_discard"), "last_discard"),
        (lambda d: d.update(last_discard="Q1"), "last_discard"),
        (lambda d: d.update(went_out="Zoli"), "went_out"),
    ],
)
def test_errors_about_a_document_field_name_it_for_forms(change, field):
    doc = base()
    change(doc)
    assert refused(doc).field == field


def test_R17_15a_doubles_answers_for_a_form_being_filled_in():
    from companion.domain.games.rummy17 import doubles

    assert doubles("Anna", "k17") and not doubles("Anna", "K16")
    assert not doubles(None, "K17") and not doubles("Anna", "") and not doubles("Anna", "K99")


def test_D17_8_the_player_who_went_out_holds_no_card_said_in_the_plural():
    doc = base()
    doc["players"][0]["hand"] = ["K1", "K2"]
    err = refused(doc)
    assert err.message == (
        "Anna went out but still has 2 cards in hand; a player who goes out has an empty hand "
        "(D17-8)"
    )
    assert (err.code, err.player, err.field) == ("went-out-holds", "Anna", "went_out")


def test_D17_8_everyone_but_the_player_who_went_out_holds_a_card():
    doc = base()
    doc["players"][1]["hand"] = []
    err = refused(doc)
    assert err.message == (
        "Béla's hand: it is empty, but Anna went out: everyone else holds a card (D17-8)"
    )
    assert (err.code, err.player, err.field, err.rule) == (
        "hand-empty-other-out",
        "Béla",
        "hand",
        "D17-8",
    )


def test_D17_8_when_the_draw_pile_ran_out_every_hand_holds_a_card_short_form_included():
    doc = base()
    doc["went_out"] = None
    doc.pop("last_discard")
    doc["players"][0]["hand"] = ["K1"]
    doc["players"][1]["hand"] = {"low": 0, "high": 0}
    err = refused(doc)
    assert err.codes == ["hand-empty-pile-out"]
    assert err.message == (
        "Béla's hand: it is empty, so Béla went out and the draw pile did not run out (D17-8)"
    )
    doc["players"][1]["hand"] = {"low": 0, "high": 1}
    assert score_document(doc)["players"][1]["penalty"] == 2


def test_D17_8_the_player_who_went_out_has_a_meld_of_their_own():
    # R17-10: Anna could only have added her cards to Béla's melds after a meld of her own.
    doc = base()
    doc["players"][1]["melds"] += doc["players"][0]["melds"]
    doc["players"][0]["melds"] = []
    err = refused(doc)
    assert (err.codes, err.player, err.field) == (["went-out-no-meld"], "Anna", "went_out")
    assert err.message.startswith("Anna went out without a meld of their own")


def test_a_forgotten_player_is_an_entry_error_not_a_silent_zero():
    doc = base()
    doc["players"][1] = {"name": "Béla"}
    err = refused(doc)
    assert (err.codes, err.player, err.field) == (["player-forgotten"], "Béla", "hand")
    assert err.message.startswith("Béla's hand: nothing entered")


def test_a_player_with_melds_but_no_hand_given_holds_nothing_so_must_have_gone_out():
    doc = base()
    del doc["players"][1]["hand"]
    assert refused(doc).codes == ["hand-empty-other-out"]


def test_every_problem_of_a_round_is_reported_at_once_in_document_order():
    doc = base()
    doc["bonus_cards"] = ["most-cards", "most-cards", "best-hand", "most-runs", "went-out"]
    doc["players"][0]["melds"][1] = ["Y8", "Q8", "B8", "Z1"]
    doc["players"][1]["melds"][0] = ["K10", "K11", "K13"]
    doc["players"][1]["hand"] = ["*B", "B3", "R3"]
    del doc["last_discard"]
    err = refused(doc)
    assert err.codes == [
        "bonus-twice",
        "bonus-unknown",
        "not-a-card-coloured-joker",
        "not-a-card-coloured-joker",
        "run-gap",
        "joker-in-hand",
        "last-discard-missing",
        "card-twice",
    ]
    assert [(p.player, p.meld, p.field, p.card) for p in err.problems] == [
        (None, None, "bonus_cards", "most-cards"),
        (None, None, "bonus_cards", "best-hand"),
        ("Anna", 2, None, "Q8"),
        ("Anna", 2, None, "Z1"),
        ("Béla", 1, None, "K12"),
        ("Béla", None, "hand", "*B"),
        ("Anna", None, "last_discard", None),
        ("Béla", None, "hand", "R3"),
    ]
    assert err.messages()[-1] == (
        "Béla's hand: R3 appears twice (also in Anna's meld 1); each card exists once (D17-8)"
    )
    body = err.to_json()["error"]
    assert body["code"] == "bonus-twice" and len(body["problems"]) == 8
    assert body["problems"][2]["message"].startswith("Anna, meld 2: Q8 is not a card")


def test_a_document_that_is_no_round_stops_at_its_first_problem():
    doc = base()
    doc["players"][1]["name"] = "anna"
    doc["players"][1]["hand"] = ["*B"]
    assert refused(doc).codes == ["name-twice"]


@pytest.mark.parametrize(
    ("hand", "codes"),
    [
        ("B3", ["hand-not-list"]),
        ({"low": 1, "many": 2}, ["hand-unknown-field"]),
        ({"low": -1, "high": "x"}, ["hand-count-not-number", "hand-count-not-number"]),
        ({"low": True}, ["hand-count-not-number"]),
    ],
)
def test_R17_16_a_hand_is_cards_or_counts_of_low_and_high(hand, codes):
    doc = base()
    doc["players"][1]["hand"] = hand
    err = refused(doc)
    assert err.codes == codes and {p.field for p in err.problems} == {"hand"}


def test_melds_that_are_not_lists_name_the_player():
    doc = base()
    doc["players"][1]["melds"] = "K10 K11 K12"
    err = refused(doc)
    assert (err.code, err.field) == ("melds-not-list", "melds")
    assert err.message.startswith("Béla's melds: not a list")
    doc = base()
    doc["players"][1]["melds"] = ["K10 K11 K12"]
    assert refused(doc).message == "Béla, meld 1: a meld is a list of cards"


def test_D17_8_the_last_discard_in_a_hand_names_the_hand():
    doc = base()
    doc["last_discard"] = "B3"
    err = refused(doc)
    assert err.message == (
        "the last discard B3 also lies in Béla's hand; each card exists once (D17-8)"
    )
    assert (err.code, err.field, err.card) == ("last-discard-twice-in-hand", "last_discard", "B3")


def test_bonus_cards_not_a_list_count_as_none_drawn():
    doc = base()
    doc["bonus_cards"] = "most-cards"
    err = refused(doc)
    assert err.message == "a game has exactly five bonus cards, not 0 (R17-3)"
