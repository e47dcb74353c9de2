"""A player's rating over its matches as inline SVG, drawn on the server (no script, no network): the mu line
inside a mu ± sigma band, a dashed mark where a new version took over."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from runner.league.web.model import ChartPoint

WIDTH, HEIGHT, PAD = 720, 240, 40


def rating_chart(points: Sequence[ChartPoint], label: str = "") -> str:
    """The chart's <svg> element; points in match order (the first may be the starting rating)."""
    if not points or (len(points) == 1 and points[0].match == 0):  # the starting rating alone
        return '<p class="muted">no rated match yet</p>'
    low = min(point.mu - point.sigma for point in points)
    high = max(point.mu + point.sigma for point in points)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    step = (WIDTH - 2 * PAD) / max(1, len(points) - 1)

    def x(index: int) -> float:
        return PAD + index * step

    def y(value: float) -> float:
        return HEIGHT - PAD - (value - low) / (high - low) * (HEIGHT - 2 * PAD)

    upper = [f"{x(i):.1f},{y(p.mu + p.sigma):.1f}" for i, p in enumerate(points)]
    lower = [f"{x(i):.1f},{y(p.mu - p.sigma):.1f}" for i, p in reversed(list(enumerate(points)))]
    line = [f"{x(i):.1f},{y(p.mu):.1f}" for i, p in enumerate(points)]
    if len(points) == 1:  # one point: a visible stroke and band all the same
        upper.append(f"{x(0) + 4:.1f},{y(points[0].mu + points[0].sigma):.1f}")
        lower.insert(0, f"{x(0) + 4:.1f},{y(points[0].mu - points[0].sigma):.1f}")
        line.append(f"{x(0) + 4:.1f},{y(points[0].mu):.1f}")
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
             f'aria-label="rating {escape(label)}">',
             f'<path class="band" d="M{" L".join(upper + lower)} Z"/>',
             f'<path class="mu" d="M{" L".join(line)}"/>']
    for index in range(1, len(points)):
        if points[index].version != points[index - 1].version:
            parts.append(f'<line class="version" x1="{x(index):.1f}" x2="{x(index):.1f}" y1="{PAD / 2}" '
                         f'y2="{HEIGHT - PAD}"/><text x="{x(index) + 3:.1f}" y="{PAD / 2 + 10}">'
                         f'v{points[index].version}</text>')
    last = points[-1]
    rated = len(points) - (points[0].match == 0)
    first = "start" if points[0].match == 0 else f"match {points[0].match}"
    parts += [f'<circle class="last" cx="{x(len(points) - 1):.1f}" cy="{y(last.mu):.1f}" r="3"/>',
              f'<text x="4" y="{y(high) + 4:.1f}">{high:.1f}</text>',
              f'<text x="4" y="{y(low) + 4:.1f}">{low:.1f}</text>',
              f'<text x="{PAD}" y="{HEIGHT - 10}">{first}</text>',
              f'<text x="{WIDTH - PAD}" y="{HEIGHT - 10}" text-anchor="end">{rated} rated matches: '
              f'mu {last.mu:.2f}, sigma {last.sigma:.2f}</text>',
              "</svg>"]
    return "".join(parts)
