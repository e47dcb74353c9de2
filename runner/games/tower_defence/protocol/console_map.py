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
        # the unpadded board as one list: per row the left half, the curtain, the right half, a newline;
        # per engine cell index its place in that list and its text per building letter
        width = config.map_width
        self._template: list[str] = []
        self._places: list[int] = [0] * (width * config.map_height)
        self._curtains: list[int] = []
        for y, row in enumerate(self._plain_rows):
            for x in range(width):
                if x == half:
                    self._curtains.append(len(self._template))
                    self._template.append("")
                self._places[y * width + x] = len(self._template)
                self._template.append(row[x])
            self._template.append("\n")
        letters = {letter for pair in self._letter_table.values() for letter in pair}
        self._lettered = [
            {letter: f"[{self._column_labels[cell % width]}{letter}{self._row_labels[cell // width]}]"
             for letter in letters}
            for cell in range(width * config.map_height)
        ]

    def render(self, state: GameState) -> str:
        # the usual case: no cell holds two missiles of one player, so nothing is padded
        a_cells = [m.row + m.x for m in state.missiles if m.owner == "A"]
        b_cells = [m.row + m.x for m in state.missiles if m.owner == "B"]
        if len(set(a_cells)) < len(a_cells) or len(set(b_cells)) < len(b_cells):
            return self._render_padded(state)
        return self._render_plain(state, a_cells, b_cells)

    def _render_plain(self, state: GameState, a_cells: list[int], b_cells: list[int]) -> str:
        now = state.clock[0]
        table, lettered, places = self._letter_table, self._lettered, self._places
        board = self._template[:]
        for building in state.buildings:
            cell = building.cell
            board[places[cell]] = lettered[cell][table[building.type][building.finish < now]]
        if a_cells or b_cells:
            width = self.config.map_width
            grid = state.board
            for cell in {*a_cells, *b_cells}:
                building = grid[cell]
                middle = " " if building is None else table[building.type][building.finish < now]
                left = "<" if cell in b_cells else self._column_labels[cell % width]  # B's missiles
                right = ">" if cell in a_cells else self._row_labels[cell // width]  # A's missiles
                board[places[cell]] = f"[{left}{middle}{right}]"
        curtain_a = state.players["A"].iron_curtain_time_left >= 0
        curtain_b = state.players["B"].iron_curtain_time_left >= 0
        if curtain_a or curtain_b:
            curtain = " " + ("\\" if curtain_a else " ") + " " + ("/" if curtain_b else " ") + " "
            for place in self._curtains:
                board[place] = curtain
        return "".join(["\n", _header(state.players["A"]), _header(state.players["B"]), *board])

    def _render_padded(self, state: GameState) -> str:
        """Any board: missiles replace labels, and a run of them pads every cell (spec 7.3)."""
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
