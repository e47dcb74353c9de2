"""Tower Defence observations through the session's hooks (no rendering, no parsing): parallel_env gives exactly
what parsing each seat's state.json gives, masks included; observations are read-only shared data that the env
never changes once handed out; single_agent (Gymnasium) hands out unshared copies; `copy_observation`."""

from __future__ import annotations

import json
import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.utils.passive_env_checker import data_shares_objects  # noqa: E402

from runner.api import copy_observation, parallel_env, single_agent  # noqa: E402
from runner.api.core import MASK_KEY, observation_of  # noqa: E402


def masked_random(rng: random.Random, observation) -> int:
    return int(rng.choice(np.flatnonzero(observation[MASK_KEY])))


def test_parallel_env_observations_equal_the_parsed_files_with_their_masks() -> None:
    env = parallel_env("tower-defence", max_rounds=150)
    rng = random.Random(1)
    rounds = 0
    for seed in range(8):
        observations, _ = env.reset(seed=seed)
        while True:
            inputs = env.session.inputs()
            for seat, observation in observations.items():
                parsed = observation_of(inputs[seat], env.actions)  # the path bot folders take
                assert observation.keys() == parsed.keys()
                mask, expected = observation[MASK_KEY], parsed[MASK_KEY]
                assert mask.dtype == np.int8 and mask.flags.writeable and np.array_equal(mask, expected)
                assert {k: v for k, v in observation.items() if k != MASK_KEY} == \
                    {k: v for k, v in parsed.items() if k != MASK_KEY}
            if not env.agents:
                break
            observations, *_ = env.step({seat: masked_random(rng, observations[seat]) for seat in env.agents})
            rounds += 1
    assert rounds > 300


def test_parallel_env_never_changes_an_observation_it_handed_out() -> None:
    env = parallel_env("tower-defence", max_rounds=80)
    rng = random.Random(2)
    kept = []
    for seed in (3, 4):
        observations, _ = env.reset(seed=seed)
        while True:
            for observation in observations.values():
                kept.append((observation, json.dumps({**observation, MASK_KEY: observation[MASK_KEY].tolist()})))
            if not env.agents:
                break
            observations, *_ = env.step({seat: masked_random(rng, observations[seat]) for seat in env.agents})
    for observation, text in kept:
        assert json.dumps({**observation, MASK_KEY: observation[MASK_KEY].tolist()}) == text
    # the contract is read-only because parts are shared: the same gameDetails for both seats of a round
    assert kept[0][0]["gameDetails"] is kept[1][0]["gameDetails"]
    assert kept[0][0][MASK_KEY] is not kept[1][0][MASK_KEY]  # each mask is its seat's own


def test_single_agent_observations_share_nothing_between_steps() -> None:
    env = single_agent("tower-defence", lambda observation: 0, max_rounds=30)
    rng = random.Random(3)
    observation, _ = env.reset(seed=5)
    history = [observation]
    done = False
    while not done:
        observation, _, done, _, _ = env.step(masked_random(rng, observation))
        history.append(observation)
    for earlier, later in zip(history, history[1:]):
        assert not data_shares_objects(earlier, later)
    env.close()


def test_copy_observation_is_an_equal_copy_sharing_no_dict_or_list() -> None:
    env = parallel_env("tower-defence", max_rounds=40)
    observations, _ = env.reset(seed=6)
    for _ in range(30):
        observations, *_ = env.step({seat: 0 for seat in env.agents})
    original = observations["A"]
    copied = copy_observation(original)
    assert data_equivalence(copied, original)
    shared = {id(o) for o in _containers(original)} & {id(o) for o in _containers(copied)}
    assert not shared
    copied["gameMap"][0][0]["buildings"].append("changed")
    assert original["gameMap"][0][0]["buildings"] != copied["gameMap"][0][0]["buildings"]


def _containers(value):
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _containers(item)
    elif isinstance(value, list):
        yield value
        for item in value:
            yield from _containers(item)
