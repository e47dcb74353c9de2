"""Mutable game-state records. The engine updates them in place, round by round (speed matters).

Layouts chosen for the per-round work (issue 19): the board is a flat list indexed by `y * width + x`
(`GameState.grid` is a dict-like view of it), construction countdowns are one shared clock instead of a
decrement per building per round, and the buildings each phase scans (attackers, teslas, those still
under construction) and the income they generate are kept incrementally by the command phase.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, MutableMapping

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


class Building:
    """A placed building; `stats` holds the per-type values that the official engine copies (spec 2.3).

    Every building counts down its construction time every round, forever (spec 9.1.5). Instead of a
    decrement per building per round, the state keeps one clock (`clock[0]`, the number of countdowns so
    far) and a building stores `finish`, the clock value at which its countdown reads 0:
    construction_time_left == finish - clock[0], and it is constructed iff finish < clock[0]
    (the hot loops test that inline).
    """

    __slots__ = ("x", "y", "owner", "type", "stats", "health", "finish", "clock", "weapon_cooldown_time_left",
                 "cell")

    def __init__(self, x: int, y: int, owner: str, type: BuildingType, stats: BuildingStats, health: int,
                 construction_time_left: int, clock: list[int], width: int) -> None:
        self.x = x
        self.y = y
        self.owner = owner
        self.type = type
        self.stats = stats
        self.health = health
        self.clock = clock
        self.finish = construction_time_left + clock[0]
        self.weapon_cooldown_time_left = 0
        self.cell = y * width + x  # index into GameState.board

    @property
    def construction_time_left(self) -> int:
        return self.finish - self.clock[0]

    @construction_time_left.setter
    def construction_time_left(self, value: int) -> None:
        self.finish = value + self.clock[0]

    def __repr__(self) -> str:
        return (f"Building(x={self.x}, y={self.y}, owner={self.owner!r}, type={self.type.name}, "
                f"health={self.health}, construction_time_left={self.construction_time_left}, "
                f"weapon_cooldown_time_left={self.weapon_cooldown_time_left})")


class Missile:
    """A flying missile; its UUID-shaped id is derived from (match seed, creation serial) when first asked.

    Every missile of a match has the attack building's weapon speed, so it moves that many cells per round.
    """

    __slots__ = ("x", "y", "owner", "damage", "speed", "seed", "serial", "row", "_id")

    def __init__(self, x: int, y: int, owner: str, damage: int, speed: int, seed: int, serial: int,
                 width: int) -> None:
        self.x = x
        self.y = y
        self.owner = owner
        self.damage = damage
        self.speed = speed
        self.seed = seed
        self.serial = serial
        self.row = y * width  # board index of (0, y)
        self._id: str | None = None

    @property
    def id(self) -> str:
        # computed lazily: the engine never needs it, only the renderers do
        if self._id is None:
            self._id = missile_id(self.seed, self.serial)
        return self._id

    def __repr__(self) -> str:
        return f"Missile(x={self.x}, y={self.y}, owner={self.owner!r}, serial={self.serial})"


class Grid(MutableMapping):
    """The board as a mapping (x, y) -> Building over `GameState.board`, for readers that want a dict.

    Writing through it keeps the flat board in step; the engine itself indexes the board directly.
    """

    __slots__ = ("board", "width", "height")

    def __init__(self, board: list[Building | None], width: int, height: int) -> None:
        self.board = board
        self.width = width
        self.height = height

    def _index(self, key: tuple[int, int]) -> int:
        x, y = key
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise KeyError(key)
        return y * self.width + x

    def __getitem__(self, key: tuple[int, int]) -> Building:
        building = self.board[self._index(key)]
        if building is None:
            raise KeyError(key)
        return building

    def __setitem__(self, key: tuple[int, int], building: Building) -> None:
        self.board[self._index(key)] = building

    def __delitem__(self, key: tuple[int, int]) -> None:
        index = self._index(key)
        if self.board[index] is None:
            raise KeyError(key)
        self.board[index] = None

    def __contains__(self, key: object) -> bool:
        try:
            return self.board[self._index(key)] is not None  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError):
            return False

    def __iter__(self) -> Iterator[tuple[int, int]]:
        width = self.width
        return ((index % width, index // width) for index, b in enumerate(self.board) if b is not None)

    def __len__(self) -> int:
        return len(self.board) - self.board.count(None)

    def clear(self) -> None:
        self.board[:] = [None] * len(self.board)


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

    `buildings` is the board list (placement order matters for output, spec 9.1.19); `board` indexes it
    by engine cell `y * width + x` and `grid` is the same as a mapping (x, y) -> Building. `errors`,
    `tesla_hits` and `curtain_hits` describe the previous round (spec 3.2 phase 0).

    The rest is kept by the phases for speed and is never rendered: `clock` (construction countdowns so
    far), `attackers` and `teslas` (those buildings in board order), `unfinished` (buildings still under
    construction) and `income` (per player, what constructed buildings generate each round).
    """

    config: GameConfig
    players: dict[str, PlayerState]
    seed: int = 0
    command_order: CommandOrder = CommandOrder.B_FIRST
    round: int = 0
    buildings: list[Building] = attrs.field(factory=list)
    board: list[Building | None] = attrs.field(default=None)
    grid: Grid = attrs.field(default=None)
    missiles: list[Missile] = attrs.field(factory=list)
    errors: list[str] = attrs.field(factory=list)
    tesla_hits: list[list[HitCell]] = attrs.field(factory=list)
    curtain_hits: list[HitCell] = attrs.field(factory=list)
    missiles_created: int = 0
    destroyed_this_round: bool = False  # set when damage brings a building to 0; spares phase 7 a scan
    clock: list[int] = attrs.field(factory=lambda: [0])
    attackers: list[Building] = attrs.field(factory=list)
    teslas: list[Building] = attrs.field(factory=list)
    unfinished: list[Building] = attrs.field(factory=list)
    income: dict[str, int] = attrs.field(factory=lambda: dict.fromkeys(PLAYERS, 0))
    last_removed: Building | None = None  # scratch: the building the last deconstruct took off the board

    def __attrs_post_init__(self) -> None:
        if self.board is None:
            self.board = [None] * (self.config.map_width * self.config.map_height)
        if self.grid is None:
            self.grid = Grid(self.board, self.config.map_width, self.config.map_height)

    @classmethod
    def new(
        cls, config: GameConfig, seed: int = 0, command_order: CommandOrder = CommandOrder.B_FIRST
    ) -> "GameState":
        players = {p: PlayerState(p, config.start_energy, config.starting_health) for p in PLAYERS}
        return cls(config=config, players=players, seed=seed, command_order=command_order)
