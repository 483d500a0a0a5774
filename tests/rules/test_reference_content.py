"""The rules reference (companion/i18n/reference): every clause of every game, in every language
written so far, once and in order; the markdown subset read safely; search; clause links."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup, escape
from support import load

from companion.domain import all_games
from companion.domain.games.rummy17 import BONUS_CARDS
from companion.domain.messages import MESSAGES
from companion.i18n import reference
from companion.i18n.catalogues import LANGUAGES

#: Every clause id of the rules files, in order (copied from the rules files).
CLAUSES: dict[str, list[str]] = {
    k: v for k, v in load("reference-clauses.json").items() if not k.startswith("_")
}
GAME_IDS = [g.id for g in all_games()]
# Every language of the app has the whole reference.
REQUIRED = list(LANGUAGES)
WRITTEN = sorted({*REQUIRED, *reference.written()})
PAGES = [(lang, game) for lang in WRITTEN for game in GAME_IDS]
ANY_ID = re.compile(r"\b(?:R17|D17|RK|DK|RO|DO|MR|DM)-B?[0-9]+")


def href(game: str, clause: str) -> str:
    return f"/rules/{game}#{clause}"


def test_the_reference_covers_every_game() -> None:
    assert sorted(CLAUSES) == sorted(GAME_IDS)
    assert set(WRITTEN) <= set(LANGUAGES)


@pytest.mark.parametrize(("lang", "game"), PAGES)
def test_each_file_holds_every_clause_once_in_the_rules_order(lang: str, game: str) -> None:
    assert reference.path(lang, game).is_file(), f"{lang}/{game}.md is missing"
    ref = reference.load(game, lang)
    assert ref.lang == lang and ref.title
    assert list(ref.ids()) == CLAUSES[game]


@pytest.mark.parametrize(("lang", "game"), PAGES)
def test_house_decisions_and_only_they_are_marked(lang: str, game: str) -> None:
    for clause in reference.load(game, lang).clauses():
        assert clause.house == clause.id.startswith("D"), clause.id  # D17-, DK-, DO-, DM-
        assert clause.title and clause.blocks, clause.id


@pytest.mark.parametrize(("lang", "game"), PAGES)
def test_the_text_cites_no_unknown_clause(lang: str, game: str) -> None:
    known = {c for ids in CLAUSES.values() for c in ids}
    text = reference.path(lang, game).read_text(encoding="utf-8")
    assert set(ANY_ID.findall(text)) <= known


def test_every_clause_the_app_cites_has_a_place_in_the_reference() -> None:
    cited = {card.rule for card in BONUS_CARDS.values()}
    for game in all_games():
        cited |= {game.seats_rule, game.first_seat_rule, game.series_rule}
        cited |= {d.rule for d in game.decisions} | {e.rule for e in game.endings}
    for text in MESSAGES.values():
        cited |= set(ANY_ID.findall(" ".join(text) if isinstance(text, tuple) else text))
    missing = sorted(c for c in cited if reference.game_of(c) is None)
    assert missing == []


def test_clause_prefixes_come_from_the_games() -> None:
    assert reference.owners() == {
        p: g for g, ids in CLAUSES.items() for p in {c.rsplit("-", 1)[0] for c in ids}
    }


# --- The markdown subset -------------------------------------------------------------------

SAMPLE = """# Game

Intro *with* words.

## Play

### RK-4 Group
A **group** of <b>three</b> & more:
- R5 *R5 B5, a joker *
  continued
- second

