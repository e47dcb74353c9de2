"""Mutable game-state records. The engine updates them in place, round by round (speed matters)."""

from __future__ import annotations

import enum

import attrs

from runner.games.tower_defence.engine.config import BuildingStats, BuildingType, GameConfig
from runner.games.tower_defence.engine.ids import missile_id

PLAYERS = ("A", "B")


def opponent_of(player: str) -> str:
    return "B" if player == "A" else "A"


class CommandOrder(enum.Enum):
    """Order in which the two players' commands are applied in phase 1 (spec 3.1, 3.4)."""

    B_FIRST = ("B", "A")
    A_FIRST = ("A", "B")

    @classmethod
    def parse(cls, text: str) -> "CommandOrder":
        """Accept `A,B` / `B,A` (the spelling of driver-notes.json) or the member name."""
        normal = text.strip().upper().replace(" ", "")
        for member in cls:
            if normal in (member.name, ",".join(member.value)):
                return member
        raise ValueError(f"command order {text!r} is not one of A,B or B,A")

    def __str__(self) -> str:
        return ",".join(self.value)


#: A cell marker in teslaHitList / ironCurtainHitList: (x, y, player), engine coordinates.
HitCell = tuple[int, int, str]


@attrs.define(eq=False)
class Building:
    """A placed building; `stats` holds the per-type values that the official engine copies (spec 2.3).

    Constructed iff construction_time_left <= -1 (the hot loops test that inline).
    """

    x: int
    y: int
    owner: str
    type: BuildingType
    stats: BuildingStats
    health: int
    construction_time_left: int
    weapon_cooldown_time_left: int = 0


@attrs.define(eq=False)
class Missile:
    """A flying missile; its UUID-shaped id is derived from (match seed, creation serial) when first asked."""

    x: int
    y: int
    owner: str
    damage: int
    speed: int
    moves_left: int
    seed: int
    serial: int
    _id: str | None = attrs.field(default=None, init=False, repr=False)

    @property
    def id(self) -> str:
        # computed lazily: the engine never needs it, only the renderers do
        if self._id is None:
            self._id = missile_id(self.seed, self.serial)
        return self._id


@attrs.define(eq=False)
class PlayerState:
    """One player's engine-side record (spec 2.2); `do_nothing_streak` is never rendered (spec 4.4)."""

    player: str
    energy: int
    health: int
    hits_taken: int = 0
    score: int = 0
    do_nothing_streak: int = 0
    can_place_iron_curtain: bool = False
    iron_curtain_time_left: int = 0

    @property
    def is_iron_curtain_active(self) -> bool:
        # spec 2.2: lifetime >= 0 counts as active, so both curtains are "active" at round 0
        return self.iron_curtain_time_left >= 0


@attrs.define(eq=False)
class GameState:
    """The whole world before round `round` is processed.

    `buildings` is the board list (placement order matters for output, spec 9.1.19); `grid` indexes it
    by engine cell. `errors`, `tesla_hits` and `curtain_hits` describe the previous round (spec 3.2 phase 0).
    """

    config: GameConfig
    players: dict[str, PlayerState]
    seed: int = 0
    command_order: CommandOrder = CommandOrder.B_FIRST
    round: int = 0
    buildings: list[Building] = attrs.field(factory=list)
    grid: dict[tuple[int, int], Building] = attrs.field(factory=dict)
    missiles: list[Missile] = attrs.field(factory=list)
    errors: list[str] = attrs.field(factory=list)
    tesla_hits: list[list[HitCell]] = attrs.field(factory=list)
    curtain_hits: list[HitCell] = attrs.field(factory=list)
    missiles_created: int = 0
    destroyed_this_round: bool = False  # set when damage brings a building to 0; spares phase 7 a scan

    @classmethod
    def new(
        cls, config: GameConfig, seed: int = 0, command_order: CommandOrder = CommandOrder.B_FIRST
    ) -> "GameState":
        players = {p: PlayerState(p, config.start_energy, config.starting_health) for p in PLAYERS}
        return cls(config=config, players=players, seed=seed, command_order=command_order)
