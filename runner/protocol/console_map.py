"""Render the console map (Console/Console.txt): always the engine view, same for both players (spec 7.3)."""

from __future__ import annotations

from runner.engine.config import GameConfig
from runner.engine.state import GameState, PlayerState
from runner.protocol.text_map import building_letter


def _header(player: PlayerState) -> str:
    available = "Yes" if player.can_place_iron_curtain else "No"
    return (
        f"Player {player.player}, Health={player.health:3d}, Energy={player.energy:6d}, "
        f"Score={player.score:6d}, IronCurtainAvailable= {available}\n"
    )


class ConsoleMapRenderer:
    def __init__(self, config: GameConfig) -> None:
        self.config = config
        half = config.half
        # the left part of a cell starts as the column label mirrored into each owner's half
        self._column_labels = [str(x if x < half else config.map_width - 1 - x) for x in range(config.map_width)]

    def render(self, state: GameState) -> str:
        config = self.config
        width, height, half = config.map_width, config.map_height, config.half
        middles: dict[tuple[int, int], str] = {(b.x, b.y): building_letter(b) for b in state.buildings}
        lefts: dict[tuple[int, int], str] = {}
        rights: dict[tuple[int, int], str] = {}
        for missile in state.missiles:
            key = (missile.x, missile.y)
            if missile.owner == "B":
                lefts[key] = lefts.get(key, "") + "<"  # B's missiles replace the column label
            else:
                rights[key] = rights.get(key, "") + ">"  # A's missiles replace the row label
        left_width = max([1, *map(len, lefts.values())])
        right_width = max([1, *map(len, rights.values())])
        curtain_a = state.players["A"].is_iron_curtain_active
        curtain_b = state.players["B"].is_iron_curtain_active
        curtain = ""
        if curtain_a or curtain_b:
            left = ("\\" if curtain_a else " ").ljust(left_width)
            right = ("/" if curtain_b else " ").rjust(right_width)
            curtain = f" {left} {right} "
        lines = ["\n", _header(state.players["A"]), _header(state.players["B"])]
        for y in range(height):
            row_label = str(y)
            cells = []
            for x in range(width):
                key = (x, y)
                left = lefts.get(key, self._column_labels[x]).ljust(left_width)
                right = rights.get(key, row_label).rjust(right_width)
                cells.append(f"[{left}{middles.get(key, ' ')}{right}]")
                if x == half - 1 and curtain:
                    cells.append(curtain)
            lines.append("".join(cells) + "\n")
        return "".join(lines)
