"""A small chart of the totals round by round, drawn on the server as inline SVG.

No script and no other origin: the scoreboard includes the markup this returns. Colours
come from CSS classes (``.chart .s1`` …, light and dark in app.css); each player's line
also has its own dash pattern, so the lines are told apart without colour too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from companion.web.language import gw, number

WIDTH, HEIGHT = 360, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 24  # room for the axis labels
SERIES = 6  # styles .s1 … .s6 (R17-1: at most six players)


def _step(span: float) -> int:
    """A round step for about four gridlines over ``span`` (1, 2, 5 × 10ⁿ)."""
    rough = max(span / 4, 1)
    power = 10 ** math.floor(math.log10(rough))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= rough))


def totals_chart(result: Mapping[str, Any], players: Sequence[str]) -> Markup:
    """The running totals of each player, one line each, with a legend; empty before round 2."""
    rounds = result["rounds"]
    if len(rounds) < 2:
        return Markup("")
    values: list[int] = [int(line["totals"][n]) for line in rounds for n in players]
    step = _step(max(values + [0]) - min(values + [0]))
    low = math.floor(min(values + [0]) / step) * step
    high = math.ceil(max(values + [0]) / step) * step
    high = high if high > low else low + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / (len(rounds) - 1)

    def y(v: int) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    game = result.get("game")  # its own word for a round (Rummy 17: game)
    title = gw(game, "Totals round by round")
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-labelledby="chart-title chart-desc" id="totals-chart">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{escape(_describe(game, rounds, players))}</desc>',
    ]
    for v in range(low, high + 1, step):
        cls = "axis zero" if v == 0 else "grid"
        parts.append(
            f'<line class="{cls}" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" '
            f'y2="{y(v):.1f}"/>'
        )
        parts.append(
            f'<text class="tick" x="{LEFT - 4}" y="{y(v) + 4:.1f}" '
            f'text-anchor="end">{escape(number(v))}</text>'
        )
    for i, line in enumerate(rounds):
        parts.append(
            f'<text class="tick" x="{x(i):.1f}" y="{HEIGHT - 6}" '
            f'text-anchor="middle">{line["number"]}</text>'
        )
    for seat, name in enumerate(players):
        points = " ".join(
            f"{x(i):.1f},{y(line['totals'][name]):.1f}" for i, line in enumerate(rounds)
        )
        parts.append(
            f'<polyline class="line s{seat % SERIES + 1}" points="{points}" '
            f'data-player="{escape(name)}"/>'
        )
    parts.append("</svg>")
    legend = "".join(
        f'<li><svg class="swatch" viewBox="0 0 24 8" aria-hidden="true">'
        f'<line class="line s{seat % SERIES + 1}" x1="1" y1="4" x2="23" y2="4"/></svg>'
        f"{escape(name)}</li>"
        for seat, name in enumerate(players)
    )
    return Markup(
        f'<figure class="chart-box">{"".join(parts)}'
        f'<figcaption><ul class="chart-legend">{legend}</ul></figcaption></figure>'
    )


def _describe(game: Any, rounds: Sequence[Mapping[str, Any]], players: Sequence[str]) -> str:
    """The chart in words, for a screen reader: each player's totals after each round."""
    each = "; ".join(
        f"{name}: {', '.join(number(line['totals'][name]) for line in rounds)}" for name in players
    )
    return gw(game, "Totals after rounds 1 to %(n)s. %(each)s.", n=len(rounds), each=each)
