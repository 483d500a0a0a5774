"""The photo reader (companion.adapters.reader) on held-out validation photos shipped in tests/data.

The photos are the dataset's VALIDATION photos (never trained on); see
tests/data/photos/ATTRIBUTION.md.
"""

from __future__ import annotations

import io
import math
import re
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageFile

import companion.adapters.reader as reader
from companion.adapters.reader.layout import lines_of, reading_order

PHOTOS = Path(__file__).resolve().parent.parent / "data" / "photos"
RACK = "rummy3-13_jpeg.rf.a9a2e6c584ee515ddc2051720cf5b4a8"
TABLE = "rummy-12_jpeg.rf.685a46f7c57563efc63a5633102d66dd"
BLANK = "rummyBackground-8_jpeg.rf.692ffaa955c29e0e225988224a0d8959"

Labelled = tuple[list[str], list[tuple[float, float, float, float]]]

#: The least share of tiles the shipped model must read right on these seven held-out photos
#: (a missed and an invented tile both count as errors; the model shipped reads 77 %, most
#: of its misses on one crowded table, rummy4-5: tiles cut by the frame, and 8 tiles read
#: right but found off their labelled boxes). Raise it as the reader improves.
ACCURACY_FLOOR = 0.65


def _names() -> list[str]:
    text = (PHOTOS / "data.yaml").read_text()
    m = re.search(r"names:\s*\[(.*?)\]", text, re.S)
    assert m
    names = [n.strip().strip("'\"") for n in m.group(1).split(",")]
    letters = {"black": "K", "blue": "B", "orange": "O", "red": "R"}
    return ["*" if n == "joker" else letters[n.split("_")[0]] + n.split("_")[1] for n in names]


def labels(stem: str) -> Labelled:
    """The labelled tiles (notation) and boxes (x0, y0, x1, y1 fractions) of a fixture."""
    names = _names()
    tiles, boxes = [], []
    for line in (PHOTOS / f"{stem}.txt").read_text().splitlines():
        parts = line.split()
        if len(parts) < 7:
            continue
        v = [float(x) for x in parts[1:]]
        xs, ys = v[0::2], v[1::2]
        tiles.append(names[int(parts[0])])
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return tiles, boxes


def stems() -> list[str]:
    return sorted(p.stem for p in PHOTOS.glob("*.jpg"))


def score(r: reader.Reading, want: Labelled) -> tuple[int, int]:
    """(tiles read right, labelled + invented): each tile read is matched to the labelled
    tile whose centre is nearest, within half the tile's short side."""
    tiles, boxes = want
    pairs = []
    for i, (x, y, w, h) in enumerate(r.boxes):
        for j, (x0, y0, x1, y1) in enumerate(boxes):
            d = math.hypot(x + w / 2 - (x0 + x1) / 2, y + h / 2 - (y0 + y1) / 2)
            if d < 0.5 * min(x1 - x0, y1 - y0):
                pairs.append((d, i, j))
    used_i: set[int] = set()
    used_j: set[int] = set()
    right = 0
    for _, i, j in sorted(pairs):
        if i in used_i or j in used_j:
            continue
        used_i.add(i)
        used_j.add(j)
        right += r.tiles[i] == tiles[j]
    return right, len(tiles) + len(r.tiles) - len(used_i)


def encode(im: Image.Image, fmt: str, **kw: object) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


@pytest.fixture(scope="module")
def readings() -> dict[str, reader.Reading]:
    return {s: reader.read_photo((PHOTOS / f"{s}.jpg").read_bytes()) for s in stems()}


def test_accuracy_floor_on_validation_photos(readings: dict[str, reader.Reading]) -> None:
    right = total = 0
    for s, r in readings.items():
        a, b = score(r, labels(s))
        right += a
        total += b
    assert total >= 97  # every labelled tile counts, and every invented one
    assert right / total >= ACCURACY_FLOOR, f"{right}/{total}"


def test_a_table_with_no_tiles_reads_none(readings: dict[str, reader.Reading]) -> None:
    assert readings[BLANK].tiles == ()


