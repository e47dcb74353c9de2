"""Tower Defence behind the GameSession interface: engine + renderers, nothing else."""

from __future__ import annotations

from typing import Any

from runner.engine.config import GameConfig
from runner.engine.game import check_game_over, play_round
from runner.engine.state import PLAYERS, CommandOrder, GameState
from runner.games import Outcome, RoundReport
from runner.protocol import Renderers
from runner.protocol.end_game import render_end_game_state

STATE_FILE = "state.json"
TEXT_MAP_FILE = "textMap.txt"


class TowerDefenceSession:
    """One Tower Defence match: the pure engine state plus its renderers."""

    seats = PLAYERS
    log_file_names = {STATE_FILE: "JsonMap.json", TEXT_MAP_FILE: "TextMap.txt"}  # spec 7.4

    def __init__(
        self, config: GameConfig, seed: int = 0, command_order: CommandOrder = CommandOrder.B_FIRST
    ) -> None:
        self.state = GameState.new(config, seed=seed, command_order=command_order)
        self.renderers = Renderers(config)

    @property
    def round(self) -> int:
        return self.state.round

    def player_files(self) -> dict[str, dict[str, str]]:
        return {
            seat: {STATE_FILE: state_json, TEXT_MAP_FILE: text_map}
            for seat, (state_json, text_map) in self.renderers.player_files(self.state).items()
        }

    def console_view(self) -> str:
        return self.renderers.console(self.state)

    def play_round(self, commands: dict[str, str]) -> RoundReport:
        play_round(self.state, commands)
        errors = tuple(self.state.errors)
        # every engine error is stored as "Player <seat>: ..." (spec 4.2)
        rejected = frozenset(seat for seat in PLAYERS if any(e.startswith(f"Player {seat}: ") for e in errors))
        return RoundReport(errors, rejected)

    def outcome(self) -> Outcome | None:
        result = check_game_over(self.state)
        return None if result is None else Outcome(result.reason.value, result.winner)

    def standings(self) -> dict[str, dict[str, int]]:
        return {
            seat: {"score": p.score, "health": p.health, "energy": p.energy}
            for seat, p in self.state.players.items()
        }

    def end_of_game_text(self, names: dict[str, str]) -> str:
        result = check_game_over(self.state)
        if result is None:
            raise ValueError("the game is not over")
        return render_end_game_state(self.state, result, names)

    def config_json(self) -> dict[str, Any]:
        from runner.config import game_config_to_json

        return game_config_to_json(self.state.config)
