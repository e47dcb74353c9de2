"""PettingZoo and Gymnasium environments over any game (imports both: the `api` extra).

`GameParallelEnv`: every seat is an agent and acts each turn (PettingZoo ParallelEnv). `SingleAgentEnv`: one
seat against fixed opponents (Gymnasium Env). Both are thin: runner/api/core.py's Episode does the work.

Rewards are +1 / 0 / -1 when a seat's play ends (win / draw or tie at the top / loss or elimination), 0
before; terminations come from the game's own end (including its turn limit, which is a rule of the game);
nothing is ever truncated here: a time limit is a wrapper's business (Gymnasium's `TimeLimit`).
"""

from __future__ import annotations

import copy
import string
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv

from runner.api.agents import agents_by_seat, make_agent
from runner.api.core import (
    MASK_KEY,
    ApiError,
    Episode,
    GameSetup,
    check_seed,
    copy_observation,
    outcome_json,
    reward_of,
)

_TEXT_CHARSET = string.printable  # what random samples draw from; any str is accepted as an action


class JsonObservation(gymnasium.spaces.Space):
    """Any JSON object: the state a file-protocol bot reads, parsed; with `mask_size`, plus `action_mask`.

    Not sampleable (a random JSON document is not a game state) and not flattenable: encode the features
    your model needs from the dict yourself.
    """

    def __init__(self, mask_size: int | None = None, seed: int | None = None) -> None:
        super().__init__(None, None, seed)
        self.mask_size = mask_size

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def contains(self, x: Any) -> bool:
        if not isinstance(x, dict):
            return False
        if self.mask_size is None:
            return True
        mask = x.get(MASK_KEY)
        return isinstance(mask, np.ndarray) and mask.shape == (self.mask_size,) and mask.dtype == np.int8

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        raise NotImplementedError("a game state cannot be sampled; play the game to get one")

    def __repr__(self) -> str:
        return f"JsonObservation(mask_size={self.mask_size})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JsonObservation) and other.mask_size == self.mask_size


def action_space_of(setup: GameSetup) -> gymnasium.spaces.Space:
    """Discrete(n) for games with an action space (Tower Defence: 385), else the command text."""
    if setup.actions is not None:
        return gymnasium.spaces.Discrete(setup.actions.size)
    return gymnasium.spaces.Text(max_length=setup.game.answer_file.cap_bytes, min_length=0, charset=_TEXT_CHARSET)


def observation_space_of(setup: GameSetup) -> JsonObservation:
    return JsonObservation(None if setup.actions is None else setup.actions.size)


def _seat_infos(episode: Episode, seat: str, report: Any, outcome: Any) -> dict[str, Any]:
    info: dict[str, Any] = {"turn": episode.session.turn}
    if report is not None:
        info["rejected"] = list(report.rejected.get(seat, ()))
    if outcome is not None:
        info["outcome"] = outcome_json(outcome)
        info["standings"] = dict(episode.session.standings().get(seat, {}))
    return info


