"""`evaluate`: many seeded episodes between agents (functions and bot folders mixed), and a tournament's table.

Episode i is played with seed `seed + i`; with `rotate=True` the agents move one seat along each episode (for
symmetric games: each agent plays every seat equally often). `workers > 1` plays episodes in forked worker
processes (Linux fork: agents need not be picklable, only the results are); the results are the same and in
the same order as with one worker.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.api.agents import make_agent
from runner.api.core import ApiError, Episode, GameSetup, check_seed, make_setup, outcome_json


@attrs.frozen
class EpisodeResult:
    """One episode: who sat where (agent index per seat), how it ended, and the per-seat numbers."""

    episode: int
    seed: int
    seats: dict[str, int]  # seat -> index of the agent in `evaluate`'s list
    outcome: dict[str, Any]  # reason, winner (a seat or None), ranking (seats), draw, the game's details
    points: dict[int, float]  # agent index -> 1 win, 0.5 draw or shared top, 0 loss
    turns: int
    standings: dict[str, dict[str, float]]
    seconds: float


@attrs.frozen
class AgentSummary:
    """One agent over every episode: the line of a tournament table."""

    agent: int
    name: str
    episodes: int
    wins: int
    draws: int
    losses: int
    points: float

    @property
    def score(self) -> float:
        """Points per episode: 1.0 wins everything, 0.5 is even."""
        return self.points / self.episodes if self.episodes else 0.0


@attrs.frozen
class Evaluation:
    episodes: tuple[EpisodeResult, ...]
    table: tuple[AgentSummary, ...]  # best score first

    def render(self) -> str:
        """The table as text, one line per agent."""
        lines = [f"{'agent':<24} {'played':>6} {'won':>5} {'drawn':>5} {'lost':>5} {'points':>7} {'score':>6}"]
        lines += [f"{row.name:<24} {row.episodes:>6} {row.wins:>5} {row.draws:>5} {row.losses:>5} "
                  f"{row.points:>7g} {row.score:>6.3f}" for row in self.table]
        return "\n".join(lines)


def _points(outcome: Any, seat: str) -> float:
    if outcome.winner == seat:
        return 1.0
    if outcome.winner is None and outcome.ranking and seat in outcome.ranking[0]:
        return 0.5
    return 0.0


# the worker processes' view of the evaluation, set before forking so agents are never pickled
_JOB: dict[str, Any] = {}


def _play_episode(index: int) -> EpisodeResult:
    setup: GameSetup = _JOB["setup"]
    agents: Sequence[Any] = _JOB["agents"]
    names: list[str] = _JOB["names"]
    count = len(setup.seats)
    shift = index % count if _JOB["rotate"] else 0
    seat_agent = {seat: (position + shift) % count for position, seat in enumerate(setup.seats)}
    seed = _JOB["seed"] + index
    started = time.perf_counter()
    players = {seat: make_agent(setup.game, seat, agents[i], names[i], _JOB["timeout_ms"])
               for seat, i in seat_agent.items()}
    try:
        episode = Episode(setup, seed, {seat: players[seat].name for seat in setup.seats})
        for seat, player in players.items():
            player.start(episode, seat)
        session = episode.session
        while (outcome := session.outcome()) is None:
            episode.play({seat: players[seat].act() for seat in session.active_seats()})
    finally:
        for player in players.values():
            player.close()
    return EpisodeResult(
        episode=index,
        seed=seed,
        seats=seat_agent,
        outcome=outcome_json(outcome),
        points={seat_agent[seat]: _points(outcome, seat) for seat in setup.seats},
        turns=episode.turns,
        standings={seat: dict(row) for seat, row in session.standings().items()},
        seconds=time.perf_counter() - started,
    )


def _agent_name(agent: Any, index: int) -> str:
    if isinstance(agent, (str, Path)):
        return Path(agent).name or str(agent)
    return getattr(agent, "__name__", None) or f"agent{index}"


def _table(results: Sequence[EpisodeResult], names: Sequence[str]) -> tuple[AgentSummary, ...]:
    rows = []
    for index, name in enumerate(names):
        mine = [result.points[index] for result in results if index in result.points]
        rows.append(AgentSummary(index, name, len(mine), sum(p == 1.0 for p in mine), sum(p == 0.5 for p in mine),
                                 sum(p == 0.0 for p in mine), sum(mine)))
    return tuple(sorted(rows, key=lambda row: (-row.score, row.agent)))


def evaluate(
    agents: Sequence[Any],
    game: str = "tower-defence",
    episodes: int = 1,
    seed: int = 0,
    workers: int = 1,
    *,
    config: str | Path | None = None,
    rotate: bool = False,
    names: Sequence[str] | None = None,
    timeout_ms: int | None = None,
    **options: Any,
) -> Evaluation:
    """Play `episodes` matches between `agents` (one per seat, in seat order: functions or bot folders).

    `options` are the game's options by name (`max_rounds=100`, `map="..."`); `config` a game config file;
    `timeout_ms` the limit per turn of bot folders (default the game's, as in `td-runner match`).
    Returns every episode's result and the summary table (points: win 1, draw 0.5, loss 0).
    """
    if isinstance(agents, (str, Path)) or callable(agents) or not isinstance(agents, Sequence):
        raise ApiError("agents must be a list: one agent (function or bot folder) per seat")
    for name, value, low in (("episodes", episodes, 1), ("workers", workers, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ApiError(f"{name} must be an integer >= {low}, got {value!r}")
    check_seed(seed)
    if timeout_ms is not None and (isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int) or timeout_ms < 1):
        raise ApiError(f"timeout_ms must be a positive integer, got {timeout_ms!r}")
    setup = make_setup(game, config, len(agents), options)
    for index, agent in enumerate(agents):  # check every agent (a bad bot folder) before any episode
        make_agent(setup.game, setup.seats[index], agent).close()
    if names is not None and len(names) != len(agents):
        raise ApiError(f"names: give {len(agents)} names, one per agent, got {len(names)}")
    shown = list(names) if names is not None else [_agent_name(agent, i) for i, agent in enumerate(agents)]
    _JOB.update(setup=setup, agents=list(agents), names=shown, seed=seed, rotate=rotate, timeout_ms=timeout_ms)
    try:
        if workers == 1 or episodes == 1:
            results = [_play_episode(index) for index in range(episodes)]
        else:
            context = multiprocessing.get_context("fork")
            with concurrent.futures.ProcessPoolExecutor(min(workers, episodes), mp_context=context) as pool:
                results = list(pool.map(_play_episode, range(episodes)))
    finally:
        _JOB.clear()
    return Evaluation(tuple(results), _table(results, shown))
