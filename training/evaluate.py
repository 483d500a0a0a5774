"""Evaluate the shipped photo reader (``companion.adapters.reader``) on labelled photos.

Usage::

    python training/evaluate.py ../shared/photos/rummikub [--holdout training/validation.txt]
        [--transform none|big|exif|tilt|dim|green|seat] [--failures DIR]

Reads every held-out photo (all publisher variations of each listed source photo) through
``read_photo`` from its file's bytes, matches the tiles read to the labelled ones (a tile
read matches the labelled tile whose centre is nearest, within half the tile's short side)
and prints:

- tile accuracy = tiles read right / (labelled tiles + tiles read where there is none), so
  a missed tile and an invented tile are both errors;
- exact photos = photos read with no error at all;
- seconds per photo, the first photo's model load included, and the median photo;
- the same by session (rummy, rummy2, ...), the commonest confusions, and how well the
  ``unsure`` flags pick out the errors.

``--transform`` reads each photo changed first: ``big`` scaled up to 4000 px (a phone
photo's size, as a 4000×3000-class JPEG), ``exif`` turned a quarter turn with the EXIF tag
saying so, ``tilt`` a perspective warp as if shot from a seat, ``dim`` darker and warmer,
``green`` the orange ink inside each labelled tile turned green (Rummy-O; read with colours
K, R, B, G and orange labels expected as G), ``seat`` = tilt + big + exif. A tile that
``big`` cuts by the frame's edge is not expected, and a tile read on it is not counted as
invented either.
"""

from __future__ import annotations

import argparse
import collections
import colorsys
import io
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageEnhance

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from data import Photo, load  # noqa: E402

Boxes = list[tuple[float, float, float, float]]  # x0, y0, x1, y1 fractions
Prepared = tuple[bytes, list[str], Boxes, Boxes]  # bytes, labels, boxes, tiles cut by the frame


def held_out(photos: list[Photo], holdout: str, group: str) -> list[Photo]:
    if group:
        return [p for p in photos if p.group == group]
    stems = {  # a line of tables.txt names its source photo before a colon
        s.partition(":")[0].strip()
        for s in Path(holdout).read_text().splitlines()
        if s.strip() and not s.startswith("#")
    }
    return [p for p in photos if p.source in stems]


def _jpeg(im: Image.Image, exif: Image.Exif | None = None, quality: int = 90) -> bytes:
    buf = io.BytesIO()
    if exif is not None:
        im.save(buf, "JPEG", quality=quality, exif=exif)
    else:
        im.save(buf, "JPEG", quality=quality)
    return buf.getvalue()


def _perspective(
    im: Image.Image, boxes: Boxes, rng: np.random.Generator
) -> tuple[Image.Image, Boxes]:
    """As if seen from a seat: the far side narrower and shorter."""
    w, h = im.size
    k = rng.uniform(0.18, 0.3)  # how much the top edge shrinks
    v = rng.uniform(0.75, 0.9)  # the top's vertical squeeze
    # destination (x, y) = source mapped by a homography that keeps the bottom edge
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    dst = np.array([[k * w, (1 - v) * h], [(1 - k) * w, (1 - v) * h], [w, h], [0, h]], float)
    hm = _homography(src, dst)
    inv = np.linalg.inv(hm)
    coeffs = (inv / inv[2, 2]).flatten()[:8]
    out = im.transform((w, h), Image.PERSPECTIVE, tuple(coeffs), Image.BILINEAR)
    nb: Boxes = []
    for x0, y0, x1, y1 in boxes:
        pts = np.array([[x0 * w, y0 * h], [x1 * w, y0 * h], [x1 * w, y1 * h], [x0 * w, y1 * h]])
        p = np.c_[pts, np.ones(4)] @ hm.T
        p = p[:, :2] / p[:, 2:]
        nb.append((p[:, 0].min() / w, p[:, 1].min() / h, p[:, 0].max() / w, p[:, 1].max() / h))
    return out, nb


def _homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    a = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(a))
    return vt[-1].reshape(3, 3)


