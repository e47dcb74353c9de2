"""One Tower Defence match behind the `Session` interface: the pure engine plus its renderers, nothing else.

Besides the interface's methods it has the in-process API's two optional hooks (runner/api): `observations()`,
each seat's state.json as data built from the engine state, and `action_masks()`, each seat's action mask
computed from the engine state; both equal what parsing the rendered files gives, at a fraction of the cost.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from runner.games.tower_defence.actions import StateMasks
from runner.games.interface import Answer, Outcome, TurnInput, TurnReport
from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.game import GameResult, check_game_over, play_round
from runner.games.tower_defence.engine.state import PLAYERS, CommandOrder, GameState
from runner.games.tower_defence.observations import builder_for
from runner.games.tower_defence.protocol import Renderers
from runner.games.tower_defence.protocol.end_game import render_end_game_state

STATE_FILE = "state.json"
TEXT_MAP_FILE = "textMap.txt"
_ERROR_PREFIXES = {f"Player {seat}: ": seat for seat in PLAYERS}  # how the engine starts a seat's error
_PREFIX_LENGTH = len("Player A: ")
assert all(len(prefix) == _PREFIX_LENGTH for prefix in _ERROR_PREFIXES)
#: the report of a round without engine errors (most rounds): one shared, read-only record instead of a new
#: one per round, which costs as much as the rest of play_turn's bookkeeping (in-process API speed, issue 16)
_QUIET_ROUND = TurnReport((), MappingProxyType({}), MappingProxyType({}))


def outcome_of(result: GameResult) -> Outcome:
    """The engine's result as the interface's Outcome (a tie ranks both seats together)."""
    if result.winner is None:
        return Outcome(result.reason.value, (PLAYERS,))
    loser = next(seat for seat in PLAYERS if seat != result.winner)
    return Outcome(result.reason.value, ((result.winner,), (loser,)))


class TowerDefenceSession:
    """One Tower Defence match: the engine state, advanced one round per `play_turn`."""

    seats = PLAYERS

    def __init__(
        self, config: GameConfig, seed: int = 0, command_order: CommandOrder = CommandOrder.B_FIRST
    ) -> None:
        self.state = GameState.new(config, seed=seed, command_order=command_order)
        self.config = config
        self.turn_limit = config.max_rounds
        self._renderers: Renderers | None = None
        self._masks: StateMasks | None = None

    @property
    def renderers(self) -> Renderers:
        """The renderers, built on first use (an in-process session that only asks `observations` never
        renders, and building them costs more than a round)."""
        if self._renderers is None:
            self._renderers = Renderers(self.config)
        return self._renderers

    @property
    def turn(self) -> int:
        return self.state.round

    def active_seats(self) -> tuple[str, ...]:
        return PLAYERS

    def inputs(self) -> dict[str, TurnInput]:
        # spec 8.4 + td-runner's persistent extension: files first, then the round number on stdin
        line = str(self.state.round)
        return {
            seat: TurnInput({STATE_FILE: state_json, TEXT_MAP_FILE: text_map}, line)
            for seat, (state_json, text_map) in self.renderers.player_files(self.state).items()
        }

    def observations(self) -> dict[str, dict[str, Any]]:
        """Each seat's state.json as data: equal to `json.loads(self.inputs()[seat].files["state.json"])`.

        Read-only: the dicts and lists share parts with earlier and later observations (and other sessions of
        the same config), and are never changed once returned; copy one before changing it.
        """
        a_view, b_view = builder_for(self.config).views(self.state)
        return {"A": a_view, "B": b_view}

    def action_masks(self) -> dict[str, bytearray]:
        """Each seat's action mask (one byte 0/1 per action of `actions.action_space(config)`), from the engine
        state: equal to `action_space(config).mask(observation)` of the seat's view. A new bytearray per seat
        and call, which the caller owns (runner/api wraps it in a numpy array without copying)."""
        if self._masks is None:
            self._masks = StateMasks(self.config)
        return self._masks.masks(self.state)

    def play_turn(self, answers: Mapping[str, Answer]) -> TurnReport:
        # a fault is simply no command (spec 8.4: a bot that timed out or crashed does nothing)
        play_round(self.state, {seat: answer.text for seat, answer in answers.items()})
        errors = self.state.errors
        if not errors:  # most rounds: nothing refused, nothing to sort out
            return _QUIET_ROUND
        # every engine error is stored as "Player <seat>: ..." (spec 4.2); one pass, seats in PLAYERS order
        found: dict[str, list[str]] = {}
        for error in errors:
            seat = _ERROR_PREFIXES.get(error[:_PREFIX_LENGTH])
            if seat is not None:
                found.setdefault(seat, []).append(error)
        return TurnReport(tuple(errors), {seat: tuple(found[seat]) for seat in PLAYERS if seat in found})

    def outcome(self) -> Outcome | None:
        result = check_game_over(self.state)
        return None if result is None else outcome_of(result)

    def standings(self) -> dict[str, dict[str, int | float]]:
        return {
            seat: {"score": p.score, "health": p.health, "energy": p.energy}
            for seat, p in self.state.players.items()
        }

    def text_view(self) -> str:
        return self.renderers.console(self.state)

    def final_files(self, names: Mapping[str, str]) -> dict[str, str]:
        result = check_game_over(self.state)
        if result is None:
            raise ValueError("the game is not over")
        return {"endGameState.txt": render_end_game_state(self.state, result, dict(names))}

    def snapshot(self) -> dict[str, Any]:
        return json.loads(self.renderers.state_json(self.state, "A"))
