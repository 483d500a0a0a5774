"""Where tiles lie: reading order (rows) and lines of tiles side by side (melds).

Boxes are numpy arrays of (x0, y0, x1, y1) rows in pixels of the upright photo.
"""

from __future__ import annotations

import math

import numpy as np


def _centres(boxes: np.ndarray) -> np.ndarray:
    return np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], axis=1)


def pitch_and_angle(boxes: np.ndarray) -> tuple[float, float]:
    """The distance between the centres of two tiles side by side, and the angle of the
    lines they make (radians, within ±45°), from each tile's nearest neighbour."""
    n = len(boxes)
    sizes = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    if n < 2:
        return (float(sizes[0]) if n else 1.0), 0.0
    c = _centres(boxes)
    d = c[None, :, :] - c[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    np.fill_diagonal(dist, np.inf)
    nn = dist.argmin(axis=1)
    nd = dist[np.arange(n), nn]
    pitch = float(np.median(nd))
    near = nd < 1.6 * pitch
    vec = d[np.arange(n), nn][near]
    phi = np.arctan2(vec[:, 1], vec[:, 0])
    # lines are undirected, and a grid's columns are as likely as its rows: angle mod 90°
    s, co = np.sin(4 * phi).sum(), np.cos(4 * phi).sum()
    angle = 0.25 * math.atan2(s, co) if len(phi) >= 2 else 0.0
    return pitch, angle


def _rotated(boxes: np.ndarray, angle: float) -> np.ndarray:
    c = _centres(boxes)
    ca, sa = math.cos(-angle), math.sin(-angle)
    return np.stack([c[:, 0] * ca - c[:, 1] * sa, c[:, 0] * sa + c[:, 1] * ca], axis=1)


def reading_order(boxes: np.ndarray) -> list[int]:
    """Indexes of the boxes row by row from the top, left to right within a row; rows are
    taken along the tiles' own lines when the photo is a little turned."""
    n = len(boxes)
    if n == 0:
        return []
    heights = boxes[:, 3] - boxes[:, 1]
    _, angle = pitch_and_angle(boxes)
    r = _rotated(boxes, angle)
    by_y = sorted(range(n), key=lambda i: r[i, 1])
    rows: list[list[int]] = []
    tol = 0.5 * float(np.median(heights))
    for i in by_y:
        if rows and abs(r[i, 1] - float(np.mean([r[j, 1] for j in rows[-1]]))) < tol:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda j: r[j, 0])]


def lines_of(boxes: np.ndarray) -> list[list[int]]:
    """Lines of tiles side by side, each left to right, in reading order of their first
    tile; a tile side by side with no other is a line of one."""
    n = len(boxes)
    if n == 0:
        return []
    pitch, angle = pitch_and_angle(boxes)
    r = _rotated(boxes, angle)
    right: dict[int, int] = {}
    left: dict[int, int] = {}
    pairs = []
    for i in range(n):
        for j in range(n):
            dx = r[j, 0] - r[i, 0]
            dy = r[j, 1] - r[i, 1]
            if 0.45 * pitch < dx < 1.45 * pitch and abs(dy) < 0.45 * pitch:
                pairs.append((math.hypot(dx - pitch, 2 * dy), i, j))
    for _, i, j in sorted(pairs):
        if i not in right and j not in left:
            right[i] = j
            left[j] = i
    lines = []
    for i in range(n):
        if i in left:
            continue
        line = [i]
        while line[-1] in right:
            line.append(right[line[-1]])
        lines.append(line)
    return sorted(lines, key=lambda line: line[0])
