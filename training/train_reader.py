"""Train the photo reader's two networks and export them as ONNX for ``companion.adapters.reader``.

Usage (reproduces the shipped model, both parts trained side by side, one core each)::

    python training/train_reader.py ../shared/photos/rummikub --out companion/adapters/reader/

What it does:

1. Loads the labelled photos (YOLO-segmentation polygons, 53 classes) and splits off the
   held-out photos by SOURCE photo (all three publisher variations together): by default
   the stems in ``training/validation.txt``; ``--holdout-group rummy3`` holds out a whole
   session instead; ``--all`` trains on everything.
2. ``finder``: a CenterNet-style tile finder (``models.Finder``), trained on 320×320 views of
   the photos made by random homographies (scale so tiles are 12..150 px, any rotation,
   perspective tilt) and random light / blur / noise; with ``--new-tops`` a share of the
   views have their tiles pasted on a made-up table top (an experiment, not the shipped
   recipe: REPORT.md); loss = focal loss on the centre heatmap + L1 on log box size, centre
   offset and up axis.
3. ``reader``: a crop classifier (``models.Reader``) of value (1..13, joker, not-a-tile) and
   ink colour (black, red, blue, orange), trained on square crops around each tile made the
   way the runtime makes them (box side × 1.15, jittered like the finder's boxes), turned by
   any angle, relit, blurred, and, for a quarter of the orange tiles, with the ink's hue
   turned to green (Rummy-O); "not a tile" crops come from the photos' background and from
   between tiles.
4. Exports ``finder.onnx`` and ``reader.onnx`` (weights averaged over the last steps, EMA)
   into ``--out``.

Everything is seeded (``--seed``); torch runs on ``--threads`` threads per part (default 1).
The defaults are the run that shipped (finder 3,000 steps of 12 views, reader 6,000 steps of
96 crops): 1 h 44 min side by side, niced, on this 2-core machine (see REPORT.md).
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from augment import (  # noqa: E402
    apply_h,
    paste_some,
    photometric,
    rotate_ink_hue,
    u,
    warp_homography,
)
from data import Photo, load, value_colour  # noqa: E402
from models import CROP, Finder, Reader  # noqa: E402

FINDER_OUT = 320  # the finder's training views
FINDER_MIN, FINDER_MAX = 10, 160  # the tiles' long side in its views, pixels (log-uniform)
STRIDE = 4
PATCH = 96  # stored patch side (the tile's long side is PATCH / PATCH_SPAN)
PATCH_SPAN = 2.0
CROP_MARGIN = 1.25  # the reader's crop side = the tile's long side × this (as at run time)


def log(msg: str) -> None:
    print(time.strftime("%H:%M:%S"), msg, flush=True)


def split(photos: list[Photo], args: argparse.Namespace) -> tuple[list[Photo], list[Photo]]:
    if args.all:
        return photos, []
    if args.holdout_group:
        held = {p.source for p in photos if p.group == args.holdout_group}
    else:
        held = {
            s.strip()
            for s in Path(args.holdout).read_text().splitlines()
            if s.strip() and not s.startswith("#")
        }
    return [p for p in photos if p.source not in held], [p for p in photos if p.source in held]


def load_images(photos: list[Photo], size: int = 640) -> torch.Tensor:
    arr = np.zeros((len(photos), size, size, 3), np.uint8)
    for i, p in enumerate(photos):
        im = Image.open(p.path).convert("RGB")
        if im.size != (size, size):
            im = im.resize((size, size), Image.BILINEAR)
        arr[i] = np.asarray(im)
    return torch.from_numpy(arr).permute(0, 3, 1, 2).contiguous()


def polys_px(p: Photo, size: int = 640) -> list[np.ndarray]:
    return [np.array(t.poly, np.float64) * size for t in p.tiles]


def tile_masks(
    polys: list[list[np.ndarray]], size: int | tuple[int, int] = 640, grow: float = 1.08
) -> torch.Tensor:
    """N×1×H×W uint8 masks, 255 on each labelled tile (its outline grown a little about its
    centre, so the tile's edge stays with it when it is pasted on another table top)."""
    w, h = (size, size) if isinstance(size, int) else size
    arr = np.zeros((len(polys), 1, h, w), np.uint8)
    for i, ps in enumerate(polys):
        im = Image.new("L", (w, h), 0)
        draw = ImageDraw.Draw(im)
        for q in ps:
            c = q.mean(axis=0)
            draw.polygon([(float(x), float(y)) for x, y in c + (q - c) * grow], fill=255)
        arr[i, 0] = np.asarray(im)
    return torch.from_numpy(arr)


class EMA:
    def __init__(self, model: torch.nn.Module, decay: float) -> None:
        self.model = copy.deepcopy(model).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model: torch.nn.Module, step: int) -> None:
        decay = min(self.decay, (1 + step) / (10 + step))
        for e, m in zip(self.model.state_dict().values(), model.state_dict().values(), strict=True):
            if e.dtype.is_floating_point:
                e.mul_(decay).add_(m.detach(), alpha=1 - decay)
            else:
                e.copy_(m)


