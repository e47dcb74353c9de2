"""Where to draw a map's territories when its file gives no usable coordinates: a seeded force-directed layout.

Many map files give every territory the coordinates `0 0` (td-runner's own generator did, and so do maps
made for games that draw on a background image), and some give several territories the same point. A
board drawn from those coordinates alone piles territories on top of each other, so the HTML replay
(`html_record.py`) lays such a map out itself, and `td-runner warzone-map` writes the same layout into the
maps it generates.

`usable(places)`: every territory has coordinates, and no two lie closer than `CLASH` (0.2%) of the larger
side of the box around them. All at one point (the usual `0 0`) is not usable; a hand-drawn map is.

`layout(warmap, seed)`: continents first, then territories, so each continent stays in one piece:
1. the continents are discs (area grows with the number of territories) laid out by a spring model of
   the continent graph (two continents attract in proportion to the borders between them; all repel),
   then pushed apart until no two discs overlap;
2. each territory starts at a seeded random point of its continent's disc; a spring model of the border
   graph then runs on all territories at once: borders attract (inside a continent more than across),
   territories near each other repel (more across continents, which opens gaps between them), and each
   territory is pulled to its continent's centre;
3. a last pass pushes apart any two territories closer than `SPACING`, turns the drawing so its long side
   is horizontal (a replay board is wider than tall), and scales it to integer coordinates (map files
   hold integers).

Pure and deterministic: the seed is the only randomness (SplitMix64, as everywhere in Warzone), floats are
combined in a fixed order, and repulsion looks only at nearby territories (a grid), so a 200-territory map
takes a fraction of a second (`benchmarks/warzone_layout.py`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.rng import SplitMix64

Point = tuple[float, float]

#: closer than this fraction of the box's larger side, two territories clash (their discs would overlap)
CLASH = 0.002
#: no two territories of a layout end closer than this many ideal border lengths
SPACING = 0.8
#: one ideal border length in the written coordinates (integers): room for rounding and for a disc
UNIT = 40
#: beyond this many continents the continent springs would cost too much: their centres follow a spiral
MAX_SPRING_CONTINENTS = 120
#: continent springs: steps; territory springs: steps (fewer on large maps, where each costs more)
CONTINENT_STEPS = 150
#: continent springs: the pull towards the middle, per unit of distance and of disc radius
GRAVITY = 1.0
TERRITORY_STEPS = 90


def usable(places: Sequence[Point | None]) -> bool:
    """Whether coordinates from a map file can be drawn as they are (see the module docstring)."""
    if any(place is None for place in places):
        return False
    points = [place for place in places if place is not None]
    if len(points) < 2:
        return True
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    extent = max(max(xs) - min(xs), max(ys) - min(ys))
    if not math.isfinite(extent) or extent <= 0:
        return False
    return _closest_at_least(points, CLASH * extent)


def _closest_at_least(points: Sequence[Point], gap: float) -> bool:
    """No two points closer than `gap`: a grid of `gap`-sized cells, each point against its 9 cells."""
    cells: dict[tuple[int, int], list[Point]] = {}
    for x, y in points:
        cx, cy = int(math.floor(x / gap)), int(math.floor(y / gap))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for ox, oy in cells.get((cx + dx, cy + dy), ()):
                    if (x - ox) ** 2 + (y - oy) ** 2 < gap * gap:
                        return False
        cells.setdefault((cx, cy), []).append((x, y))
    return True


class _Random:
    """Uniform floats in [0, 1) from SplitMix64 (53 bits), so a layout is the same on every machine."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def unit(self) -> float:
        return (self.rng.next() >> 11) / float(1 << 53)


def layout(warmap: WarMap, seed: int = 0) -> list[tuple[int, int]]:
    """Integer x, y per territory (in id order), at least `SPACING * UNIT` apart (see the module docstring)."""
    random = _Random(seed)
    count = len(warmap.territories)
    if count == 1:
        return [(UNIT, UNIT)]
    radii = [0.0] + [0.6 * math.sqrt(len(warmap.members(c.id))) + 0.5 for c in warmap.continents]
    centres = _continent_centres(warmap, radii, random)
    points = _territories(warmap, centres, radii, random)
    _spread(points, SPACING, lambda i, j: SPACING)
    return _to_integers(_level(points))


def _continent_links(warmap: WarMap) -> dict[tuple[int, int], int]:
    """(a, b) with a < b -> the number of borders between continents a and b."""
    links: dict[tuple[int, int], int] = {}
    for t in warmap.territories:
        for other in warmap.neighbours_of(t.id):
            a, b = t.continent, warmap.territory(other).continent
            if a < b:
                links[(a, b)] = links.get((a, b), 0) + 1
    return links


