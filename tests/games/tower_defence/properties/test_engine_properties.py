"""Hypothesis: whole games with random and adversarial command strings never raise and keep the invariants."""

from __future__ import annotations

import json
import random

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.games.tower_defence.engine.config import BuildingType, GameConfig
from runner.games.tower_defence.engine.game import check_game_over, play_round
from runner.games.tower_defence.engine.state import CommandOrder, GameState
from runner.games.tower_defence.protocol import Renderers

ADVERSARIAL = [
    "", ",", ",,", ",,,", "No Command", "Exception", " ", "1,2", "1,2,3,4", "1,,1", "a,b,c", "+1,+2,+0",
    "-0,-0,-0", "007,007,002", "2147483648,0,0", "-2147483649,0,0", "\ufeff0,0,2", "\u0660,\u0661,\u0662",
    "0,0,5", "3,3,5", "99,99,5", "0,0,4", "1,0,4", "2,0,4", "0,0,3", "7,7,3", "8,0,0", "-1,0,0", "0,8,0",
    "0, 0, 2", "0,0,2 ", "0,0,2\r", "0\n0\n2", "1.5,1,2", "1e1,1,1", "0x1,1,1", "\x00", "\udcff", "😀,😀,😀",
]


def well_formed(rng: random.Random) -> str:
    return f"{rng.randint(-1, 8)},{rng.randint(-1, 8)},{rng.randint(-1, 6)}"


commands_pool = st.lists(
    st.one_of(st.sampled_from(ADVERSARIAL), st.text(max_size=12), st.from_regex(r"-?\d{1,3},-?\d{1,3},-?\d", fullmatch=True)),
    min_size=1,
    max_size=20,
)


def make_game(seed: int, pool: list[str], rich: bool, order: CommandOrder):
    """Commands for a whole game: mostly well-formed, some from the adversarial pool; both seats' lists."""
    rng = random.Random(seed)
    config = attrs.evolve(GameConfig(), start_energy=1000) if rich else GameConfig()

    def next_command() -> str:
        roll = rng.random()
        if roll < 0.55:
            return well_formed(rng)
        if roll < 0.85:
            return rng.choice(pool)
        return ""

    rounds = [{"A": next_command(), "B": next_command()} for _ in range(config.max_rounds + 1)]
    return config, rounds


def check_invariants(state: GameState, previous_scores: dict[str, int]) -> None:
    config = state.config
    assert len(state.grid) == len(state.buildings)
    assert {(b.x, b.y) for b in state.buildings} == set(state.grid)
    for seat, player in state.players.items():
        assert player.energy >= 0
        assert 0 <= player.health <= config.starting_health
        assert player.score >= previous_scores[seat]
        previous_scores[seat] = player.score
        own = [b for b in state.buildings if b.owner == seat]
        assert sum(1 for b in own if b.type is BuildingType.TESLA) <= 2
        for building in own:
            in_half = building.x < config.half if seat == "A" else building.x >= config.half
            assert in_half and 0 <= building.y < config.map_height
            assert 0 < building.health <= building.stats.health


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), pool=commands_pool, rich=st.booleans(),
       order=st.sampled_from(list(CommandOrder)))
def test_full_games_never_raise_and_keep_invariants(seed, pool, rich, order) -> None:
    config, rounds = make_game(seed, pool, rich, order)
    state = GameState.new(config, seed=seed, command_order=order)
    scores = {"A": 0, "B": 0}
    for commands in rounds:
        if check_game_over(state) is not None:
            break
        play_round(state, commands)
        check_invariants(state, scores)
    assert check_game_over(state) is not None  # every game ends by round maxRounds + 1 at the latest


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), pool=commands_pool)
def test_same_inputs_give_identical_output(seed, pool) -> None:
    config, rounds = make_game(seed, pool, True, CommandOrder.B_FIRST)
    outputs = []
    for _ in range(2):
        state = GameState.new(config, seed=seed)
        renderers = Renderers(config)
        for commands in rounds[:120]:
            play_round(state, commands)
        outputs.append((renderers.player_files(state), renderers.console(state), state.errors))
    assert outputs[0] == outputs[1]


def _without_hit_lists(text: str) -> dict:
    data = json.loads(text)
    del data["teslaHitList"], data["ironCurtainHitList"]  # spec 2.4: never mirrored, so not symmetric
    data["players"].sort(key=lambda p: p["playerType"])  # spec 2.4: engine order, only the labels swap
    return data


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), pool=commands_pool)
def test_swapping_players_mirrors_the_game(seed, pool) -> None:
    """Commands are in view coordinates, so swapping the seats' commands (and the order) mirrors the game."""
    config, rounds = make_game(seed, pool, True, CommandOrder.B_FIRST)
    game = GameState.new(config, seed=seed, command_order=CommandOrder.B_FIRST)
    swapped = GameState.new(config, seed=seed, command_order=CommandOrder.A_FIRST)
    renderers = Renderers(config)
    for commands in rounds[:150]:
        if check_game_over(game) is not None:
            break
        play_round(game, commands)
        play_round(swapped, {"A": commands["B"], "B": commands["A"]})
        a_view = renderers.player_files(game)["A"]
        b_view = renderers.player_files(swapped)["B"]
        assert _without_hit_lists(a_view[0]) == _without_hit_lists(b_view[0])
        assert a_view[1] == b_view[1]


@settings(max_examples=500, deadline=None)
@given(text=st.text())
def test_any_single_command_is_handled(text: str) -> None:
    state = GameState.new(GameConfig())
    play_round(state, {"A": text, "B": text})
    assert state.round == 1 and state.players["A"].do_nothing_streak <= 2
