"""The rules reference: each game's rules in our own words, clause by clause, in every language.

The texts live next to this module as ``<lang>/<game-id>.md`` in a small markdown subset:
``#`` the game's title, ``##`` sections, ``### <id> <title>`` one
clause (``{house}`` at the end marks a house decision), paragraphs, ``- `` lists, ``**bold**``
and ``*italic*``. This module reads that subset, searches it, and turns clause ids in a page's
HTML into links to their clause. It knows no game by name: which game a clause belongs to comes
from the games' ``clause_prefixes``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markupsafe import Markup, escape

from companion.domain import all_games

HERE = Path(__file__).resolve().parent
SOURCE = "en"  # the language every other one is checked against (and, in development, falls
# back to while a translation is missing)

#: A clause id: RK-9, D17-3, R17-B12; and one at the start of a ``###`` heading.
CLAUSE_ID = r"[A-Z][A-Z0-9]*-B?[0-9]+"
HEADING_ID = re.compile(rf"({CLAUSE_ID})\s+(.*)")
HOUSE_MARK = "{house}"


class FormatError(ValueError):
    """A reference file that is not in the subset, with the line it failed on."""


@dataclass(frozen=True)
class Block:
    """A paragraph (``p``: one item) or a list (``ul``: its items), as raw inline text."""

    kind: str
    items: tuple[str, ...]


@dataclass(frozen=True)
class Clause:
    """One clause: its id, a short title, whether it is a house decision, and its text."""

    id: str
    title: str
    house: bool
    blocks: tuple[Block, ...]

    def words(self) -> str:
        """Everything a search looks in, folded: the id, the title and the text."""
        text = " ".join([self.id, self.title, *(i for b in self.blocks for i in b.items)])
        return fold(text.replace("*", ""))


@dataclass(frozen=True)
class Section:
    """A ``##`` section: its heading, any text before its first clause, and its clauses."""

    heading: str
    blocks: tuple[Block, ...]
    clauses: tuple[Clause, ...]


@dataclass(frozen=True)
class Reference:
    """One game's rules in one language."""

    game: str
    lang: str  # the language the text is in (English when a translation is missing)
    title: str
    intro: tuple[Block, ...]
    sections: tuple[Section, ...]

    def clauses(self) -> Iterator[Clause]:
        """Every clause, in order."""
        for section in self.sections:
            yield from section.clauses

    def ids(self) -> tuple[str, ...]:
        """Every clause id, in order."""
        return tuple(c.id for c in self.clauses())


# --- Reading the subset ------------------------------------------------------------------


class _Reader:
    """Line by line: headings open a level, blank lines end a block, ``- `` opens an item."""

    def __init__(self) -> None:
        self.title: str | None = None
        self.intro: list[Block] = []
        self.sections: list[tuple[str, list[Block], list[Clause]]] = []
        self.clause: tuple[str, str, bool, list[Block]] | None = None
        self.block: tuple[str, list[str]] | None = None

    def blocks(self) -> list[Block]:
        """Where a paragraph or list goes now: the clause, else the section, else the intro."""
        if self.clause is not None:
            return self.clause[3]
        if self.sections:
            return self.sections[-1][1]
        return self.intro

    def end_block(self) -> None:
        if self.block is not None:
            kind, items = self.block
            self.blocks().append(Block(kind, tuple(" ".join(i.split()) for i in items)))
            self.block = None

    def end_clause(self) -> None:
        self.end_block()
        if self.clause is not None:
            cid, title, house, blocks = self.clause
            self.sections[-1][2].append(Clause(cid, title, house, tuple(blocks)))
            self.clause = None

    def line(self, number: int, raw: str) -> None:
        text = raw.rstrip()
        stripped = text.strip()
        if not stripped:
            self.end_block()
        elif text.startswith("#"):
            self.heading(number, text)
        elif self.title is None:
            raise FormatError(f"line {number}: text before the '# title' line")
        elif stripped.startswith("- "):
            if self.block is None or self.block[0] != "ul":
                self.end_block()
                self.block = ("ul", [])
            self.block[1].append(stripped[2:])
        elif self.block is None:
            self.block = ("p", [stripped])
        else:  # a continuation line of the paragraph or the list item
            self.block[1][-1] += " " + stripped

    def heading(self, number: int, text: str) -> None:
        marks, _, rest = text.partition(" ")
        rest = rest.strip()
        if marks not in ("#", "##", "###") or not rest:
            raise FormatError(f"line {number}: headings are '# ', '## ' or '### ' and a text")
        self.end_clause()
        if marks == "#":
            if self.title is not None:
                raise FormatError(f"line {number}: a second '# title'")
            self.title = rest
        elif self.title is None:
            raise FormatError(f"line {number}: a heading before the '# title' line")
        elif marks == "##":
            self.sections.append((rest, [], []))
        else:
            if not self.sections:
                raise FormatError(f"line {number}: a clause before the first '## section'")
            house = rest.endswith(HOUSE_MARK)
            if house:
                rest = rest[: -len(HOUSE_MARK)].rstrip()
            found = HEADING_ID.fullmatch(rest)
            if found is None:
                raise FormatError(f"line {number}: a clause is '### <id> <title>'")
            self.clause = (found[1], found[2].strip(), house, [])