def schedule(step: int, steps: int, lr: float, warm: int = 200) -> float:
    warm = min(warm, steps // 8)
    if step < warm:
        return lr * (step + 1) / warm
    return lr * 0.5 * (1 + math.cos(math.pi * (step - warm) / max(1, steps - warm)))


# ----------------------------------------------------------------------------- geometry


def tile_rect(q: np.ndarray) -> tuple[np.ndarray, float, float, float]:
    """The smallest rectangle around a tile's outline (points in pixels): its centre, long
    side, short side and the angle of its long axis (radians, image axes, y down)."""
    best: tuple[float, np.ndarray, np.ndarray, float, float] | None = None
    n = len(q)
    for i in range(n):
        for j in range(i + 1, n):
            d = q[j] - q[i]
            length = math.hypot(d[0], d[1])
            if length < 1e-6:
                continue
            d = d / length
            e = np.array([-d[1], d[0]])
            a, b = q @ d, q @ e
            area = float(np.ptp(a) * np.ptp(b))
            if best is None or area < best[0]:
                mid = d * (a.max() + a.min()) / 2 + e * (b.max() + b.min()) / 2
                best = (area, d, mid, float(np.ptp(a)), float(np.ptp(b)))
    if best is None:
        c = q.mean(axis=0)
        return c, 1.0, 1.0, 0.0
    _, d, mid, la, lb = best
    if la < lb:
        d, la, lb = np.array([-d[1], d[0]]), lb, la
    return mid, la, lb, math.atan2(d[1], d[0])


# ----------------------------------------------------------------------------- finder


Rect = tuple[np.ndarray, float, float, float]


def finder_batch(
    imgs: torch.Tensor,
    masks: torch.Tensor,
    polys: list[list[np.ndarray]],
    rect_list: list[list[Rect]],
    bsz: int,
    g: torch.Generator,
    rng: np.random.Generator,
    new_tops: float = 0.0,
) -> tuple[torch.Tensor, ...]:
    """A batch of warped views with the finder's targets at 1/STRIDE resolution: centre
    heatmap, log size (along and across the tile's up axis), sub-cell offset, up axis as
    (cos 2φ, sin 2φ), and a mask of cells to ignore (tiles mostly outside the view). A
    ``new_tops`` share of the views has its tiles pasted on a made-up table top."""
    out, grid = FINDER_OUT, FINDER_OUT // STRIDE
    idx = rng.integers(0, len(polys), bsz)
    hs = np.zeros((bsz, 3, 3))
    heat = np.zeros((bsz, 1, grid, grid), np.float32)
    size_t = np.zeros((bsz, 2, grid, grid), np.float32)
    off_t = np.zeros((bsz, 2, grid, grid), np.float32)
    ori_t = np.zeros((bsz, 2, grid, grid), np.float32)
    ori_w = np.zeros((bsz, 1, grid, grid), np.float32)
    mask = np.zeros((bsz, 1, grid, grid), np.float32)
    yy, xx = np.mgrid[0:grid, 0:grid] + 0.5
    for b, i in enumerate(idx):
        ps = polys[i]
        rects = rect_list[i]
        med = float(np.median([r[1] for r in rects])) if rects else 80.0
        target = math.exp(rng.uniform(math.log(FINDER_MIN), math.log(FINDER_MAX)))
        s = float(np.clip(target / med, 0.15, 3.0))
        if ps and rng.random() < 0.7:
            q = ps[rng.integers(len(ps))]
            c = q.mean(axis=0) + rng.normal(0, 40, 2)
        else:
            c = rng.uniform(100, 540, 2)
        th = rng.uniform(0, 2 * math.pi) if rng.random() < 0.5 else rng.normal(0, 0.2)
        # |a|, |b| <= 0.15 keep every point of the photo (within 2 units of c) in front of
        # the camera: 1 + a x + b y >= 0.4
        a, bb = rng.uniform(-0.15, 0.15, 2) * (rng.random() < 0.6)
        asp = math.exp(rng.normal(0, 0.08))
        # a table seen from a seat: the picture's vertical squashed (tiles lying flat look
        # wider than tall when seen at more than ~40 degrees)
        squash = rng.uniform(0.5, 0.9) if rng.random() < 0.3 else 1.0
        t_src = np.array([[1, 0, -c[0]], [0, 1, -c[1]], [0, 0, 1]])
        n = np.diag([1 / 320, 1 / 320, 1])
        persp = np.array([[1, 0, 0], [0, 1, 0], [a, bb, 1]])
        rot = np.array(
            [[math.cos(th), -math.sin(th), 0], [math.sin(th), math.cos(th), 0], [0, 0, 1]]
        )
        sc = np.diag([s * 320 * asp, s * 320 / asp * squash, 1])
        t_dst = np.array(
            [[1, 0, out / 2 + rng.normal(0, 30)], [0, 1, out / 2 + rng.normal(0, 30)], [0, 0, 1]]
        )
        h = t_dst @ sc @ rot @ persp @ n @ t_src
        hs[b] = h
        for q, (mid, long0, _, phi0) in zip(ps, rects, strict=True):
            d = apply_h(h, q)
            if not np.isfinite(d).all():
                continue
            x0, y0 = d.min(axis=0)
            x1, y1 = d.max(axis=0)
            w, hh = x1 - x0, y1 - y0
            if not (w > 1 and hh > 1):
                continue
            # the tile's own up axis (its outline's long axis in the labelled photo) carried
            # through the warp: seen at a slant the tile may look wider than tall, but its
            # up axis stays the one its number is written along
            ends = apply_h(
                h, np.stack([mid, mid + 0.25 * long0 * np.array([math.cos(phi0), math.sin(phi0)])])
            )
            cx, cy = float(ends[0, 0]), float(ends[0, 1])
            up = ends[1] - ends[0]
            if not np.isfinite(up).all() or np.hypot(*up) < 1e-6:
                continue
            up = up / np.hypot(*up)
            phi = math.atan2(up[1], up[0])
            along = float(np.ptp(d @ up))
            across = float(np.ptp(d @ np.array([-up[1], up[0]])))
            vis_w = min(x1, out) - max(x0, 0)
            vis_h = min(y1, out) - max(y0, 0)
            if vis_w <= 0 or vis_h <= 0:
                continue
            if vis_w * vis_h < 0.5 * w * hh or not (0 <= cx < out and 0 <= cy < out):
                # mostly outside: neither a positive nor a negative
                gx0, gy0 = int(max(x0, 0) // STRIDE), int(max(y0, 0) // STRIDE)
                gx1, gy1 = int(min(x1, out - 1) // STRIDE), int(min(y1, out - 1) // STRIDE)
                mask[b, 0, gy0 : gy1 + 1, gx0 : gx1 + 1] = 1
                continue
            gx, gy = cx / STRIDE, cy / STRIDE
            sig = max(0.7, 0.12 * min(along, across) / STRIDE)
            g2 = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig * sig))
            heat[b, 0] = np.maximum(heat[b, 0], g2)
            ix, iy = int(gx), int(gy)
            heat[b, 0, iy, ix] = 1.0
            size_t[b, :, iy, ix] = (math.log(along / STRIDE), math.log(across / STRIDE))
            off_t[b, :, iy, ix] = (gx - ix, gy - iy)
            ori_t[b, :, iy, ix] = (math.cos(2 * phi), math.sin(2 * phi))
            ori_w[b, 0, iy, ix] = 1.0
    pick = torch.from_numpy(idx)
    src = torch.cat([imgs[pick], masks[pick]], dim=1).float() / 255
    warped = warp_homography(src, torch.from_numpy(hs).float(), out)
    x, on_tile = warped[:, :3], warped[:, 3:]
    x = photometric(paste_some(x, on_tile, new_tops, g, rng), g)
    return (
        x,
        torch.from_numpy(heat),
        torch.from_numpy(size_t),
        torch.from_numpy(off_t),
        torch.from_numpy(ori_t),
        torch.from_numpy(ori_w),
        torch.from_numpy(mask),
    )


def focal(pred: torch.Tensor, gt: torch.Tensor, ignore: torch.Tensor) -> torch.Tensor:
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = (1 - pos) * (1 - ignore)
    pl = torch.log(pred) * (1 - pred) ** 2 * pos
    nl = torch.log(1 - pred) * pred**2 * (1 - gt) ** 4 * neg
    return -(pl.sum() + nl.sum()) / pos.sum().clamp(min=1)


def finder_loss(model: Finder, batch: tuple[torch.Tensor, ...]) -> torch.Tensor:
    x, heat, size_t, off_t, ori_t, ori_w, ign = batch
    ph, ps, po, pr = model(x)
    pos = heat.eq(1).float()
    npos = pos.sum().clamp(min=1)
    l_size = (F.l1_loss(ps, size_t, reduction="none") * pos).sum() / npos
    l_off = (F.l1_loss(po, off_t, reduction="none") * pos).sum() / npos
    l_ori = (F.l1_loss(pr, ori_t, reduction="none") * ori_w).sum() / npos
    return focal(ph, heat, ign) + l_size + l_off + l_ori


def train_finder(train: list[Photo], val: list[Photo], args: argparse.Namespace) -> None:
    torch.manual_seed(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    imgs = load_images(train)
    polys = [polys_px(p) for p in train]
    masks = tile_masks(polys)
    rects = [[tile_rect(q) for q in ps] for ps in polys]
    vimgs = load_images(val) if val else None
    vpolys = [polys_px(p) for p in val]
    vmasks = tile_masks(vpolys)
    vrects = [[tile_rect(q) for q in ps] for ps in vpolys]
    model = Finder()
    ema = EMA(model, 0.995)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    vg = torch.Generator().manual_seed(1)
    vrng = np.random.default_rng(1)
    vbatches = (
        [finder_batch(vimgs, vmasks, vpolys, vrects, 16, vg, vrng) for _ in range(6)] if val else []
    )
    t0 = time.time()
    for step in range(args.finder_steps):
        for pg in opt.param_groups:
            pg["lr"] = schedule(step, args.finder_steps, args.lr)
        model.train()
        batch = finder_batch(imgs, masks, polys, rects, args.finder_batch, g, rng, args.new_tops)
        stats = {k: v.clone() for k, v in model.named_buffers()}
        loss = finder_loss(model, batch)
        if not torch.isfinite(loss):
            # undo the forward's batch-norm statistics too: one NaN there poisons every export
            for k, v in model.named_buffers():
                v.copy_(stats[k])
            log(f"finder step {step}: loss not finite, step skipped")
            continue
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model, step)
        if step % 100 == 0 or step == args.finder_steps - 1:
            msg = f"finder step {step} loss {loss.item():.3f} {time.time() - t0:.0f}s"
            if vbatches and (step % 500 == 0 or step == args.finder_steps - 1):
                with torch.no_grad():
                    vl = np.mean([finder_loss(ema.model, b).item() for b in vbatches])
                msg += f" val {vl:.3f}"
            log(msg)
        if step % args.export_every == args.export_every - 1:
            export_finder(ema.model, Path(args.out))
    export_finder(ema.model, Path(args.out))
    log(f"finder exported to {args.out} after {time.time() - t0:.0f}s")


def export_finder(model: torch.nn.Module, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, 320, 320)
    axes = {2: "h4", 3: "w4"}
    torch.onnx.export(
        model,
        dummy,
        str(out / "finder.onnx"),
        input_names=["image"],
        output_names=["heat", "size", "offset", "orient"],
        opset_version=17,
        dynamo=False,
        dynamic_axes={
            "image": {2: "h", 3: "w"},
            "heat": axes,
            "size": axes,
            "offset": axes,
            "orient": axes,
        },
    )


# ----------------------------------------------------------------------------- reader


def make_patches(
    photos: list[Photo], rng: np.random.Generator, negatives: float = 0.3
) -> tuple[torch.Tensor, np.ndarray, np.ndarray, np.ndarray]:
    """Square patches around every tile (PATCH_SPAN × its long side, axis-aligned, centred on
    its outline's smallest rectangle) and around some places with no tile: the background,
    between two tiles side by side, the edge of a tile; each with its value, colour and the
    angle of the tile's long axis (random for no tile). A patch has a fourth channel: the
    labelled tiles' mask (``tile_masks``), for pasting it on another table top."""
    patches, values, colours, angles = [], [], [], []

    def cut(rgb: Image.Image, mask: Image.Image, c: np.ndarray, side: float) -> np.ndarray:
        half = side * PATCH_SPAN / 2
        box = tuple(round(v) for v in (c[0] - half, c[1] - half, c[0] + half, c[1] + half))
        # crop, then resize: Pillow's resize filters a reduction (transform does not); the
        # mask apart, as Pillow resizes RGBA premultiplied and would blacken the colour
        # wherever the mask is 0
        colour = rgb.crop(box).resize((PATCH, PATCH), Image.BILINEAR)
        on_tile = mask.crop(box).resize((PATCH, PATCH), Image.BILINEAR)
        return np.concatenate([np.asarray(colour), np.asarray(on_tile)[..., None]], axis=-1)

    for p in photos:
        rgb = Image.open(p.path).convert("RGB")
        w, h = rgb.size
        masks = tile_masks([[np.array(t.poly) * (w, h) for t in p.tiles]], size=(w, h))
        mask = Image.fromarray(masks[0, 0].numpy())
        rects = [tile_rect(np.array(t.poly) * (w, h)) for t in p.tiles]
        for t, (c, long_side, _, phi) in zip(p.tiles, rects, strict=True):
            patches.append(cut(rgb, mask, c, long_side))
            v, k = value_colour(t.tile)
            values.append(v)
            colours.append(k)
            angles.append(phi)
        longs = [r[1] for r in rects] or [rng.uniform(40, 160)]
        centres = [r[0] for r in rects]
        cands: list[tuple[np.ndarray, float]] = []
        # between two tiles side by side: where a finder may see a tile that is not there
        for i, (ci, li, _, _) in enumerate(rects):
            for cj, lj, _, _ in rects[i + 1 :]:
                if np.hypot(*(ci - cj)) < 1.3 * max(li, lj):
                    cands.append(((ci + cj) / 2, (li + lj) / 2))
        n_neg = rng.poisson(negatives * max(len(rects), 3))
        picked = [cands[k] for k in rng.permutation(len(cands))[: n_neg // 2]]
        tries = 0
        while len(picked) < n_neg and tries < 200:
            tries += 1
            side = float(rng.choice(longs)) * rng.uniform(0.7, 1.3)
            c = rng.uniform(0, (w, h))
            if rng.random() < 0.25 and centres:
                # half off a tile: its edge, a neighbour's
                k = rng.integers(len(centres))
                a = rng.uniform(0, 2 * math.pi)
                c = centres[k] + rects[k][1] * rng.uniform(0.6, 0.8) * np.array(
                    [math.cos(a), math.sin(a)]
                )
            far = all(
                np.hypot(*(c - ck)) > 0.45 * lk
                for ck, (_, lk, _, _) in zip(centres, rects, strict=True)
            )
            if far:
                picked.append((c, side))
        for c, side in picked:
            patches.append(cut(rgb, mask, c, side))
            values.append(14)
            colours.append(-1)
            angles.append(rng.uniform(0, math.pi))
    arr = torch.from_numpy(np.stack(patches)).permute(0, 3, 1, 2).contiguous()
    return arr, np.array(values), np.array(colours), np.array(angles)


def reader_batch(
    patches: torch.Tensor,
    values: np.ndarray,
    colours: np.ndarray,
    angles: np.ndarray,
    idx: np.ndarray,
    g: torch.Generator,
    rng: np.random.Generator,
    augment: bool = True,
    new_tops: float = 0.0,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Crops as the runtime cuts them: CROP_MARGIN × the tile's long side, turned so the
    long axis is upright, either way up; jittered as the finder's boxes and angles are. A
    ``new_tops`` share of them has its tiles pasted on a made-up table top."""
    b = len(idx)
    theta = np.zeros((b, 2, 3), np.float32)
    long_px = PATCH / PATCH_SPAN
    for k, i in enumerate(idx):
        phi = angles[i] + math.pi * rng.integers(2)
        side = CROP_MARGIN * long_px
        shift = np.zeros(2)
        if augment:
            phi += rng.normal(0, 0.07) if rng.random() < 0.85 else rng.normal(0, 0.25)
            side *= math.exp(rng.normal(0, 0.1))
            shift = rng.normal(0, 0.06, 2) * long_px
            if values[i] == 14:
                side *= rng.uniform(0.8, 1.25)
        # a tile lying flat seen from a seat: squashed along its up axis by `squash`; the
        # runtime's crop is then CROP_MARGIN × its longer side as seen (maybe its width)
        squash = rng.uniform(0.5, 0.95) if augment and rng.random() < 0.2 else 1.0
        side *= max(squash, 0.72) if squash < 1 else 1.0
        # output (u, v) -> input: the crop's vertical axis along the tile's long axis
        rot = np.array([[math.sin(phi), math.cos(phi)], [-math.cos(phi), math.sin(phi)]])
        theta[k, :, :2] = rot * np.array([side, side / squash]) / PATCH
        theta[k, :, 2] = shift / (PATCH / 2)
    src = patches[torch.from_numpy(idx)].float() / 255
    grid = F.affine_grid(torch.from_numpy(theta), [b, 3, CROP, CROP], align_corners=False)
    warped = F.grid_sample(src, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    x, on_tile = warped[:, :3], warped[:, 3:]
    col = torch.from_numpy(colours[idx]).long()
    if augment:
        x = paste_some(x, on_tile, new_tops, g, rng)
        green = (col == 3) & (torch.rand(b, generator=g) < 0.25)
        if green.any():
            n = int(green.sum())
            x[green] = rotate_ink_hue(x[green], u(g, n, 75, 120), u(g, n, 0.6, 1.1))
        x = photometric(x, g, strong=False)
    return x, torch.from_numpy(values[idx]).long(), col


def train_reader(train: list[Photo], val: list[Photo], args: argparse.Namespace) -> None:
    torch.manual_seed(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    patches, values, colours, angles = make_patches(train, rng)
    log(f"reader: {len(values)} training crops ({(values == 14).sum()} not tiles)")
    model = Reader()
    ema = EMA(model, 0.995)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    vset = None
    if val:
        vp, vv, vc, va = make_patches(val, np.random.default_rng(1))
        vrng = np.random.default_rng(1)
        vset = [
            reader_batch(
                vp,
                vv,
                vc,
                va,
                np.arange(i, min(i + 256, len(vv))),
                torch.Generator().manual_seed(1),
                vrng,
                augment=False,
            )
            for i in range(0, len(vv), 256)
        ]
    t0 = time.time()
    for step in range(args.reader_steps):
        for pg in opt.param_groups:
            pg["lr"] = schedule(step, args.reader_steps, args.lr)
        model.train()
        idx = rng.integers(0, len(values), args.reader_batch)
        x, v, c = reader_batch(
            patches, values, colours, angles, idx, g, rng, new_tops=args.new_tops
        )
        lv, lc = model(x)
        loss = F.cross_entropy(lv, v, label_smoothing=0.05) + F.cross_entropy(
            lc, c, ignore_index=-1, label_smoothing=0.05
        )
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model, step)
        last = step == args.reader_steps - 1
        if step % 100 == 0 or last:
            msg = f"reader step {step} loss {loss.item():.3f} {time.time() - t0:.0f}s"
            if vset and (step % 500 == 0 or last):
                ok_v = ok_c = n_v = n_c = 0
                with torch.no_grad():
                    for x, v, c in vset:
                        pv, pc = ema.model(x)
                        ok_v += int((pv.argmax(1) == v).sum())
                        n_v += len(v)
                        m = c >= 0
                        ok_c += int((pc.argmax(1)[m] == c[m]).sum())
                        n_c += int(m.sum())
                msg += f" val value {ok_v / n_v:.3f} colour {ok_c / max(1, n_c):.3f}"
            log(msg)
        if step % args.export_every == args.export_every - 1:
            export_reader(ema.model, Path(args.out))
    export_reader(ema.model, Path(args.out))
    log(f"reader exported to {args.out} after {time.time() - t0:.0f}s")


def export_reader(model: torch.nn.Module, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        torch.zeros(2, 3, CROP, CROP),
        str(out / "reader.onnx"),
        input_names=["crops"],
        output_names=["value", "colour"],
        opset_version=17,
        dynamic_axes={"crops": {0: "n"}, "value": {0: "n"}, "colour": {0: "n"}},
        dynamo=False,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("photos", help="the photo set: data.yaml, train/images, train/labels")
    ap.add_argument("--out", default="companion/adapters/reader/")
    ap.add_argument("--part", choices=["all", "finder", "reader"], default="all")
    ap.add_argument("--holdout", default=str(HERE / "validation.txt"))
    ap.add_argument("--holdout-group", default="", help="hold out a whole session, e.g. rummy3")
    ap.add_argument("--all", action="store_true", help="train on every photo")
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--finder-steps", type=int, default=3000)
    ap.add_argument("--finder-batch", type=int, default=12)
    ap.add_argument("--reader-steps", type=int, default=6000)
    ap.add_argument("--reader-batch", type=int, default=96)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--new-tops",
        type=float,
        default=0.0,
        help="share of the finder's views and the reader's crops whose tiles are pasted on a "
        "made-up table top",
    )
    ap.add_argument(
        "--export-every",
        type=int,
        default=250,
        help="export the ONNX files every this many steps too",
    )
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    if args.part == "all":
        # the two parts are independent: train them side by side, one core each
        base = [sys.executable, __file__, *sys.argv[1:]]
        procs = [subprocess.Popen([*base, "--part", part]) for part in ("finder", "reader")]
        codes = [p.wait() for p in procs]
        sys.exit(max(codes))
    photos = load(Path(args.photos))
    train, val = split(photos, args)
    log(
        f"{args.part}: {len(train)} training photos, {len(val)} held out "
        f"({len({p.source for p in val})} source photos); pid {os.getpid()}"
    )
    if args.part == "finder":
        train_finder(train, val, args)
    else:
        train_reader(train, val, args)


if __name__ == "__main__":
    main()
