"""Loading the Rummikub photo set (YOLO-segmentation labels) for training and evaluation.

A label line is ``class x1 y1 x2 y2 ...``: the tile's outline as a polygon in fractions of
the image. The class names come from ``data.yaml`` and map to the reader's notation
(``black_7`` -> ``K7``, ``blue_7`` -> ``B7``, ``orange_7`` -> ``O7``, ``red_7`` -> ``R7``,
``joker`` -> ``*``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

COLOUR_OF = {"black": "K", "red": "R", "blue": "B", "orange": "O"}
# The model's colour index order: black, red, blue, orange (the reader's `colours` argument).
COLOURS = ("K", "R", "B", "O")


def read_names(root: Path) -> list[str]:
    """The class names of ``data.yaml``, in index order (parsed without a YAML library)."""
    text = (root / "data.yaml").read_text()
    m = re.search(r"names:\s*\[(.*?)\]", text, re.S)
    if not m:
        raise ValueError("no names in data.yaml")
    return [n.strip().strip("'\"") for n in m.group(1).split(",") if n.strip()]


def notation(name: str) -> str:
    """``black_7`` -> ``K7``; ``joker`` -> ``*``."""
    if name == "joker":
        return "*"
    colour, value = name.split("_")
    return COLOUR_OF[colour] + value


def value_colour(tile: str) -> tuple[int, int]:
    """Tile notation -> (value index 0..13 where 13 is the joker, colour index 0..3 or -1)."""
    if tile == "*":
        return 13, -1
    return int(tile[1:]) - 1, COLOURS.index(tile[0])


@dataclass(frozen=True)
class Tile:
    tile: str  # notation
    poly: tuple[tuple[float, float], ...]  # fractions of the image

    @property
    def box(self) -> tuple[float, float, float, float]:
        """x0, y0, x1, y1 as fractions."""
        xs = [p[0] for p in self.poly]
        ys = [p[1] for p in self.poly]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Photo:
    path: Path
    source: str  # the source photo's stem, e.g. rummy4-12 (shared by its 3 variations)
    tiles: tuple[Tile, ...]

    @property
    def group(self) -> str:
        """The session prefix: rummy, rummy2, rummy3, rummy4, rummyBackground."""
        return self.source.rsplit("-", 1)[0]


def source_of(stem: str) -> str:
    return stem.split("_jpeg.rf.")[0]


def load(root: Path, split: str = "train") -> list[Photo]:
    """Every labelled photo under ``root/split/images`` with its tiles."""
    names = read_names(root)
    photos = []
    for img in sorted((root / split / "images").iterdir()):
        if img.suffix.lower() not in {".jpg", ".jpeg", ".png", ".webp"}:
            continue
        lab = root / split / "labels" / (img.stem + ".txt")
        tiles = []
        if lab.exists():
            for line in lab.read_text().splitlines():
                parts = line.split()
                if len(parts) < 7:
                    continue
                cls = int(parts[0])
                vals = [float(v) for v in parts[1:]]
                poly = tuple(zip(vals[0::2], vals[1::2], strict=False))
                tiles.append(Tile(notation(names[cls]), poly))
        photos.append(Photo(img, source_of(img.stem), tuple(tiles)))
    return photos
