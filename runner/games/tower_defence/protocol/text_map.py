"""Render `textMap.txt` (= TextMap.txt) byte for byte as the official engine (spec 7.2).

Speed matters: as json_state.py, both viewers are assembled in one pass over the board from a template of
the whole file, and the view-dependent text of each building is rendered once and reused every round.
"""

from __future__ import annotations

from runner.games.tower_defence.engine.config import STATS_ORDER, BuildingType, GameConfig
from runner.games.tower_defence.engine.state import PLAYERS, Building, GameState, PlayerState
from runner.games.tower_defence.protocol.view import PerViewRenderer, View

_RULE = "###############################\n"


def letter_table(config: GameConfig) -> dict[BuildingType, tuple[str, str]]:
    """Per building type, its map letter (under construction, constructed): the config icon in lower case
    while building, upper case once constructed. Index with `building.construction_time_left <= -1`."""
    return {kind: (stats.icon.lower(), stats.icon.upper()) for kind, stats in config.buildings.items()}


def _player_body(player: PlayerState) -> str:
    """A player block after its title line (the title is the only part that depends on the view)."""
    return (
        f"Energy : {player.energy}\n"
        f"Health : {player.health}\n"
        f"HitsTaken : {player.hits_taken}\n"
        f"Score : {player.score}\n"
        f"IronCurtainAvailable : {1 if player.can_place_iron_curtain else 0}\n"
        f"ActiveIronCurtainLifetime : {player.iron_curtain_time_left}\n"
        "------------------------------\n\n"
    )


#: the template's slots: round number, the viewer's and the opponent's player blocks, the board, the lists
_ROUND, _PLAYER_A, _PLAYER_B, _BOARD = 1, 4, 6, 8


