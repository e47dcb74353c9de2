"""A player's view of the board: B sees the board mirrored and the owner labels swapped (spec 2.4)."""

from __future__ import annotations

from runner.games.tower_defence.engine.state import PLAYERS, GameState, Missile

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


def missiles_by_cell(state: GameState) -> dict[int, list[Missile]]:
    """Engine cell index (y * width + x) -> the missiles in it, in missile-list order; empty cells absent."""
    cells: dict[int, list[Missile]] = {}
    for missile in state.missiles:
        cell = missile.row + missile.x
        found = cells.get(cell)
        if found is None:
            cells[cell] = [missile]
        else:
            found.append(missile)
    return cells


class PerViewRenderer:
    """Renders one text per viewer; the work that does not depend on the viewer is done once per state."""

    def render(self, state: GameState, viewer: str) -> str:
        """The text as `viewer` ("A" or "B") receives it."""
        return self.render_views(state, (viewer,))[viewer]

    def render_views(self, state: GameState, viewers: tuple[str, ...] = PLAYERS) -> dict[str, str]:
        """Render several viewers' texts."""
        raise NotImplementedError
