"""The environments of every game: PettingZoo's and Gymnasium's own checkers, determinism, rewards, and one
clear ApiError for each kind of bad input."""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env, data_equivalence  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402

import runner.games  # noqa: E402
from runner.api import ApiError, evaluate, parallel_env, single_agent  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAP = str(ROOT / "runner" / "games" / "warzone" / "maps" / "td-archipelago.map")
# short matches: the checkers play random actions for many turns; every registered game needs its options here
OPTIONS = {
    "tower-defence": {"max_rounds": 40},
    "lanes": {"max_turns": 3},
    "invaders": {"max_turns": 200},
    "warzone": {"map": MAP, "max_turns": 3},
}
IDLE = {"tower-defence": 0, "lanes": "", "invaders": "null", "warzone": ""}
#: Every registered game: a new game is checked here as soon as it is in the registry.
GAMES = tuple(runner.games.GAMES)


def test_every_registered_game_has_options_and_an_idle_action() -> None:
    """OPTIONS and IDLE are per-game data; a game in the registry but not in them fails here, by name."""
    assert (sorted(OPTIONS), sorted(IDLE)) == (sorted(GAMES), sorted(GAMES))


def idle_agent(game: str):
    return lambda observation: IDLE[game]


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_parallel_api_test_passes(game: str) -> None:
    env = parallel_env(game, **OPTIONS[game])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo reports most API problems as warnings
        parallel_api_test(env, num_cycles=60)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env_passes(game: str) -> None:
    env = single_agent(game, idle_agent(game), **OPTIONS[game])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)
    env.close()


def test_warzone_with_three_players_eliminates_seats_and_ends() -> None:
    env = parallel_env("warzone", players=3, map=MAP, max_turns=8)
    observations, _ = env.reset(seed=2)
    assert env.possible_agents == ["A", "B", "C"] and set(observations) == {"A", "B", "C"}
    assert observations["A"]["you"] == "A"
    while env.agents:
        observations, rewards, terminations, truncations, infos = env.step({seat: "" for seat in env.agents})
    assert all(terminations.values()) and not any(truncations.values())
    assert infos["A"]["outcome"]["reason"] and "territories" in infos["A"]["standings"]


def play(env, seed: int, policy, turns: int = 1000):
    """Observations (mask included) and rewards of one episode with a policy of (seat, observation)."""
    trace = []
    observations, _ = env.reset(seed=seed)
    trace.append(copy.deepcopy(observations))
    for _ in range(turns):
        if not env.agents:
            break
        actions = {seat: policy(seat, observations[seat]) for seat in env.agents}
        observations, rewards, terminations, _, _ = env.step(actions)
        trace.append((copy.deepcopy(observations), rewards, terminations))
    return trace


def first_allowed(seat, observation) -> int:
    allowed = np.flatnonzero(observation["action_mask"])
    return int(allowed[(observation["gameDetails"]["round"] * 13) % len(allowed)])


def test_same_seed_and_actions_give_the_same_observations() -> None:
    env_one, env_two = parallel_env("tower-defence", max_rounds=60), parallel_env("tower-defence", max_rounds=60)
    one, two = play(env_one, 5, first_allowed), play(env_two, 5, first_allowed)
    assert len(one) > 20 and data_equivalence(one, two, exact=True)
    # missile ids come from the seed (td-runner match --seed): another seed, other ids, same game otherwise
    other = play(env_one, 6, first_allowed)
    text = json.dumps([step[0] for step in one[1:]], default=lambda a: a.tolist())
    assert '"id"' in text and text != json.dumps([step[0] for step in other[1:]], default=lambda a: a.tolist())


def test_warzone_depends_on_the_seed_and_repeats_with_it() -> None:
    env = parallel_env("warzone", map=MAP, max_turns=3)
    first, again, other = (play(env, seed, lambda seat, o: "") for seed in (1, 1, 2))
    assert data_equivalence(first, again, exact=True) and not data_equivalence(first, other, exact=True)


def test_unseeded_resets_follow_the_first_seed() -> None:
    env = parallel_env("warzone", map=MAP, max_turns=3)
    env.reset(seed=9)
    a = env.reset()[0]
    env.reset(seed=9)
    assert data_equivalence(env.reset()[0], a, exact=True)


def test_rewards_are_given_once_at_the_end_and_say_who_won() -> None:
    env = parallel_env("tower-defence", max_rounds=400)
    trace = play(env, 1, lambda seat, o: first_allowed(seat, o) if seat == "A" else 0)
    *middle, last = trace[1:]
    assert all(rewards == {"A": 0.0, "B": 0.0} for _, rewards, _ in middle)
    _, rewards, terminations = last
    assert terminations == {"A": True, "B": True} and rewards == {"A": 1.0, "B": -1.0}


