"""One lane during a turn's 100 timesteps: deployment, towers, soldiers, cleanup (spec 4.3, 5).

The objects here are mutable and live only inside one turn; `rules/turn.py` builds them from the
immutable state and reads the towers back. Each lane is simulated on its own (spec 4.3: the lanes do
not affect each other within a turn); the tally of each timestep says what crosses to the players.

Speed (benchmarks/lanes.py): a cell is a flat index `row * width + col`, so ascending indexes inside a
unit's square are exactly the spec 5 scan order (rows nearer the goal first, then left to right). Two
bit masks over those indexes, the cells holding soldiers and the cells holding a tower with HP > 0, let
a unit find its first candidate cell with one AND and the lowest set bit instead of visiting up to 25
cells; the candidates inside that cell are then checked exactly as the spec says.

A lane may carry an observer (the HTML replay's recorder; the rules never need one): it sees the lane as
set up (timestep 0) and after each timestep's actions, just before the cleanup, when dying soldiers and
towers, scorers and stuns are still there to be seen. Without one the cost is a single test per timestep
with soldiers on the lane.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterable

import attrs

from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.orders import Stance
from runner.games.lanes.rules.state import Entry, Tower


@attrs.define(eq=False, slots=True)
class Soldier:
    """A deployed soldier; equality is identity, so arrival lists can remove exactly this one."""

    type: str
    col: int
    row: int
    hp: int
    stance: Stance
    stunned: bool = False
    scored: bool = False
    cell: int = 0  # row * width + col


@attrs.define(eq=False, slots=True)
class LiveTower:
    type: str
    col: int
    row: int
    hp: int
    cell: int = 0  # row * width + col
    area: int = 0  # mask of the cells in its range


@attrs.define(slots=True)
class Tally:
    """What one timestep's cleanup did on a lane (spec 4.3.4)."""

    scored: int = 0  # attacker's soldiers that scored: the defender loses that much HP
    killed: int = 0  # attacker's soldiers removed at HP <= 0: the defender's bounty
    towers_lost: int = 0  # defender's towers removed
    towers_value: int = 0  # their cost, paid to the attacker


#: Sees a lane, read-only: `(0, lane)` once set up, then `(timestep, lane)` before each cleanup that has
#: soldiers to clean up (a timestep without soldiers on the lane changes nothing and is not shown).
LaneObserver = Callable[[int, "Lane"], None]


@functools.cache
def scan_offsets(reach: int) -> tuple[tuple[int, int], ...]:
    """spec 5: dy from -R to +R outside, dx from -R to +R inside: rows nearer the goal first, then left to right."""
    return tuple((dx, dy) for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1))


@functools.cache
def area_mask(width: int, rows: int, col: int, row: int, reach: int) -> int:
    """The bits of the cells within Chebyshev distance `reach` of (col, row) that lie on the board."""
    mask = 0
    for dx, dy in scan_offsets(reach):
        c, r = col + dx, row + dy
        if 0 <= c < width and 0 <= r < rows:
            mask |= 1 << (r * width + c)
    return mask


def lowest_cell(mask: int) -> int:
    """The smallest flat index in a non-empty mask: the first cell in scan order."""
    return (mask & -mask).bit_length() - 1


