"""Reading the sheets back: text, pages, page sizes and the smallest font size actually drawn."""

from __future__ import annotations

import io
import math
import re

from pypdf import PdfReader

A4 = (595.28, 841.89)  # points
LETTER = (612.0, 792.0)


def reader(pdf: bytes) -> PdfReader:
    """The PDF parsed by pypdf (fails the test if it is not a PDF)."""
    assert pdf.startswith(b"%PDF-"), "not a PDF"
    return PdfReader(io.BytesIO(pdf))


def text(pdf: bytes) -> str:
    """All text, whitespace collapsed, U+2212 minus read as '-'."""
    raw = " ".join(page.extract_text() for page in reader(pdf).pages)
    return re.sub(r"\s+", " ", raw.replace("\u2212", "-"))


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's (width, height) in points."""
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in reader(pdf).pages]


def font_sizes(pdf: bytes) -> list[tuple[float, str]]:
    """(size in points, text) for every piece of text drawn, through both text and page matrix."""
    found: list[tuple[float, str]] = []

    def visit(chunk: str, cm: list[float], tm: list[float], _font: object, size: float) -> None:
        if chunk.strip():
            scale = math.sqrt(abs(tm[0] * tm[3] - tm[1] * tm[2]))
            scale *= math.sqrt(abs(cm[0] * cm[3] - cm[1] * cm[2]))
            found.append((size * scale, chunk))

    for page in reader(pdf).pages:
        page.extract_text(visitor_text=visit)
    return found


def same_size(got: tuple[float, float], want: tuple[float, float]) -> bool:
    """Page sizes equal to within half a point."""
    return abs(got[0] - want[0]) < 0.5 and abs(got[1] - want[1]) < 0.5
