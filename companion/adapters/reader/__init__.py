"""The photo reader: reads Rummikub (and Rummy-O) tiles off a photo.

Two small ONNX networks, run on the CPU by onnxruntime:

1. ``finder.onnx`` finds every tile on a copy of the photo scaled to at most
   ``FINDER_SIDE`` pixels a side, then again on a copy scaled so that the tiles are the size
   it reads best: a centre heatmap and, per centre, the tile's size and the direction of
   its long axis;
2. ``reader.onnx`` reads each tile from a square crop cut from the photo at (near) full
   resolution and turned so that the tile stands upright (or upside down: it reads both):
   its value (1..13, joker, or "not a tile") and its ink colour (black, red, blue, orange —
   green ink reads as orange), white-balanced by the tile's own cream face.

Trained on the Rummikub photo set of Jonas Bühler (Roboflow Universe, CC BY 4.0) by
``training/train_reader.py``; see ``training/REPORT.md`` for how well it reads.

Only numpy, Pillow, onnxruntime and the standard library are used here.
"""

from __future__ import annotations

import io
import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from companion.adapters.reader.layout import lines_of, reading_order

__all__ = ["MAX_PIXELS", "PhotoError", "Reading", "read_image", "read_photo", "warm"]

MODEL_DIR = Path(__file__).resolve().parent
MAX_PIXELS = 50_000_000  # a photo with more pixels than this is refused, before decoding
FINDER_SIDE = 512  # the finder's first look: the photo scaled to fit this square
FINDER_TILE = 38.0  # its second look scales the photo so that the tiles' median long side is this
FINDER_SIDES = (256, 1536)  # ... within these sides of the square
FINDER_ENLARGE = 2.0  # ... and at most this many times the photo's own long side
CROP_SOURCE_SIDE = 1600  # tiles are cut from the photo decoded at at least this long side
CROP = 48  # the reader's crop side
CROP_MARGIN = 1.25  # crop side = the tile's long side × this
PEAK = 0.30  # the finder's heatmap threshold for a tile centre
MAX_FOUND = 400  # the most tile centres kept, strongest first (two boxes hold 212 tiles)
FACE_CORE = 0.8  # a weaker tile whose centre lies in this share of a stronger one's face is a ghost
NOT_A_TILE = 0.5  # a crop is dropped when "not a tile" is at least this likely
UNSURE = 0.80  # a tile whose reading is less likely than this is listed as unsure
THREADS = 2
FORMATS = {"JPEG", "PNG", "WEBP", "MPO"}
COLOUR_NAMES = ("black", "red", "blue", "orange")


