"""What `td-runner replay` shows of each round of a match log, read from the log plus one engine replay.

A round N view is the state *before* round N's commands (the log's `Round NNN` folder, spec 7.4), the
commands both players sent after seeing it, and the errors those commands caused. Errors are never written
to the per-round files, so they come from replaying the recorded commands through our engine with the
log's game config and command order. That works for every log in the official layout (ours or the
official runner's), whereas the official runner's printed `Error List: [...]` exists only where someone
captured its stdout (the conformance traces' runner-stdout.log) in verbose mode. The replay is checked
against the log every round; where they part, the view says so.
"""

from __future__ import annotations

import json

import attrs

from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.game import play_round
from runner.games.tower_defence.engine.state import PLAYERS, CommandOrder, GameState
from runner.games.tower_defence.logs.layout import BOT_OUTPUT, CONSOLE, JSON_MAP, PLAYER_COMMAND, MatchLog

#: JSON `players` entries are in engine order in both views (spec 2.4), only the labels are swapped.
_ENGINE_INDEX = {"A": 0, "B": 1}


@attrs.frozen
class PlayerSummary:
    """One player's numbers as the log's JSON state gives them (engine seat, not view label)."""

    health: int
    energy: int
    score: int
    hits_taken: int
    iron_curtain_available: bool
    iron_curtain_lifetime: int

    @property
    def iron_curtain_active(self) -> bool:
        return self.iron_curtain_lifetime >= 0  # spec 2.2


@attrs.frozen
class RoundView:
    number: int
    is_final: bool
    #: The log's Console/Console.txt lines (engine view); empty when the file is missing.
    console_map: tuple[str, ...]
    players: dict[str, PlayerSummary | None]
    commands: dict[str, str | None]  # None: no PlayerCommand.txt
    bot_output: dict[str, str | None]
    #: Errors the round's commands caused (engine error-list entries, "Player A: ...").
    errors: tuple[str, ...]
    end_game_state: str | None
    #: Set when our engine's replay no longer matches the log (then `errors` may be wrong).
    warning: str | None = None


def _summary(state_text: str | None) -> dict[str, PlayerSummary | None]:
    result: dict[str, PlayerSummary | None] = {seat: None for seat in PLAYERS}
    if state_text is None:
        return result
    try:
        # spec 7.1: `players` precedes the (large) `gameMap`; parse just that slice when it is there
        start, end = state_text.find('"players":['), state_text.find('],"gameMap":')
        if 0 <= start < end:
            players = json.loads(state_text[start + len('"players":') : end + 1])
        else:
            players = json.loads(state_text)["players"]
        for seat, index in _ENGINE_INDEX.items():
            raw = players[index]
            result[seat] = PlayerSummary(
                raw["health"], raw["energy"], raw["score"], raw["hitsTaken"],
                raw["ironCurtainAvailable"], raw["activeIronCurtainLifetime"],
            )
    except (ValueError, KeyError, IndexError, TypeError):
        pass  # a damaged state: show what the other files give (`validate` is the tool that explains)
    return result


def _engine_summary(state: GameState) -> dict[str, PlayerSummary]:
    return {
        seat: PlayerSummary(p.health, p.energy, p.score, p.hits_taken, p.can_place_iron_curtain,
                            p.iron_curtain_time_left)
        for seat, p in state.players.items()
    }


class MatchReplay:
    """Random access to the rounds of one log; the engine replay runs once, up front (it is cheap)."""

    def __init__(self, log: MatchLog, config: GameConfig, order: CommandOrder = CommandOrder.B_FIRST) -> None:
        self.log = log
        self.order = order
        self._errors: dict[int, tuple[str, ...]] = {}
        self.diverged_at: int | None = None
        self._replay(config)

    @property
    def rounds(self) -> tuple[int, ...]:
        return self.log.rounds

    def _replay(self, config: GameConfig) -> None:
        state = GameState.new(config, command_order=self.order)
        commands = self.log.commands()
        expected = list(self.log.rounds)
        # the last folder's commands were never played, unless the log stops without an end (a crash)
        played_last = self.log.end_game_state() is None
        for position, number in enumerate(expected):
            if number != state.round:  # a missing round folder: the engine cannot follow the log further
                self.diverged_at = state.round
                return
            recorded = _summary(self.log.player_file(number, "A", JSON_MAP))
            if self.diverged_at is None and recorded != _engine_summary(state) and all(recorded.values()):
                self.diverged_at = number
            if position == len(expected) - 1 and not played_last:
                return
            play_round(state, commands[position])
            self._errors[number] = tuple(state.errors)

    def round(self, number: int) -> RoundView:
        """The view of round `number` (one of `rounds`)."""
        log = self.log
        final = number == log.final_round
        console = log.player_file(number, "A", CONSOLE) or log.player_file(number, "B", CONSOLE) or ""
        state_text = log.player_file(number, "A", JSON_MAP) or log.player_file(number, "B", JSON_MAP)
        warning = None
        if self.diverged_at is not None and number >= self.diverged_at:
            warning = (
                f"our engine's replay of this log differs from it from round {self.diverged_at} on "
                f"(other engine or config?): the errors shown may be wrong"
            )
        return RoundView(
            number=number,
            is_final=final,
            console_map=tuple(line for line in console.split("\n") if line.startswith("[")),
            players=_summary(state_text),
            commands={seat: log.player_file(number, seat, PLAYER_COMMAND) for seat in PLAYERS},
            bot_output={seat: log.player_file(number, seat, BOT_OUTPUT) for seat in PLAYERS},
            errors=self._errors.get(number, ()),
            end_game_state=log.end_game_state() if final else None,
            warning=warning,
        )