class Lane:
    """The defender's towers and the attacker's soldiers on one lane for one turn."""

    def __init__(self, config: LanesConfig, towers: Iterable[Tower], schedule: Iterable[Entry],
                 observer: LaneObserver | None = None) -> None:
        self.config = config
        width, rows = config.width, config.rows
        self.width = width
        self.towers: list[LiveTower] = []  # build order
        self.grid: list[LiveTower | None] = [None] * (width * rows)  # blocking towers, HP <= 0 included
        self.live_towers = 0  # mask of cells whose tower has HP > 0 (what towers may be shot at)
        self.tower_hp = 0  # the towers' total HP (spec 11 steps), kept as they are hit and removed
        for t in towers:
            cell = t.row * width + t.col
            reach = config.units[t.type].range
            tower = LiveTower(t.type, t.col, t.row, t.hp, cell, area_mask(width, rows, t.col, t.row, reach))
            self.towers.append(tower)
            self.grid[cell] = tower
            if tower.hp > 0:
                self.live_towers |= 1 << cell
            self.tower_hp += tower.hp
        self.dying_towers = sum(t.hp <= 0 for t in self.towers)  # towers at HP <= 0 that cleanup removes
        self.soldiers: list[Soldier] = []  # spec 4.3.1: the soldier order
        self.cells: list[list[Soldier]] = [[] for _ in range(width * rows)]  # arrival lists
        self.occupied = 0  # mask of cells whose arrival list is not empty
        self.schedule: defaultdict[int, list[Entry]] = defaultdict(list)
        for entry in schedule:
            self.schedule[entry.timestep].append(entry)
        self.observer = observer
        if observer is not None:
            observer(0, self)

    def step(self, timestep: int) -> Tally:
        """Run the four phases of spec 4.3 once."""
        deploy(self, timestep)
        if not self.soldiers:
            return Tally()  # nothing to shoot at and nobody to act: cleanup would find nothing either
        fire_towers(self)
        act_soldiers(self)
        if self.observer is not None:
            self.observer(timestep, self)
        return clean_up(self)

    def is_inside(self, col: int, row: int) -> bool:
        return 0 <= col < self.config.width and 0 <= row < self.config.rows

    @property
    def tower_at(self) -> dict[tuple[int, int], LiveTower]:
        return {(t.col, t.row): t for t in self.towers}

    def frozen_towers(self) -> tuple[Tower, ...]:
        return tuple(Tower(t.type, t.col, t.row, t.hp) for t in self.towers)

    def hit_tower(self, tower: LiveTower, damage: int) -> None:
        """A soldier's hit (spec 5.2-5.3); a tower at HP <= 0 still blocks until cleanup."""
        tower.hp -= damage
        self.tower_hp -= damage
        if tower.hp <= 0 and self.live_towers >> tower.cell & 1:
            self.live_towers &= ~(1 << tower.cell)
            self.dying_towers += 1


def deploy(lane: Lane, timestep: int) -> None:
    """spec 4.3.1: this timestep's entries, in schedule order, at (col, deploy row), full HP, not stunned."""
    entries = lane.schedule.get(timestep)
    if not entries:
        return
    row = lane.config.deploy_row
    units = lane.config.units
    for entry in entries:
        cell = row * lane.width + entry.col
        soldier = Soldier(entry.soldier, entry.col, row, units[entry.soldier].hp, entry.stance, cell=cell)
        lane.soldiers.append(soldier)
        lane.cells[cell].append(soldier)
        lane.occupied |= 1 << cell


def fire_towers(lane: Lane) -> None:
    """spec 4.3.2 / 5.1: each tower in build order hits the first candidate in scan order."""
    units = lane.config.units
    for tower in lane.towers:
        if not tower.area & lane.occupied:
            continue  # no soldier in range: no candidate
        attack = TOWER_ATTACKS.get(tower.type)
        if attack is None or tower.hp <= 0:  # spec 4.3.2: blockades do nothing; D7: HP <= 0 never acts
            continue
        target = find_target(lane, tower, skip_stunned=attack is stun)
        if target is not None:
            attack(lane, target, units[tower.type].damage)


def find_target(lane: Lane, tower: LiveTower, skip_stunned: bool) -> Soldier | None:
    """spec 5.1: per cell in scan order, the latest arrival first; HP <= 0 skipped, and stunned for frost."""
    candidates = tower.area & lane.occupied
    while candidates:
        low = candidates & -candidates
        for soldier in reversed(lane.cells[low.bit_length() - 1]):
            if soldier.hp > 0 and not (skip_stunned and soldier.stunned):
                return soldier
        candidates ^= low
    return None