def test_a_blank_photo_has_no_tiles() -> None:
    for colour in ((128, 128, 128), (255, 255, 255), (0, 0, 0), (200, 170, 120)):
        data = encode(Image.new("RGB", (1200, 900), colour), "JPEG")
        r = reader.read_photo(data)
        assert r.tiles == () and r.boxes == () and r.unsure == ()


def test_boxes_are_fractions_of_the_photo(readings: dict[str, reader.Reading]) -> None:
    for r in readings.values():
        assert len(r.boxes) == len(r.tiles) == len(r.confidences)
        for x, y, w, h in r.boxes:
            assert 0 <= x <= 1 and 0 <= y <= 1 and 0 < w <= 1 and 0 < h <= 1
            assert x + w <= 1.0001 and y + h <= 1.0001
        assert all(0 <= c <= 1 for c in r.confidences)
        assert all(0 <= i < len(r.tiles) for i in r.unsure)


def test_boxes_lie_on_the_tiles(readings: dict[str, reader.Reading]) -> None:
    r = readings[RACK]
    assert r.tiles
    _, want = labels(RACK)
    for x, y, w, h in r.boxes:
        cx, cy = x + w / 2, y + h / 2
        assert any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in want)


def test_reading_order_is_row_by_row_left_to_right(readings: dict[str, reader.Reading]) -> None:
    r = readings[RACK]
    tiles, boxes = labels(RACK)
    # the rack's two rows: every tile of the top row comes before every tile of the bottom
    rows = [
        [b for b in r.boxes if b[1] + b[3] / 2 < 0.5],
        [b for b in r.boxes if b[1] + b[3] / 2 >= 0.5],
    ]
    assert [b for row in rows for b in row] == list(r.boxes)
    for row in rows:
        xs = [b[0] for b in row]
        assert xs == sorted(xs)


def test_reading_order_of_boxes() -> None:
    # two rows, a little uneven, given shuffled
    boxes = []
    for row in range(2):
        for col in range(5):
            x = 100 + col * 60
            y = 100 + row * 90 + (7 if col % 2 else -5)
            boxes.append((x, y, x + 55, y + 80))
    shuffled = [boxes[i] for i in (7, 2, 9, 0, 4, 5, 1, 8, 3, 6)]
    order = reading_order(np.array(shuffled, float))
    assert [shuffled[i] for i in order] == boxes


def test_exif_orientation_is_applied() -> None:
    im = Image.open(PHOTOS / f"{TABLE}.jpg").convert("RGB")
    want = reader.read_photo(encode(im, "PNG"))
    # tag 6: the stored picture must be turned a quarter clockwise to stand upright, so it
    # is the upright one turned a quarter anticlockwise (Pillow's ROTATE_90); 8 the reverse
    for tag, stored in (
        (6, im.transpose(Image.Transpose.ROTATE_90)),
        (8, im.transpose(Image.Transpose.ROTATE_270)),
        (3, im.transpose(Image.Transpose.ROTATE_180)),
    ):
        exif = Image.Exif()
        exif[0x0112] = tag
        # lossless, so the upright pixels are exactly the original's
        r = reader.read_photo(encode(stored, "PNG", exif=exif))
        assert (r.width, r.height) == im.size
        assert r.tiles == want.tiles
        assert np.allclose(r.boxes, want.boxes, atol=1e-3)
        # and a JPEG turned the same way is read upright too
        j = reader.read_photo(encode(stored, "JPEG", quality=95, exif=exif))
        assert (j.width, j.height) == im.size


def test_png_and_webp(readings: dict[str, reader.Reading]) -> None:
    im = Image.open(PHOTOS / f"{TABLE}.jpg").convert("RGB")
    for data in (encode(im, "PNG"), encode(im, "WEBP", lossless=True)):
        r = reader.read_photo(data)
        assert r.tiles == readings[TABLE].tiles
        assert np.allclose(r.boxes, readings[TABLE].boxes, atol=1e-3)