class PhotoError(ValueError):
    """A photo that cannot be read: ``code`` is "unreadable", "unsupported" or "too-large"."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Reading:
    """What a photo shows.

    ``tiles`` in reading order (row by row from the top, left to right within a row), as
    notation ("B2", "O13", "*"); ``boxes`` the tiles' boxes (x, y, w, h) as fractions of the
    upright photo; ``confidences`` how likely each reading is; ``unsure`` the indexes of the
    tiles read with too little confidence. With ``as_table``: ``lines``, the lines of three
    or more tiles side by side, each as the indexes of its tiles left to right, and
    ``loose``, the indexes of the tiles in no such line. Whether a line is a meld is the
    game's to say (companion/services/photos.py).
    """

    tiles: tuple[str, ...]
    boxes: tuple[tuple[float, float, float, float], ...]
    confidences: tuple[float, ...]
    unsure: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...] = ()
    loose: tuple[int, ...] = ()
    width: int = 0
    height: int = 0


_lock = threading.Lock()
_sessions: dict[str, Any] = {}


def _session(name: str) -> Any:
    """The onnxruntime session of ``name``.onnx, made once (thread-safe) and kept."""
    with _lock:
        s = _sessions.get(name)
        if s is None:
            import onnxruntime as ort  # type: ignore[import-untyped]

            opts = ort.SessionOptions()
            opts.intra_op_num_threads = THREADS
            opts.inter_op_num_threads = 1
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            s = ort.InferenceSession(
                str(MODEL_DIR / f"{name}.onnx"), opts, providers=["CPUExecutionProvider"]
            )
            _sessions[name] = s
        return s


def warm() -> None:
    """Load both networks now, so the first photo of the evening is read as fast as the rest."""
    _session("finder")
    _session("reader")


class _Photo(io.BytesIO):
    """The photo's bytes, noting whether the decoder asked for more than there was.

    Pillow fills a cut-off photo with grey instead of refusing it whenever anything in the
    process has set ``ImageFile.LOAD_TRUNCATED_IMAGES`` (WeasyPrint does on import), so the
    reader sees for itself that a photo ran out before its decoder was done."""

    ran_dry = False

    def read(self, size: int | None = -1, /) -> bytes:
        chunk = super().read(size)
        if size != 0 and not chunk:
            self.ran_dry = True
        return chunk


def _decode(data: bytes) -> Image.Image:
    """The photo upright (EXIF orientation applied), RGB, JPEGs decoded at a reduced scale
    that still has at least CROP_SOURCE_SIDE pixels along the long side."""
    if not data:
        raise PhotoError("unreadable", "the photo is empty")
    try:
        source = _Photo(data)
        im = Image.open(source)
        if im.format not in FORMATS:
            raise PhotoError("unsupported", f"not a JPEG, PNG or WebP photo: {im.format}")
        w, h = im.size
        if w * h > MAX_PIXELS:
            raise PhotoError("too-large", f"the photo has {w}×{h} pixels, too many")
        if w < 8 or h < 8:
            raise PhotoError("unreadable", "the photo is too small")
        if im.format in {"JPEG", "MPO"} and max(w, h) > CROP_SOURCE_SIDE:
            f = CROP_SOURCE_SIDE / max(w, h)
            im.draft("RGB", (math.ceil(w * f), math.ceil(h * f)))
        im.load()
        if source.ran_dry:
            raise PhotoError("unreadable", "the photo is cut short")
        upright = ImageOps.exif_transpose(im)
        return upright.convert("RGB")
    except PhotoError:
        raise
    except Image.DecompressionBombError as e:
        raise PhotoError("too-large", f"the photo is too large: {e}") from e
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as e:
        raise PhotoError("unreadable", f"the photo cannot be decoded: {e}") from e


def _peaks(heat: np.ndarray, thr: float) -> tuple[np.ndarray, np.ndarray]:
    """Cells of the heatmap at least ``thr`` that are the highest of their 3×3 block."""
    p = np.pad(heat, 1, constant_values=0.0)
    h, w = heat.shape
    best = heat.copy()
    for dy in range(3):
        for dx in range(3):
            np.maximum(best, p[dy : dy + h, dx : dx + w], out=best)
    ys, xs = np.nonzero((heat >= best) & (heat >= thr))
    return ys, xs


@dataclass(frozen=True)
class _Found:
    """Tiles found, in ``im`` pixels: centres, sizes along (``longs``) and across
    (``shorts``) the tile's up axis, the up axis's angle (radians, image axes, either way
    up), axis-aligned boxes (x0, y0, x1, y1) and heatmap scores."""

    centres: np.ndarray
    longs: np.ndarray
    shorts: np.ndarray
    angles: np.ndarray
    boxes: np.ndarray
    scores: np.ndarray


def _covers(centre: np.ndarray, long: float, short: float, angle: float, point: np.ndarray) -> bool:
    """Whether ``point`` lies on the face of the tile at ``centre``: tiles lie side by side,
    never one on another's face, so a weaker tile found over a stronger one's centre is a
    ghost of the two (typically one found too large, straddling its neighbours)."""
    dx, dy = point - centre
    along = abs(dx * math.cos(angle) + dy * math.sin(angle))
    across = abs(-dx * math.sin(angle) + dy * math.cos(angle))
    return bool(along <= long / 2 and across <= short / 2)


def _one_per_tile(
    centres: np.ndarray,
    longs: np.ndarray,
    shorts: np.ndarray,
    angles: np.ndarray,
    scores: np.ndarray,
) -> np.ndarray:
    """The indexes of the tiles to keep, strongest first: a weaker tile is dropped when its
    centre is near a stronger one's, when its face holds a stronger one's centre (a ghost
    straddling two tiles), or when its centre lies well inside a stronger one's face (a ghost
    inside one tile: the inner FACE_CORE of the face, as a face may be found a little large)."""
    kept: list[int] = []
    for i in np.argsort(-scores):
        if all(
            np.hypot(*(centres[i] - centres[j])) >= 0.3 * min(longs[j], shorts[j])
            and not _covers(centres[i], longs[i], shorts[i], angles[i], centres[j])
            and not _covers(
                centres[j], FACE_CORE * longs[j], FACE_CORE * shorts[j], angles[j], centres[i]
            )
            for j in kept
        ):
            kept.append(int(i))
    return np.array(kept, dtype=np.int64)


def _find(im: Image.Image) -> _Found:
    """The finder's tiles, strongest first, one per tile (``_one_per_tile``).

    The finder reads best tiles of a certain size (``FINDER_TILE`` pixels along, the middle
    of the sizes it was trained on), so it looks twice: once at ``FINDER_SIDE``, and again
    with the photo scaled so that the tiles it found have that median size, which it keeps
    unless the scale hardly changes (training/REPORT.md: tiles far from the camera, a rack
    filling the frame)."""
    long_side = max(im.size)
    first_side = min(FINDER_SIDE, long_side)
    first = _find_at(im, first_side)
    if not len(first.centres):
        return first
    seen = float(np.median(first.longs)) * first_side / long_side
    side = round(first_side * FINDER_TILE / seen / 32) * 32
    side = min(max(side, FINDER_SIDES[0]), FINDER_SIDES[1], round(FINDER_ENLARGE * long_side))
    if abs(side - first_side) < 64:
        return first
    return _find_at(im, side)


def _find_at(im: Image.Image, side: int) -> _Found:
    """The finder's tiles on ``im`` scaled to fit ``side``, strongest first, one per tile."""
    w, h = im.size
    f = side / max(w, h)
    sw, sh = max(1, round(w * f)), max(1, round(h * f))
    small = im.resize((sw, sh), Image.Resampling.BILINEAR, reducing_gap=2.0) if f != 1 else im
    pw, ph = -(-sw // 32) * 32, -(-sh // 32) * 32
    arr = np.zeros((1, 3, ph, pw), np.float32)
    arr[0, :, :sh, :sw] = np.asarray(small, np.float32).transpose(2, 0, 1) / 255.0
    heat, size, off, orient = _session("finder").run(None, {"image": arr})
    ys, xs = _peaks(heat[0, 0], PEAK)
    strongest = np.argsort(-heat[0, 0, ys, xs], kind="stable")[:MAX_FOUND]
    ys, xs = ys[strongest], xs[strongest]
    scores = heat[0, 0, ys, xs]
    cx = (xs + off[0, 0, ys, xs]) * 4
    cy = (ys + off[0, 1, ys, xs]) * 4
    keep = (cx < sw) & (cy < sh)
    ys, xs, scores, cx, cy = ys[keep], xs[keep], scores[keep], cx[keep], cy[keep]
    # along and across the tile's up axis (a tile lying flat seen from a seat may look wider
    # than tall)
    longs = np.exp(size[0, 0, ys, xs]) * 4 / f
    shorts = np.exp(size[0, 1, ys, xs]) * 4 / f
    angles = 0.5 * np.arctan2(orient[0, 1, ys, xs], orient[0, 0, ys, xs])
    centres = np.stack([cx, cy], axis=1).reshape(-1, 2) / f
    ca, sa = np.abs(np.cos(angles)), np.abs(np.sin(angles))
    half_w = (ca * longs + sa * shorts) / 2
    half_h = (sa * longs + ca * shorts) / 2
    boxes = np.stack(
        [
            centres[:, 0] - half_w,
            centres[:, 1] - half_h,
            centres[:, 0] + half_w,
            centres[:, 1] + half_h,
        ],
        axis=1,
    ).reshape(-1, 4)
    k = _one_per_tile(centres, longs, shorts, angles, scores)
    return _Found(centres[k], longs[k], shorts[k], angles[k], boxes[k], scores[k])


def _crops(im: Image.Image, found: _Found) -> np.ndarray:
    """A CROP×CROP crop around each tile, its up axis upright (the tile either way up),
    CROP_MARGIN × its longer side as seen a side; cut from ``im`` reduced (filtered) around the tile
    first when the tile is much larger than the crop."""
    out = np.zeros((len(found.centres), 3, CROP, CROP), np.float32)
    for i, ((cx, cy), long_side, short_side, phi) in enumerate(
        zip(found.centres, found.longs, found.shorts, found.angles, strict=True)
    ):
        side = CROP_MARGIN * float(max(long_side, short_side))
        r = 0.75 * side  # the turned square lies inside this radius
        box = (round(cx - r), round(cy - r), round(cx + r), round(cy + r))
        region = im.crop(box)
        k = 2 * r / side * CROP  # the region's side at the crop's scale
        if k < region.width:
            n = max(CROP, math.ceil(k))
            region = region.resize((n, n), Image.Resampling.BILINEAR)
        scale = side * region.width / (box[2] - box[0]) / CROP  # region px per crop px
        rcx = (cx - box[0]) * region.width / (box[2] - box[0])
        rcy = (cy - box[1]) * region.height / (box[3] - box[1])
        sp, cp = math.sin(phi), math.cos(phi)
        a, b, d, e = scale * sp, scale * cp, -scale * cp, scale * sp
        c = rcx - (a + b) * CROP / 2
        f = rcy - (d + e) * CROP / 2
        crop = region.transform(
            (CROP, CROP),
            Image.Transform.AFFINE,
            (a, b, c, d, e, f),
            Image.Resampling.BILINEAR,
        )
        out[i] = np.asarray(crop, np.float32).transpose(2, 0, 1) / 255.0
    return out


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def read_image(
    im: Image.Image,
    *,
    colours: tuple[str, str, str, str] = ("K", "R", "B", "O"),
    as_table: bool = False,
) -> Reading:
    """Read the tiles of an upright RGB image (see ``read_photo``)."""
    w, h = im.size
    found = _find(im)
    tiles: list[str] = []
    conf: list[float] = []
    kept: list[int] = []
    if len(found.centres):
        value, colour = _session("reader").run(None, {"crops": _crops(im, found)})
        pv, pc = _softmax(value), _softmax(colour)
        for i in range(len(found.centres)):
            if pv[i, 14] >= NOT_A_TILE:
                continue
            v = int(np.argmax(pv[i, :14]))
            p = float(pv[i, v] / max(1e-6, 1.0 - pv[i, 14]))
            if v == 13:
                tiles.append("*")
            else:
                k = int(np.argmax(pc[i]))
                tiles.append(f"{colours[k]}{v + 1}")
                p *= float(pc[i, k])
            conf.append(p)
            kept.append(i)
    kb = found.boxes[kept].astype(np.float64).reshape(-1, 4)
    kb[:, [0, 2]] = kb[:, [0, 2]].clip(0, w)
    kb[:, [1, 3]] = kb[:, [1, 3]].clip(0, h)
    order = reading_order(kb)
    tiles = [tiles[i] for i in order]
    conf = [conf[i] for i in order]
    kb = kb[order] if len(order) else kb
    kept = [kept[i] for i in order]
    frac = tuple(
        (float(x0 / w), float(y0 / h), float((x1 - x0) / w), float((y1 - y0) / h))
        for x0, y0, x1, y1 in kb
    )
    unsure = tuple(i for i, c in enumerate(conf) if c < UNSURE)
    lines: tuple[tuple[int, ...], ...] = ()
    loose: tuple[int, ...] = ()
    if as_table:
        lines = tuple(
            tuple(line)
            for line in lines_of(
                found.centres[kept], found.angles[kept], found.longs[kept], found.shorts[kept]
            )
            if len(line) >= 3
        )
        in_line = {i for line in lines for i in line}
        loose = tuple(i for i in range(len(tiles)) if i not in in_line)
    return Reading(
        tiles=tuple(tiles),
        boxes=frac,
        confidences=tuple(conf),
        unsure=unsure,
        lines=lines,
        loose=loose,
        width=w,
        height=h,
    )


def read_photo(
    data: bytes,
    *,
    colours: tuple[str, str, str, str] = ("K", "R", "B", "O"),
    as_table: bool = False,
) -> Reading:
    """Read every tile in a photo (JPEG, PNG or WebP bytes).

    ``colours`` names the four ink colours black, red, blue and orange in the game's letters:
    Rummy-O passes ("K", "R", "B", "G"), its green ink reading as the orange of Rummikub.
    With ``as_table`` the tiles are also grouped into lines of three or more side by side.
    Raises ``PhotoError`` for a photo that cannot be read or has more than ``MAX_PIXELS``
    pixels.
    """
    return read_image(_decode(data), colours=colours, as_table=as_table)