class GameParallelEnv(ParallelEnv):
    """Every seat of one game as a PettingZoo agent; build it with `runner.api.parallel_env`."""

    def __init__(self, setup: GameSetup, names: Mapping[str, str] | None = None,
                 render_mode: str | None = None) -> None:
        if render_mode not in (None, "ansi"):
            raise ApiError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.setup = setup
        self.names = dict(names or {})
        self.render_mode = render_mode
        self.metadata = {"name": f"td-runner/{setup.game.name}", "render_modes": ["ansi"],
                         "is_parallelizable": True}
        self.possible_agents = list(setup.seats)
        self.agents: list[str] = []
        self.actions = setup.actions  # encode/decode/mask of the discrete space, or None
        self._observation_space = observation_space_of(setup)
        self._action_spaces = {seat: action_space_of(setup) for seat in setup.seats}
        self.episode: Episode | None = None
        self._last: dict[str, dict[str, Any]] = {}
        self._np_random: np.random.Generator | None = None

    @property
    def session(self) -> Any:
        """The game's Session of the current episode (the exact engine behind the observations)."""
        return None if self.episode is None else self.episode.session

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        self._check_agent(agent)
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        self._check_agent(agent)
        return self._action_spaces[agent]

    def _check_agent(self, agent: str) -> None:
        if agent not in self._action_spaces:
            raise ApiError(f"no agent {agent!r} in {self.setup.game.name}; the agents are: "
                           f"{', '.join(self.possible_agents)}")

    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new match; `seed` is the match seed of `td-runner match --seed` (None: drawn from the env's RNG)."""
        if seed is not None:
            check_seed(seed)
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        match_seed = seed if seed is not None else int(self._np_random.integers(2**31))
        self.episode = Episode(self.setup, match_seed, self.names)
        session = self.episode.session
        self.agents = list(session.active_seats())
        observations = self.episode.observe(self.agents)
        self._last = observations
        infos = {seat: _seat_infos(self.episode, seat, None, None) for seat in self.agents}
        return observations, infos

    def step(self, actions: Mapping[str, Any]):
        """Play one turn with every live agent's action (an action number or command text)."""
        episode = self.episode
        if episode is None:
            raise ApiError("call reset() before step()")
        if not self.agents:
            raise ApiError("the episode is over; call reset() to start another")
        if not isinstance(actions, Mapping):
            raise ApiError(f"step() takes a dict agent -> action, got {type(actions).__name__}")
        agents = self.agents
        if len(actions) != len(agents) or any(seat not in actions for seat in agents):
            extra = [seat for seat in actions if seat not in agents]
            missing = [seat for seat in agents if seat not in actions]
            what = (f"no live agent {extra[0]!r} (live: {', '.join(agents)})" if extra
                    else f"no action for {', '.join(missing)}")
            raise ApiError(f"step(): {what}; give one action for every agent in env.agents")
        answer = episode.answer
        report = episode.play({seat: answer(seat, actions[seat]) for seat in agents})
        session = episode.session
        outcome = session.outcome()  # the one outcome check of the step
        fresh = episode.observe(agents)
        turn = session.turn
        rejected = report.rejected
        if outcome is None:
            active = session.active_seats()
            if len(fresh) == len(agents) and all(seat in active for seat in agents):  # everyone plays on
                infos = {seat: {"turn": turn, "rejected": list(rejected.get(seat, ()))} for seat in agents}
                self._last = fresh
                return (fresh, dict.fromkeys(agents, 0.0), dict.fromkeys(agents, False),
                        dict.fromkeys(agents, False), infos)
            still = set(active)
        else:
            still = set()
        observations, rewards, terminations, truncations, infos = {}, {}, {}, {}, {}
        for seat in agents:
            if seat in fresh:
                observations[seat] = fresh[seat]
            else:  # an eliminated seat sees nothing new: its last view again (a copy: callers keep them)
                observations[seat] = copy.deepcopy(self._last[seat])
            done = seat not in still
            rewards[seat] = (reward_of(outcome, seat) if outcome is not None else -1.0) if done else 0.0
            terminations[seat] = done
            truncations[seat] = False
            infos[seat] = _seat_infos(episode, seat, report, outcome)
        self._last = observations
        self.agents = [seat for seat in agents if seat in still]
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.episode is None:
            return None
        return self.episode.session.text_view()

    def snapshot(self) -> dict[str, Any]:
        """The whole current state as data (the game's `Session.snapshot`)."""
        if self.episode is None:
            raise ApiError("call reset() before snapshot()")
        return self.episode.session.snapshot()

    def close(self) -> None:
        self.episode = None


class SingleAgentEnv(gymnasium.Env):
    """One seat of a game against fixed opponents; build it with `runner.api.single_agent`."""

    def __init__(self, setup: GameSetup, seat: str, opponents: Any, render_mode: str | None = None) -> None:
        if render_mode not in (None, "ansi"):
            raise ApiError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if seat not in setup.seats:
            raise ApiError(f"seat must be one of {', '.join(setup.seats)}, got {seat!r}")
        others = tuple(s for s in setup.seats if s != seat)
        if isinstance(opponents, Mapping) or (isinstance(opponents, (list, tuple)) and len(others) > 1):
            by_seat = agents_by_seat(others, opponents, "opponent")
        else:
            by_seat = {s: opponents for s in others}
        self.setup = setup
        self.seat = seat
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["ansi"]}
        self.action_space = action_space_of(setup)
        self.observation_space = observation_space_of(setup)
        self.actions = setup.actions
        self.opponents = {s: make_agent(setup.game, s, agent) for s, agent in by_seat.items()}
        names = {s: agent.name for s, agent in self.opponents.items()}
        self.names = {seat: seat, **names}
        self.episode: Episode | None = None
        self.done = True

    @property
    def session(self) -> Any:
        return None if self.episode is None else self.episode.session

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            check_seed(seed)
        super().reset(seed=seed)
        match_seed = seed if seed is not None else int(self.np_random.integers(2**31))
        self.episode = Episode(self.setup, match_seed, self.names)
        for seat, agent in self.opponents.items():
            agent.start(self.episode, seat)
        self.done = False
        first = self.episode.observe((self.seat,))
        if self.seat not in first:
            raise ApiError(f"seat {self.seat} does not play the first turn of {self.setup.game.name}")
        self._last = self._own(first[self.seat])
        return self._last, {"turn": self.episode.session.turn}

    def step(self, action: Any):
        episode = self.episode
        if episode is None:
            raise ApiError("call reset() before step()")
        if self.done:
            raise ApiError("the episode is over; call reset() to start another")
        session = episode.session
        answers = {self.seat: episode.answer(self.seat, action)}
        for seat in session.active_seats():
            if seat != self.seat:
                answers[seat] = self.opponents[seat].act()
        report = episode.play(answers)
        outcome = session.outcome()
        self.done = outcome is not None or self.seat not in session.active_seats()
        fresh = episode.observe((self.seat,))
        if self.seat in fresh:
            observation = self._own(fresh[self.seat])
        else:  # eliminated: the game renders nothing new for this seat, so its last view again
            observation = copy.deepcopy(self._last)
        self._last = observation
        reward = (reward_of(outcome, self.seat) if outcome is not None else -1.0) if self.done else 0.0
        if self.done:
            self._stop_opponents()
        return observation, reward, self.done, False, _seat_infos(episode, self.seat, report, outcome)

    def _own(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The observation as one that shares nothing with earlier ones: Gymnasium's rule (its `check_env`
        fails an env whose observations share objects), unlike parallel_env's read-only shared ones."""
        return copy_observation(observation) if self.episode.shares_observations else observation

    def _stop_opponents(self) -> None:
        for agent in self.opponents.values():
            if hasattr(agent, "close_process"):
                agent.close_process()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.episode is None:
            return None
        return self.episode.session.text_view()

    def close(self) -> None:
        for agent in self.opponents.values():
            agent.close()
        self.episode = None
        super().close()
