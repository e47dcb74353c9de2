"""The two kinds of player an in-process match takes: a Python function, or a bot folder run as processes.

A function gets the seat's observation and returns an action; its exceptions propagate (it is the caller's
own code, and a traceback helps more than a silent "crash"). A bot folder runs exactly as in `td-runner
match`: checked by `runner.play.load_player`, started per turn (`run_turn`) or once per episode
(`PersistentBot`), under the game's time limit; its time-outs and crashes become faults the game judges.
Each folder runs from its own temporary copy, so one folder can fill several seats or parallel episodes
without their state files colliding (files it writes during a match are not kept).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from runner.api.core import ApiError, Episode
from runner.bots.limits import Limits
from runner.bots.persistent import STARTUP_MS, PersistentBot
from runner.bots.process import run_turn
from runner.errors import UserError
from runner.games.interface import Answer, Game
from runner.match import PlayerTally, open_persistent, uses_persistent
from runner.play import load_player

class FunctionAgent:
    """A Python callable `agent(observation) -> action`."""

    def __init__(self, function: Any, name: str | None = None) -> None:
        self.function = function
        self.name = name or getattr(function, "__name__", None) or type(function).__name__

    def start(self, episode: Episode, seat: str) -> None:
        self.episode, self.seat = episode, seat

    def act(self) -> Answer:
        """The function's answer to its seat's observation of the episode's current turn."""
        observation = self.episode.observe((self.seat,))[self.seat]
        return self.episode.answer(self.seat, self.function(observation))

    def close(self) -> None:
        pass


class FolderAgent:
    """A bot folder (`bot.json`), copied once to a temporary folder and run from there."""

    def __init__(self, game: Game, seat: str, folder: str | Path, limits: Limits | None = None,
                 startup_ms: int = STARTUP_MS) -> None:
        self.source = Path(folder)
        try:
            load_player(game, seat, self.source)  # the checks `td-runner match` makes, on the original
        except UserError as exc:
            raise ApiError(str(exc)) from None
        self.scratch = tempfile.TemporaryDirectory(prefix="td-runner-api-")
        copy = Path(self.scratch.name) / self.source.resolve().name
        shutil.copytree(self.source, copy, symlinks=True)
        self.bot = load_player(game, seat, copy).bot
        self.name = self.bot.nick_name
        self.game = game
        self.limits = limits or Limits(timeout_ms=game.timeout_ms)
        self.tally = PlayerTally()  # its answer times, for the game's time budget (Invaders), as in a match
        self.startup_ms = startup_ms
        self.persistent: PersistentBot | None = None

    def start(self, episode: Episode, seat: str) -> None:
        self.close_process()
        self.tally = PlayerTally()  # a new match: a new process and new budget blocks
        self.seat = seat
        if uses_persistent(self.game, self.bot):
            self.persistent = open_persistent(self.game, self.bot, self.limits, self.startup_ms)
            if self.bot.request is not None:  # bot.json's request format, as `td-runner match` sends it
                episode.session.use_request_format(seat, self.bot.request)  # type: ignore[attr-defined]
        self.episode = episode

    def act(self) -> Answer:
        """The bot's answer to its seat's input files of the episode's current turn, as in a match."""
        turn_input = self.episode.inputs()[self.seat]
        turn = self.episode.session.turn
        if self.persistent is not None:
            outcome = self.persistent.ask(turn, turn_input.files, turn_input.line or "")
        else:
            outcome = run_turn(self.bot, turn_input.files, self.limits, self.game.answer_file)
        budget = self.game.time_budget if self.persistent is not None else None
        return self.tally.answer(turn, outcome, budget)  # as `td-runner match` reads it: faults, no file, budget

    def close_process(self) -> None:
        if self.persistent is not None:
            self.persistent.close()
            self.persistent = None

    def close(self) -> None:
        self.close_process()
        self.scratch.cleanup()


def make_agent(game: Game, seat: str, agent: Any, name: str | None = None,
               timeout_ms: int | None = None) -> FunctionAgent | FolderAgent:
    """A function, or a bot folder given as a path (limited to `timeout_ms` a turn, default the game's)."""
    if isinstance(agent, (str, Path)):
        return FolderAgent(game, seat, agent, Limits(timeout_ms=timeout_ms or game.timeout_ms))
    if callable(agent):
        return FunctionAgent(agent, name)
    raise ApiError(f"seat {seat}: an agent is a function agent(observation) or a bot folder path, "
                   f"got {type(agent).__name__} {agent!r}")


def agents_by_seat(seats: tuple[str, ...], agents: Any, what: str = "agents") -> dict[str, Any]:
    """A list (one per seat, in seat order) or a mapping seat -> agent, checked against the seats."""
    if isinstance(agents, Mapping):
        unknown = [seat for seat in agents if seat not in seats]
        missing = [seat for seat in seats if seat not in agents]
        if unknown or missing:
            raise ApiError(f"{what} must name the seats {', '.join(seats)}; "
                           + (f"unknown: {', '.join(map(str, unknown))}" if unknown else f"missing: {', '.join(missing)}"))
        return dict(agents)
    if isinstance(agents, (str, Path)) or callable(agents) or not hasattr(agents, "__len__"):
        raise ApiError(f"{what} must be a list with one agent per seat ({', '.join(seats)}) or a dict seat -> agent")
    if len(agents) not in (len(seats),):
        raise ApiError(f"{what}: give {len(seats)} agents, one per seat {', '.join(seats)}, got {len(agents)}")
    return dict(zip(seats, agents))