def _continent_centres(warmap: WarMap, radii: list[float], random: _Random) -> list[Point]:
    """Centre per continent id (index 0 unused): springs on the continent graph, then no two discs overlap."""
    count = len(warmap.continents)
    order = _breadth_first(count, _continent_links(warmap))
    centres: list[Point] = [(0.0, 0.0)] * (count + 1)
    spread = 1.3 * math.sqrt(sum(r * r for r in radii))
    for rank, cid in enumerate(order):  # a sunflower spiral in breadth-first order: linked ones start near
        angle, distance = rank * 2.39996323, spread * math.sqrt((rank + 0.5) / count)
        centres[cid] = (distance * math.cos(angle) + 0.1 * random.unit(), distance * math.sin(angle))
    if 2 <= count <= MAX_SPRING_CONTINENTS:
        links = _continent_links(warmap)
        heat = spread
        for step in range(CONTINENT_STEPS):
            forces = [[0.0, 0.0] for _ in range(count + 1)]
            for a in range(1, count + 1):
                for b in range(a + 1, count + 1):
                    dx, dy = centres[a][0] - centres[b][0], centres[a][1] - centres[b][1]
                    distance = math.hypot(dx, dy) or 1e-6
                    ideal = radii[a] + radii[b] + 0.5
                    push = ideal * ideal / distance
                    if (a, b) in links:
                        push -= distance * distance / ideal * (1.0 + math.log(links[(a, b)]))
                    fx, fy = dx / distance * push, dy / distance * push
                    forces[a][0] += fx
                    forces[a][1] += fy
                    forces[b][0] -= fx
                    forces[b][1] -= fy
            for cid in range(1, count + 1):  # gravity: a chain of continents folds up instead of a long line
                forces[cid][0] -= GRAVITY * centres[cid][0] * radii[cid]
                forces[cid][1] -= GRAVITY * centres[cid][1] * radii[cid]
            centres = [_moved(centres[i], forces[i], heat) if i else centres[0] for i in range(count + 1)]
            heat = spread * (1.0 - (step + 1) / CONTINENT_STEPS) + 0.01
    _push_discs_apart(centres, radii)
    return centres


def _breadth_first(count: int, links: dict[tuple[int, int], int]) -> list[int]:
    """Continent ids 1..count in breadth-first order from 1 over the continent graph (then any left over)."""
    adjacent: dict[int, list[int]] = {c: [] for c in range(1, count + 1)}
    for a, b in sorted(links):
        adjacent[a].append(b)
        adjacent[b].append(a)
    order, seen = [], set()
    for start in range(1, count + 1):
        if start in seen:
            continue
        seen.add(start)
        queue = [start]
        while queue:
            current = queue.pop(0)
            order.append(current)
            for other in adjacent[current]:
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
    return order


def _moved(point: Point, force: Sequence[float], heat: float) -> Point:
    """`point` moved along `force`, at most `heat` far."""
    length = math.hypot(force[0], force[1])
    if length <= 0:
        return point
    step = min(length, heat)
    return point[0] + force[0] / length * step, point[1] + force[1] / length * step


def _push_discs_apart(centres: list[Point], radii: list[float]) -> None:
    """Move overlapping continent discs apart (in place) until none overlap."""
    points = [list(centre) for centre in centres[1:]]
    _spread(points, 2 * max(radii) + 0.3, lambda i, j: radii[i + 1] + radii[j + 1] + 0.3)
    centres[1:] = [(x, y) for x, y in points]


