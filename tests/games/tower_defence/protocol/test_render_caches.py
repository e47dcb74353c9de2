"""The renderers reuse text across rounds (per building, per missile, per config): a long-lived Renderers
gives the same bytes as a fresh one every round, also when it alternates between two games; missile ids
equal the plain reading of their definition."""

from __future__ import annotations

import random

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.game import check_game_over, play_round
from runner.games.tower_defence.engine.ids import missile_id
from runner.games.tower_defence.engine.state import CommandOrder, GameState
from runner.games.tower_defence.protocol import Renderers

MASK = (1 << 64) - 1


def splitmix64(value: int) -> int:
    value = (value + 0x9E3779B97F4A7C15) & MASK
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & MASK
    return value ^ (value >> 31)


def plain_missile_id(seed: int, serial: int) -> str:
    high = splitmix64(splitmix64((seed & MASK) ^ splitmix64(serial)))
    low = splitmix64(high)
    high = (high & 0xFFFFFFFFFFFF0FFF) | 0x0000000000004000
    low = (low & 0x3FFFFFFFFFFFFFFF) | 0x8000000000000000
    text = f"{high:016x}{low:016x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


@given(st.integers(-(2**70), 2**70), st.integers(0, 2**66))
def test_missile_ids_equal_the_plain_definition(seed: int, serial: int) -> None:
    assert missile_id(seed, serial) == plain_missile_id(seed, serial)


def command(rng: random.Random) -> str:
    if rng.random() < 0.15:
        return rng.choice(["", "0,0,5", "1,2", "x"])
    return f"{rng.randint(0, 7)},{rng.randint(0, 7)},{rng.choice([0, 1, 1, 1, 2, 3, 4])}"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_reused_renderer_equals_a_fresh_one_every_round(seed: int) -> None:
    rng = random.Random(seed)
    config = attrs.evolve(GameConfig(), start_energy=rng.choice([20, 300]))
    games = [GameState.new(config, seed=seed, command_order=order) for order in CommandOrder]
    reused = Renderers(config)
    while all(check_game_over(game) is None for game in games):
        for game in games:  # alternate: the caches must not mix up the two games
            files = reused.player_files(game)
            fresh = Renderers(config)
            assert files == fresh.player_files(game)
            for seat in "AB":
                assert reused.state_json(game, seat) == fresh.state_json(game, seat) == files[seat][0]
                assert reused.text(game, seat) == files[seat][1]
            play_round(game, {"A": command(rng), "B": command(rng)})


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_console_map_fast_path_equals_the_general_one(seed: int) -> None:
    rng = random.Random(seed)
    config = attrs.evolve(GameConfig(), start_energy=300)
    game = GameState.new(config, seed=seed)
    console = Renderers(config).console_map
    while check_game_over(game) is None:
        assert console.render(game) == console._render_padded(game)
        play_round(game, {"A": command(rng), "B": command(rng)})
