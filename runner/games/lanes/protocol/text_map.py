"""map.txt (spec 10.6): both lanes side by side, row 20 at the top, with a header line and a ruler."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.state import GameState, Tower

LANE_GAP = "    "
#: A soldier on a lane during a frame: (type, col, row).
SoldierAt = tuple[str, int, int]


def render_cell(config: LanesConfig, tower: Tower | None, soldiers: Sequence[str]) -> str:
    """spec 10.6: a tower letter, one soldier's letter, 2-9 as a digit, 10 or more as '*', else '.'."""
    if tower is not None:
        return config.units[tower.type].letter.upper()
    if len(soldiers) == 1:
        return config.units[soldiers[0]].letter.lower()
    if soldiers:
        return str(len(soldiers)) if len(soldiers) <= 9 else "*"
    return "."


def render_lane_rows(config: LanesConfig, towers: Iterable[Tower], soldiers: Iterable[SoldierAt]) -> list[str]:
    """The 21 row lines of one lane and its ruler, each `"rr ......."`."""
    tower_at = {(t.col, t.row): t for t in towers}
    crowd: dict[tuple[int, int], list[str]] = {}
    for kind, col, row in soldiers:
        crowd.setdefault((col, row), []).append(kind)
    lines = []
    for row in range(config.rows - 1, -1, -1):
        cells = "".join(
            render_cell(config, tower_at.get((col, row)), crowd.get((col, row), ())) for col in range(config.width)
        )
        lines.append(f"{row:>2} {cells}")
    lines.append("   " + "".join(str(col % 10) for col in range(config.width)))
    return lines


def render_header(state: GameState, timestep: int | None, show_money: bool) -> str:
    """`turn 1 t=5  P1 hp 10 money 81 | P2 hp 10 money 91`; money only for spectators (spec 8 hides it)."""
    when = f"turn {state.turn}" + ("" if timestep is None else f" t={timestep}")
    sides = []
    for index, player in enumerate(state.players, start=1):
        money = f" money {player.money}" if show_money else ""
        sides.append(f"P{index} hp {player.hp}{money}")
    return f"{when}  {' | '.join(sides)}"


def render_map(
    config: LanesConfig,
    state: GameState,
    soldiers: tuple[Iterable[SoldierAt], Iterable[SoldierAt]] = ((), ()),
    timestep: int | None = None,
    show_money: bool = False,
) -> str:
    """The whole map text; `soldiers[i]` are the soldiers on lane i+1 (none between turns)."""
    left = render_lane_rows(config, state.towers[0], soldiers[0])
    right = render_lane_rows(config, state.towers[1], soldiers[1])
    width = len(left[0])
    lines = [render_header(state, timestep, show_money), "lane 1".ljust(width + len(LANE_GAP)) + "lane 2"]
    lines += [a + LANE_GAP + b for a, b in zip(left, right)]
    return "\n".join(lines) + "\n"