def parse(text: str, game: str = "", lang: str = SOURCE) -> Reference:
    """Read one reference file; ``FormatError`` names the first line outside the subset."""
    reader = _Reader()
    for number, raw in enumerate(text.splitlines(), start=1):
        reader.line(number, raw)
    reader.end_clause()
    if reader.title is None:
        raise FormatError("the file has no '# title' line")
    sections = tuple(Section(h, tuple(b), tuple(c)) for h, b, c in reader.sections)
    return Reference(game, lang, reader.title, tuple(reader.intro), sections)


def path(lang: str, game: str) -> Path:
    """Where one game's reference in one language is kept: with the app's, or in the folder
    of a game installed from outside (``Game.folder``)."""
    home = next((g.folder for g in all_games() if g.id == game and g.folder is not None), None)
    return (home / "reference" if home else HERE) / lang / f"{game}.md"


@cache
def load(game: str, lang: str) -> Reference:
    """One game's reference in ``lang``, or in English while that translation is missing.

    :raises FileNotFoundError: when the game has no reference at all.
    """
    source = path(lang, game)
    if not source.is_file():
        lang, source = SOURCE, path(SOURCE, game)
    return parse(source.read_text(encoding="utf-8"), game, lang)


def written() -> tuple[str, ...]:
    """The languages any reference is written in (a folder holding a file)."""
    return tuple(sorted({p.parent.name for p in HERE.glob("*/*.md")}))


# --- Inline text -------------------------------------------------------------------------

BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
# A lone * is also card notation (a joker: *, *R): italic only when it wraps a word.
ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")


def inline(text: str) -> Markup:
    """One paragraph or list item as safe HTML: everything escaped, then bold and italic."""
    html = str(escape(text))
    html = BOLD.sub(r"<strong>\1</strong>", html)
    html = ITALIC.sub(r"<em>\1</em>", html)
    return Markup(html)


# --- Search ------------------------------------------------------------------------------


def fold(text: str) -> str:
    """Text as a search compares it: no case, no accents (``Játékos`` → ``jatekos``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _matcher(word: str) -> Callable[[Clause], bool]:
    if re.fullmatch(CLAUSE_ID, word.upper()):  # a clause id: the whole id, not RK-1 in RK-10
        whole = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w])")
        return lambda clause: fold(clause.id) == word or bool(whole.search(clause.words()))
    return lambda clause: word in clause.words()


def search(reference: Reference, query: str) -> tuple[Clause, ...]:
    """The clauses holding every word of ``query`` (or citing the clause ids in it), in order."""
    tests = [_matcher(w) for w in fold(query).split()]
    if not tests:
        return ()
    return tuple(c for c in reference.clauses() if all(t(c) for t in tests))


# --- Clause ids in any page -------------------------------------------------------------


@cache
def owners() -> dict[str, str]:
    """Each clause prefix (RK, DK, R17 …) and the id of the game whose clauses carry it."""
    return {prefix: g.id for g in all_games() for prefix in g.clause_prefixes}


@cache
def _mention() -> re.Pattern[str]:
    prefixes = "|".join(sorted(map(re.escape, owners()), key=len, reverse=True))
    # R17-15a cites R17-15 (its case a); RK-9-ben is RK-9 in Hungarian.
    return re.compile(rf"(?<![\w-])((?:{prefixes})-B?[0-9]+)([a-z])?(?![\w])")


def game_of(clause_id: str) -> str | None:
    """The id of the game a clause belongs to, if it is one of the reference's clauses."""
    game = owners().get(clause_id.rsplit("-", 1)[0])
    if game is None or clause_id not in load(game, SOURCE).ids():
        return None
    return game


#: Elements whose text never holds a link: links themselves, and what a link would break.
NO_LINKS = frozenset({"a", "button", "option", "script", "style", "textarea", "title"})
TAG = re.compile(r"(<[^>]*>)")
TAG_NAME = re.compile(r"</?\s*([A-Za-z][A-Za-z0-9]*)")


def link_clauses(html: str, href: Callable[[str, str], str]) -> Markup:
    """Safe HTML with each clause id in its text turned into a link to the clause.

    ``html`` that is not ``Markup`` is escaped first. ``href(game_id, clause_id)`` gives the
    address. Ids inside tags, links, buttons and form options are left as they are.
    """
    parts = TAG.split(str(escape(html)))
    closed: list[str] = []  # the open elements among NO_LINKS
    out: list[str] = []
    for part in parts:
        if part.startswith("<"):
            name = TAG_NAME.match(part)
            tag = name[1].lower() if name else ""
            if tag in NO_LINKS and not part.endswith("/>"):
                if part.startswith("</"):
                    if tag in closed:
                        del closed[len(closed) - 1 - closed[::-1].index(tag)]
                else:
                    closed.append(tag)
            out.append(part)
        elif closed or not part:
            out.append(part)
        else:
            out.append(_mention().sub(lambda m: _link(m, href), part))
    return Markup("".join(out))


def _link(found: re.Match[str], href: Callable[[str, str], str]) -> str:
    clause = found[1]
    game = game_of(clause)
    if game is None:
        return found[0]
    return f'<a class="rule-link" href="{escape(href(game, clause))}">{found[0]}</a>'