def test_single_agent_against_a_bot_folder_runs_its_processes(tmp_path: Path) -> None:
    """Invaders' starter bot is persistent: one process for the episode, answering each turn."""
    env = single_agent("invaders", str(ROOT / "starter-bots" / "invaders" / "python3"), seat="invader",
                       max_turns=40)
    observation, _ = env.reset(seed=0)
    assert observation["side"] == "invader"
    done, turns = False, 0
    while not done:
        observation, reward, done, truncated, info = env.step("null")
        turns += 1
    standings = info["standings"]
    env.close()
    assert turns == 40 and info["outcome"]["reason"] == "max_turns" and reward == -1.0
    assert standings["gold"] > 0 and observation["state"]["towerSlots"].count(None) < 100  # the bot built


def test_render_gives_the_spectator_view() -> None:
    env = parallel_env("lanes", render_mode="ansi")
    env.reset(seed=0)
    assert "P1 hp" in env.render()


# -- bad input: one ApiError each, saying what is expected ------------------------------------------------------

@pytest.mark.parametrize("make, message", [
    (lambda: parallel_env("tower-defense"), "did you mean 'tower-defence'"),
    (lambda: parallel_env("tower-defence", max_round=3), "no option 'max_round' .*did you mean 'max_rounds'"),
    (lambda: parallel_env("tower-defence", max_rounds=-1), "max_rounds=-1: '-1' is not 0 or more"),
    (lambda: parallel_env("warzone", map="nowhere.map"), "map nowhere.map: no such file, nor a shipped map"),
    (lambda: parallel_env("warzone", map=MAP, players=7), "warzone is played by 2, 3, 4, 5, 6 players, not 7"),
    (lambda: parallel_env("lanes", players=3), "lanes is played by 2 players"),
    (lambda: parallel_env("tower-defence", config=42), "config must be the path"),
    (lambda: parallel_env("tower-defence", config="/nonexistent/game-config.json"), "nonexistent"),
    (lambda: parallel_env("tower-defence", render_mode="human"), "render_mode must be None or 'ansi'"),
    (lambda: single_agent("tower-defence"), "needs an opponent"),
    (lambda: single_agent("tower-defence", 42), "an agent is a function"),
    (lambda: single_agent("tower-defence", "/nonexistent/bot"), "nonexistent"),
    (lambda: single_agent("tower-defence", lambda o: 0, seat="C"), "seat must be one of A, B"),
])
def test_bad_setup_is_one_clear_error(make, message) -> None:
    with pytest.raises(ApiError, match=message):
        make()


def test_bad_steps_are_one_clear_error_each() -> None:
    env = parallel_env("tower-defence", max_rounds=3)
    with pytest.raises(ApiError, match=r"call reset\(\) before step\(\)"):
        env.step({"A": 0, "B": 0})
    env.reset(seed=0)
    cases = [
        ({"A": 0}, "no action for B"),
        ({"A": 0, "B": 0, "C": 0}, "no live agent 'C'"),
        ({"A": 385, "B": 0}, "seat A: action must be an integer from 0 to 384, got 385"),
        ({"A": 1.5, "B": 0}, "seat A: the action must be an action number or command text"),
        ({"A": None, "B": 0}, "got NoneType None"),
        ([0, 0], "takes a dict agent -> action"),
    ]
    for actions, message in cases:
        with pytest.raises(ApiError, match=message):
            env.step(actions)
    with pytest.raises(ApiError, match="no agent 'C'"):
        env.action_space("C")
    while env.agents:
        env.step({"A": np.int64(0), "B": "1,1,1"})  # numpy integers and command text are actions too
    with pytest.raises(ApiError, match="the episode is over"):
        env.step({"A": 0, "B": 0})
    text_env = parallel_env("lanes")
    text_env.reset(seed=0)
    with pytest.raises(ApiError, match="seat P1: the action must be command text"):
        text_env.step({"P1": 3, "P2": ""})
    with pytest.raises(ApiError, match="seed must be a non-negative integer"):
        text_env.reset(seed=-1)


@pytest.mark.parametrize("call, message", [
    (lambda: evaluate("x", "tower-defence"), "agents must be a list"),
    (lambda: evaluate([lambda o: 0], "tower-defence"), "tower-defence is played by 2 players, not 1"),
    (lambda: evaluate([lambda o: 0, 5], "tower-defence"), "seat B: an agent is a function"),
    (lambda: evaluate([lambda o: 0] * 2, "tower-defence", episodes=0), "episodes must be an integer >= 1"),
    (lambda: evaluate([lambda o: 0] * 2, "tower-defence", workers="2"), "workers must be an integer >= 1"),
    (lambda: evaluate([lambda o: 0] * 2, "tower-defence", seed=1.5), "seed must be a non-negative integer"),
    (lambda: evaluate([lambda o: 0] * 2, "tower-defence", names=["x"]), "names: give 2 names"),
    (lambda: evaluate([lambda o: 0] * 2, "tower-defence", timeout_ms=0), "timeout_ms must be a positive"),
])
def test_bad_evaluations_are_one_clear_error(call, message) -> None:
    with pytest.raises(ApiError, match=message):
        call()
