"""What both sheets share: templates, paper, number formats and drawing HTML as a PDF."""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jinja2
import segno
from markupsafe import Markup, escape

from companion.domain import EntryError, Game, Translator
from companion.domain.messages import FORMS, N_, forms_table, game_plurals, game_words, register
from companion.i18n.catalogues import lang_of
from companion.i18n.reference import link_clauses
from companion.i18n.resources import template_loader

register(
    {
        "sheet-paper": N_("paper must be a4 or letter, not {paper!r}"),
        "sheet-seats": N_("{game_name} is for {low} to {high} players, not {count} ({rule})"),
        "sheet-rounds": N_("rounds must be a whole number from 1 to {high}"),
        "sheet-nothing": N_("there is no sheet to print yet"),
        "sheet-name-too-long": N_("the name {name}… is longer than {limit} characters"),
    }
)

PAPERS = {"a4": "A4", "letter": "Letter"}


def template_dirs() -> list[Path]:
    """templates/ when installed (companion/templates) and in a checkout (repository top)."""
    package = Path(__file__).resolve().parents[2]
    return [p for p in (package / "templates", package.parent / "templates") if p.is_dir()]


def _css_string(value: object) -> Markup:
    """A value as the inside of a CSS string (the page footer): no quote or backslash leaks."""
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return Markup(text.replace("<", "\\3c "))


def _rule_links(html: object, base: str | None = None) -> Markup:
    """Clause ids linked to the rules pages at ``base`` (absolute: a PDF has no host)."""
    page = html if isinstance(html, Markup) else escape(html)
    if not base:
        return Markup(page)
    root = base.rstrip("/")
    return link_clauses(page, lambda game, clause: f"{root}/{game}#{clause}")


