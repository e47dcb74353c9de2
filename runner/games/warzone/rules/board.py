"""The map model (spec 3.5): continents, territories and the undirected border graph the game plays on."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs


@attrs.frozen
class Continent:
    """A continent: ids run 1..C in order of appearance; `line` is where the file defines it."""

    id: int
    name: str
    bonus: int
    line: int = 0


@attrs.frozen
class Territory:
    """A territory: ids run 1..T (spec 3.3 INDEX, 3.4 order of appearance); `continent` is a continent id."""

    id: int
    name: str
    continent: int
    line: int = 0


@attrs.frozen
class WarMap:
    """A validated map. `neighbours[i]` are the ascending neighbour ids of territory i (index 0 unused)."""

    name: str
    dialect: str  # "domination" or "conquest"
    continents: tuple[Continent, ...]
    territories: tuple[Territory, ...]
    neighbours: tuple[tuple[int, ...], ...]
    #: `continent_members[c]` are the ascending territory ids of continent c (index 0 unused); built once
    #: because income asks for them every turn for every player
    continent_members: tuple[tuple[int, ...], ...] = ()

    @property
    def territory_ids(self) -> range:
        return range(1, len(self.territories) + 1)

    @property
    def edge_count(self) -> int:
        """The number of undirected borders."""
        return sum(len(ids) for ids in self.neighbours) // 2

    def territory(self, tid: int) -> Territory:
        return self.territories[tid - 1]

    def neighbours_of(self, tid: int) -> tuple[int, ...]:
        return self.neighbours[tid]

    def is_neighbour(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]

    def members(self, cid: int) -> tuple[int, ...]:
        """The territory ids of continent `cid`, ascending."""
        if self.continent_members:
            return self.continent_members[cid]
        return tuple(t.id for t in self.territories if t.continent == cid)

    def label(self, tid: int) -> str:
        """`2 (SW)`: how messages name a territory (spec 4.5: by id and name)."""
        return f"{tid} ({self.territories[tid - 1].name})"


def build_map(
    name: str,
    dialect: str,
    continents: Iterable[Continent],
    territories: Iterable[Territory],
    borders: Iterable[tuple[int, int]],
) -> WarMap:
    """A WarMap from already checked parts; each border (a, b) joins a and b both ways (spec 3.5)."""
    territories = tuple(territories)
    adjacent: dict[int, set[int]] = {t.id: set() for t in territories}
    for a, b in borders:
        adjacent[a].add(b)
        adjacent[b].add(a)
    neighbours = ((),) + tuple(tuple(sorted(adjacent[t.id])) for t in territories)
    continents = tuple(continents)
    members: list[list[int]] = [[] for _ in range(len(continents) + 1)]
    for territory in territories:
        members[territory.continent].append(territory.id)
    return WarMap(name, dialect, continents, territories, neighbours, tuple(map(tuple, members)))


def components(nodes: Iterable[int], adjacent: Mapping[int, Iterable[int]]) -> list[list[int]]:
    """The connected components of `nodes` using only edges between them, each in discovery order, the
    components ordered by their smallest node."""
    remaining = set(nodes)
    found = []
    for start in sorted(remaining):
        if start not in remaining:
            continue
        remaining.discard(start)
        component, frontier = [start], [start]
        while frontier:
            for other in adjacent.get(frontier.pop(), ()):
                if other in remaining:
                    remaining.discard(other)
                    component.append(other)
                    frontier.append(other)
        found.append(component)
    return found
