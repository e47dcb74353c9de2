"""One lane during a turn's 100 timesteps: deployment, towers, soldiers, cleanup (spec 4.3, 5).

The objects here are mutable and live only inside one turn; `rules/turn.py` builds them from the
immutable state and reads the towers back. Each lane is simulated on its own (spec 4.3: the lanes do
not affect each other within a turn); the tally of each timestep says what crosses to the players.
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


@attrs.define(eq=False, slots=True)
class LiveTower:
    type: str
    col: int
    row: int
    hp: int


@attrs.define(slots=True)
class Tally:
    """What one timestep's cleanup did on a lane (spec 4.3.4)."""

    scored: int = 0  # attacker's soldiers that scored: the defender loses that much HP
    killed: int = 0  # attacker's soldiers removed at HP <= 0: the defender's bounty
    towers_lost: int = 0  # defender's towers removed
    towers_value: int = 0  # their cost, paid to the attacker


@functools.cache
def scan_offsets(reach: int) -> tuple[tuple[int, int], ...]:
    """spec 5: dy from -R to +R outside, dx from -R to +R inside: rows nearer the goal first, then left to right."""
    return tuple((dx, dy) for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1))


class Lane:
    """The defender's towers and the attacker's soldiers on one lane for one turn."""

    def __init__(self, config: LanesConfig, towers: Iterable[Tower], schedule: Iterable[Entry]) -> None:
        self.config = config
        self.towers = [LiveTower(t.type, t.col, t.row, t.hp) for t in towers]  # build order
        self.tower_at = {(t.col, t.row): t for t in self.towers}
        self.soldiers: list[Soldier] = []  # spec 4.3.1: the soldier order
        self.cells: defaultdict[tuple[int, int], list[Soldier]] = defaultdict(list)  # arrival lists
        self.schedule: defaultdict[int, list[Entry]] = defaultdict(list)
        for entry in schedule:
            self.schedule[entry.timestep].append(entry)

    def step(self, timestep: int) -> Tally:
        """Run the four phases of spec 4.3 once."""
        deploy(self, timestep)
        if not self.soldiers:
            return Tally()  # nothing to shoot at and nobody to act: cleanup would find nothing either
        fire_towers(self)
        act_soldiers(self)
        return clean_up(self)

    def is_inside(self, col: int, row: int) -> bool:
        return 0 <= col < self.config.width and 0 <= row < self.config.rows

    def frozen_towers(self) -> tuple[Tower, ...]:
        return tuple(Tower(t.type, t.col, t.row, t.hp) for t in self.towers)


def deploy(lane: Lane, timestep: int) -> None:
    """spec 4.3.1: this timestep's entries, in schedule order, at (col, deploy row), full HP, not stunned."""
    row = lane.config.deploy_row
    for entry in lane.schedule.get(timestep, ()):
        soldier = Soldier(entry.soldier, entry.col, row, lane.config.units[entry.soldier].hp, entry.stance)
        lane.soldiers.append(soldier)
        lane.cells[(entry.col, row)].append(soldier)


def fire_towers(lane: Lane) -> None:
    """spec 4.3.2 / 5.1: each tower in build order hits the first candidate in scan order."""
    for tower in lane.towers:
        attack = TOWER_ATTACKS.get(tower.type)
        if attack is None or tower.hp <= 0:  # spec 4.3.2: blockades do nothing; D7: HP <= 0 never acts
            continue
        stats = lane.config.units[tower.type]
        target = find_target(lane, tower, stats.range, skip_stunned=attack is stun)
        if target is not None:
            attack(lane, target, stats.damage)


def find_target(lane: Lane, tower: LiveTower, reach: int, skip_stunned: bool) -> Soldier | None:
    """spec 5.1: per cell in scan order, the latest arrival first; HP <= 0 skipped, and stunned for frost."""
    for dx, dy in scan_offsets(reach):
        occupants = lane.cells.get((tower.col + dx, tower.row + dy))
        if not occupants:
            continue
        for soldier in reversed(occupants):
            if soldier.hp > 0 and not (skip_stunned and soldier.stunned):
                return soldier
    return None


def hit_one(lane: Lane, target: Soldier, damage: int) -> None:
    target.hp -= damage  # spec 5.1 missile


def hit_cell(lane: Lane, target: Soldier, damage: int) -> None:
    for soldier in lane.cells[(target.col, target.row)]:  # spec 5.1 rocket: one action, the whole cell
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
    goal = lane.config.goal_row
    for soldier in lane.soldiers:
        if soldier.hp <= 0 or soldier.stunned or soldier.scored:
            continue
        if soldier.row == goal:  # spec 5.3.1 / D14: scoring is an action on the goal row
            soldier.scored = True
            continue
        stats = lane.config.units[soldier.type]
        if soldier.stance is Stance.FIRE and shoot_nearby(lane, soldier, stats.range, stats.damage):
            continue  # spec 5.2: fire attacks any tower in range first
        advance(lane, soldier, stats.speed, stats.damage)


def shoot_nearby(lane: Lane, soldier: Soldier, reach: int, damage: int) -> bool:
    """spec 5.2 fire: hit the first tower in scan order with HP > 0; False when there is none."""
    for dx, dy in scan_offsets(reach):
        tower = lane.tower_at.get((soldier.col + dx, soldier.row + dy))
        if tower is not None and tower.hp > 0:
            tower.hp -= damage
            return True
    return False


def advance(lane: Lane, soldier: Soldier, speed: int, damage: int) -> None:
    """spec 5.3.3-4: the horse (speed 2) jumps to row-2 when it has no tower; else a step, else hit the tower.

    "No tower" counts towers at HP <= 0 that cleanup has not removed yet: they still block.
    """
    col, row = soldier.col, soldier.row
    for distance in range(speed, 0, -1):
        target_row = row - distance
        if target_row >= lane.config.goal_row and (col, target_row) not in lane.tower_at:
            move(lane, soldier, target_row)
            return
    blocker = lane.tower_at.get((col, row - 1))
    if blocker is not None and blocker.hp > 0:
        blocker.hp -= damage


def move(lane: Lane, soldier: Soldier, row: int) -> None:
    """spec 5.3.5: leave the old cell's arrival list, join the end of the new one."""
    lane.cells[(soldier.col, soldier.row)].remove(soldier)
    soldier.row = row
    lane.cells[(soldier.col, row)].append(soldier)


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
        lane.cells[(soldier.col, soldier.row)].remove(soldier)
    lane.soldiers = survivors
    if any(t.hp <= 0 for t in lane.towers):
        for tower in lane.towers:
            if tower.hp <= 0:
                tally.towers_lost += 1
                tally.towers_value += lane.config.units[tower.type].cost
                del lane.tower_at[(tower.col, tower.row)]
        lane.towers = [t for t in lane.towers if t.hp > 0]
    return tally
