"""The photo reader against an off-the-shelf OCR engine, on the held-out validation photos.

Usage::

    python bench/photos.py /work/shared/photos/rummikub [--holdout training/validation.txt]

Reads every held-out photo (the source photos listed in ``training/validation.txt``, all
their publisher variations) from its file's bytes twice in one run: with
``companion.adapters.reader.read_photo`` and with ``rapidocr-onnxruntime`` (its text detector, angle
classifier and recogniser on the whole photo). For the OCR engine each recognised string of
digits becomes tiles: "12" is a 12, "1011" two tiles 10 and 11 (split greedily into numbers
1..13, the box shared out along its length), "J"/"☺"-like strings are ignored (it cannot
read jokers), and the colour is the hue of the box's dark pixels white-balanced by its
bright ones. Tiles read are matched to the labelled tiles as ``training/evaluate.py`` does.

Prints, for each engine: tile accuracy (right / (labelled + invented)), photos read
exactly, and seconds per photo including the first model load (each engine is imported
and loaded inside its timing); then the speed ratio and the load average before and after.
Both engines use at most 2 threads.
"""

from __future__ import annotations

import argparse
import colorsys
import io
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "training"))

from data import load  # noqa: E402
from evaluate import held_out, match  # noqa: E402

Box = tuple[float, float, float, float]


def split_number(s: str) -> list[int]:
    """ "101112" -> [10, 11, 12]; "7" -> [7]; digits that make no tile are dropped."""
    out: list[int] = []
    i = 0
    while i < len(s):
        if s[i] == "1" and i + 1 < len(s) and s[i + 1] in "0123":
            out.append(int(s[i : i + 2]))
            i += 2
        elif s[i] != "0":
            out.append(int(s[i]))
            i += 1
        else:
            i += 1
    return out


def ink_colour(arr: np.ndarray) -> str:
    """K, R, B or O from an RGB box: its darker pixels' hue, white-balanced by its bright."""
    px = arr.reshape(-1, 3).astype(np.float64) / 255
    lum = px.mean(axis=1)
    face = px[lum >= np.percentile(lum, 85)].mean(axis=0) + 1e-3
    bal = np.clip(px / face, 0, 1)
    bl = bal.mean(axis=1)
    ink = bal[bl < np.percentile(bl, 20)]
    if len(ink) == 0:
        return "K"
    r, g, b = ink.mean(axis=0)
    h, s, _ = colorsys.rgb_to_hsv(r, g, b)
    if s < 0.3:
        return "K"
    deg = h * 360
    if deg < 15 or deg >= 300:
        return "R"
    if deg < 70:
        return "O"
    if 150 <= deg < 300:
        return "B"
    return "K"


def ocr_tiles(engine: Any, data: bytes) -> tuple[list[str], list[Box]]:
    im = Image.open(io.BytesIO(data)).convert("RGB")
    arr = np.asarray(im)
    w, h = im.size
    result, _ = engine(arr)
    tiles: list[str] = []
    boxes: list[Box] = []
    for quad, text, _score in result or []:
        digits = "".join(c for c in text if c.isdigit())
        nums = split_number(digits)
        if not nums:
            continue
        q = np.array(quad, float)
        x0, y0 = q.min(axis=0)
        x1, y1 = q.max(axis=0)
        part = (x1 - x0) / len(nums)
        for k, n in enumerate(nums):
            bx0, bx1 = x0 + k * part, x0 + (k + 1) * part
            sub = arr[int(max(0, y0)) : int(y1) + 1, int(max(0, bx0)) : int(bx1) + 1]
            col = ink_colour(sub) if sub.size else "K"
            tiles.append(f"{col}{n}")
            boxes.append((bx0 / w, y0 / h, (bx1 - bx0) / w, (y1 - y0) / h))
    return tiles, boxes


def score(
    reads: list[tuple[list[str], list[Box]]], truth: list[tuple[list[str], list[Box]]]
) -> tuple[float, int]:
    right = total = exact = 0
    for (tiles, boxes), (labels, lboxes) in zip(reads, truth, strict=True):
        # labelled boxes as x0, y0, x1, y1; boxes read as x, y, w, h (matched by centre)
        pairs = match(list(boxes), lboxes)
        ok = sum(1 for i, j in pairs if tiles[i] == labels[j])
        extra = len(tiles) - len(pairs)
        right += ok
        total += len(labels) + extra
        exact += ok == len(labels) and extra == 0
    return right / max(1, total), exact


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("photos")
    ap.add_argument("--holdout", default=str(ROOT / "training" / "validation.txt"))
    ap.add_argument("--skip-ocr", action="store_true")
    ap.add_argument(
        "--copies",
        type=int,
        default=3,
        help="how many of each source photo's publisher variations to read",
    )
    args = ap.parse_args()
    photos = held_out(load(Path(args.photos)), args.holdout, "")
    seen: dict[str, int] = {}
    kept = []
    for p in photos:
        seen[p.source] = seen.get(p.source, 0) + 1
        if seen[p.source] <= args.copies:
            kept.append(p)
    photos = kept
    datas = [p.path.read_bytes() for p in photos]
    truth = [([t.tile for t in p.tiles], [t.box for t in p.tiles]) for p in photos]
    n = len(photos)
    before = os.getloadavg()
    print(f"{n} held-out photos; load average before: " + " ".join(f"{v:.2f}" for v in before))

    t0 = time.perf_counter()
    import companion.adapters.reader as reader

    ours = []
    for d in datas:
        r = reader.read_photo(d)
        ours.append((list(r.tiles), list(r.boxes)))
    t_ours = (time.perf_counter() - t0) / n
    acc, exact = score(ours, truth)
    print(f"reader:   tiles {100 * acc:5.1f} %  exact {exact}/{n}  {t_ours:.3f} s/photo incl. load")

    if not args.skip_ocr:
        t0 = time.perf_counter()
        from rapidocr_onnxruntime import RapidOCR

        engine = RapidOCR(intra_op_num_threads=2, inter_op_num_threads=1)
        theirs = [ocr_tiles(engine, d) for d in datas]
        t_ocr = (time.perf_counter() - t0) / n
        acc2, exact2 = score(theirs, truth)
        print(
            f"rapidocr: tiles {100 * acc2:5.1f} %  exact {exact2}/{n}  "
            f"{t_ocr:.3f} s/photo incl. load"
        )
        print(
            f"speed: the reader takes {t_ours / t_ocr:.3f} of rapidocr's time per photo "
            f"({t_ocr / t_ours:.1f}× faster)"
        )
    after = os.getloadavg()
    print(
        "load average after: " + " ".join(f"{v:.2f}" for v in after) + f" ({os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
