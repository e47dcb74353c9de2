"""Render the console map (Console/Console.txt): always the engine view, same for both players (spec 7.3)."""

from __future__ import annotations

from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.state import GameState, PlayerState
from runner.games.tower_defence.protocol.text_map import letter_table


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
        self._row_labels = [str(y) for y in range(config.map_height)]
        self._letter_table = letter_table(config)
        #: every cell as drawn when it is empty and nothing on the board needs padding
        self._plain_rows = [
            [f"[{label} {y}]" for label in self._column_labels] for y in range(config.map_height)
        ]

    def render(self, state: GameState) -> str:
        config = self.config
        half = config.half
        table = self._letter_table
        middles = {(b.x, b.y): table[b.type][b.construction_time_left <= -1] for b in state.buildings}
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
        if left_width == right_width == 1:  # the usual case: only occupied cells differ from the plain board
            rows = [row[:] for row in self._plain_rows]
            keys = middles.keys() | lefts.keys() | rights.keys()
        else:  # spec 7.3: pad every cell of the board to the widest missile run
            rows = [[""] * config.map_width for _ in range(config.map_height)]
            keys = {(x, y) for x in range(config.map_width) for y in range(config.map_height)}
        for key in keys:
            x, y = key
            left = lefts.get(key, self._column_labels[x]).ljust(left_width)
            right = rights.get(key, self._row_labels[y]).rjust(right_width)
            rows[y][x] = f"[{left}{middles.get(key, ' ')}{right}]"
        curtain_a = state.players["A"].is_iron_curtain_active
        curtain_b = state.players["B"].is_iron_curtain_active
        curtain = ""
        if curtain_a or curtain_b:
            left = ("\\" if curtain_a else " ").ljust(left_width)
            right = ("/" if curtain_b else " ").rjust(right_width)
            curtain = f" {left} {right} "
        lines = ["\n", _header(state.players["A"]), _header(state.players["B"])]
        for row in rows:
            lines.append(f"{''.join(row[:half])}{curtain}{''.join(row[half:])}\n")
        return "".join(lines)