def hit_one(lane: Lane, target: Soldier, damage: int) -> None:
    target.hp -= damage  # spec 5.1 missile


def hit_cell(lane: Lane, target: Soldier, damage: int) -> None:
    for soldier in lane.cells[target.cell]:  # spec 5.1 rocket: one action, the whole cell
        soldier.hp -= damage


def stun(lane: Lane, target: Soldier, damage: int) -> None:
    target.hp -= damage  # spec 5.1 frost / D10: stunned for the rest of this timestep
    target.stunned = True


#: spec 5.1: what each attacking tower type does to its target (types absent here never attack).
TOWER_ATTACKS: dict[str, Callable[[Lane, Soldier, int], None]] = {
    "missile": hit_one,
    "rocket": hit_cell,
    "frost": stun,
}


def act_soldiers(lane: Lane) -> None:
    """spec 4.3.3 / 5.3: each soldier in soldier order scores, shoots, moves or hits the tower ahead."""
    config = lane.config
    goal, width, rows, units = config.goal_row, lane.width, config.rows, config.units
    grid = lane.grid
    for soldier in lane.soldiers:
        if soldier.hp <= 0 or soldier.stunned or soldier.scored:
            continue
        row = soldier.row
        if row == goal:  # spec 5.3.1 / D14: scoring is an action on the goal row
            soldier.scored = True
            continue
        stats = units[soldier.type]
        if soldier.stance is Stance.FIRE:  # spec 5.2: fire attacks the first tower in range with HP > 0
            in_range = lane.live_towers & area_mask(width, rows, soldier.col, row, stats.range)
            if in_range:
                lane.hit_tower(grid[lowest_cell(in_range)], stats.damage)  # type: ignore[arg-type]
                continue
        # spec 5.3.3-4: the horse (speed 2) jumps to row-2 when it has no tower; else a step, else hit
        # the tower ahead. "No tower" counts towers at HP <= 0 that cleanup has not removed yet.
        cell = soldier.cell
        for distance in range(stats.speed, 0, -1):
            if row - distance >= goal and grid[cell - distance * width] is None:
                move(lane, soldier, row - distance)
                break
        else:
            blocker = grid[cell - width]
            if blocker is not None and blocker.hp > 0:
                lane.hit_tower(blocker, stats.damage)


def move(lane: Lane, soldier: Soldier, row: int) -> None:
    """spec 5.3.5: leave the old cell's arrival list, join the end of the new one."""
    old = lane.cells[soldier.cell]
    old.remove(soldier)
    if not old:
        lane.occupied &= ~(1 << soldier.cell)
    soldier.row = row
    soldier.cell = cell = row * lane.width + soldier.col
    lane.cells[cell].append(soldier)
    lane.occupied |= 1 << cell


def clean_up(lane: Lane) -> Tally:
    """spec 4.3.4: scorers and dead soldiers leave (soldier order), stuns clear, dead towers leave (build order)."""
    tally = Tally()
    survivors = []
    for soldier in lane.soldiers:
        if soldier.scored:
            tally.scored += 1
        elif soldier.hp <= 0:
            tally.killed += 1
        else:
            soldier.stunned = False
            survivors.append(soldier)
            continue
        cell = lane.cells[soldier.cell]
        cell.remove(soldier)
        if not cell:
            lane.occupied &= ~(1 << soldier.cell)
    lane.soldiers = survivors
    if lane.dying_towers:
        units = lane.config.units
        for tower in lane.towers:
            if tower.hp <= 0:
                tally.towers_lost += 1
                tally.towers_value += units[tower.type].cost
                lane.grid[tower.cell] = None
                lane.tower_hp -= tower.hp
        lane.towers = [t for t in lane.towers if t.hp > 0]
        lane.dying_towers = 0
    return tally
