"""Draw the app's icons (static/icons/icon-192.png, icon-512.png) from the same shapes as
static/icons/icon.svg: three tiles on the app's green (--accent in static/app.css).

    /work/main/.venv/bin/python scripts/icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN = "#0a6b4a"
TILE = "#fffdf8"
#: (x, y) of each tile's top-left corner and its dot's colour, on a 512 grid (as in icon.svg)
TILES = [(96, 150, "#c62828"), (206, 150, "#1f57c8"), (316, 150, "#1f1f1f")]


def draw(size: int) -> Image.Image:
    """The icon at ``size`` pixels: a full square (maskable-safe: the tiles stay inside)."""
    k = size / 512
    image = Image.new("RGB", (size, size), GREEN)
    pen = ImageDraw.Draw(image)
    for x, y, dot in TILES:
        pen.rounded_rectangle(
            [x * k, y * k, (x + 100) * k, (y + 212) * k], radius=16 * k, fill=TILE
        )
        pen.ellipse([(x + 26) * k, (y + 82) * k, (x + 74) * k, (y + 130) * k], fill=dot)
    return image


def main() -> None:
    """Write both PNG sizes."""
    for size in (192, 512):
        draw(size).save(ICONS / f"icon-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
