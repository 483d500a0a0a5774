"""Every message of the app has a finished translation in hu, de and bg (issue: languages).

The messages are extracted afresh from the source with the project's ``babel.cfg`` and every
keyword in use, so a text added without its translations fails here, on a fresh clone too.
English, the source language, has a catalogue of the texts with a message context alone (a
game's own words, Rummy 17's "Game 3"), each of them finished.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("hu", "de", "bg")
KEYWORDS = (
    "-k",
    "_l",
    "-k",
    "N_",
    "-k",
    "NN_:1,2",
    "-k",
    "P_:1c,2",
    "-k",
    "NP_:1c,2,3",
    "-k",
    "gw:2",
    "-k",
    "ngw:2,3",
    "-k",
    "F_:1c,2",
    "-k",
    "game_text:3",
)
# {name}, {name!r}, %(name)s, %(name)d — and an escaped brace, which must stay escaped. A
# translation may ask for a word's form after the placeholder, {colour}[en] (messages.inflect):
# the placeholder itself is the message id's.
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{[a-z_0-9]*(?:![rs])?\}|%\([a-z_]+\)[sd]")


def _placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    out = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
         *KEYWORDS, "-o", str(out), "."],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    with out.open("rb") as f:
        return read_po(f)


def _catalogue(lang: str) -> Catalog:
    with (ROOT / "companion" / "i18n" / "translations" / lang / "LC_MESSAGES" / "messages.po").open(
        "rb"
    ) as f:
        return read_po(f, locale=lang)


def _ids(message: Message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _texts(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def test_the_source_has_messages_to_translate(extracted: Catalog) -> None:
    assert len([m for m in extracted if m.id]) > 300


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_has_a_finished_translation(extracted: Catalog, lang: str) -> None:
    catalogue = _catalogue(lang)
    missing = []
    for message in extracted:
        if not message.id:
            continue
        found = catalogue.get(message.id, message.context)
        if found is None or found.fuzzy or not all(_texts(found)):
            missing.append(_ids(message)[0])
    assert missing == [], f"{len(missing)} messages lack a {lang} translation: {missing[:10]}"


def test_english_holds_every_text_with_a_context_and_nothing_else(extracted: Catalog) -> None:
    english = _catalogue("en")
    wanted = {(_ids(m)[0], m.context) for m in extracted if m.id and m.context}
    held = {(_ids(m)[0], m.context) for m in english if m.id}
    assert wanted and held == wanted
    unfinished = [_ids(m)[0] for m in english if m.id and (m.fuzzy or not all(_texts(m)))]
    assert unfinished == []


@pytest.mark.parametrize("lang", ("en", *LANGUAGES))
def test_translations_keep_every_placeholder(lang: str) -> None:
    wrong = []
    for message in _catalogue(lang):
        if not message.id or not message.string:
            continue
        wanted = _placeholders(_ids(message)[-1])
        for text in filter(None, _texts(message)):
            got = _placeholders(text)
            # A plural form may leave the count out ("one card" for {count}).
            if got != wanted and not (isinstance(message.id, tuple) and set(got) <= set(wanted)):
                wrong.append((_ids(message)[0], text))
    assert wrong == []


@pytest.mark.parametrize("lang", ("en", *LANGUAGES))
def test_translations_keep_every_rule_id(lang: str) -> None:
    rule = re.compile(r"\b(?:R17|RK|RO|MR|D17|DK|DO|DM)-[0-9]+[a-z]?\b")
    wrong = []
    for message in _catalogue(lang):
        if not message.id or not message.string:
            continue
        wanted = sorted(rule.findall(_ids(message)[0]))
        for text in filter(None, _texts(message)):
            if sorted(rule.findall(text)) != wanted:
                wrong.append((_ids(message)[0], text))
    assert wrong == []


TAG = re.compile(r"\{(?:colour|colour2)\}\[([a-z0-9-]+)\]")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_form_a_translation_asks_for_is_listed_for_every_colour(lang: str) -> None:
    """``{colour}[en]`` needs the form ``en`` of each colour (messages.inflect): the catalogue's
    ``forms`` entries list them, the first item being the word as translated. Every game's
    colours, not only Rummy 17's: a card's name ("orange 5") takes any of them."""
    from companion.domain import all_games
    from companion.domain.messages import FORMS, forms_table

    catalogue = _catalogue(lang)
    asked = {tag for m in catalogue if m.id for t in _texts(m) for tag in TAG.findall(t or "")}
    assert asked or lang == "hu"  # Hungarian puts a colour before its noun as it is
    colours = {n for g in all_games() if not g.deck.suit_last for n in g.deck.colour_names.values()}
    for colour in sorted(colours):
        table = catalogue.get(colour, FORMS)
        assert table is not None and table.string, (lang, colour)
        assert table.string.split(";")[0].strip() == catalogue.get(colour).string
        assert asked <= set(forms_table(table.string)), (lang, colour)
