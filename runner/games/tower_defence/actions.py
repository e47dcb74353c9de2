"""Tower Defence moves as one discrete action space, with the mask of the moves the rules accept this round.

For the in-process API (runner/api), which reaches it through the game's `action_space(config)` hook and never
imports this package. Action 0 is "do nothing"; action `1 + (y * half + x) * 6 + kind` is the command
`x,y,kind` in the player's own view (x 0..half-1 on the left, as every bot sees itself). The iron curtain
(kind 5) ignores its cell (spec 4.3), so its `half * height` actions are one move: all masked alike, and
`decode` gives the cell back as it was encoded.

The mask is computed from the seat's own view (state.json as data), so a bot folder that wraps a Python agent
computes exactly the same mask from the state.json it reads (`mask`); in-process, the session computes the same
mask from the engine state without a view (`state_masks`, tested equal to `mask` on thousands of states). Pure:
no I/O, no numpy (the core install has none); the API turns the list or bytes into an array.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from runner.games.tower_defence.engine.commands import DECONSTRUCT, IRON_CURTAIN
from runner.games.tower_defence.engine.config import BuildingType, GameConfig
from runner.games.tower_defence.engine.state import PLAYERS, GameState

KINDS = 6  # spec 4.2: 0 defence, 1 attack, 2 energy, 3 deconstruct, 4 tesla, 5 iron curtain
MAX_TESLAS = 2  # engine/phases.py _build: "No more than 2 tesla towers allowed per player"
DO_NOTHING = 0
_COMMAND = re.compile(r"(\d+),(\d+),(\d+)")
_PRICE_KEYS = {kind.value: kind.name for kind in BuildingType}  # 0 -> "DEFENSE", ... (buildingPrices keys)


@attrs.frozen
class ActionSpace:
    """The moves of one board size: `size` actions, `encode`/`decode` between them and command text."""

    half: int = 8  # columns of a player's own half
    height: int = 8

    @property
    def size(self) -> int:
        return 1 + self.half * self.height * KINDS

    def decode(self, action: int) -> str:
        """Action number -> the command text a bot writes ("" for do nothing); ValueError outside the space."""
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < self.size:
            raise ValueError(f"action must be an integer from 0 to {self.size - 1}, got {action!r}")
        if action == DO_NOTHING:
            return ""
        cell, kind = divmod(action - 1, KINDS)
        y, x = divmod(cell, self.half)
        return f"{x},{y},{kind}"

    def encode(self, command: str) -> int:
        """Command text `x,y,kind` (or "" for do nothing) -> its action number; ValueError for anything else."""
        if not isinstance(command, str):
            raise ValueError(f"a command is text like '3,4,1', got {type(command).__name__} {command!r}")
        if command == "":
            return DO_NOTHING
        found = _COMMAND.fullmatch(command)
        if found is None:
            raise ValueError(f"command {command!r} is not 'x,y,kind' with three non-negative integers")
        x, y, kind = (int(number) for number in found.groups())
        if x >= self.half or y >= self.height:
            raise ValueError(f"command {command!r}: cell ({x},{y}) is outside your half "
                             f"(x 0..{self.half - 1}, y 0..{self.height - 1})")
        if kind >= KINDS:
            raise ValueError(f"command {command!r}: kind {kind} is not 0..{KINDS - 1}")
        return 1 + (y * self.half + x) * KINDS + kind

    def mask(self, view: Mapping[str, Any]) -> list[int]:
        """1 for each action the engine accepts in the state `view` (the seat's own state.json), else 0.

        Mirrors engine/phases.py run_command: a building needs a free cell of your half, its price in energy
        and, for a tesla, fewer than two teslas; deconstruct needs a building there; the iron curtain needs
        availability, its price, and no curtain active (lifetime < 1). Do nothing is always accepted.
        """
        details = view["gameDetails"]
        if (details["mapWidth"] // 2, details["mapHeight"]) != (self.half, self.height):
            raise ValueError(f"the state's board is {details['mapWidth']}x{details['mapHeight']}, but this action "
                             f"space is for {self.half * 2}x{self.height}")
        me = next(player for player in view["players"] if player["playerType"] == "A")
        energy = me["energy"]
        prices = details["buildingPrices"]
        rows = view["gameMap"]
        taken: list[bool] = []
        teslas = 0
        for row in rows[: self.height]:
            for cell in row[: self.half]:
                buildings = cell["buildings"]
                taken.append(bool(buildings))
                teslas += sum(1 for b in buildings if b["playerType"] == "A" and b["buildingType"] == "TESLA")
        curtain = int(
            me["ironCurtainAvailable"]
            and energy >= details["ironCurtainStats"]["price"]
            and me["activeIronCurtainLifetime"] < 1
        )
        # one 6-entry pattern for a free cell and one for a built cell, in kind order 0..5
        free = [int(energy >= prices[_PRICE_KEYS[kind]]) if kind in _PRICE_KEYS else 0 for kind in range(KINDS)]
        if teslas >= MAX_TESLAS:
            free[BuildingType.TESLA.value] = 0
        free[IRON_CURTAIN] = curtain
        built = [0] * KINDS
        built[DECONSTRUCT] = 1
        built[IRON_CURTAIN] = curtain
        mask = [1]
        for is_taken in taken:
            mask += built if is_taken else free
        return mask


_BUILT = bytes([0, 0, 0, 1, 0, 0])  # a built cell: only deconstruct (and the curtain, set per round)
_BUILT_CURTAIN = bytes([0, 0, 0, 1, 0, 1])  # a built cell when the iron curtain is allowed


class StateMasks:
    """`ActionSpace.mask` of both players' views, computed from the engine state of one config's games."""

    def __init__(self, config: GameConfig) -> None:
        width, half = config.map_width, config.half
        # per seat, its own cells in action order (view row-major over its half): B's view is mirrored
        cells = {
            "A": [y * width + x for y in range(config.map_height) for x in range(half)],
            "B": [y * width + width - 1 - x for y in range(config.map_height) for x in range(half)],
        }
        #: per engine cell, where its KINDS actions start in its half's owner's mask (the halves are disjoint)
        self.offsets = [0] * (width * config.map_height)
        for seat_cells in cells.values():
            for index, cell in enumerate(seat_cells):
                self.offsets[cell] = 1 + index * KINDS
        self.cell_count = half * config.map_height
        buildings = config.buildings
        self.prices = tuple(buildings[kind].price for kind in (
            BuildingType.DEFENSE, BuildingType.ATTACK, BuildingType.ENERGY, BuildingType.TESLA))
        self.curtain_price = config.iron_curtain.price
        #: the whole mask of a board without buildings, per (defence, attack, energy, tesla, curtain) allowed
        self._all_free: dict[tuple[bool, ...], bytes] = {}

    def masks(self, state: GameState) -> dict[str, bytearray]:
        """Each seat's mask, a new bytearray (1 byte per action, 0 or 1) the caller may keep and change: the
        rules of `ActionSpace.mask`, read from the engine (the players, their buildings, their teslas)
        instead of the view.

        Each mask starts as every cell free, then each building marks its cell built: a building stands on
        its owner's half (engine/phases.py `_build`), and `state.buildings` holds exactly the board's
        buildings, so this is the same as testing every cell of the board, for a third of the cost.
        """
        defence, attack, energy_price, tesla = self.prices
        tesla_owners = [b.owner for b in state.teslas] if state.teslas else ()
        masks = {}
        built_of = {}
        for seat in PLAYERS:
            me = state.players[seat]
            energy = me.energy
            curtain = (me.can_place_iron_curtain and energy >= self.curtain_price
                       and me.iron_curtain_time_left < 1)
            key = (energy >= defence, energy >= attack, energy >= energy_price,
                   energy >= tesla and tesla_owners.count(seat) < MAX_TESLAS, bool(curtain))
            empty = self._all_free.get(key)
            if empty is None:  # at most 32 patterns per config
                defence_ok, attack_ok, energy_ok, tesla_ok, curtain_ok = key
                free = bytes([defence_ok, attack_ok, energy_ok, 0, tesla_ok, curtain_ok])
                empty = self._all_free[key] = b"\x01" + free * self.cell_count
            built_of[seat] = _BUILT_CURTAIN if curtain else _BUILT
            masks[seat] = bytearray(empty)
        offsets = self.offsets
        for building in state.buildings:
            start = offsets[building.cell]
            owner = building.owner
            masks[owner][start:start + KINDS] = built_of[owner]
        return masks


def action_space(config: GameConfig) -> ActionSpace:
    """The action space of a board (the game's `action_space` hook for runner.api)."""
    return ActionSpace(config.half, config.map_height)
