"""Render `textMap.txt` (= TextMap.txt) byte for byte as the official engine (spec 7.2)."""

from __future__ import annotations

from runner.games.tower_defence.engine.config import STATS_ORDER, BuildingType, GameConfig
from runner.games.tower_defence.engine.state import GameState, PlayerState
from runner.games.tower_defence.protocol.view import Cells, PerViewRenderer, View

_RULE = "###############################\n"


def letter_table(config: GameConfig) -> dict[BuildingType, tuple[str, str]]:
    """Per building type, its map letter (under construction, constructed): the config icon in lower case
    while building, upper case once constructed. Index with `building.construction_time_left <= -1`."""
    return {kind: (stats.icon.lower(), stats.icon.upper()) for kind, stats in config.buildings.items()}


def _letters(config: GameConfig) -> set[str]:
    """Every letter a map cell can show: N (empty) and each icon in both cases."""
    icons = [stats.icon for stats in config.buildings.values()]
    return {"N", *(icon.upper() for icon in icons), *(icon.lower() for icon in icons)}


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
        self._after_round = (
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
        width = config.map_width
        self._empty_board = [f"[{x},{y},N,0,0]" for y in range(config.map_height) for x in range(width)]
        self._views = {p: View(p, width) for p in "AB"}
        # per viewer, per engine cell: its slot in the flat board (row-major, view x) and its view x; per
        # owner the "[x,y] Owner" start of a building or missile line
        self._slots: dict[str, dict[tuple[int, int], tuple[int, int]]] = {}
        self._line_starts: dict[str, dict[tuple[int, int, str], str]] = {}
        self._line_middles = {kind: f"|{kind.name}|" for kind in BuildingType}  # enum .name is slow
        self._letter_table = letter_table(config)
        #: per viewer: (engine cell, letter) -> the map cell without missiles, "[x,y,L,0,0]"
        self._plain_cells: dict[str, dict[tuple[int, int, str], str]] = {}
        for viewer, view in self._views.items():
            self._plain_cells[viewer] = {
                (x, y, letter): f"[{view.x(x)},{y},{letter},0,0]"
                for x in range(width) for y in range(config.map_height) for letter in _letters(config)
            }
            self._slots[viewer] = {
                (x, y): (y * width + view.x(x), view.x(x)) for x in range(width) for y in range(config.map_height)
            }
            self._line_starts[viewer] = {
                (x, y, owner): f"[{view.x(x)},{y}] {view.labels[owner]}"
                for x in range(width) for y in range(config.map_height) for owner in "AB"
            }

    @staticmethod
    def _player_block(title: str, player: PlayerState) -> str:
        return (
            f"---------- PLAYER {title} ----------\n"
            f"Energy : {player.energy}\n"
            f"Health : {player.health}\n"
            f"HitsTaken : {player.hits_taken}\n"
            f"Score : {player.score}\n"
            f"IronCurtainAvailable : {1 if player.can_place_iron_curtain else 0}\n"
            f"ActiveIronCurtainLifetime : {player.iron_curtain_time_left}\n"
            "------------------------------\n\n"
        )

    def _shared(self, state: GameState, cells: Cells) -> tuple[dict, list[str]]:
        table = self._letter_table
        letters = {
            key: table[b.type][b.construction_time_left <= -1] if b is not None else "N"
            for key, (b, _) in cells.items()
        }
        # everything after "[x,y] Owner" is the same in every view
        middles = self._line_middles
        building_tails = [
            f"{middles[b.type]}{b.construction_time_left}|{b.health}|{b.weapon_cooldown_time_left}|"
            f"{b.stats.weapon_damage}|{b.stats.energy_generated_per_turn}\n"
            for b in state.buildings
        ]
        return letters, building_tails

    def _render_view(self, state: GameState, viewer: str, cells: Cells, shared: tuple[dict, list[str]]) -> str:
        """Block "PLAYER A" is always the viewer (spec 7.2)."""
        letters, building_tails = shared
        slots, starts, plain = self._slots[viewer], self._line_starts[viewer], self._plain_cells[viewer]
        board = self._empty_board[:]
        for key, (_, missiles) in cells.items():
            slot, x = slots[key]
            if missiles:
                own = sum(1 for m in missiles if m.owner == viewer)
                board[slot] = f"[{x},{key[1]},{letters[key]},{own},{len(missiles) - own}]"
            else:
                board[slot] = plain[(key[0], key[1], letters[key])]
        buildings = "".join(
            [starts[(b.x, b.y, b.owner)] + tail for b, tail in zip(state.buildings, building_tails)]
        )
        missiles = "".join([f"{starts[(m.x, m.y, m.owner)]}|{m.damage}|{m.speed}\n" for m in state.missiles])
        width = self.config.map_width
        rows = "\n".join(["".join(board[start : start + width]) for start in range(0, len(board), width)])
        opponent = "B" if viewer == "A" else "A"
        return "".join(
            (
                "XXXXXXXXX GAME INFO XXXXXXXXX\nRound Number : ",
                str(state.round),
                self._after_round,
                self._player_block("A", state.players[viewer]),
                self._player_block("B", state.players[opponent]),
                "############# MAP #############\n",
                rows,
                "\n",
                _RULE,
                "\n######## BUILDING DATA #########\n",
                "FORMAT : [x,y] Owner|BuildingType|ConstructionTimeLeft|Health|WeaponCooldownTimeLeft|"
                "WeaponDamage|EnergyGeneratedPerTurn \n\n",
                buildings,
                _RULE,
                "\n####### MISSILE DATA ########\n",
                "FORMAT : [x,y] Owner|Damage|Speed \n\n",
                missiles,
                _RULE,
            )
        )