def green_ink(im: Image.Image, boxes: Boxes) -> Image.Image:
    """Orange ink inside the tile boxes turned green in HSV (hue 0.02..0.13 with some
    saturation -> hue 0.36, i.e. 130°, a little darker) — a different recipe from the
    training script's (which turns the hue in an opponent colour space about the face)."""
    arr = np.asarray(im.convert("HSV")).copy()
    w, h = im.size
    hue = arr[..., 0].astype(int)
    sat = arr[..., 1].astype(int)
    inside = np.zeros((h, w), bool)
    for x0, y0, x1, y1 in boxes:
        inside[int(y0 * h) : int(math.ceil(y1 * h)), int(x0 * w) : int(math.ceil(x1 * w))] = True
    ink = inside & (hue >= 4) & (hue <= 34) & (sat >= 90)
    arr[..., 0][ink] = 92  # 0.36 × 255
    arr[..., 2][ink] = (arr[..., 2][ink] * 0.8).astype(np.uint8)
    _ = colorsys  # (HSV as Pillow defines it: all three channels 0..255)
    return Image.fromarray(arr, "HSV").convert("RGB")


def prepare(p: Photo, transform: str, rng: np.random.Generator) -> Prepared:
    """The photo's bytes to read, the labels expected, their boxes (fractions, upright) and
    the boxes of tiles cut by the frame (neither expected nor, when read, invented)."""
    im = Image.open(p.path).convert("RGB")
    labels = [t.tile for t in p.tiles]
    boxes: Boxes = [t.box for t in p.tiles]
    cut: Boxes = []
    if transform in ("none", ""):
        return p.path.read_bytes(), labels, boxes, cut
    if transform in ("tilt", "seat"):
        im, boxes = _perspective(im, boxes, rng)
    if transform == "dim":
        im = ImageEnhance.Brightness(im).enhance(0.45)
        r, g, b = im.split()
        im = Image.merge("RGB", (r, g.point(lambda v: v * 0.92), b.point(lambda v: v * 0.75)))
    if transform == "green":
        im = green_ink(im, boxes)
        labels = ["G" + t[1:] if t.startswith("O") else t for t in labels]
    if transform in ("big", "seat"):
        im = im.resize((4000, 4000), Image.BICUBIC).crop((0, 500, 4000, 3500))
        boxes = [
            (x0, (y0 * 4000 - 500) / 3000, x1, (y1 * 4000 - 500) / 3000) for x0, y0, x1, y1 in boxes
        ]
        keep = [i for i, b in enumerate(boxes) if b[1] >= -0.02 and b[3] <= 1.02]
        cut = [b for i, b in enumerate(boxes) if i not in keep and b[3] > 0 and b[1] < 1]
        labels = [labels[i] for i in keep]
        boxes = [boxes[i] for i in keep]
    if transform in ("exif", "seat"):
        # stored turned a quarter anticlockwise; the EXIF tag 6 says to turn it clockwise
        stored = im.transpose(Image.Transpose.ROTATE_90)
        exif = Image.Exif()
        exif[0x0112] = 6
        return _jpeg(stored, exif, 92), labels, boxes, cut
    return _jpeg(im, None, 92), labels, boxes, cut


def match(got: Boxes, want: Boxes) -> list[tuple[int, int]]:
    """Pairs (read index, labelled index), nearest centres first."""
    pairs = []
    for i, (gx, gy, gw, gh) in enumerate(got):
        cx, cy = gx + gw / 2, gy + gh / 2
        for j, (x0, y0, x1, y1) in enumerate(want):
            d = math.hypot(cx - (x0 + x1) / 2, cy - (y0 + y1) / 2)
            if d < 0.5 * min(x1 - x0, y1 - y0):
                pairs.append((d, i, j))
    used_i: set[int] = set()
    used_j: set[int] = set()
    out = []
    for _, i, j in sorted(pairs):
        if i not in used_i and j not in used_j:
            used_i.add(i)
            used_j.add(j)
            out.append((i, j))
    return out


def on_cut(got: Boxes, cut: Boxes) -> set[int]:
    """The tiles read whose centre lies on a tile cut by the frame."""
    return {
        i
        for i, (gx, gy, gw, gh) in enumerate(got)
        if any(x0 <= gx + gw / 2 <= x1 and y0 <= gy + gh / 2 <= y1 for x0, y0, x1, y1 in cut)
    }


