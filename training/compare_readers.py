"""Compare two ways of reading a tile once it is found: our crop reader (``reader.onnx``) and
the text recogniser that ``rapidocr-onnxruntime`` ships (PP-OCRv4 rec), on the same crops.

Usage::

    python training/compare_readers.py ../shared/photos/rummikub

The crops are cut around the LABELLED boxes of the held-out photos (so the finder plays no
part). For rapidocr each crop is given upright as it lies in the photo, and also turned a
half turn (its angle classifier's job; the better-scored reading is kept); the digits it
reads become the value, and the colour is decided by ``bench/photos.py``'s hue rule (it has
no colour). Jokers count as wrong for rapidocr (it has no way to name them). Prints value
accuracy, value+colour accuracy and milliseconds per tile for each.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "bench"))

from data import load  # noqa: E402
from evaluate import held_out  # noqa: E402


def main() -> None:
    from photos import ink_colour, split_number  # bench/photos.py
    from rapidocr_onnxruntime import RapidOCR

    import companion.adapters.reader as reader

    photos = held_out(load(Path(sys.argv[1])), str(HERE / "validation.txt"), "")
    crops, truth, raw = [], [], []
    for p in photos:
        im = Image.open(p.path).convert("RGB")
        w, h = im.size
        boxes = np.array(
            [[t.box[0] * w, t.box[1] * h, t.box[2] * w, t.box[3] * h] for t in p.tiles]
        ).reshape(-1, 4)
        if not len(boxes):
            continue
        crops.append(reader._crops(im, boxes))
        truth += [t.tile for t in p.tiles]
        raw += [np.asarray(im.crop(tuple(int(v) for v in b))) for b in boxes]
    x = np.concatenate(crops)
    t0 = time.perf_counter()
    value, colour = reader._session("reader").run(None, {"crops": x})
    t_ours = time.perf_counter() - t0
    ours = []
    for v, c in zip(value, colour, strict=True):
        k = int(np.argmax(v[:14]))
        ours.append("*" if k == 13 else "KRBO"[int(np.argmax(c))] + str(k + 1))

    engine = RapidOCR(intra_op_num_threads=2, inter_op_num_threads=1)
    t0 = time.perf_counter()
    theirs = []
    for arr in raw:
        bgr = np.ascontiguousarray(arr[:, :, ::-1])
        res, _ = engine.text_rec([bgr, np.ascontiguousarray(bgr[::-1, ::-1])])
        text, _score = max(res, key=lambda r: r[1])
        nums = split_number("".join(ch for ch in text if ch.isdigit()))
        theirs.append(f"{ink_colour(arr)}{nums[0]}" if nums else "?")
    t_ocr = time.perf_counter() - t0

    n = len(truth)
    for name, got, t in (("reader.onnx", ours, t_ours), ("rapidocr rec", theirs, t_ocr)):
        val = sum(a[1:] == b[1:] or a == b == "*" for a, b in zip(got, truth, strict=True))
        both = sum(a == b for a, b in zip(got, truth, strict=True))
        print(
            f"{name:13s} value {100 * val / n:5.1f} %  value+colour {100 * both / n:5.1f} %  "
            f"{1000 * t / n:.1f} ms/tile  ({n} tiles)"
        )


if __name__ == "__main__":
    main()
