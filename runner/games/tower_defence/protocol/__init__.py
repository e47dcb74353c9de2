"""Records -> the exact text bots and logs see: JSON state, text map, console map, end-of-game file."""

from __future__ import annotations

from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.state import GameState
from runner.games.tower_defence.protocol.console_map import ConsoleMapRenderer
from runner.games.tower_defence.protocol.json_state import JsonStateRenderer
from runner.games.tower_defence.protocol.text_map import TextMapRenderer


class Renderers:
    """All renderers of one config, built once (they precompute the config-dependent text)."""

    def __init__(self, config: GameConfig) -> None:
        self.json_state = JsonStateRenderer(config)
        self.text_map = TextMapRenderer(config)
        self.console_map = ConsoleMapRenderer(config)

    def state_json(self, state: GameState, viewer: str) -> str:
        return self.json_state.render(state, viewer)

    def text(self, state: GameState, viewer: str) -> str:
        return self.text_map.render(state, viewer)

    def player_files(self, state: GameState) -> dict[str, tuple[str, str]]:
        """Each player's (state.json, textMap.txt) for this state; the per-round hot path of the runner."""
        states = self.json_state.render_views(state)
        texts = self.text_map.render_views(state)
        return {seat: (states[seat], texts[seat]) for seat in states}

    def console(self, state: GameState) -> str:
        return self.console_map.render(state)
