"""Batched photo augmentations in torch: geometry by homography, light, blur, noise, green ink.

Everything here works on float tensors B×3×H×W in 0..1 and draws from a ``torch.Generator``
so a training run is reproducible from its seed.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F


def u(g: torch.Generator, n: int, lo: float, hi: float) -> torch.Tensor:
    return lo + (hi - lo) * torch.rand(n, generator=g)


def warp_homography(src: torch.Tensor, h_src_to_dst: torch.Tensor, out: int) -> torch.Tensor:
    """Warp B source images (B×3×Hs×Ws float) into B out×out images by the given homographies
    (B×3×3, source pixel -> destination pixel, pixel centres at i + 0.5)."""
    b, _, hs, ws = src.shape
    hinv = torch.linalg.inv(h_src_to_dst)
    j = torch.arange(out, dtype=torch.float32) + 0.5
    yy, xx = torch.meshgrid(j, j, indexing="ij")
    pts = torch.stack([xx, yy, torch.ones_like(xx)], dim=-1).reshape(-1, 3)  # P×3
    sp = torch.einsum("bij,pj->bpi", hinv, pts)
    sx = sp[..., 0] / sp[..., 2]
    sy = sp[..., 1] / sp[..., 2]
    grid = torch.stack([2 * sx / ws - 1, 2 * sy / hs - 1], dim=-1).reshape(b, out, out, 2)
    # a pixel whose source lies on the horizon (w near 0: the division overflows) shows
    # nothing, as any pixel off the photo: a NaN here would reach the batch norms' running
    # statistics, which a skipped step does not undo
    grid = torch.where(torch.isfinite(grid) & (grid.abs() < 1e4), grid, -2.0)
    return F.grid_sample(src, grid, mode="bilinear", padding_mode="zeros", align_corners=False)


def apply_h(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.concatenate([pts, np.ones((len(pts), 1))], axis=1) @ h.T
    return p[:, :2] / p[:, 2:3]


def gaussian_blur(x: torch.Tensor, sigma: float) -> torch.Tensor:
    r = max(1, int(math.ceil(sigma * 2.5)))
    k = torch.exp(-((torch.arange(-r, r + 1, dtype=torch.float32) / sigma) ** 2) / 2)
    k = k / k.sum()
    c = x.shape[1]
    kx = k.view(1, 1, 1, -1).repeat(c, 1, 1, 1)
    ky = k.view(1, 1, -1, 1).repeat(c, 1, 1, 1)
    x = F.conv2d(F.pad(x, (r, r, 0, 0), mode="replicate"), kx, groups=c)
    return F.conv2d(F.pad(x, (0, 0, r, r), mode="replicate"), ky, groups=c)


def photometric(x: torch.Tensor, g: torch.Generator, strong: bool = True) -> torch.Tensor:
    """Light and camera: white balance, exposure, gamma, contrast, a light gradient, blur,
    low resolution, sensor noise. ``strong`` for whole views (the finder's); milder for
    the reader's crops, which are cut from the photo at full resolution."""
    b, _, hh, ww = x.shape
    gains = torch.exp(torch.randn(b, 3, 1, 1, generator=g) * (0.13 if strong else 0.09))
    bright = torch.exp(u(g, b, -0.75, 0.3)).view(b, 1, 1, 1)
    x = x * gains * bright
    gamma = torch.exp(torch.randn(b, 1, 1, 1, generator=g) * 0.2)
    x = x.clamp(1e-4, 1) ** gamma
    contrast = u(g, b, 0.7, 1.2).view(b, 1, 1, 1)
    m = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - m) * contrast + m
    # a light gradient across the frame (a shadow, a lamp on one side)
    ang = u(g, b, 0, 2 * math.pi)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, hh), torch.linspace(-1, 1, ww), indexing="ij")
    ramp = torch.cos(ang).view(b, 1, 1) * xx + torch.sin(ang).view(b, 1, 1) * yy
    amp = u(g, b, 0, 0.35).view(b, 1, 1) * (torch.rand(b, generator=g) < 0.4).view(b, 1, 1)
    x = x * (1 + amp * ramp).unsqueeze(1)
    # blur: one sigma per quarter of the batch
    out = []
    for chunk in x.split(max(1, b // 4)):
        if torch.rand(1, generator=g).item() < 0.45:
            chunk = gaussian_blur(chunk, float(u(g, 1, 0.4, 1.8 if strong else 1.2)))
        out.append(chunk)
    x = torch.cat(out)
    # low resolution (a small tile in a photo, a cheap camera)
    if torch.rand(1, generator=g).item() < (0.3 if strong else 0.2):
        f = float(u(g, 1, 1.5, 3.0 if strong else 2.2))
        small = F.interpolate(x, scale_factor=1 / f, mode="bilinear", antialias=True)
        x = F.interpolate(small, size=(hh, ww), mode="bilinear")
    noise = u(g, b, 0, 0.04 if strong else 0.025).view(b, 1, 1, 1)
    x = x + torch.randn(x.shape, generator=g) * noise
    return x.clamp(0, 1)


# an opponent colour space: luma and two chroma axes
_M = torch.tensor([[0.299, 0.587, 0.114], [-0.169, -0.331, 0.5], [0.5, -0.419, -0.081]])
_MI = torch.linalg.inv(_M)


def face_colour(x: torch.Tensor) -> torch.Tensor:
    b, _, h, w = x.shape
    mid = x[:, :, h // 6 : h - h // 6, w // 6 : w - w // 6]
    lum = mid.mean(dim=1, keepdim=True)
    top = lum.amax(dim=(2, 3), keepdim=True)
    wgt = torch.exp((lum - top) * 25.0)
    return (mid * wgt).sum(dim=(2, 3), keepdim=True) / wgt.sum(dim=(2, 3), keepdim=True)


def rotate_ink_hue(x: torch.Tensor, degrees: torch.Tensor, sat: torch.Tensor) -> torch.Tensor:
    """Turn the hue of every colour in each crop by ``degrees`` about the crop's own face
    colour (the face stays as it is), scaling its chroma by ``sat``: orange ink -> green."""
    f = face_colour(x) + 1e-3
    y = x / f
    o = torch.einsum("ij,bjhw->bihw", _M, y)
    a = torch.deg2rad(degrees).view(-1, 1, 1)
    s = sat.view(-1, 1, 1)
    c1 = (o[:, 1] * torch.cos(a) - o[:, 2] * torch.sin(a)) * s
    c2 = (o[:, 1] * torch.sin(a) + o[:, 2] * torch.cos(a)) * s
    o = torch.stack([o[:, 0], c1, c2], dim=1)
    y = torch.einsum("ij,bjhw->bihw", _MI, o)
    return (y * f).clamp(0, 1)


def table_tops(b: int, size: int, g: torch.Generator) -> torch.Tensor:
    """B made-up table tops, size×size: a colour from near black to near white, any hue,
    with blotches (marble, cloth, a shadow), sometimes a grain (wood, a rack's ribs, a
    cloth's weave), sometimes veins (marble, a seam) and fine noise. Tiles pasted on them
    teach the networks "a tile" apart from the few tables the photos show."""
    hue = torch.rand(b, 3, 1, 1, generator=g)
    grey = hue.mean(dim=1, keepdim=True)
    col = (grey + (hue - grey) * u(g, b, 0, 1.6).view(b, 1, 1, 1)).clamp(0.02, 1)
    lum = u(g, b, 0.03, 0.95).view(b, 1, 1, 1)
    col = col / col.mean(dim=1, keepdim=True) * lum
    k = int(torch.randint(2, 14, (1,), generator=g))
    noise = torch.randn(b, 3, k, k, generator=g)
    noise = 0.85 * noise[:, :1] + 0.3 * noise  # mostly light and dark, a little hue
    blot = F.interpolate(noise, size=(size, size), mode="bicubic", align_corners=False)
    x = col * (1 + blot * u(g, b, 0, 0.45).view(b, 1, 1, 1))
    j = torch.arange(size, dtype=torch.float32)
    yy, xx = torch.meshgrid(j, j, indexing="ij")
    ang = u(g, b, 0, math.pi).view(b, 1, 1)
    freq = torch.exp(u(g, b, math.log(0.01), math.log(0.4))).view(b, 1, 1)  # cycles per px
    t = (torch.cos(ang) * xx + torch.sin(ang) * yy) * freq * 2 * math.pi
    wobble = blot[:, 0] * u(g, b, 0, 4).view(b, 1, 1)
    depth = u(g, b, 0, 0.35).view(b, 1, 1) * (torch.rand(b, generator=g) < 0.5).view(b, 1, 1)
    x = x * (1 + depth * torch.sin(t + wobble)).unsqueeze(1)
    # veins (marble, a crack, a cloth's seam): thin dark or light curves
    bend = t * u(g, b, 0.05, 0.4).view(b, 1, 1) + wobble * u(g, b, 0.5, 2).view(b, 1, 1)
    width = u(g, b, 0.03, 0.15).view(b, 1, 1)
    vein = torch.exp(-((torch.sin(bend) / width) ** 2))
    ink = u(g, b, -0.7, 0.4).view(b, 1, 1) * (torch.rand(b, generator=g) < 0.35).view(b, 1, 1)
    x = x * (1 + ink * vein).unsqueeze(1)
    x = x + torch.randn(b, 3, size, size, generator=g) * u(g, b, 0, 0.05).view(b, 1, 1, 1)
    return x.clamp(0, 1)


def paste_on(
    x: torch.Tensor, mask: torch.Tensor, top: torch.Tensor, g: torch.Generator
) -> torch.Tensor:
    """The tiles of ``x`` (where ``mask`` is 1) on the table top ``top``, each casting a soft
    shadow a few pixels to one side."""
    b = x.shape[0]
    shadow = gaussian_blur(mask, float(u(g, 1, 1.0, 3.0)))
    dx, dy = (int(v) for v in torch.randint(-3, 4, (2,), generator=g))
    shadow = torch.roll(shadow, shifts=(dy, dx), dims=(2, 3))
    top = top * (1 - u(g, b, 0, 0.6).view(b, 1, 1, 1) * shadow)
    return mask * x + (1 - mask) * top


def paste_some(
    x: torch.Tensor,
    on_tile: torch.Tensor,
    share: float,
    g: torch.Generator,
    rng: np.random.Generator,
) -> torch.Tensor:
    """``x`` with the tiles of a ``share`` of its images (``on_tile`` their masks) pasted on
    made-up table tops; with a share of 0 it draws nothing, so a run without it is the same."""
    if not share:
        return x
    pasted = torch.from_numpy(rng.random(len(x)) < share)
    if bool(pasted.any()):
        tops = table_tops(int(pasted.sum()), x.shape[-1], g)
        x = x.clone()
        x[pasted] = paste_on(x[pasted], on_tile[pasted], tops, g)
    return x