@cache
def environment() -> jinja2.Environment:
    """The sheets' Jinja environment (autoescaped HTML, templates/ on the path)."""
    env = jinja2.Environment(
        loader=template_loader(*template_dirs()),
        autoescape=jinja2.select_autoescape(("html",)),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["css_string"] = _css_string
    env.filters["rule_links"] = _rule_links
    return env


def game_macros(game: Game) -> str:
    """The game's own sheet parts (templates/sheets/games/<id>/), else the shared ones."""
    names = [f"sheets/games/{game.id}/parts.html", "sheets/games/default/parts.html"]
    return environment().select_template(names).name or names[-1]


@lru_cache(maxsize=1024)
def qr_data_uri(url: str) -> str:
    """The QR code of ``url`` as a one-pixel-per-module PNG: the PDF scales it up without
    blurring. Kept per renderer: every revision of a match prints the same code, and the same
    session's table cards on the other paper or in another language draw the same codes
    (choosing a code's mask is most of a card's own work)."""
    uri: str = segno.make(url, error="m").png_data_uri(scale=1, border=0)
    return uri


def check_paper(paper: str) -> str:
    """``a4`` or ``letter`` (any case); ``EntryError`` for anything else."""
    key = (paper or "a4").strip().lower()
    if key not in PAPERS:
        raise EntryError("sheet-paper", field="paper", paper=paper)
    return key


def short_labels(names: Sequence[str]) -> dict[str, str]:
    """Each name's shortest prefix no other name shares (case-insensitive), e.g. A, Bé, Bo."""
    folded = [n.casefold() for n in names]
    out: dict[str, str] = {}
    for name, fold in zip(names, folded, strict=True):
        for k in range(1, len(name) + 1):
            if not any(o != fold and o.startswith(fold[:k]) for o in folded):
                out[name] = name[:k]
                break
        else:  # the name is a prefix of another one: only the whole name will do
            out[name] = name
    return out


def column_heads(columns: Sequence[Any], tr: Translator) -> list[dict[str, str]]:
    """A game's figure columns with their abbreviations: the edition's where the catalogue
    lists one as the word's form ``short`` (German "SP", "BP"), else prefixes that never share
    a letter pair: Hungarian "Büntetőpont" and "Bónusz" become "Bü" and "Bó", not two "B"s."""
    words = [tr.gettext(c.label) for c in columns]
    shorts = short_labels(words)
    given = [forms_table(tr.pgettext(FORMS, c.label)).get("short") for c in columns]
    return [
        {"key": c.key, "label": c.label, "short": short or shorts[w]}
        for c, w, short in zip(columns, words, given, strict=True)
    ]


#: Room for the figure columns across an A4 or Letter page (mm), and what a bold 8 pt
#: condensed letter takes; a head word wider than its column would run into the next one.
FIGURES_WIDTH_MM = 160
LETTER_MM = 1.7


def heads_fit(heads: Sequence[dict[str, str]], across: int, tr: Translator) -> bool:
    """Do the column heads' whole words fit their columns, ``across`` columns in all?"""
    labels = [h["label"] for h in heads]
    words = [w for label in labels for w in tr.gettext(label).split()] + [tr.gettext("Total")]
    return max(len(w) for w in words) * LETTER_MM <= FIGURES_WIDTH_MM / across


class _Drawing(threading.local):
    """What every sheet drawn in this thread shares: one font configuration, the sheets'
    stylesheet (templates/sheets/sheet.css) and the browser stylesheet, each parsed once.
    Parsed again for every sheet, the stylesheet and the fonts took a sixth of an event's
    sheets (cProfile)."""

    fonts: Any = None
    stylesheet: Any = None
    browser: Any = None


_drawing = _Drawing()

#: Rules of WeasyPrint's browser stylesheet that give every element of a sheet pseudo-elements
#: no sheet has: footnotes and notes (no sheet floats one), and a list marker on elements that
#: are no list items. WeasyPrint computed their styles for every element, six times as many
#: styles as the elements' own; dropped, or kept for ``li`` only, the sheets come
#: out the same.
_NO_PSEUDO = re.compile(r"^::(?:footnote|note)-[a-z-]+ \{[^}]*\}$", re.MULTILINE)
_MARKER = re.compile(r"^::marker \{", re.MULTILINE)


def _shared() -> tuple[Any, Any, Any]:
    """This thread's font configuration, parsed stylesheet and browser stylesheet (threads
    do not share them: WeasyPrint makes no promise about threads; a renderer has one)."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    if _drawing.stylesheet is None:
        from weasyprint.css.counters import CounterStyle
        from weasyprint.html import UA

        fonts = FontConfiguration()
        text = environment().get_template("sheets/sheet.css").render()
        _drawing.stylesheet = CSS(string=text, base_url=str(_base()), font_config=fonts)
        browser = _MARKER.sub("li::marker {", _NO_PSEUDO.sub("", UA))
        _drawing.browser = CSS(string=browser, counter_style=CounterStyle())
        _drawing.fonts = fonts
    return _drawing.fonts, _drawing.stylesheet, _drawing.browser


def _base() -> Path:
    dirs = template_dirs()
    return dirs[0] if dirs else Path.cwd()


def _document(template: str, paper: str, tr: Translator, context: dict[str, Any]) -> Any:
    """``template`` filled and laid out as pages (a WeasyPrint document; WeasyPrint is
    imported late: `companion score` should not pay for it)."""
    fonts, stylesheet, _browser = _shared()
    html = _sheet_html()(string=filled_html(template, paper, tr, context), base_url=str(_base()))
    return html.render(stylesheets=[stylesheet], font_config=fonts)


@cache
def _sheet_html() -> Any:
    """WeasyPrint's HTML with this thread's browser stylesheet (``_NO_PSEUDO``)."""
    from weasyprint import HTML

    class Sheet(HTML):  # type: ignore[misc]
        def _ua_stylesheets(self, forms: bool = False) -> list[Any]:
            return [_shared()[2]]

    return Sheet


def render_pdfs(parts: Sequence[tuple[str, dict[str, Any]]], paper: str, tr: Translator) -> bytes:
    """Several filled templates, their pages one after the other in one PDF (each keeps its
    own page numbers)."""
    documents = [_document(template, paper, tr, context) for template, context in parts]
    if not documents:
        raise EntryError("sheet-nothing")
    pages = [page for document in documents for page in document.pages]
    data: bytes = documents[0].copy(pages).write_pdf()
    return data


def filled_html(template: str, paper: str, tr: Translator, context: dict[str, Any]) -> str:
    """``template`` filled in the table's language for ``paper``, as HTML text."""
    return (
        environment()
        .get_template(template)
        .render(
            paper=PAPERS[check_paper(paper)],
            # the document's language: WeasyPrint hyphenates by it (``hyphens: auto``), so a
            # narrow head breaks "Разда-ващ" with its hyphen rather than anywhere
            lang=lang_of(tr),
            _=tr.gettext,
            ngettext=tr.ngettext,
            gw=game_words(tr),
            ngw=game_plurals(tr),
            **context,
        )
    )


def render_pdf(template: str, paper: str, tr: Translator, **context: Any) -> bytes:
    """Fill ``template`` in the table's language and draw it on ``paper`` as PDF bytes."""
    data: bytes = _document(template, paper, tr, context).write_pdf()
    return data


def merge_pdfs(parts: Sequence[bytes]) -> bytes:
    """PDFs one after the other in one (an event's sheets, drawn in parts by several
    renderers at once); the first part's title and every part's bookmarks are kept."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for n, part in enumerate(parts):
        reader = PdfReader(io.BytesIO(part))
        writer.append(reader)
        if n == 0 and reader.metadata:
            writer.add_metadata(dict(reader.metadata))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