def test_a_truncated_jpeg_is_refused() -> None:
    data = (PHOTOS / f"{TABLE}.jpg").read_bytes()
    for cut in (data[: len(data) // 2], data[:200], b"", b"not a photo at all"):
        with pytest.raises(reader.PhotoError) as e:
            reader.read_photo(cut)
        assert e.value.code == "unreadable"


def _never_decoded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make decoding a photo's pixels fail the test: what is refused is refused from its header."""

    def decode(self: ImageFile.ImageFile) -> None:
        raise AssertionError("the pixels were decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", decode)


def _png_claiming(width: int, height: int) -> bytes:
    """A tiny valid PNG whose header then says it is width × height pixels."""
    data = bytearray(encode(Image.new("RGB", (1, 1)), "PNG"))
    ihdr = 8  # signature, then the IHDR chunk: length, type, width, height, ...
    data[ihdr + 8 : ihdr + 16] = struct.pack(">II", width, height)
    crc = zlib.crc32(bytes(data[ihdr + 4 : ihdr + 8 + 13])) & 0xFFFFFFFF
    data[ihdr + 8 + 13 : ihdr + 8 + 17] = struct.pack(">I", crc)
    return bytes(data)


def test_a_decompression_bomb_is_refused_before_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    # a real 1×1 photo's header saying 20000 × 20000 (400 megapixels), and one just over
    # the reader's limit, and a real highly compressible image over the limit
    big = Image.new("L", (8000, 6400))  # 51.2 megapixels of black: a PNG of a few kB
    bombs = (_png_claiming(20000, 20000), _png_claiming(7100, 7100), encode(big, "PNG"))
    _never_decoded(monkeypatch)
    for data in bombs:
        with pytest.raises(reader.PhotoError) as e:
            reader.read_photo(data)
        assert e.value.code == "too-large"


def test_not_a_photo_format() -> None:
    im = Image.new("RGB", (64, 64))
    with pytest.raises(reader.PhotoError) as e:
        reader.read_photo(encode(im, "BMP"))
    assert e.value.code == "unsupported"


RACK_FAR = "rummy4-89_jpeg.rf.72ff6773825f81da08ca23d3d5455f42"


def test_a_rack_photographed_from_afar_reads_as_close_up() -> None:
    # A 4000×3000 phone photo with the rack a fifth of its width: the finder's first look
    # sees tiles of about 10 pixels, too small for it; its second look enlarges them
    # (reader.FINDER_TILE). Read with one look, 6 of these 13 tiles come out right.
    im = Image.open(PHOTOS / f"{RACK_FAR}.jpg").convert("RGB")
    side = 800
    phone = Image.new(
        "RGB", (4000, 3000), tuple(int(v) for v in np.asarray(im)[:8, :8].mean((0, 1)))
    )
    phone.paste(im.resize((side, side), Image.Resampling.BICUBIC), (1600, 1100))
    r = reader.read_photo(encode(phone, "JPEG", quality=90))
    moved = tuple(
        ((x * 4000 - 1600) / side, (y * 3000 - 1100) / side, w * 4000 / side, h * 3000 / side)
        for x, y, w, h in r.boxes
    )
    want = labels(RACK_FAR)
    assert score(reader.Reading(r.tiles, moved, r.confidences, r.unsure), want) == (13, 13)
    assert sorted(r.tiles) == sorted(want[0])


def _greened(stem: str) -> bytes:
    """The photo with the orange ink inside each labelled tile turned green."""
    im = Image.open(PHOTOS / f"{stem}.jpg").convert("RGB")
    arr = np.asarray(im.convert("HSV")).copy()
    h, w = arr.shape[:2]
    inside = np.zeros((h, w), bool)
    for x0, y0, x1, y1 in labels(stem)[1]:
        inside[int(y0 * h) : math.ceil(y1 * h), int(x0 * w) : math.ceil(x1 * w)] = True
    ink = inside & (arr[..., 0] >= 4) & (arr[..., 0] <= 34) & (arr[..., 1] >= 90)
    arr[..., 0][ink] = 92  # hue 130°
    arr[..., 2][ink] = (arr[..., 2][ink] * 0.8).astype(np.uint8)
    return encode(Image.fromarray(arr, "HSV").convert("RGB"), "JPEG", quality=92)


def _labelled_finder(stem: str) -> reader._Found:
    """The finder's answer as the labels have it: each labelled tile where it lies, upright."""
    w, h = Image.open(PHOTOS / f"{stem}.jpg").size
    b = np.array(labels(stem)[1], float) * [w, h, w, h]
    c = np.stack([(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2], 1)
    return reader._Found(
        centres=c,
        longs=b[:, 3] - b[:, 1],
        shorts=b[:, 2] - b[:, 0],
        angles=np.full(len(b), math.pi / 2),
        boxes=b,
        scores=np.ones(len(b)),
    )


def test_green_ink_reads_as_the_fourth_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    # RO-1: Rummy-O's tiles are Rummikub's with green where Rummikub has orange. No Rummy-O
    # photo exists to learn from: the racks' photos with their orange ink turned green stand
    # in, read with Rummy-O's letters; the tiles are given where they lie (the finder is
    # measured by the accuracy floor), so this measures the colours alone.
    green = total = orange_kept = 0
    for stem in (
        "rummy3-13_jpeg.rf.a9a2e6c584ee515ddc2051720cf5b4a8",
        "rummy4-89_jpeg.rf.72ff6773825f81da08ca23d3d5455f42",
    ):
        tiles, _ = labels(stem)
        monkeypatch.setattr(reader, "_find", lambda im, stem=stem: _labelled_finder(stem))
        data = _greened(stem)
        r = reader.read_photo(data, colours=("K", "R", "B", "G"))
        want = (["G" + t[1:] if t.startswith("O") else t for t in tiles], labels(stem)[1])
        right, n = score(r, want)
        green += right
        total += n
        assert not any(t.startswith("O") for t in r.tiles)
        kub = reader.read_photo(data)  # the same ink with Rummikub's letters is O
        orange_kept += sum(t.startswith("O") for t in kub.tiles)
        assert [t[0] for t in kub.tiles if t[0] in "OG"] == [
            t[0].replace("G", "O") for t in r.tiles if t[0] in "OG"
        ]
    assert total >= 21
    assert green / total >= 0.75, f"{green}/{total}"
    print(f"green read right: {green}/{total}")
    assert orange_kept >= 3


def _tile_images() -> list[tuple[str, Image.Image]]:
    """Upright tiles cut from the racks' photos, with their labels."""
    out = []
    for stem in stems():
        if not stem.startswith(("rummy3-13", "rummy4-89")):
            continue
        im = Image.open(PHOTOS / f"{stem}.jpg").convert("RGB")
        w, h = im.size
        for t, (x0, y0, x1, y1) in zip(*labels(stem), strict=True):
            out.append((t, im.crop((round(x0 * w), round(y0 * h), round(x1 * w), round(y1 * h)))))
    return out


def test_a_table_is_grouped_into_melds(monkeypatch: pytest.MonkeyPatch) -> None:
    # Real tiles cut from the racks' photos laid out as a table: four melds side by side and
    # a loose tile. The finder is given the tiles where they lie (it is measured on its own
    # by the accuracy floor); the reader reads each crop and the lines become melds.
    tiles = _tile_images()
    assert len(tiles) >= 12
    tw, th = 60, 80
    table = Image.new("RGB", (1000, 700), (96, 64, 40))
    layout = [(3, 60, 60), (4, 400, 60), (3, 60, 300), (5, 450, 320), (1, 80, 560)]
    want: list[list[str]] = []
    centres = []
    k = 0
    for n, x, y in layout:
        line = []
        for i in range(n):
            t, im = tiles[k % len(tiles)]
            k += 1
            left = x + i * (tw + 2)
            table.paste(im.resize((tw, th)), (left, y))
            centres.append((left + tw / 2, y + th / 2))
            line.append(t)
        want.append(line)
    c = np.array(centres, float)
    n = len(c)
    found = reader._Found(
        centres=c,
        longs=np.full(n, float(th)),
        shorts=np.full(n, float(tw)),
        angles=np.full(n, math.pi / 2),  # the up axis upright
        boxes=np.stack([c[:, 0] - tw / 2, c[:, 1] - th / 2, c[:, 0] + tw / 2, c[:, 1] + th / 2], 1),
        scores=np.ones(n),
    )
    monkeypatch.setattr(reader, "_find", lambda im: found)
    r = reader.read_photo(encode(table, "JPEG", quality=92), as_table=True)
    assert len(r.tiles) == sum(n for n, _, _ in layout)
    assert [len(line) for line in r.lines] == [3, 4, 3, 5]
    assert len(r.loose) == 1 and r.tiles[r.loose[0]] == r.tiles[-1]
    flat_want = [t for line in want[:4] for t in line]
    flat_got = [r.tiles[i] for line in r.lines for i in line]
    assert sum(a == b for a, b in zip(flat_got, flat_want, strict=True)) >= 0.85 * len(flat_want)


def _tiles_at(
    points: list[tuple[float, float]], turn: float, pitch: float = 60
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Tiles 56 wide and 80 long at ``points`` (in pitches), all turned by ``turn`` radians
    about the photo's origin: centres, up axes, long and short sides, as the finder gives."""
    c = np.array(
        [
            (
                300 + pitch * (px * math.cos(turn) - py * math.sin(turn)),
                300 + pitch * (px * math.sin(turn) + py * math.cos(turn)),
            )
            for px, py in points
        ],
        float,
    )
    n = len(points)
    return c, np.full(n, math.pi / 2 + turn), np.full(n, 80.0), np.full(n, 56.0)


def test_lines_of_tiles() -> None:
    # two melds on one line with a gap, a third below (a tile's length lower: rows of melds
    # lie apart), turned 10°, and a loose tile
    pts = [(0, 0), (1, 0), (2, 0), (3.8, 0), (4.8, 0), (5.8, 0), (6.8, 0)]
    pts += [(0.5, 2), (1.5, 2), (2.5, 2), (5, 4)]
    lines = lines_of(*_tiles_at(pts, math.radians(10)))
    assert lines == [[0, 1, 2], [3, 4, 5, 6], [7, 8, 9], [10]]


def test_melds_lying_every_which_way_on_one_table() -> None:
    # one meld upright, one turned 35° beside it, one standing (turned 90°): each tile is
    # taken in its own frame, so each meld is one line, left to right or top to bottom
    upright = _tiles_at([(0, 0), (1, 0), (2, 0)], 0.0)
    turned = _tiles_at([(3, 3), (4, 3), (5, 3), (6, 3)], math.radians(35))
    standing = _tiles_at([(8, -3), (9, -3), (10, -3)], math.radians(90))
    parts = zip(upright, turned, standing, strict=True)
    c, ups, longs, shorts = (np.concatenate(part) for part in parts)
    lines = lines_of(c, ups, longs, shorts)
    assert lines == [[0, 1, 2], [3, 4, 5, 6], [7, 8, 9]]
    assert [c[k][1] for k in lines[2]] == sorted(c[k][1] for k in lines[2])  # from the top


def test_tiles_end_to_end_or_scattered_make_no_line() -> None:
    # a column of tiles end to end (as in a grid of the whole box, whose rows are the runs)
    column = lines_of(*_tiles_at([(0, 0), (0, 1.5), (0, 3)], 0.0))
    assert column == [[0], [1], [2]]
    # loose tiles a tile and three quarters apart, as when the tiles are spread to be drawn
    scattered = lines_of(*_tiles_at([(0, 0), (1.75, 0), (3.5, 0)], 0.0))
    assert scattered == [[0], [1], [2]]
    # a grid: the rows are lines, the columns are not
    grid = lines_of(*_tiles_at([(x, 1.5 * y) for y in range(3) for x in range(4)], 0.2))
    assert grid == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_the_model_is_loaded_once() -> None:
    reader.read_photo((PHOTOS / f"{TABLE}.jpg").read_bytes())
    s = reader._session("finder")
    assert reader._session("finder") is s


def test_a_truncated_photo_is_refused_even_after_weasyprint_is_loaded() -> None:
    # WeasyPrint sets Pillow's LOAD_TRUNCATED_IMAGES on import; a cut-off photo is still
    # refused, not read as a grey half.
    import weasyprint  # noqa: F401

    assert ImageFile.LOAD_TRUNCATED_IMAGES
    data = (PHOTOS / f"{TABLE}.jpg").read_bytes()
    png = encode(Image.open(PHOTOS / f"{TABLE}.jpg").convert("RGB").resize((400, 300)), "PNG")
    for cut in (data[: len(data) // 2], data[:5000], png[: len(png) // 2]):
        with pytest.raises(reader.PhotoError) as e:
            reader.read_photo(cut)
        assert e.value.code == "unreadable"


def test_a_tile_found_over_its_neighbours_centres_is_dropped() -> None:
    # Two upright tiles side by side (40 wide, 60 tall, up axis along y) and, weaker, one
    # "tile" found twice their size straddling both: tiles never lie on each other's face.
    centres = np.array([[100.0, 100.0], [142.0, 100.0], [121.0, 100.0]])
    longs = np.array([60.0, 60.0, 120.0])
    shorts = np.array([40.0, 40.0, 84.0])
    angles = np.full(3, math.pi / 2)
    scores = np.array([0.9, 0.8, 0.5])
    assert reader._one_per_tile(centres, longs, shorts, angles, scores).tolist() == [0, 1]


def test_a_tile_found_inside_a_stronger_tiles_face_is_dropped() -> None:
    # An orange 7 (40 wide, 60 tall) and, weaker, a smaller "tile" found on its lower half,
    # read as an 11 (rummy2-34 in tests/data/photos): one tile's face holds no other tile.
    centres = np.array([[100.0, 100.0], [104.0, 120.0]])
    longs = np.array([60.0, 30.0])
    shorts = np.array([40.0, 24.0])
    angles = np.full(2, math.pi / 2)
    scores = np.array([0.9, 0.4])
    assert reader._one_per_tile(centres, longs, shorts, angles, scores).tolist() == [0]


def test_the_tiles_found_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # A photo that looks like thousands of tiles (a finder fooled by a pattern) still gives
    # at most MAX_FOUND, strongest first, so nothing after the finder grows without bound.
    class Finder:
        def run(self, _: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            _, _, h, w = feeds["image"].shape
            heat = np.zeros((1, 1, h // 4, w // 4), np.float32)
            heat[0, 0, ::2, ::2] = np.linspace(0.31, 0.99, heat[0, 0, ::2, ::2].size).reshape(
                heat[0, 0, ::2, ::2].shape
            )
            size = np.zeros((1, 2, h // 4, w // 4), np.float32)  # tiles of 4 px
            return [heat, size, np.zeros_like(size), np.ones_like(size)]

    monkeypatch.setattr(reader, "_session", lambda name: Finder())
    found = reader._find_at(Image.new("RGB", (512, 512)), 512)
    assert 128 * 128 // 4 > reader.MAX_FOUND == len(found.centres)
    assert found.scores.min() > 0.99 - 0.7 * reader.MAX_FOUND / (128 * 128 // 4)


def test_tiles_side_by_side_or_end_to_end_are_all_kept() -> None:
    centres = np.array([[100.0, 100.0], [141.0, 100.0], [100.0, 161.0], [141.0, 161.0]])
    longs = np.full(4, 60.0)
    shorts = np.full(4, 40.0)
    angles = np.full(4, math.pi / 2)
    scores = np.array([0.9, 0.6, 0.7, 0.8])
    kept = reader._one_per_tile(centres, longs, shorts, angles, scores).tolist()
    assert kept == [0, 3, 2, 1]


def test_a_turned_tile_covers_along_its_own_axes() -> None:
    # a tile turned 45°: a point 25 px along its up axis is on its face (half the long side
    # is 30), the same 25 px across it is not (half the short side is 20)
    c = np.array([0.0, 0.0])
    up = np.array([math.cos(math.pi / 4), math.sin(math.pi / 4)])
    across = np.array([-up[1], up[0]])
    assert reader._covers(c, 60.0, 40.0, math.pi / 4, 25 * up)
    assert not reader._covers(c, 60.0, 40.0, math.pi / 4, 25 * across)
