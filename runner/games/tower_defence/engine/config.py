"""The game rules as numbers: one immutable record, loaded elsewhere (runner/config.py)."""

from __future__ import annotations

import enum

import attrs


class BuildingType(enum.IntEnum):
    """Building kinds, valued by their command index (spec 4.2: 0 DEFENSE, 1 ATTACK, 2 ENERGY, 4 TESLA).

    An IntEnum so that its members hash at C speed: renderers key their caches by building type.
    """

    DEFENSE = 0
    ATTACK = 1
    ENERGY = 2
    TESLA = 4


#: Fixed order of the text map's stats rows and of our JSON `buildingPrices`/`buildingsStats` (spec 7.1, 9.2).
STATS_ORDER = (BuildingType.ATTACK, BuildingType.DEFENSE, BuildingType.ENERGY, BuildingType.TESLA)


@attrs.frozen
class BuildingStats:
    """What every building of one type starts with (copied into the building at placement, spec 2.3)."""

    health: int
    construction_time: int
    price: int
    weapon_damage: int
    weapon_speed: int
    weapon_cooldown_period: int
    destroy_multiplier: int
    construction_score: int
    energy_generated_per_turn: int
    max_range: int
    icon: str
    energy_per_shot: int = 0


@attrs.frozen
class IronCurtainStats:
    price: int
    active_rounds: int
    reset_period: int
    construction_score: int


def _default_buildings() -> dict[BuildingType, BuildingStats]:
    return {
        BuildingType.DEFENSE: BuildingStats(20, 3, 30, 0, 0, 0, 1, 10, 0, 0, "D"),
        BuildingType.ATTACK: BuildingStats(5, 1, 30, 5, 2, 3, 1, 4, 0, 0, "A"),
        BuildingType.ENERGY: BuildingStats(5, 1, 20, 0, 0, 0, 1, 3, 3, 0, "E"),
        BuildingType.TESLA: BuildingStats(5, 10, 100, 20, 0, 10, 10, 20, 0, 9, "T", energy_per_shot=100),
    }


@attrs.frozen
class GameConfig:
    """Tower Defence rules. Defaults are the official 3.0.2 `game-config.properties` (spec 1.1)."""

    map_width: int = 16
    map_height: int = 8
    max_rounds: int = 400
    start_energy: int = 20
    round_income_energy: int = 5
    starting_health: int = 100
    health_score_multiplier: int = 15
    energy_score_multiplier: int = 1
    deconstruction_refund_amount: int = 5
    max_do_nothings: int = 50
    buildings: dict[BuildingType, BuildingStats] = attrs.field(factory=_default_buildings)
    iron_curtain: IronCurtainStats = attrs.field(factory=lambda: IronCurtainStats(100, 6, 30, 20))

    @property
    def half(self) -> int:
        """Columns per player: A owns x < half, B owns x >= half."""
        return self.map_width // 2
