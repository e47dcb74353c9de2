"""The per-step shortcuts of parallel_env (runner/api/envs.py `step`) and of Tower Defence's `play_turn` and
masks give the values the general code gives: infos, rewards and terminations per seat, the rejected commands
as the engine worded them, and each seat's own writable mask array."""

from __future__ import annotations

import random

import numpy as np

from runner.api import parallel_env
from runner.games.tower_defence.engine.state import PLAYERS


def rejected_the_old_way(errors: list[str]) -> dict[str, tuple[str, ...]]:
    return {seat: found for seat in PLAYERS if (found := tuple(e for e in errors if e.startswith(f"Player {seat}: ")))}


def test_steps_report_the_same_values_as_the_general_path() -> None:
    env = parallel_env("tower-defence", max_rounds=60)
    rng = random.Random(4)
    refused = ended = 0
    for episode in range(6):
        observations, infos = env.reset(seed=episode)
        assert infos == {seat: {"turn": 0} for seat in PLAYERS}
        while env.agents:
            agents = list(env.agents)
            actions = {}
            for seat in agents:  # now and then an action the mask refuses, so the engine rejects it
                mask = observations[seat]["action_mask"]
                pool = np.flatnonzero(mask) if rng.random() < 0.8 else np.flatnonzero(mask == 0)
                actions[seat] = int(rng.choice(pool)) if len(pool) else 0
            observations, rewards, terminations, truncations, infos = env.step(actions)
            session = env.session
            expected = rejected_the_old_way(session.state.errors)
            assert set(observations) == set(rewards) == set(terminations) == set(truncations) == set(infos)
            assert set(infos) == set(agents)
            assert infos["A"] is not infos["B"]
            assert observations["A"]["action_mask"] is not observations["B"]["action_mask"]
            assert not np.shares_memory(observations["A"]["action_mask"], observations["B"]["action_mask"])
            over = session.outcome() is not None
            for seat in agents:
                assert infos[seat]["turn"] == session.turn
                assert infos[seat]["rejected"] == list(expected.get(seat, ()))
                refused += bool(infos[seat]["rejected"])
                assert truncations[seat] is False and terminations[seat] is over
                assert isinstance(rewards[seat], float) and (over or rewards[seat] == 0.0)
                if over:
                    assert "outcome" in infos[seat] and "standings" in infos[seat]
            assert env.agents == ([] if over else agents)
            ended += over
    assert refused > 20 and ended == 6


def test_play_turn_report_is_the_engine_errors_split_by_seat() -> None:
    env = parallel_env("tower-defence", max_rounds=80)
    env.reset(seed=9)
    session = env.session
    rng = random.Random(2)
    from runner.games.interface import Answer
    seen = 0
    while session.outcome() is None:
        texts = {seat: rng.choice(["", "1,1,1", "9,9,9", "x", "3,2,5", "0,0,3", "1,2,3,4", "7,7,4"])
                 for seat in PLAYERS}
        report = session.play_turn({seat: Answer(text) for seat, text in texts.items()})
        assert report.events == tuple(session.state.errors)
        assert dict(report.rejected) == rejected_the_old_way(session.state.errors)
        assert list(report.rejected) == [s for s in PLAYERS if s in report.rejected]  # seat order kept
        seen += bool(report.rejected)
    assert seen > 10


def test_a_mask_array_is_the_observations_own() -> None:
    env = parallel_env("tower-defence")
    observations, _ = env.reset(seed=3)
    first = {seat: observations[seat]["action_mask"] for seat in PLAYERS}
    kept = {seat: mask.copy() for seat, mask in first.items()}
    first["A"][:] = 0  # the caller's to change: nothing else moves
    assert np.array_equal(first["B"], kept["B"])
    observations, *_ = env.step({seat: 0 for seat in PLAYERS})
    assert np.array_equal(observations["A"]["action_mask"][:1], [1])
    assert not np.shares_memory(observations["A"]["action_mask"], first["A"])