def hand_melds(path: Path) -> dict[str, collections.Counter[tuple[str, ...]]]:
    """The melds of each source photo in ``tables.txt``, each as its tiles sorted."""
    out = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        source, _, melds = line.partition(":")
        out[source.strip()] = collections.Counter(
            tuple(sorted(m.split())) for m in melds.split("|") if m.split()
        )
    return out


def table_report(photos: list[Photo], results: list[Any], tables: Path) -> None:
    """Photos of the tables in ``tables`` (tables.txt): are the melds read (the lines of three or
    more tiles, as ``companion.services.photos.table_melds`` makes them) exactly the melds
    that lie there? Each meld is compared as a set of tiles."""
    from companion.domain import get_game
    from companion.services.photos import table_melds

    game = get_game("rummikub")
    hand = hand_melds(tables)
    n = exact = melds_total = melds_right = invented = 0
    for p, r in zip(photos, results, strict=True):
        want = hand.get(p.source)
        if want is None:
            continue
        got = collections.Counter(tuple(sorted(m)) for m in table_melds(game, r.tiles, r.lines)[1])
        n += 1
        exact += want == got
        melds_total += sum(want.values())
        melds_right += sum((want & got).values())
        invented += sum((got - want).values())
        if want != got:
            print(f"  {p.path.name[:30]}: missed {dict(want - got)}, invented {dict(got - want)}")
    print(
        f"tables ({tables.name}): {exact}/{n} read into exactly their melds; "
        f"{melds_right} of {melds_total} melds read, {invented} read where there is none"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("photos")
    ap.add_argument("--holdout", default=str(HERE / "validation.txt"))
    ap.add_argument("--holdout-group", default="")
    ap.add_argument("--transform", default="none")
    ap.add_argument("--failures", default="", help="write each misread photo here as a PNG")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument(
        "--copies",
        type=int,
        default=3,
        help="how many of each source photo's publisher variations to read",
    )
    ap.add_argument("--peak", type=float, default=0.0, help="override the finder threshold")
    ap.add_argument("--not-a-tile", type=float, default=0.0, help="override NOT_A_TILE")
    ap.add_argument("--finder-side", type=int, default=0, help="override FINDER_SIDE")
    ap.add_argument(
        "--table",
        action="store_true",
        help="read with as_table and check the melds of the tables in --tables",
    )
    ap.add_argument("--tables", default=str(HERE / "tables.txt"), help="melds by hand")
    ap.add_argument(
        "--models",
        default="",
        help="read finder.onnx and reader.onnx from this folder, not the shipped",
    )
    args = ap.parse_args()
    photos = held_out(load(Path(args.photos)), args.holdout, args.holdout_group)
    seen: dict[str, int] = {}
    kept = []
    for p in photos:
        seen[p.source] = seen.get(p.source, 0) + 1
        if seen[p.source] <= args.copies:
            kept.append(p)
    photos = kept
    rng = np.random.default_rng(args.seed)
    prepared = [prepare(p, args.transform, rng) for p in photos]
    colours = ("K", "R", "B", "G") if args.transform == "green" else ("K", "R", "B", "O")

    t0 = time.perf_counter()
    import companion.adapters.reader as reader

    if args.peak:
        reader.PEAK = args.peak
    if args.not_a_tile:
        reader.NOT_A_TILE = args.not_a_tile
    if args.finder_side:
        reader.FINDER_SIDE = args.finder_side
    if args.models:
        reader.MODEL_DIR = Path(args.models)
    times = []
    results = []
    for data, _, _, _ in prepared:
        t = time.perf_counter()
        results.append(reader.read_photo(data, colours=colours, as_table=args.table))
        times.append(time.perf_counter() - t)
    total = time.perf_counter() - t0

    ok = n_gt = extra = exact = 0
    by_group: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    confusions: collections.Counter[tuple[str, str]] = collections.Counter()
    flagged_err = flagged_ok = n_err_read = n_ok_read = 0
    conf_ok: list[tuple[float, bool]] = []
    fail_dir = Path(args.failures) if args.failures else None
    if fail_dir:
        fail_dir.mkdir(parents=True, exist_ok=True)
    for p, (data, labels, boxes, cut), r in zip(photos, prepared, results, strict=True):
        pairs = match(list(r.boxes), boxes)
        right = sum(1 for i, j in pairs if r.tiles[i] == labels[j])
        matched_i = {i for i, _ in pairs} | on_cut(list(r.boxes), cut)
        matched_j = {j for _, j in pairs}
        n_extra = len(r.tiles) - len(matched_i)
        for i, j in pairs:
            if r.tiles[i] != labels[j]:
                confusions[(labels[j], r.tiles[i])] += 1
            wrong = r.tiles[i] != labels[j]
            flagged = i in r.unsure
            n_err_read += wrong
            n_ok_read += not wrong
            flagged_err += wrong and flagged
            flagged_ok += (not wrong) and flagged
            conf_ok.append((r.confidences[i], not wrong))
        for i in range(len(r.tiles)):
            if i not in matched_i:
                confusions[("-", r.tiles[i])] += 1
                n_err_read += 1
                flagged_err += i in r.unsure
                conf_ok.append((r.confidences[i], False))
        for j in range(len(labels)):
            if j not in matched_j:
                confusions[(labels[j], "-")] += 1
        ok += right
        n_gt += len(labels)
        extra += n_extra
        is_exact = right == len(labels) and n_extra == 0
        exact += is_exact
        g = by_group[p.group]
        g[0] += right
        g[1] += len(labels)
        g[2] += n_extra
        g[3] += is_exact
        g[4] += 1
        if fail_dir and not is_exact:
            im = Image.open(io.BytesIO(data))
            from PIL import ImageOps

            im = ImageOps.exif_transpose(im).convert("RGB")
            im.thumbnail((900, 900))
            w, h = im.size
            d = ImageDraw.Draw(im)
            for j, (x0, y0, x1, y1) in enumerate(boxes):
                d.rectangle([x0 * w, y0 * h, x1 * w, y1 * h], outline=(0, 200, 0))
                d.text((x0 * w + 2, y1 * h - 12), labels[j], fill=(0, 160, 0))
            for i, (x, y, bw, bh) in enumerate(r.boxes):
                col = (255, 0, 255) if i in r.unsure else (255, 0, 0)
                d.rectangle([x * w, y * h, (x + bw) * w, (y + bh) * h], outline=col)
                d.text((x * w + 2, y * h + 2), r.tiles[i], fill=col)
            im.save(fail_dir / f"{p.path.stem[:40]}.png")

    n = len(photos)
    acc = ok / max(1, n_gt + extra)
    print(
        f"photos {n} (from {len({p.source for p in photos})} source photos), "
        f"transform {args.transform}"
    )
    print(f"tiles: {ok} right of {n_gt} labelled + {extra} invented = {100 * acc:.1f} %")
    print(f"exact photos: {exact}/{n} = {100 * exact / max(1, n):.1f} %")
    print(
        f"seconds per photo: {total / max(1, n):.3f} incl. first load "
        f"(median photo {statistics.median(times):.3f}, first {times[0]:.3f})"
    )
    for gname in sorted(by_group):
        g = by_group[gname]
        print(
            f"  {gname:16s} tiles {100 * g[0] / max(1, g[1] + g[2]):5.1f} % "
            f"({g[0]}/{g[1]}+{g[2]})  exact {g[3]}/{g[4]}"
        )
    print(
        "unsure flags: "
        f"{flagged_err}/{n_err_read} wrong readings flagged, "
        f"{flagged_ok}/{n_ok_read} right readings flagged"
    )
    sweep = []
    for thr in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
        fe = sum(1 for c, good in conf_ok if c < thr and not good)
        fo = sum(1 for c, good in conf_ok if c < thr and good)
        sweep.append(f"<{thr}: {fe}/{n_err_read} wrong, {fo}/{n_ok_read} right")
    print("unsure threshold sweep: " + "; ".join(sweep))
    if args.table:
        table_report(photos, results, Path(args.tables))
    print(
        "confusions (labelled -> read, '-' = none):",
        ", ".join(f"{a}->{b} ×{c}" for (a, b), c in confusions.most_common(20)),
    )


if __name__ == "__main__":
    main()
