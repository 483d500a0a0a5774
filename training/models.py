"""The two networks of the photo reader (torch, training only; shipped as ONNX).

- ``Finder``: a small fully convolutional CenterNet-style net. In: an RGB photo (0..1, any
  size that is a multiple of 32). Out, at 1/4 of the input's size: a tile-centre heatmap
  (after a sigmoid), the tile's log-size (its long and short side, in units of 4 input
  pixels), the centre's sub-cell offset and the direction of the tile's long axis as
  (cos 2φ, sin 2φ) — a direction without a sign, since a tile may lie either way up.
- ``Reader``: a crop classifier. In: a square crop around one tile turned so that its long
  axis is upright (RGB 0..1, CROP×CROP; the tile may be upside down), which it white-balances
  by the crop's own brightest region (the tile's cream face) inside the graph, so training
  and inference normalise the same way. Out: value logits (0..12 = 1..13, 13 = joker,
  14 = not a tile) and colour logits (black, red, blue, orange/green).
"""

from __future__ import annotations

import torch
from torch import nn

CROP = 48
N_VALUES = 15  # 1..13, joker, not-a-tile
N_COLOURS = 4  # black, red, blue, orange (also green: Rummy-O)


def cbr(cin: int, cout: int, stride: int = 1, groups: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DSBlock(nn.Module):
    """Depthwise-separable residual block."""

    def __init__(self, c: int, dilation: int = 1) -> None:
        super().__init__()
        self.dw = nn.Sequential(
            nn.Conv2d(c, c, 3, 1, dilation, dilation=dilation, groups=c, bias=False),
            nn.BatchNorm2d(c),
            nn.ReLU(inplace=True),
        )
        self.pw = nn.Sequential(nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c))
        self.act = nn.ReLU(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(x + self.pw(self.dw(x)))


class Finder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.s2 = cbr(3, 16, 2)  # 1/2
        self.s4 = nn.Sequential(cbr(16, 32, 2), DSBlock(32))  # 1/4
        self.s8 = nn.Sequential(cbr(32, 48, 2), DSBlock(48), DSBlock(48))  # 1/8
        self.s16 = nn.Sequential(cbr(48, 64, 2), DSBlock(64), DSBlock(64, 2))  # 1/16
        self.s32 = nn.Sequential(cbr(64, 96, 2), DSBlock(96), DSBlock(96, 2))  # 1/32
        self.l32 = nn.Conv2d(96, 48, 1)
        self.l16 = nn.Conv2d(64, 48, 1)
        self.l8 = nn.Conv2d(48, 48, 1)
        self.l4 = nn.Conv2d(32, 48, 1)
        self.fuse = nn.Sequential(cbr(48, 48, 1, 48), cbr(48, 48, k=1))
        self.heat = nn.Conv2d(48, 1, 1)
        self.size = nn.Conv2d(48, 2, 1)
        self.offset = nn.Conv2d(48, 2, 1)
        self.orient = nn.Conv2d(48, 2, 1)
        nn.init.constant_(self.heat.bias, -2.19)  # a prior of 0.1

    def forward(
        self, x: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        x = (x - 0.5) / 0.25
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        up = nn.functional.interpolate
        p = self.l32(f32)
        p = up(p, scale_factor=2.0, mode="nearest") + self.l16(f16)
        p = up(p, scale_factor=2.0, mode="nearest") + self.l8(f8)
        p = up(p, scale_factor=2.0, mode="nearest") + self.l4(f4)
        p = self.fuse(p)
        return (
            torch.sigmoid(self.heat(p)),
            self.size(p),
            torch.sigmoid(self.offset(p)),
            self.orient(p),
        )


def face_balance(x: torch.Tensor) -> torch.Tensor:
    """Divide each crop by the colour of its brightest central region (the tile's face).

    The weights favour the brightest pixels of the crop's middle (a soft top-percentile), so
    a crop under warm, cold or dim light comes out with a face near (0.85, 0.85, 0.85).
    """
    b, _, h, w = x.shape
    mid = x[:, :, h // 6 : h - h // 6, w // 6 : w - w // 6]
    lum = mid.mean(dim=1, keepdim=True)
    top = lum.amax(dim=(2, 3), keepdim=True)
    wgt = torch.exp((lum - top) * 25.0)
    face = (mid * wgt).sum(dim=(2, 3), keepdim=True) / wgt.sum(dim=(2, 3), keepdim=True)
    return torch.clamp(x / (face + 0.02) * 0.85, 0.0, 1.5)


class Reader(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            cbr(6, 24),  # 48
            cbr(24, 32, 2),  # 24
            cbr(32, 32),
            cbr(32, 64, 2),  # 12
            cbr(64, 64),
            cbr(64, 96, 2),  # 6
            cbr(96, 96),
            cbr(96, 128, 2),  # 3
        )
        self.drop = nn.Dropout(0.2)
        self.value = nn.Linear(128, N_VALUES)
        self.colour = nn.Linear(128, N_COLOURS)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        n = face_balance(x)
        # the balanced crop and the raw crop's brightness: ink colour relative to the face,
        # and how dark the photo is
        h = self.body(torch.cat([(n - 0.5) / 0.25, (x - 0.5) / 0.25], dim=1))
        h = self.drop(h.mean(dim=(2, 3)))
        return self.value(h), self.colour(h)
