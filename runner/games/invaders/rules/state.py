"""The game state of spec 3: two rows of 100 cells and the two economies. Mutable, because a game runs
tens of thousands of turns and copying 200 cells per turn would dominate the cost of a turn."""

from __future__ import annotations

import attrs

from runner.games.invaders.rules import constants as C


@attrs.define(eq=False)
class Invader:
    """One unit on the invader row (spec 3); `pos` always equals its cell index."""

    pos: int
    hp: int
    maxhp: int
    defense: int
    stun_res: int
    stun_time: int = 0


@attrs.define(eq=False)
class Tower:
    """One tower on the tower row (spec 3); `range` and `type` keep the reference's names."""

    pos: int
    type: str
    level: int = 0
    power: int = 1
    range: int = 1
    cooldown: int = C.BUILD_TIME


@attrs.define(eq=False)
class State:
    """Everything the rules read and write (spec 3). Empty cells are None; indices are always 0..99."""

    invaders: list[Invader | None] = attrs.Factory(lambda: [None] * C.BOARD_LENGTH)
    towers: list[Tower | None] = attrs.Factory(lambda: [None] * C.BOARD_LENGTH)
    turn: int = 0
    invader_gold: int = C.INVADER_INITIAL_GOLD
    invader_income: int = C.INVADER_INITIAL_INCOME
    invader_boost_max: int = C.INVADER_INITIAL_MAXBOOST
    hp_multiplier: float = 1.0
    turns_since_spawn: int = 0
    defender_gold: int = C.DEFENDER_INITIAL_GOLD
    defender_life: int = C.DEFENDER_INITIAL_LIFE

    @property
    def invaders_through(self) -> int:
        """How many invaders walked off the end (spec 16 `thru`)."""
        return C.DEFENDER_INITIAL_LIFE - self.defender_life


def new_tower(pos: int, kind: str) -> Tower:
    """A freshly built tower: power 1, the type's range, locked for BUILD_TIME turns (spec 3, 4 J)."""
    return Tower(pos=pos, type=kind, range=C.INITIAL_RANGE[kind])
