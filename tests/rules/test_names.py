"""Names that look the same are one name (issue: trust, item 3).

``Anna`` beside ``Anna`` + a zero-width space, a full-width ``Ａnna`` or ``Anna`` with a
right-to-left override look the same on the scoreboard: a name is read in one place
(``rules.names``), NFKC-normalised with invisible and bidirectional controls removed, and
compared casefolded, wherever a name is entered.
"""

from __future__ import annotations

import pytest

from companion.domain import EntryError, check_names, match_document
from companion.domain.club import read_entrants
from companion.domain.names import name_key, spelled
from companion.domain.stats import same_player

#: Each looks like "Anna" on a phone.
LOOKALIKES = [
    "Anna\u200b",  # zero-width space
    "\uff21nna",  # full-width A
    "Anna\u202e",  # right-to-left override
    "\u202eanna\u202c",  # override … pop directional formatting
    "\u2066Anna\u2069",  # isolate
    "\ufeffAnna",  # byte order mark
    "An\u00adna",  # soft hyphen
    "Anna\u200d",  # zero-width joiner
    "Ann\u0061\u034f",  # combining grapheme joiner
    "A\u200enna",  # left-to-right mark
    "Anna\x07",  # a control character
    "Anna\u3164",  # Hangul filler
]


@pytest.mark.parametrize("twin", LOOKALIKES)
def test_a_lookalike_is_the_same_name(twin: str) -> None:
    assert name_key(twin) == name_key("Anna")
    assert spelled(twin).casefold() == "anna"


@pytest.mark.parametrize("twin", LOOKALIKES)
def test_a_match_refuses_a_lookalike_naming_both_spellings(twin: str) -> None:
    with pytest.raises(EntryError) as refused:
        check_names(["Anna", twin, "Béla"])
    problem = refused.value.first
    assert problem.code == "name-alike"
    assert problem.message().startswith("“Anna” and “")
    assert problem.message().endswith("” are the same name; each player needs their own name")


def test_the_words_show_the_invisible_character() -> None:
    with pytest.raises(EntryError) as refused:
        check_names(["Anna", "Anna\u200b"])
    assert refused.value.first.message() == (
        "“Anna” and “Anna[U+200B]” are the same name; each player needs their own name"
    )
    with pytest.raises(EntryError) as refused:
        check_names(["\uff21nna", "Anna"])
    assert refused.value.first.message() == (
        "“\uff21nna” and “Anna” are the same name; each player needs their own name"
    )
    assert refused.value.first.player == "Anna"  # the second: the one to change


def test_case_alone_is_still_a_name_used_twice() -> None:
    with pytest.raises(EntryError) as refused:
        check_names(["Anna", "anna"])
    assert refused.value.first.code == "name-twice"


def test_a_name_is_kept_normalised_and_without_invisible_characters() -> None:
    assert check_names(["\uff21nna\u200b", "  Béla \u202e "]) == ("Anna", "Béla")
    assert check_names(["Anna  Kiss", "B\u00e9la"]) == ("Anna Kiss", "Béla")
    assert check_names(["Be\u0301la", "Cili"]) == ("Béla", "Cili")  # composed (NFC within NFKC)
    with pytest.raises(EntryError) as refused:
        check_names(["Anna", "\u200b\u202e"])
    assert refused.value.first.code == "name-missing"


def test_an_emoji_keeps_its_joiner() -> None:
    astronaut = "\U0001f469\u200d\U0001f680"
    heart = "\u2764\ufe0f"
    assert spelled(f"Anna {astronaut}") == f"Anna {astronaut}"
    assert spelled(f"{heart} Cili") == f"{heart} Cili"
    assert check_names([f"Anna {astronaut}", "Anna \U0001f469\U0001f680"])  # they look different


def test_the_event_entrants_are_read_the_same_way() -> None:
    with pytest.raises(EntryError) as refused:
        read_entrants(["Anna", "Béla", "\uff21nna"])
    problem = refused.value.first
    assert problem.code == "event-name-alike" and problem.rule == "EV-1"
    assert problem.message() == (
        "“Anna” and “\uff21nna” are the same name; each entrant needs their own name"
    )
    assert read_entrants(["\u2066Anna\u2069", "Béla"]) == ("Anna", "Béla")


def test_a_match_document_refuses_lookalikes_and_reads_its_references_the_same_way() -> None:
    doc = {"game": "rummikub", "players": ["Anna", "Anna\u200b"], "first_dealer": "Anna"}
    with pytest.raises(EntryError) as refused:
        match_document(doc)
    assert refused.value.code == "name-alike"
    doc = {"game": "rummikub", "players": ["\uff21nna", "Béla"], "first_dealer": "\uff21nna"}
    assert list(match_document(doc)["totals"]) == ["Anna", "Béla"]


def test_the_players_page_counts_a_lookalike_as_the_same_player() -> None:
    assert same_player("\uff21nna\u200b") == same_player("anna")
