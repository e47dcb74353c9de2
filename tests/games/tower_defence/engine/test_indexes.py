"""The engine's incremental indexes (state.py: board, clock, attackers, teslas, unfinished, income, the
parse cache) always equal what a scan of the board list gives, in random games and the official traces."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner.games.tower_defence.engine import phases
from runner.games.tower_defence.engine.commands import parse_command
from runner.games.tower_defence.engine.config import BuildingType, GameConfig
from runner.games.tower_defence.engine.game import check_game_over, play_round
from runner.games.tower_defence.engine.state import CommandOrder, GameState
from runner.games.tower_defence.logs.layout import open_match_log, recorded_order
from tests.conftest import TRACE_NAMES


def check_indexes(state: GameState) -> None:
    config = state.config
    width = config.map_width
    on_board = {(b.x, b.y): b for b in state.buildings}
    assert len(on_board) == len(state.buildings)
    assert {(i % width, i // width): b for i, b in enumerate(state.board) if b is not None} == on_board
    assert dict(state.grid) == on_board and len(state.grid) == len(on_board)
    assert all(b.cell == b.y * width + b.x for b in state.buildings)
    assert state.attackers == [b for b in state.buildings if b.type is BuildingType.ATTACK]
    assert state.teslas == [b for b in state.buildings if b.type is BuildingType.TESLA]
    assert {id(b) for b in state.unfinished} == {id(b) for b in state.buildings if b.construction_time_left >= 0}
    for seat in "AB":
        generated = sum(b.stats.energy_generated_per_turn for b in state.buildings
                        if b.owner == seat and b.construction_time_left <= -1)
        assert state.income[seat] == generated
    assert [m.serial for m in state.missiles] == sorted(m.serial for m in state.missiles)


def random_command(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.1:
        return ""
    if roll < 0.15:
        return rng.choice(["1,2", "a,b,c", "1,2,3,4", "0,0,5", ",", "Exception"])
    kind = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5])
    return f"{rng.randint(-1, 8)},{rng.randint(-1, 8)},{kind}"


# buildings that finish at once, attack buildings that also generate energy, a slow tesla
ODD = attrs.evolve(GameConfig(), start_energy=500)
_odd_buildings = dict(ODD.buildings)
_odd_buildings[BuildingType.DEFENSE] = attrs.evolve(_odd_buildings[BuildingType.DEFENSE], construction_time=0)
_odd_buildings[BuildingType.ATTACK] = attrs.evolve(_odd_buildings[BuildingType.ATTACK], energy_generated_per_turn=2)
ODD = attrs.evolve(ODD, buildings=_odd_buildings)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), config=st.sampled_from([GameConfig(), attrs.evolve(GameConfig(), start_energy=1000),
                                                           ODD]))
def test_indexes_equal_a_scan_every_round(seed: int, config: GameConfig) -> None:
    rng = random.Random(seed)
    state = GameState.new(config, seed=seed, command_order=rng.choice(list(CommandOrder)))
    while check_game_over(state) is None:
        play_round(state, {"A": random_command(rng), "B": random_command(rng)})
        check_indexes(state)


@pytest.mark.parametrize("name", TRACE_NAMES)
def test_indexes_equal_a_scan_in_the_official_traces(conformance_root: Path, name: str) -> None:
    log = open_match_log(conformance_root / name)
    state = GameState.new(GameConfig(), command_order=recorded_order(log))
    for commands in log.commands():
        play_round(state, commands)
        check_indexes(state)


@given(st.text(max_size=12))
def test_the_parse_cache_gives_what_the_parser_gives(text: str) -> None:
    assert phases.parse_cached(text) == parse_command(text)
    assert phases.parse_cached(text) == parse_command(text)  # the cached answer, this time


def test_a_command_run_and_undone_leaves_the_indexes_alone() -> None:
    """run_command alone (as the API's action masks use it) does not touch the indexes; play_round does."""
    state = GameState.new(attrs.evolve(GameConfig(), start_energy=1000))
    play_round(state, {"A": "0,0,1", "B": "0,0,2"})
    saved = (list(state.buildings), dict(state.grid))
    me = state.players["A"]
    assert phases.run_command(state, me, parse_command("1,0,1").command) is None
    assert phases.run_command(state, me, parse_command("0,0,3").command) is None
    state.buildings[:] = saved[0]
    state.grid.clear()
    state.grid.update(saved[1])
    check_indexes(state)
    play_round(state, {"A": "0,0,3"})
    check_indexes(state)
    assert state.attackers == []
