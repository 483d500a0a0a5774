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