### DK-1 Letters {house}
Plain.
"""


def test_the_subset_is_read_into_clauses() -> None:
    ref = reference.parse(SAMPLE)
    assert ref.title == "Game" and ref.intro[0].items == ("Intro *with* words.",)
    group, letters = ref.clauses()
    assert (group.id, group.title, group.house) == ("RK-4", "Group", False)
    assert (letters.id, letters.title, letters.house) == ("DK-1", "Letters", True)
    assert [b.kind for b in group.blocks] == ["p", "ul"]
    assert group.blocks[1].items == ("R5 *R5 B5, a joker * continued", "second")


def test_inline_text_is_escaped_and_only_bold_and_italic_become_tags() -> None:
    ref = reference.parse(SAMPLE)
    group = next(ref.clauses())
    html = reference.inline(group.blocks[0].items[0])
    assert html == "A <strong>group</strong> of &lt;b&gt;three&lt;/b&gt; &amp; more:"
    assert reference.inline("R5 *R5 B5, a joker *") == "R5 *R5 B5, a joker *"  # jokers stay
    assert reference.inline("Intro *with* words.") == "Intro <em>with</em> words."


@given(st.text(max_size=60))
def test_no_text_makes_a_tag_of_its_own(text: str) -> None:
    html = str(reference.inline(text))
    assert re.sub(r"</?(strong|em)>", "", html).count("<") == 0


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("text first\n# Game", "before the '# title'"),
        ("# Game\n### RK-1 A clause", "before the first '## section'"),
        ("# Game\n## Play\n### A clause without an id", "'### <id> <title>'"),
        ("# Game\n#### Deeper", "headings are"),
        ("# Game\n# Again", "a second '# title'"),
    ],
)
def test_a_file_outside_the_subset_is_refused_naming_the_line(text: str, problem: str) -> None:
    with pytest.raises(reference.FormatError, match=re.escape(problem)):
        reference.parse(text)


# --- Search --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", WRITTEN)
def test_rk9_is_found_by_its_id_in_every_language(lang: str) -> None:
    ref = reference.load("rummikub", lang)
    found = [c.id for c in reference.search(ref, "rk-9")]
    assert found[0] == "RK-9" and "RK-10" not in found


@pytest.mark.parametrize(
    ("lang", "query", "clause"),
    [
        ("en", "Penalty TILES", "RK-11"),
        ("en", "JOKER", "RK-12"),
        ("hu", "jatekos", "RK-1"),  # játékos, without its accents
        ("hu", "ÚJRAKEVERÉS", "RK-3"),
    ],
)
def test_a_word_is_found_whatever_its_case_and_accents(lang: str, query: str, clause: str) -> None:
    found = [c.id for c in reference.search(reference.load("rummikub", lang), query)]
    assert clause in found


def test_every_word_of_a_search_is_in_each_clause_found() -> None:
    found = reference.search(reference.load("rummikub", "en"), "joker pool")
    assert found and all("joker" in c.words() and "pool" in c.words() for c in found)


def test_a_search_for_nothing_finds_nothing() -> None:
    ref = reference.load("rummikub", "en")
    assert reference.search(ref, "   ") == () and reference.search(ref, "xylophone") == ()


# --- Clause links --------------------------------------------------------------------------


def test_an_error_text_is_escaped_and_its_clause_linked() -> None:
    html = reference.link_clauses("a group has at most 4 tiles <ok> (RK-4)", href)
    assert html == (
        'a group has at most 4 tiles &lt;ok&gt; (<a class="rule-link" '
        'href="/rules/rummikub#RK-4">RK-4</a>)'
    )


def test_a_breakdown_links_cases_bonus_cards_and_hungarian_endings() -> None:
    html = Markup('<span class="rule">R17-B8 · D17-3</span> <p title="RK-9">R17-15a, MR-9-ben</p>')
    linked = str(reference.link_clauses(html, href))
    assert '<a class="rule-link" href="/rules/rummy17#R17-B8">R17-B8</a>' in linked
    assert '<a class="rule-link" href="/rules/rummy17#D17-3">D17-3</a>' in linked
    assert '<a class="rule-link" href="/rules/rummy17#R17-15">R17-15a</a>' in linked
    assert '<a class="rule-link" href="/rules/manipulation#MR-9">MR-9</a>-ben' in linked
    assert 'title="RK-9"' in linked  # attributes are left alone


def test_ids_in_links_options_and_unknown_ids_stay_text() -> None:
    html = Markup(
        '<a href="/x">RK-9</a> <option>DK-1</option> <textarea>RO-5</textarea> RK-99 XRK-9'
    )
    assert reference.link_clauses(html, href) == html


def test_an_id_after_a_closed_link_is_linked_again() -> None:
    html = Markup('<a href="/x">RK-9</a> then RO-5')
    assert str(reference.link_clauses(html, href)).endswith(
        'then <a class="rule-link" href="/rules/rummy-o#RO-5">RO-5</a>'
    )


PIECES = ["RK-9", "R17-15a", "R17-B12", "DK-1", "RK-99", "MR-", "-", "x", " ", "<", ">", "&", '"']


@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=12).map("".join))
def test_links_only_wrap_ids_and_everything_else_is_escaped(text: str) -> None:
    linked = str(reference.link_clauses(text, href))
    anchors = re.findall(r'<a class="rule-link" href="([^"]*)">([^<]*)</a>', linked)
    plain = re.sub(r'<a class="rule-link" href="[^"]*">([^<]*)</a>', r"\1", linked)
    assert plain == str(escape(text))
    for url, shown in anchors:
        assert url == href(reference.game_of(url.split("#")[1]) or "", url.split("#")[1])
        assert shown.startswith(url.split("#")[1])