class TextMapRenderer(PerViewRenderer):
    """Renders one config's text maps for either viewer."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        stats_rows = "".join(
            f"{t.name};{s.health};{s.construction_time};{s.price};{s.weapon_damage};{s.weapon_speed};"
            f"{s.weapon_cooldown_period};{s.energy_generated_per_turn};{s.destroy_multiplier};"
            f"{s.construction_score};\n"
            for t, s in ((t, config.buildings[t]) for t in STATS_ORDER)
        )
        curtain = config.iron_curtain
        after_round = (
            f"\nMaximum Amount Of Rounds : {config.max_rounds}\n"
            f"Map Width : {config.map_width}\n"
            f"Map Height : {config.map_height}\n"
            f"Round Income Energy : {config.round_income_energy}\n"
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n\n"
            "****** BUILDING STATS ******\n"
            "type;health;constructionTime;price;weaponDamage;weaponSpeed;weaponCooldownPeriod;"
            "energyGeneratedPerTurn;destroyMultiplier;constructionScore\n"
            f"{stats_rows}"
            "*****************************\n\n"
            "***** IRON CURTAIN STATS ****\n"
            "price;activeRounds;resetPeriod;constructionScore\n"
            f"{curtain.price};{curtain.active_rounds};{curtain.reset_period};{curtain.construction_score};\n"
            "*****************************\n\n"
        )
        width, height = config.map_width, config.map_height
        cells = width * height
        self._views = {p: View(p, width) for p in PLAYERS}
        self._letter_table = letter_table(config)
        self._middles = {kind: f"|{kind.name}|" for kind in BuildingType}  # enum .name is slow
        #: the end of a building line after its health and cooldown: "|weaponDamage|energyGenerated\n"
        self._line_ends = {
            kind: f"|{stats.weapon_damage}|{stats.energy_generated_per_turn}\n" for kind, stats in config.buildings.items()
        }
        # per viewer, per engine cell index: its slot in the view's board, its view x and what follows it
        self._slots: dict[str, list[int]] = {}
        self._xs: dict[str, list[int]] = {}
        self._seps: dict[str, list[str]] = {}
        #: per viewer, per (engine cell index * 2 + owner is B): the "[x,y] Owner" start of a building or missile line
        self._line_starts: dict[str, list[str]] = {}
        self._templates: dict[str, list[str]] = {}
        for viewer, view in self._views.items():
            slots, xs, seps, starts = [], [], [], []
            board = [""] * cells
            for cell in range(cells):
                x, y = cell % width, cell // width
                vx = view.x(x)
                slot = y * width + vx
                slots.append(slot)
                xs.append(vx)
                seps.append("\n" if vx == width - 1 else "")
                board[slot] = f"[{vx},{y},N,0,0]{seps[-1]}"
                for owner in PLAYERS:
                    starts.append(f"[{vx},{y}] {view.labels[owner]}")
            self._slots[viewer], self._xs[viewer], self._seps[viewer] = slots, xs, seps
            self._line_starts[viewer] = starts
            self._templates[viewer] = [
                "XXXXXXXXX GAME INFO XXXXXXXXX\nRound Number : ", "", after_round,
                "---------- PLAYER A ----------\n", "", "---------- PLAYER B ----------\n", "",
                "############# MAP #############\n", *board,
                f"{_RULE}\n######## BUILDING DATA #########\n"
                "FORMAT : [x,y] Owner|BuildingType|ConstructionTimeLeft|Health|WeaponCooldownTimeLeft|"
                "WeaponDamage|EnergyGeneratedPerTurn \n\n",
                "",
                f"{_RULE}\n####### MISSILE DATA ########\nFORMAT : [x,y] Owner|Damage|Speed \n\n",
                "",
                _RULE,
            ]
        #: per building: (slot A, slot B, map cells A and B (under construction, constructed), line starts A, B)
        self._pieces: dict[Building, tuple] = {}

    def _pieces_of(self, building: Building) -> tuple:
        """The parts of a building's text that never change while it stands, for both views."""
        cell = building.cell
        key = cell * 2 + (building.owner == "B")
        letters = self._letter_table[building.type]
        middle = self._middles[building.type]
        pieces = [self._line_ends[building.type]]
        for viewer in PLAYERS:
            x, sep = self._xs[viewer][cell], self._seps[viewer][cell]
            pieces.append(self._slots[viewer][cell] + _BOARD)
            pieces.append(tuple(f"[{x},{building.y},{letter},0,0]{sep}" for letter in letters))
            pieces.append(self._line_starts[viewer][key] + middle)
        if len(self._pieces) > 1024:  # buildings that left the board: drop them all, the rest come back
            self._pieces.clear()
        self._pieces[building] = found = tuple(pieces)
        return found

    def render_views(self, state: GameState, viewers: tuple[str, ...] = PLAYERS) -> dict[str, str]:
        """Render the viewers' texts; block "PLAYER A" is always the viewer (spec 7.2)."""
        now = state.clock[0]
        a_board, b_board = self._templates["A"][:], self._templates["B"][:]
        a_lines, b_lines = [], []
        known = self._pieces
        for building in state.buildings:
            pieces = known.get(building)
            if pieces is None:
                pieces = self._pieces_of(building)
            end, a_slot, a_cells, a_start, b_slot, b_cells, b_start = pieces
            left = building.finish - now
            tail = f"{left}|{building.health}|{building.weapon_cooldown_time_left}{end}"
            built = left < 0
            a_board[a_slot] = a_cells[built]
            b_board[b_slot] = b_cells[built]
            a_lines.append(a_start + tail)
            b_lines.append(b_start + tail)
        a_missiles = b_missiles = ""
        if state.missiles:
            a_missiles, b_missiles = self._missiles(state, a_board, b_board)
        players = state.players
        bodies = {seat: _player_body(players[seat]) for seat in PLAYERS}
        number = str(state.round)
        texts = {}
        for viewer, board, lines, missiles in (("A", a_board, a_lines, a_missiles), ("B", b_board, b_lines, b_missiles)):
            if viewer not in viewers:
                continue
            board[_ROUND] = number
            board[_PLAYER_A] = bodies[viewer]
            board[_PLAYER_B] = bodies["B" if viewer == "A" else "A"]
            board[-4] = "".join(lines)
            board[-2] = missiles
            texts[viewer] = "".join(board)
        return texts

    def _missiles(self, state: GameState, a_board: list[str], b_board: list[str]) -> tuple[str, str]:
        """Rewrite the map cells that hold missiles; return both views' missile lines."""
        keys = [(m.row + m.x) * 2 + (m.owner == "B") for m in state.missiles]
        counts: dict[int, list[int]] = {}  # engine cell -> [A's missiles, B's missiles]
        for key in keys:
            found = counts.get(key >> 1)
            if found is None:
                found = counts[key >> 1] = [0, 0]
            found[key & 1] += 1
        now = state.clock[0]
        board = state.board
        table = self._letter_table
        width = self.config.map_width
        a_xs, b_xs = self._xs["A"], self._xs["B"]
        a_seps, b_seps = self._seps["A"], self._seps["B"]
        a_slots, b_slots = self._slots["A"], self._slots["B"]
        for cell, (a_count, b_count) in counts.items():
            building = board[cell]
            letter = "N" if building is None else table[building.type][building.finish < now]
            y = cell // width
            a_board[a_slots[cell] + _BOARD] = f"[{a_xs[cell]},{y},{letter},{a_count},{b_count}]{a_seps[cell]}"
            b_board[b_slots[cell] + _BOARD] = f"[{b_xs[cell]},{y},{letter},{b_count},{a_count}]{b_seps[cell]}"
        ends = [f"|{m.damage}|{m.speed}\n" for m in state.missiles]
        a_starts, b_starts = self._line_starts["A"], self._line_starts["B"]
        return (
            "".join([a_starts[key] + end for key, end in zip(keys, ends)]),
            "".join([b_starts[key] + end for key, end in zip(keys, ends)]),
        )
