"""Card notation for the four games (contract "Games and cards"), R17-1 and D17-1."""

import pytest

from companion.domain import Card, EntryError, Joker, get_game, parse_card
from companion.domain.cards import spoken
from companion.domain.games.rummy17.deck import RUMMY17
from companion.domain.games.rummy17.play import full_deck, jokers


def test_R17_1_the_deck_has_85_cards_each_once_and_five_jokers_one_per_colour():
    deck = full_deck()
    assert len(deck) == 85 and len(set(deck)) == 85
    assert {c.value for c in deck} == set(range(1, 18))
    assert sorted(j.colour for j in jokers()) == sorted("RBGYK")


def test_D17_1_colour_letters_read_case_insensitively_and_write_upper_case():
    assert parse_card("r7", RUMMY17) == Card("R", 7, RUMMY17)
    assert parse_card("k17", RUMMY17).text == "K17"
    assert parse_card("*y", RUMMY17).text == "*Y"
    assert parse_card("*r6", RUMMY17) == Joker("R", Card("R", 6, RUMMY17), RUMMY17)
    assert parse_card(" g12 ", RUMMY17).text == "G12"


@pytest.mark.parametrize(
    ("game", "text", "canonical"),
    [
        ("rummikub", "o13", "O13"),
        ("rummikub", "*", "*"),
        ("rummikub", "*o5", "*O5"),
        ("rummy-o", "g11", "G11"),
        ("manipulation", "as", "AS"),
        ("manipulation", "10h", "10H"),
        ("manipulation", "qd", "QD"),
        ("manipulation", "*qh", "*QH"),
    ],
)
def test_notation_of_the_other_games_reads_and_writes_back(game, text, canonical):
    assert get_game(game).parse_card(text).text == canonical


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("R18", "values run from 1 to 17"),
        ("R0", "values run from 1 to 17"),
        ("X5", "is not a card"),
        ("R007", "values run from 1 to 17"),  # R07 is R7: test_cards_with_a_leading_zero
        ("*", "a joker names its colour"),
        ("*B", None),
        ("*RB6", "cannot stand for B6"),
        ("", "is not a card"),
    ],
)
def test_unknown_cards_are_refused_with_the_card_named(text, words):
    if words is None:
        assert parse_card(text, RUMMY17).text == text
        return
    with pytest.raises(EntryError) as err:
        parse_card(text, RUMMY17)
    assert words in err.value.message


def test_rummikub_has_no_value_14():
    with pytest.raises(EntryError):
        get_game("rummikub").parse_card("K14")


def test_the_examples_in_parse_cards_docstring_hold():
    import doctest

    from companion.domain import cards

    assert doctest.testmod(cards, raise_on_error=True).attempted >= 2


@pytest.mark.parametrize(
    ("game", "text", "code", "message"),
    [
        (
            "manipulation",
            "1S",
            "not-a-card-suit",
            "1S is not a card: a card is a rank A, 2–10, J, Q, K and a suit (S spades, H hearts, "
            "D diamonds, C clubs), like 10H, or * for a joker",
        ),
        (
            "rummikub",
            "P5",
            "not-a-card",
            "P5 is not a card: a card is a colour (K black, R red, B blue, O orange) and a "
            "value 1–13, like K7, or * for a joker",
        ),
        ("rummikub", "K14", "value-out-of-range", "K14 is not a card: values run from 1 to 13"),
        (
            "rummikub",
            "*Z",
            "joker-bad-stand-in",
            "*Z is not a joker: write * alone or * with the card it stands for",
        ),
        (
            "rummy17",
            "*RX",
            "joker-value-missing",
            "*RX is not a joker: after *R comes the value it stands for, 1–17",
        ),
        (
            "rummy17",
            None,
            "not-a-card-coloured-joker",
            "None is not a card: a card is a colour (R red, B blue, G green, Y yellow, "
            "K black) and a value 1–17, like R7, or *R (a red joker) for a joker",
        ),
    ],
)
def test_each_game_says_what_its_cards_look_like(game, text, code, message):
    with pytest.raises(EntryError) as err:
        get_game(game).parse_card(text)
    assert (err.value.code, err.value.message) == (code, message)
    assert err.value.player is None and err.value.meld is None  # the caller says where


def test_a_card_carries_its_deck_and_none_is_made_without_one():
    """A tile of Rummikub is never a Rummy 17 card by default: a card or joker is made of a
    deck, and the deck writes and names it (contract "Games and cards")."""
    rummikub = get_game("rummikub")
    tile = rummikub.parse_card("o5")
    assert tile.deck is rummikub.deck and tile.game == "rummikub"
    assert tile != Card("O", 5, RUMMY17)  # the same colour letter and value, another deck
    with pytest.raises(TypeError):
        Card("R", 7)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Joker("R", None)  # type: ignore[call-arg]
    assert spoken(tile) == "orange 5"
    assert spoken(get_game("manipulation").parse_card("*QH")) == "joker as queen of hearts"
