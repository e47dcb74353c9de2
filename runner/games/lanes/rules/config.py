"""Every number of the game in one record, with the spec's values as defaults (spec 2, 3, 4.1, 6)."""

from __future__ import annotations

import enum
from collections.abc import Mapping

import attrs


class Kind(enum.Enum):
    TOWER = "tower"
    SOLDIER = "soldier"


@attrs.frozen
class UnitStats:
    """One row of the unit table (spec 3). `speed` is 0 for towers; a speed of 2 means the horse's jump."""

    kind: Kind
    letter: str
    hp: int
    damage: int
    range: int
    speed: int
    cost: int


def _default_units() -> dict[str, UnitStats]:
    # spec 3: the framework's constructors, with the shield's range 1 (D8); the order is the spec's
    tower, soldier = Kind.TOWER, Kind.SOLDIER
    return {
        "missile": UnitStats(tower, "M", hp=10, damage=2, range=2, speed=0, cost=3),
        "rocket": UnitStats(tower, "R", hp=10, damage=1, range=2, speed=0, cost=3),
        "frost": UnitStats(tower, "F", hp=10, damage=1, range=1, speed=0, cost=3),
        "blockade": UnitStats(tower, "B", hp=30, damage=0, range=0, speed=0, cost=1),
        "shield": UnitStats(soldier, "s", hp=5, damage=1, range=1, speed=1, cost=2),
        "rifle": UnitStats(soldier, "r", hp=3, damage=1, range=2, speed=1, cost=2),
        "bomb": UnitStats(soldier, "b", hp=3, damage=3, range=1, speed=1, cost=3),
        "horse": UnitStats(soldier, "h", hp=3, damage=1, range=1, speed=2, cost=3),
    }


@attrs.frozen
class LanesConfig:
    """The rule numbers. The defaults are spec v1; a game-config.json may change them (protocol/config.py)."""

    width: int = 7  # spec 2: columns 0..6
    rows: int = 21  # spec 2 / D1: rows 0..20, row 20 is the deploy row
    max_towers_per_row: int = 6  # spec 2 / D3
    start_hp: int = 10  # spec 4.1 / D22
    start_money: int = 100
    income: int = 1  # spec 4.2.3 / D4: per turn, not per timestep
    kill_bounty: int = 1  # spec 4.3.4a
    max_turns: int = 100  # spec 4.4 / D11
    timesteps: int = 100  # spec 4.2.2
    max_count: int = 1000  # spec 10.3: count 1..1000
    units: Mapping[str, UnitStats] = attrs.field(factory=_default_units)

    @property
    def deploy_row(self) -> int:
        return self.rows - 1

    @property
    def goal_row(self) -> int:
        return 0

    @property
    def max_build_row(self) -> int:
        return self.rows - 2  # spec 2 / D2: no tower on the deploy row

    @property
    def tower_types(self) -> tuple[str, ...]:
        return tuple(name for name, stats in self.units.items() if stats.kind is Kind.TOWER)

    @property
    def soldier_types(self) -> tuple[str, ...]:
        return tuple(name for name, stats in self.units.items() if stats.kind is Kind.SOLDIER)
