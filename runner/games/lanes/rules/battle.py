"""One lane during a turn's 100 timesteps: deployment, towers, soldiers, cleanup (spec 4.3, 5).

The objects here are mutable and live only inside one turn; `rules/turn.py` builds them from the
immutable state and reads the towers back. Each lane is simulated on its own (spec 4.3: the lanes do
not affect each other within a turn); the lane keeps the turn's running totals of what crosses to the
players (scores, kills, towers lost and their price), and `turn.py` reads them after each timestep.

Speed (benchmarks/lanes.py --reference): a turn is mostly soldiers acting, up to 100 times each, so
that path is written for CPython: one function (`act_soldiers`) with the move inlined, the lane's
fields read into local variables once per timestep, each soldier carrying its own numbers (copied from
the unit table when the lane is set up, where every soldier of the turn is made), and no object made
per timestep. The geometry is precomputed once per board size (`areas_by_cell`, `cell_bits`): a cell is a flat index
`row * width + col`, so ascending indexes inside a unit's square are exactly the spec 5 scan order (rows
nearer the goal first, then left to right), and the goal row is the cells below `width`. Two bit masks
over those indexes, the cells holding soldiers and the cells holding a tower with HP > 0, let a unit
find its first candidate cell with one AND and the lowest set bit instead of visiting up to 25 cells;
the candidates inside that cell are then checked exactly as the spec says. The arrival lists and the
occupied mask are read only by towers that attack (their targets, the rocket's cell), so a lane keeps
them only while it has such a tower with HP > 0 (`Lane.tracking`): no tower is built during a turn, so
once the last one falls, or on a lane that never had one, nothing can read them again. Soldiers that
leave (score or die) are noted as it happens, so the cleanup touches only them, and a timestep where
none leaves, none is stunned and no tower falls costs the cleanup one test.

A lane may carry an observer (the HTML replay's recorder; the rules never need one): it sees the lane as
set up (timestep 0) and after each timestep's actions, just before the cleanup, when dying soldiers and
towers, scorers and stuns are still there to be seen. Without one the cost is a single test per timestep
with soldiers on the lane.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

import attrs

from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.orders import Stance
from runner.games.lanes.rules.state import Entry, Tower


@attrs.define(eq=False, slots=True)
class Soldier:
    """A deployed soldier; equality is identity, so arrival lists can remove exactly this one.

    `speed`, `damage` and `areas` are the unit table's numbers for its type, copied at deployment so the
    action loop reads one attribute instead of a table lookup; `strides` are the cell offsets of its
    moves, farthest first (the horse's (2 * width, width)); `plain` says it walks one step and never
    fires (the loop's short path): `areas[cell]` is the mask of the cells in
    fire range from `cell`, None for a soldier in advance stance (spec 5.2: it never shoots). Its place
    is `cell` alone (a move writes one attribute); `row` is worked out from it for whoever asks.
    """

    type: str
    col: int
    hp: int
    stance: Stance
    stunned: bool
    scored: bool
    cell: int  # row * width + col
    speed: int
    strides: tuple[int, ...]
    damage: int
    areas: tuple[int, ...] | None
    plain: bool  # speed 1, advance stance
    width: int  # the board's

    @property
    def row(self) -> int:
        return self.cell // self.width


@attrs.define(eq=False, slots=True)
class LiveTower:
    """A tower during the turn; `record` is the state's record it was made from, kept for the next
    state while the tower is not hit (making a frozen record costs far more than reusing one).
    `attack` (None for a type that never attacks) and `damage` are looked up once, at set-up."""

    type: str
    col: int
    row: int
    hp: int
    cell: int = 0  # row * width + col
    area: int = 0  # mask of the cells in its range
    record: Tower | None = None
    attack: Callable[[Lane, Soldier, int], None] | None = None
    damage: int = 0


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


@functools.cache
def areas_by_cell(width: int, rows: int, reach: int) -> tuple[int, ...]:
    """`area_mask` of every cell of the board, by flat index: a soldier's fire range is one index away."""
    return tuple(area_mask(width, rows, cell % width, cell // width, reach) for cell in range(width * rows))


@functools.cache
def cell_bits(cells: int) -> tuple[int, ...]:
    """`1 << cell` for every cell, made once: the masks are wider than a machine word, so each shift
    would build a new integer."""
    return tuple(1 << cell for cell in range(cells))


def lowest_cell(mask: int) -> int:
    """The smallest flat index in a non-empty mask: the first cell in scan order."""
    return (mask & -mask).bit_length() - 1


class Lane:
    """The defender's towers and the attacker's soldiers on one lane for one turn.

    `scored`, `killed`, `towers_lost` and `towers_value` are the turn's totals so far (a `Tally` summed
    over the timesteps played); `tower_hp` is the towers' total HP now (spec 11 steps).
    """

    def __init__(self, config: LanesConfig, towers: Iterable[Tower], schedule: Iterable[Entry],
                 observer: LaneObserver | None = None) -> None:
        self.config = config
        width, rows = config.width, config.rows
        self.width = width
        self.bits = cell_bits(width * rows)
        self.towers: list[LiveTower] = []  # build order
        self.grid: list[LiveTower | None] = [None] * (width * rows)  # blocking towers, HP <= 0 included
        self.live_towers = 0  # mask of cells whose tower has HP > 0 (what towers may be shot at)
        self.tower_hp = 0  # the towers' total HP (spec 11 steps), kept as they are hit and removed
        for t in towers:
            cell = t.row * width + t.col
            reach = config.units[t.type].range
            tower = LiveTower(t.type, t.col, t.row, t.hp, cell, area_mask(width, rows, t.col, t.row, reach), t,
                              TOWER_ATTACKS.get(t.type), config.units[t.type].damage)
            self.towers.append(tower)
            self.grid[cell] = tower
            if tower.hp > 0:
                self.live_towers |= 1 << cell
            self.tower_hp += tower.hp
        self.dying_towers = sum(t.hp <= 0 for t in self.towers)  # towers at HP <= 0 that cleanup removes
        self.attackers = [t for t in self.towers if t.attack is not None]  # build order; blockades never act
        self.tracking = has_attackers(self.attackers)  # keep `cells` and `occupied` (see the module's docstring)
        self.soldiers: list[Soldier] = []  # spec 4.3.1: the soldier order
        # arrival lists, made only for a lane that will keep them
        self.cells: list[list[Soldier]] = [[] for _ in range(width * rows)] if self.tracking else []
        self.occupied = 0  # mask of cells whose arrival list is not empty
        self.leaving: list[Soldier] = []  # scored or at HP <= 0 this timestep: what cleanup removes
        self.stunned: list[Soldier] = []  # stunned this timestep: what cleanup wakes
        self.scored = self.killed = self.towers_lost = self.towers_value = 0
        self.schedule: dict[int, list[Soldier]] = {}
        deploy_row = config.deploy_row
        first = deploy_row * width  # the deploy row's first cell
        made: dict[tuple[str, Stance], tuple[int, int, tuple[int, ...], int, tuple[int, ...] | None]] = {}
        for entry in schedule:
            kind, stance = entry.soldier, entry.stance
            numbers = made.get((kind, stance))
            if numbers is None:  # (hp, speed, strides, damage, fire areas) of this type and stance, looked up once
                stats = config.units[kind]
                areas = areas_by_cell(width, rows, stats.range) if stance is Stance.FIRE else None
                strides = tuple(distance * width for distance in range(stats.speed, 0, -1))
                numbers = made[kind, stance] = (stats.hp, stats.speed, strides, stats.damage, areas)
            hp, speed, strides, damage, areas = numbers
            # positional: keywords cost twice as much here
            soldier = Soldier(kind, entry.col, hp, stance, False, False, first + entry.col, speed, strides, damage,
                              areas, speed == 1 and areas is None, width)
            arriving = self.schedule.get(entry.timestep)
            if arriving is None:
                self.schedule[entry.timestep] = [soldier]
            else:
                arriving.append(soldier)
        self.observer = observer
        if observer is not None:
            observer(0, self)

    def step(self, timestep: int) -> Tally:
        """Run the four phases of spec 4.3 once and say what the cleanup did."""
        before = (self.scored, self.killed, self.towers_lost, self.towers_value)
        self.play(timestep)
        return Tally(self.scored - before[0], self.killed - before[1], self.towers_lost - before[2],
                     self.towers_value - before[3])

    def play(self, timestep: int) -> None:
        """Run the four phases of spec 4.3 once, adding to the turn's totals."""
        arriving = self.schedule.get(timestep)
        if arriving is not None:
            deploy(self, arriving)
        elif not self.soldiers:
            return  # nothing to shoot at and nobody to act: cleanup would find nothing either
        if self.tracking:
            fire_towers(self)
        act_soldiers(self)
        if self.observer is not None:
            self.observer(timestep, self)
        if self.leaving or self.stunned or self.dying_towers:
            clean_up(self)

    def is_inside(self, col: int, row: int) -> bool:
        return 0 <= col < self.config.width and 0 <= row < self.config.rows

    @property
    def tower_at(self) -> dict[tuple[int, int], LiveTower]:
        return {(t.col, t.row): t for t in self.towers}

    def frozen_towers(self) -> tuple[Tower, ...]:
        """The towers for the next state: an untouched tower keeps its record."""
        return tuple(t.record if t.record is not None and t.record.hp == t.hp else Tower(t.type, t.col, t.row, t.hp)
                     for t in self.towers)

    def hit_tower(self, tower: LiveTower, damage: int) -> None:
        """A soldier's hit (spec 5.2-5.3); a tower at HP <= 0 still blocks until cleanup."""
        tower.hp -= damage
        self.tower_hp -= damage
        if tower.hp <= 0 and self.live_towers >> tower.cell & 1:
            self.live_towers &= ~(1 << tower.cell)
            self.dying_towers += 1


def has_attackers(towers: Iterable[LiveTower]) -> bool:
    """Whether a tower can still attack this turn: one of an attacking type with HP > 0 (D7)."""
    return any(tower.hp > 0 and tower.attack is not None for tower in towers)


def deploy(lane: Lane, arriving: list[Soldier]) -> None:
    """spec 4.3.1: this timestep's entries, in schedule order, at (col, deploy row), full HP, not stunned.

    The soldiers were made with the lane (one list per timestep); each enters once, as the timesteps
    never repeat within a turn.
    """
    if lane.tracking:
        cells, bits = lane.cells, lane.bits
        occupied = lane.occupied
        for soldier in arriving:
            cell = soldier.cell
            cells[cell].append(soldier)
            occupied |= bits[cell]
        lane.occupied = occupied
    lane.soldiers += arriving


def fire_towers(lane: Lane) -> None:
    """spec 4.3.2 / 5.1: each tower in build order hits the first candidate in scan order.

    Only the towers of an attacking type are visited (spec 4.3.2: blockades do nothing); the occupied
    mask does not change while towers fire, so it is read once.
    """
    occupied, cells = lane.occupied, lane.cells
    for tower in lane.attackers:
        candidates = tower.area & occupied
        if not candidates or tower.hp <= 0:  # no soldier in range: no candidate; D7: HP <= 0 never acts
            continue
        attack = tower.attack
        target = find_target(cells, candidates, attack is stun)
        if target is not None:
            attack(lane, target, tower.damage)  # type: ignore[misc]


def find_target(cells: list[list[Soldier]], candidates: int, skip_stunned: bool) -> Soldier | None:
    """spec 5.1: per cell in scan order, the latest arrival first; HP <= 0 skipped, and stunned for frost.

    `candidates` is the tower's range AND the occupied cells."""
    while candidates:
        low = candidates & -candidates
        for soldier in reversed(cells[low.bit_length() - 1]):
            if soldier.hp > 0 and not (skip_stunned and soldier.stunned):
                return soldier
        candidates ^= low
    return None


def hit_one(lane: Lane, target: Soldier, damage: int) -> None:
    """spec 5.1 missile. A target has HP > 0 (find_target), so the hit that leaves it at HP <= 0 is the
    one that kills it: it is marked for cleanup (spec 4.3.4a)."""
    target.hp -= damage
    if target.hp <= 0:
        lane.leaving.append(target)


def hit_cell(lane: Lane, target: Soldier, damage: int) -> None:
    """spec 5.1 rocket: one action, the whole cell, the dead included (only a living one can be killed)."""
    for soldier in lane.cells[target.cell]:
        was = soldier.hp
        soldier.hp = was - damage
        if was > 0 >= was - damage:
            lane.leaving.append(soldier)


def stun(lane: Lane, target: Soldier, damage: int) -> None:
    """spec 5.1 frost / D10: a hit as the missile's, and stunned for the rest of this timestep."""
    hit_one(lane, target, damage)
    target.stunned = True
    lane.stunned.append(target)


#: spec 5.1: what each attacking tower type does to its target (types absent here never attack).
TOWER_ATTACKS: dict[str, Callable[[Lane, Soldier, int], None]] = {
    "missile": hit_one,
    "rocket": hit_cell,
    "frost": stun,
}


def act_soldiers(lane: Lane) -> None:
    """spec 4.3.3 / 5.3: each soldier in soldier order scores, shoots, moves or hits the tower ahead.

    The hot loop of the game: the move (spec 5.3.5: leave the old cell's arrival list, join the end of
    the new one, keep the occupied mask) is written out here rather than called, everything the loop
    reads more than once is a local variable, and the common case (one step ahead into a free cell) is
    tested first.
    """
    width = lane.width
    grid, cells, bits, leaving = lane.grid, lane.cells, lane.bits, lane.leaving
    occupied, tracking = lane.occupied, lane.tracking
    # spec 5.3: a soldier at HP <= 0, stunned or scored does nothing. Only this timestep's towers can
    # have killed or stunned one (the cleanup removes the dead and wakes the stunned each timestep), and
    # they noted each; none has scored yet (the cleanup removes every scorer the timestep it scores).
    some_idle = bool(leaving or lane.stunned)
    for soldier in lane.soldiers:
        if some_idle and (soldier.hp <= 0 or soldier.stunned):
            continue
        cell = soldier.cell
        if cell < width:  # spec 5.3.1 / D14: scoring is an action on the goal row (row 0)
            soldier.scored = True
            leaving.append(soldier)
            continue
        # spec 5.3.3-4: the horse (speed 2) jumps to row-2 when it has no tower; else a step, else hit
        # the tower ahead. "No tower" counts towers at HP <= 0 that cleanup has not removed yet. A target
        # cell `to` is on the board exactly when to >= 0 (the goal row is row 0).
        to = cell - width
        if soldier.plain:  # one step or a hit on the tower ahead
            blocker = grid[to]
            if blocker is not None:
                if blocker.hp > 0:
                    lane.hit_tower(blocker, soldier.damage)
                continue
        else:
            if soldier.areas is not None and lane.live_towers:  # spec 5.2: fire attacks the first tower in
                in_range = lane.live_towers & soldier.areas[cell]  # range with HP > 0
                if in_range:
                    lane.hit_tower(grid[lowest_cell(in_range)], soldier.damage)  # type: ignore[arg-type]
                    continue
            for stride in soldier.strides:
                to = cell - stride
                if to >= 0 and grid[to] is None:
                    break
            else:
                blocker = grid[cell - width]
                if blocker is not None and blocker.hp > 0:
                    lane.hit_tower(blocker, soldier.damage)
                continue
        soldier.cell = to
        if tracking:
            here = cells[cell]
            here.remove(soldier)
            if not here:
                occupied ^= bits[cell]
            there = cells[to]
            if not there:
                occupied |= bits[to]
            there.append(soldier)
    lane.occupied = occupied


def clean_up(lane: Lane) -> None:
    """spec 4.3.4: scorers and dead soldiers leave, stuns clear, dead towers leave (build order).

    Only the soldiers noted as leaving are visited; the order they are removed in changes nothing (each
    removal keeps the order of the rest), and the counts are all the players see.
    """
    if lane.leaving:
        soldiers, cells, bits = lane.soldiers, lane.cells, lane.bits
        for soldier in lane.leaving:
            if soldier.scored:
                lane.scored += 1
            else:
                lane.killed += 1
            soldiers.remove(soldier)
            if lane.tracking:
                here = cells[soldier.cell]
                here.remove(soldier)
                if not here:
                    lane.occupied ^= bits[soldier.cell]
        lane.leaving.clear()
    if lane.stunned:
        for soldier in lane.stunned:
            soldier.stunned = False
        lane.stunned.clear()
    if lane.dying_towers:
        units = lane.config.units
        for tower in lane.towers:
            if tower.hp <= 0:
                lane.towers_lost += 1
                lane.towers_value += units[tower.type].cost
                lane.grid[tower.cell] = None
                lane.tower_hp -= tower.hp
        lane.towers = [t for t in lane.towers if t.hp > 0]
        lane.dying_towers = 0
        lane.attackers = [t for t in lane.attackers if t.hp > 0]
        lane.tracking = lane.tracking and has_attackers(lane.attackers)
