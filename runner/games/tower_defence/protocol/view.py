"""A player's view of the board: B sees the board mirrored and the owner labels swapped (spec 2.4)."""

from __future__ import annotations

from typing import Any

from runner.games.tower_defence.engine.state import PLAYERS, Building, GameState, Missile

_SWAP = {"A": "B", "B": "A"}


class View:
    """Coordinate and label transforms for one viewer; precomputed once per (width, viewer)."""

    __slots__ = ("viewer", "mirrored", "width", "labels")

    def __init__(self, viewer: str, width: int) -> None:
        self.viewer = viewer
        self.mirrored = viewer == "B"
        self.width = width
        #: engine owner -> label in this view
        self.labels = _SWAP if self.mirrored else {"A": "A", "B": "B"}

    def x(self, engine_x: int) -> int:
        return self.width - 1 - engine_x if self.mirrored else engine_x


Cells = dict[tuple[int, int], tuple[Building | None, list[Missile]]]


def occupied_cells(state: GameState) -> Cells:
    """Occupied cells in ENGINE coordinates -> (building, missiles in missile-list order).

    Computed once per state and shared by both viewers' renderers; empty cells are absent.
    """
    cells: Cells = {}
    for building in state.buildings:
        cells[(building.x, building.y)] = (building, [])
    for missile in state.missiles:
        key = (missile.x, missile.y)
        entry = cells.get(key)
        if entry is None:
            entry = cells[key] = (None, [])
        entry[1].append(missile)
    return cells


class PerViewRenderer:
    """Renders one text per viewer; the work that does not depend on the viewer is done once per state."""

    def render(self, state: GameState, viewer: str) -> str:
        """The text as `viewer` ("A" or "B") receives it."""
        return self.render_views(state, (viewer,))[viewer]

    def render_views(
        self, state: GameState, viewers: tuple[str, ...] = PLAYERS, cells: Cells | None = None
    ) -> dict[str, str]:
        """Render several viewers' texts; `cells` (occupied_cells of `state`) may be shared by the caller."""
        if cells is None:
            cells = occupied_cells(state)
        shared = self._shared(state, cells)
        return {viewer: self._render_view(state, viewer, cells, shared) for viewer in viewers}

    def _shared(self, state: GameState, cells: Cells) -> Any:
        raise NotImplementedError

    def _render_view(self, state: GameState, viewer: str, cells: Cells, shared: Any) -> str:
        raise NotImplementedError
