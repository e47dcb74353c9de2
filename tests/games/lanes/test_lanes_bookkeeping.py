"""The engine's shortcuts (rules/battle.py) change nothing: a lane that drops its arrival lists once no
tower can attack plays every timestep exactly as one that keeps them to the end."""

from __future__ import annotations

import random

import pytest

from runner.games.lanes.rules.battle import Lane
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.orders import Stance
from runner.games.lanes.rules.state import Entry, Tower

CONFIG = LanesConfig()
SOLDIERS = ("shield", "rifle", "bomb", "horse")


def schedule(seed: int) -> list[Entry]:
    rng = random.Random(seed)
    return [Entry(rng.randint(1, 60), rng.randrange(CONFIG.width), rng.choice(SOLDIERS), rng.choice(list(Stance)))
            for _ in range(80)]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("towers", [
    [],  # never an attacker: no arrival lists from the start
    [Tower("blockade", c, 10, 30) for c in range(6)],  # blockades only
    [Tower("missile", 3, 1, 2), Tower("blockade", 2, 5, 30)],  # the missile falls early: lists dropped mid-turn
    [Tower("rocket", 0, 0, 3), Tower("frost", 6, 2, 4), Tower("missile", 3, 8, 10)],
])
def test_dropping_the_arrival_lists_changes_nothing(seed: int, towers: list[Tower]) -> None:
    entries = schedule(seed)
    fast = Lane(CONFIG, towers, entries)
    slow = Lane(CONFIG, towers, entries)
    slow.cells = slow.cells or [[] for _ in range(CONFIG.width * CONFIG.rows)]
    slow.tracking = True
    assert frames(fast, keep=False) == frames(slow, keep=True)
    if towers and towers[0].type == "missile":
        assert not fast.tracking  # the case this test is for: the lists were dropped mid-turn


def frames(lane: Lane, keep: bool) -> list[tuple]:
    """Every timestep: the tally, the soldiers (type, col, row, hp) and the towers (type, col, row, hp).
    With `keep`, the lane is told after every cleanup that it still keeps its lists."""
    seen = []
    for timestep in range(1, CONFIG.timesteps + 1):
        tally = lane.step(timestep)
        lane.tracking = lane.tracking or keep
        seen.append((tally, [(s.type, s.col, s.row, s.hp) for s in lane.soldiers],
                     [(t.type, t.col, t.row, t.hp) for t in lane.towers]))
    return seen
