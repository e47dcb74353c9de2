"""Bots in Python without processes: every game as PettingZoo / Gymnasium environments, and `evaluate`.

    from runner.api import parallel_env, single_agent, evaluate, encode, decode

Built only on the game interface (runner/games/interface.py), so every game has it. Observations are the
JSON a file-protocol bot reads (its state.json, or Invaders' request line) as a dict, plus `action_mask`
where the game has a discrete action space (Tower Defence: `Discrete(385)`, see `encode`/`decode`); other
games take their command text. pettingzoo and gymnasium come with `pip install 'td-runner[api]'`; `evaluate`
and `write_bot` need only numpy (for the masks). See runner/api/README.md.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from runner.api.core import ApiError, copy_observation, make_setup, observation_of

__all__ = [
    "AgentSummary", "ApiError", "EpisodeResult", "Evaluation", "action_space", "copy_observation", "decode",
    "encode", "evaluate",
    "observation_of", "parallel_env", "single_agent", "write_bot",
]


def _envs() -> Any:
    try:
        from runner.api import envs
    except ImportError as exc:
        raise ApiError(f"runner.api environments need pettingzoo and gymnasium ({exc.name} is missing): "
                       "pip install 'td-runner[api]'") from None
    return envs


def parallel_env(game: str = "tower-defence", config: str | Path | None = None, *, players: int | None = None,
                 names: dict[str, str] | None = None, render_mode: str | None = None, **options: Any) -> Any:
    """A PettingZoo ParallelEnv of `game`: one agent per seat (`possible_agents`), all acting every turn.

    `config`: a game config file; `options`: the game's options by name (`max_rounds=50`, `map="x.map"`);
    `players`: how many (Warzone 2-6); `names`: seat -> the player name games show to bots (Warzone).
    """
    envs = _envs()
    return envs.GameParallelEnv(make_setup(game, config, players, options), names, render_mode)


def single_agent(game: str = "tower-defence", opponent: Any = None, config: str | Path | None = None, *,
                 seat: str | None = None, players: int | None = None, render_mode: str | None = None,
                 **options: Any) -> Any:
    """A Gymnasium Env: `seat` (default the first) against `opponent`, a function agent(observation) or a bot
    folder (run per turn or persistent, as in a match); a list or dict gives each other seat its own."""
    if opponent is None:
        raise ApiError("single_agent needs an opponent: a function agent(observation) or a bot folder")
    envs = _envs()
    setup = make_setup(game, config, players, options)
    return envs.SingleAgentEnv(setup, seat if seat is not None else setup.seats[0], opponent, render_mode)


def action_space(game: str = "tower-defence", config: str | Path | None = None, **options: Any) -> Any:
    """The game's discrete action space (`size`, `encode`, `decode`, `mask(view)`); ApiError if it has none."""
    setup = make_setup(game, config, None, options)
    if setup.actions is None:
        raise ApiError(f"{setup.game.name} has no discrete action space: its actions are command text")
    return setup.actions


@functools.cache
def _tower_defence() -> Any:
    return action_space("tower-defence")


def encode(command: str) -> int:
    """Tower Defence command text `x,y,kind` (your own view; "" do nothing) -> action number (default board)."""
    try:
        return _tower_defence().encode(command)
    except ValueError as exc:
        raise ApiError(str(exc)) from None


def decode(action: int) -> str:
    """Tower Defence action number -> the command text a bot writes ("" for 0, do nothing)."""
    try:
        return _tower_defence().decode(action)
    except ValueError as exc:
        raise ApiError(str(exc)) from None


_LAZY = {  # loaded on first use: a wrapped bot (runner.api.wrapper) starts every turn and must start fast
    "evaluate": "runner.api.evaluation", "Evaluation": "runner.api.evaluation", "EpisodeResult": "runner.api.evaluation",
    "AgentSummary": "runner.api.evaluation", "write_bot": "runner.api.wrapper",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'runner.api' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