def _territories(warmap: WarMap, centres: list[Point], radii: list[float], random: _Random) -> list[list[float]]:
    """Territory positions (index = id - 1) after the spring model of the border graph."""
    home = [t.continent for t in warmap.territories]
    points = []
    for t in warmap.territories:
        angle, distance = 2 * math.pi * random.unit(), radii[t.continent] * math.sqrt(random.unit())
        centre = centres[t.continent]
        points.append([centre[0] + distance * math.cos(angle), centre[1] + distance * math.sin(angle)])
    edges = [(t.id - 1, other - 1, 1.0 if warmap.territory(other).continent == t.continent else 0.35)
             for t in warmap.territories for other in warmap.neighbours_of(t.id) if other > t.id]
    count = len(points)
    steps = TERRITORY_STEPS if count <= 400 else max(25, TERRITORY_STEPS * 400 // count)
    heat = 1.5
    reach = 2.0  # repulsion only between territories closer than this (ideal border length 1)
    for step in range(steps):
        forces = [[0.0, 0.0] for _ in range(count)]
        for i, j in _near_pairs(points, reach):
            dx, dy = points[i][0] - points[j][0], points[i][1] - points[j][1]
            distance = math.hypot(dx, dy) or 1e-6
            push = (1.0 if home[i] == home[j] else 1.8) / distance
            forces[i][0] += dx / distance * push
            forces[i][1] += dy / distance * push
            forces[j][0] -= dx / distance * push
            forces[j][1] -= dy / distance * push
        for i, j, weight in edges:
            dx, dy = points[j][0] - points[i][0], points[j][1] - points[i][1]
            pull = weight * (dx * dx + dy * dy) ** 0.5
            forces[i][0] += dx * pull
            forces[i][1] += dy * pull
            forces[j][0] -= dx * pull
            forces[j][1] -= dy * pull
        middles = _continent_middles(points, home, len(centres))
        for i in range(count):
            middle = middles[home[i]]
            forces[i][0] += 0.15 * (middle[0] - points[i][0])
            forces[i][1] += 0.15 * (middle[1] - points[i][1])
            x, y = _moved((points[i][0], points[i][1]), forces[i], heat)
            points[i][0], points[i][1] = x, y
        heat = 1.5 * (1.0 - (step + 1) / steps) + 0.02
    return points


def _continent_middles(points: list[list[float]], home: list[int], size: int) -> list[Point]:
    """The mean position of each continent's territories (index = continent id)."""
    sums = [[0.0, 0.0, 0] for _ in range(size)]
    for (x, y), cid in zip(points, home):
        sums[cid][0] += x
        sums[cid][1] += y
        sums[cid][2] += 1
    return [(sx / n, sy / n) if n else (0.0, 0.0) for sx, sy, n in sums]


def _near_pairs(points: list[list[float]], reach: float) -> list[tuple[int, int]]:
    """Every pair (i < j) closer than `reach`, found through a grid of `reach`-sized cells."""
    cells: dict[tuple[int, int], list[int]] = {}
    for i, (x, y) in enumerate(points):
        cells.setdefault((int(math.floor(x / reach)), int(math.floor(y / reach))), []).append(i)
    pairs = []
    limit = reach * reach
    for (cx, cy), members in cells.items():
        for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1), (1, -1)):  # each neighbouring cell pair once
            others = members if (dx, dy) == (0, 0) else cells.get((cx + dx, cy + dy))
            if not others:
                continue
            for a_index, i in enumerate(members):
                for j in (members[a_index + 1:] if (dx, dy) == (0, 0) else others):
                    ex, ey = points[i][0] - points[j][0], points[i][1] - points[j][1]
                    if ex * ex + ey * ey < limit:
                        pairs.append((i, j) if i < j else (j, i))
    pairs.sort()
    return pairs


def _spread(points: list[list[float]], reach: float, need: Callable[[int, int], float]) -> None:
    """Push apart (in place) every two points i, j closer than `need(i, j)` (at most `reach`), sweep after
    sweep until none are; every 8th sweep also spreads the whole drawing by 5%, so a jammed crowd thins out."""
    for sweep in range(1000):
        pairs = [(i, j) for i, j in _near_pairs(points, reach)
                 if (points[j][0] - points[i][0]) ** 2 + (points[j][1] - points[i][1]) ** 2 < need(i, j) ** 2]
        if not pairs:
            return
        if sweep % 8 == 7:
            for point in points:
                point[0] *= 1.05
                point[1] *= 1.05
        for i, j in pairs:
            dx, dy = points[j][0] - points[i][0], points[j][1] - points[i][1]
            distance, wanted = math.hypot(dx, dy), need(i, j)
            if distance >= wanted:
                continue
            if distance < 1e-9:  # one on top of the other: a fixed direction per pair
                angle = (i * 7919 + j * 104729 + sweep) % 360 * math.pi / 180
                dx, dy, distance = math.cos(angle), math.sin(angle), 1.0
                shift = wanted / 2
            else:
                shift = (wanted - distance) / 2 * 1.05
            points[i][0] -= dx / distance * shift
            points[i][1] -= dy / distance * shift
            points[j][0] += dx / distance * shift
            points[j][1] += dy / distance * shift


def _level(points: list[list[float]]) -> list[Point]:
    """The points turned about their mean so the direction of largest spread is horizontal."""
    count = len(points)
    mx, my = sum(p[0] for p in points) / count, sum(p[1] for p in points) / count
    sxx = sum((p[0] - mx) ** 2 for p in points)
    syy = sum((p[1] - my) ** 2 for p in points)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in points)
    angle = 0.5 * math.atan2(2 * sxy, sxx - syy)
    cos, sin = math.cos(-angle), math.sin(-angle)
    return [((p[0] - mx) * cos - (p[1] - my) * sin, (p[0] - mx) * sin + (p[1] - my) * cos) for p in points]


def _to_integers(points: list[Point]) -> list[tuple[int, int]]:
    """Scaled to `UNIT` per ideal border length, shifted so the smallest x and y are `UNIT`, rounded."""
    left, top = min(p[0] for p in points), min(p[1] for p in points)
    return [(round((x - left) * UNIT) + UNIT, round((y - top) * UNIT) + UNIT) for x, y in points]
