"""Where a map's territories are drawn (runner/games/warzone/layout.py): which file coordinates are usable, and
the seeded force-directed layout used otherwise, by the HTML replay and by `td-runner warzone-map`."""

from __future__ import annotations

import math
import shlex
from pathlib import Path

import pytest
from warzone_helpers import MAPS

from runner.games.warzone.html_record import board
from runner.games.warzone.layout import SPACING, UNIT, layout, usable
from runner.games.warzone.logs import MAP_FILE
from runner.games.warzone.rules.mapfile import parse_map
from runner.games.warzone.rules.mapgen import generate_map
from runner.games.warzone.rules.mapwrite import render_conquest, render_domination
from runner.games.warzone.tools import render_generated


@pytest.mark.parametrize(("places", "expected"), [
    ([(0, 0)] * 5, False),  # the usual "no coordinates"
    ([(3, 4)] * 3, False),
    ([(0, 0), (10, 0), (10, 0), (0, 10)], False),  # two territories share a point
    ([(0, 0), (1000, 0), (1001, 0)], False),  # closer than 0.2% of the map's size
    ([(0, 0), (1000, 0), (1003, 0)], True),
    ([(0, 0), (5, 5), None], False),  # a Domination line without x y
    ([(7, 7)], True),
    ([(10, 10), (12, 8), (8, 12), (14, 14)], True),
])
def test_usable(places, expected: bool) -> None:
    assert usable(places) is expected


def _centroids(warmap, points) -> dict[int, tuple[float, float]]:
    groups: dict[int, list] = {}
    for t in warmap.territories:
        groups.setdefault(t.continent, []).append(points[t.id - 1])
    return {c: (sum(x for x, _ in ps) / len(ps), sum(y for _, y in ps) / len(ps)) for c, ps in groups.items()}


@pytest.mark.parametrize(("territories", "continents", "seed"), [
    (2, 1, 0), (5, 5, 1), (24, 4, 24), (42, 6, 3), (100, 8, 2024), (200, 12, 200), (300, 30, 9),
])
def test_layout_is_spaced_integer_usable_and_keeps_continents_together(territories, continents, seed) -> None:
    warmap = generate_map(territories, continents, seed)
    points = layout(warmap, seed)
    assert len(points) == territories and all(isinstance(v, int) and v >= 0 for p in points for v in p)
    assert usable(points)
    closest = min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:])
    assert closest >= SPACING * UNIT - 1.5  # rounding to integers moves each point at most 0.71
    # continents in one piece: (nearly) every territory is nearer its own continent's middle than any other's
    middles = _centroids(warmap, points)
    home = sum(1 for t in warmap.territories
               if min(middles, key=lambda c: math.dist(middles[c], points[t.id - 1])) == t.continent)
    assert home >= 0.9 * territories


def test_layout_is_deterministic_and_seeded() -> None:
    warmap = generate_map(60, 5, 11)
    assert layout(warmap, 3) == layout(warmap, 3) != layout(warmap, 4)


def test_layout_is_wider_than_tall() -> None:
    for seed in range(4):
        points = layout(generate_map(80, 6, seed), seed)
        width = max(x for x, _ in points) - min(x for x, _ in points)
        height = max(y for _, y in points) - min(y for _, y in points)
        assert width >= height


@pytest.mark.parametrize("render", [render_domination, render_conquest])
def test_a_map_without_coordinates_is_drawn_at_the_layout(render, tmp_path: Path) -> None:
    warmap = generate_map(30, 3, 8, "flat")
    (tmp_path / MAP_FILE).write_text(render(warmap), encoding="utf-8")  # every territory at 0 0
    drawn = board(tmp_path, warmap)
    assert [(t[3], t[4]) for t in drawn["territories"]] == [tuple(map(float, p)) for p in layout(warmap, 0)]


def test_a_map_with_coordinates_is_drawn_where_the_file_says(tmp_path: Path) -> None:
    (tmp_path / MAP_FILE).write_bytes((MAPS / "td-harbour.map").read_bytes())
    drawn = board(tmp_path, parse_map((MAPS / "td-harbour.map").read_text(), lenient=False).map)
    assert drawn["territories"][0][1:] == ["Cathedral Square", 1, 10.0, 10.0]


def test_generated_maps_carry_the_layout_as_coordinates() -> None:
    text = render_generated(40, 4, 77, "conquest", "g")
    warmap = parse_map(text, lenient=False).map
    rows = text.split("[Territories]\n")[1].splitlines()
    assert [tuple(int(v) for v in row.split(",")[1:3]) for row in rows] == layout(warmap, 77)


@pytest.mark.parametrize("path", sorted(MAPS.glob("td-*.map")), ids=lambda p: p.name)
def test_shipped_maps_have_usable_coordinates_and_generated_ones_are_the_tool_output(path: Path) -> None:
    data = path.read_text(encoding="utf-8")
    warmap = parse_map(data, lenient=False).map
    lines = data.splitlines()
    if warmap.dialect == "conquest":
        places = [tuple(int(v) for v in lines[t.line - 1].split(",")[1:3]) for t in warmap.territories]
    else:
        places = [tuple(int(v) for v in lines[t.line - 1].split()[3:5]) for t in warmap.territories]
    assert usable(places)
    if data.startswith("; td-runner warzone-map "):  # made by the tool: the tool makes it again, byte for byte
        args = dict(zip(*[iter(shlex.split(lines[0])[3:])] * 2))
        again = render_generated(int(args["--territories"]), int(args["--continents"]), int(args["--seed"]),
                                 args["--dialect"], path.stem)
        assert again == data
