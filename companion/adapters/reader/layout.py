"""Where tiles lie: reading order (rows) and lines of tiles side by side (melds).

Boxes are numpy arrays of (x0, y0, x1, y1) rows in pixels of the upright photo.
"""

from __future__ import annotations

import math

import numpy as np

SAME_WAY = 0.64  # two tiles face the same way when their up axes differ by less than 40°
SIDE_BY_SIDE = 1.5  # ... and lie side by side when their centres are less than 1.5 widths apart


def _centres(boxes: np.ndarray) -> np.ndarray:
    return np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], axis=1)


def _rows_angle(boxes: np.ndarray) -> float:
    """The angle of the rows the tiles make (radians, within ±45°), from each tile's nearest
    neighbour."""
    n = len(boxes)
    if n < 2:
        return 0.0
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
    return 0.25 * math.atan2(s, co) if len(phi) >= 2 else 0.0


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
    r = _rotated(boxes, _rows_angle(boxes))
    by_y = sorted(range(n), key=lambda i: r[i, 1])
    rows: list[list[int]] = []
    tol = 0.5 * float(np.median(heights))
    for i in by_y:
        if rows and abs(r[i, 1] - float(np.mean([r[j, 1] for j in rows[-1]]))) < tol:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda j: r[j, 0])]


def lines_of(
    centres: np.ndarray, ups: np.ndarray, longs: np.ndarray, shorts: np.ndarray
) -> list[list[int]]:
    """Lines of tiles side by side, each from left to right (from the top when the line
    stands in the photo), in reading order of their first tile; a tile side by side with
    no other is a line of one.

    Each tile is taken in its own frame: ``centres`` in pixels, ``ups`` the angle of its up
    axis (radians, either way up), ``longs`` and ``shorts`` its size along and across it.
    Two tiles lie side by side when they face the same way and the second lies across the
    first's up axis, about a tile's width away; so the melds of one table may lie every which
    way, tiles end to end (a column of a grid) make no line, and tiles scattered a tile's
    width apart make none either.
    """
    n = len(centres)
    d = centres[None, :, :] - centres[:, None, :]  # d[i, j]: from tile i to tile j
    phi = 0.5 * np.arctan2(  # the pair's mean up axis: the finder's angles are rough
        np.sin(2 * ups)[:, None] + np.sin(2 * ups)[None, :],
        np.cos(2 * ups)[:, None] + np.cos(2 * ups)[None, :],
    )
    x = np.abs(-d[..., 0] * np.sin(phi) + d[..., 1] * np.cos(phi))  # across the up axis
    y = np.abs(d[..., 0] * np.cos(phi) + d[..., 1] * np.sin(phi))  # along it
    width = (shorts[:, None] + shorts[None, :]) / 2
    height = (longs[:, None] + longs[None, :]) / 2
    beside = (
        (np.abs(np.sin(ups[:, None] - ups[None, :])) <= SAME_WAY)
        & (x > 0.6 * width)
        & (x < SIDE_BY_SIDE * width)
        & (y < 0.45 * height)
    )
    cost = np.abs(x - width) / width + 2 * y / height
    # which side of tile i tile j lies on, across i's own up axis
    side = -d[..., 0] * np.sin(ups)[:, None] + d[..., 1] * np.cos(ups)[:, None] > 0
    taken: set[tuple[int, bool]] = set()  # (tile, which side of it)
    links: dict[int, list[int]] = {i: [] for i in range(n)}
    ii, jj = np.nonzero(beside)
    for k in np.argsort(cost[ii, jj], kind="stable"):
        i, j = int(ii[k]), int(jj[k])
        here, there = (i, bool(side[i, j])), (j, bool(side[j, i]))
        if j in links[i] or here in taken or there in taken:
            continue
        taken |= {here, there}
        links[i].append(j)
        links[j].append(i)
    lines = []
    seen: set[int] = set()
    for i in range(n):
        if i in seen:
            continue
        line, todo = [], [i]
        while todo:
            k = todo.pop()
            if k not in seen:
                seen.add(k)
                line.append(k)
                todo.extend(links[k])
        lines.append(_in_order(centres, ups, line))
    return sorted(lines, key=lambda line: min(line))


def _mean_axis(angles: np.ndarray) -> float:
    """The mean of axes given as angles either way up (radians)."""
    return 0.5 * math.atan2(float(np.sin(2 * angles).sum()), float(np.cos(2 * angles).sum()))


def _in_order(centres: np.ndarray, ups: np.ndarray, line: list[int]) -> list[int]:
    """The tiles of one line from left to right (from the top when the line stands)."""
    if len(line) < 2:
        return line
    phi = _mean_axis(ups[line])
    across = np.array([-math.sin(phi), math.cos(phi)])
    if across[int(abs(across[1]) > abs(across[0]))] < 0:
        across = -across
    return sorted(line, key=lambda k: float(centres[k] @ across))
