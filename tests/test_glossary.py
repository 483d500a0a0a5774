"""The glossary's words per game hold in the catalogues (docs/glossary.md): in a
game's message context no translation uses another game's word where the glossary says
otherwise, every text about a round says the game's own word (English included: Rummy 17 says
*game*), and every context the source uses has a row in the glossary."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.domain import all_games
from companion.domain.messages import IN_CONTEXT

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "hu", "de", "bg")
COLUMNS = ("context", "term", *LANGS, *(f"not {lang}" for lang in LANGS))
#: ``{round}``, ``%(n)s``: names in a text, not words of it.
PLACEHOLDER = re.compile(r"\{[a-z_]*\}|%\([a-z_]+\)[sd]")


def rows() -> list[dict[str, str]]:
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    section = text.split("## Words per game: message contexts", 1)[1]
    out = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == len(COLUMNS) and cells[0] in {g.id for g in all_games()}:
            out.append(dict(zip(COLUMNS, cells, strict=True)))
    return out


def words(cell: str) -> re.Pattern[str]:
    """A cell's word, or any of its forms (``игра, игри``), as a pattern."""
    forms = [w.strip() for w in cell.split(",") if w.strip()]
    return re.compile("|".join(re.escape(w) for w in forms), re.IGNORECASE)


def catalogue(lang: str):  # noqa: ANN201
    with (ROOT / "companion" / "i18n" / "translations" / lang / "LC_MESSAGES" / "messages.po").open(
        "rb"
    ) as f:
        return read_po(f, locale=lang)


def test_the_glossary_has_rows_for_every_context_in_use() -> None:
    all_games()  # each game's module marks its own words as it is loaded (P_, NP_)
    contexts = {context for context, _ in IN_CONTEXT}
    assert contexts and contexts <= {row["context"] for row in rows()}


def test_the_glossary_links_the_three_reviews() -> None:
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    for lang in ("hu", "de", "bg"):
        assert f"(review-{lang}.md)" in text and (ROOT / "docs" / f"review-{lang}.md").exists()


@pytest.mark.parametrize("lang", LANGS)
def test_no_translation_in_a_games_context_uses_another_games_word(lang: str) -> None:
    wrong = []
    cat = catalogue(lang)
    for row in rows():
        forbidden = row[f"not {lang}"]
        if forbidden in ("", "—"):
            continue
        pattern = re.compile(rf"\b{re.escape(forbidden)}", re.IGNORECASE)
        for message in cat:
            if message.context != row["context"]:
                continue
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            wrong += [
                (message.id, t) for t in texts if pattern.search(PLACEHOLDER.sub("", t or ""))
            ]
    assert not wrong


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_in_a_context_is_translated_in_the_glossarys_word(lang: str) -> None:
    cat = catalogue(lang)
    game = next(r for r in rows() if r["term"].startswith("game"))
    said = [
        (m.id, text)
        for m in cat
        if m.context == game["context"]
        and "round" in (m.id if isinstance(m.id, str) else m.id[0]).lower()
        for text in (m.string if isinstance(m.string, tuple) else (m.string,))
    ]
    assert len(said) > 40
    assert [(msgid, text) for msgid, text in said if not words(game[lang]).search(text)] == []
