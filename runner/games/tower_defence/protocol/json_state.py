"""Render `state.json` (= JsonMap.json) exactly as the official engine's Gson output (spec 7.1).

Speed matters (this runs twice per round): everything that depends only on the config is rendered once
per config, and the mostly empty board is assembled from precomputed empty-cell strings.
"""

from __future__ import annotations

from runner.games.tower_defence.engine.config import STATS_ORDER, BuildingStats, BuildingType, GameConfig
from runner.games.tower_defence.engine.state import GameState, HitCell, PlayerState
from runner.games.tower_defence.protocol.view import Cells, PerViewRenderer, View


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _stats_json(stats: BuildingStats) -> str:
    return (
        f'{{"health":{stats.health},"constructionTime":{stats.construction_time},"price":{stats.price},'
        f'"weaponDamage":{stats.weapon_damage},"weaponSpeed":{stats.weapon_speed},'
        f'"weaponCooldownPeriod":{stats.weapon_cooldown_period},'
        f'"energyGeneratedPerTurn":{stats.energy_generated_per_turn},'
        f'"destroyMultiplier":{stats.destroy_multiplier},"constructionScore":{stats.construction_score}}}'
    )


def _hit_cell_json(cell: HitCell) -> str:
    return f'{{"x":{cell[0]},"y":{cell[1]},"playerType":"{cell[2]}"}}'


class JsonStateRenderer(PerViewRenderer):
    """Renders one config's states for either viewer."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        prices = ",".join(f'"{t.name}":{config.buildings[t].price}' for t in STATS_ORDER)
        stats = ",".join(f'"{t.name}":{_stats_json(config.buildings[t])}' for t in STATS_ORDER)
        curtain = config.iron_curtain
        self._details_tail = (
            f',"maxRounds":{config.max_rounds},"mapWidth":{config.map_width},"mapHeight":{config.map_height},'
            f'"roundIncomeEnergy":{config.round_income_energy},"buildingPrices":{{{prices}}},'
            f'"buildingsStats":{{{stats}}},"ironCurtainStats":{{"activeRounds":{curtain.active_rounds},'
            f'"resetPeriod":{curtain.reset_period},"price":{curtain.price},'
            f'"constructionScore":{curtain.construction_score}}}}},"players":['
        )
        half = config.half
        self._cell_head = {
            (x, y): f'{{"x":{x},"y":{y},"buildings":['
            for x in range(config.map_width)
            for y in range(config.map_height)
        }
        self._owner_tail = {x: f'],"cellOwner":"{"A" if x < half else "B"}"}}' for x in range(config.map_width)}
        self._empty_rows = [
            [f'{self._cell_head[(x, y)]}],"missiles":[{self._owner_tail[x]}' for x in range(config.map_width)]
            for y in range(config.map_height)
        ]
        self._building_parts = {t: self._building_template(config.buildings[t], t) for t in BuildingType}
        self._views = {p: View(p, config.map_width) for p in "AB"}
        # per viewer, per engine cell: where the cell goes in the flat board (row-major, view x), the text
        # before its buildings, and per owner the end of a building / a missile object (coordinates, label)
        width = config.map_width
        self._slots: dict[str, dict[tuple[int, int], int]] = {}
        self._opens: dict[str, dict[tuple[int, int], str]] = {}
        self._building_ends: dict[str, dict[tuple[int, int, str], str]] = {}
        self._missile_ends: dict[str, dict[tuple[int, int, str], str]] = {}
        self._closes: dict[str, dict[tuple[int, int], str]] = {}
        for viewer, view in self._views.items():
            slots, opens, building_ends, missile_ends, closes = {}, {}, {}, {}, {}
            for x in range(width):
                vx = view.x(x)
                for y in range(config.map_height):
                    slots[(x, y)] = y * width + vx
                    opens[(x, y)] = self._cell_head[(vx, y)]
                    closes[(x, y)] = self._owner_tail[vx]
                    for owner in "AB":
                        label = view.labels[owner]
                        building_ends[(x, y, owner)] = f'{vx},"y":{y},"playerType":"{label}"}}'
                        missile_ends[(x, y, owner)] = f'","x":{vx},"y":{y},"playerType":"{label}"}}'
            self._slots[viewer], self._opens[viewer], self._closes[viewer] = slots, opens, closes
            self._building_ends[viewer], self._missile_ends[viewer] = building_ends, missile_ends
        self._empty_board = [cell for row in self._empty_rows for cell in row]

    @staticmethod
    def _building_template(stats: BuildingStats, kind: BuildingType) -> tuple[str, str]:
        """The constant middle pieces of a building object, around its weaponCooldownTimeLeft."""
        before = (
            f',"price":{stats.price},"weaponDamage":{stats.weapon_damage},"weaponSpeed":{stats.weapon_speed},'
            '"weaponCooldownTimeLeft":'
        )
        after = (
            f',"weaponCooldownPeriod":{stats.weapon_cooldown_period},"destroyMultiplier":{stats.destroy_multiplier},'
            f'"constructionScore":{stats.construction_score},"energyGeneratedPerTurn":{stats.energy_generated_per_turn},'
            f'"maxRange":{stats.max_range},"buildingType":"{kind.name}","energyPerShot":{stats.energy_per_shot},"x":'
        )
        return before, after

    @staticmethod
    def _player_json(player: PlayerState, label: str) -> str:
        lifetime = player.iron_curtain_time_left
        return (
            f'{{"playerType":"{label}","energy":{player.energy},"health":{player.health},'
            f'"hitsTaken":{player.hits_taken},"score":{player.score},'
            f'"ironCurtainAvailable":{_bool(player.can_place_iron_curtain)},'
            f'"activeIronCurtainLifetime":{lifetime},"isIronCurtainActive":{_bool(lifetime >= 0)}}}'
        )

    def _shared(self, state: GameState, cells: Cells) -> tuple[dict, str]:
        # the part of each building object before its coordinates is the same in every view
        heads = {}
        for key, (building, _) in cells.items():
            if building is not None:
                before, after = self._building_parts[building.type]
                heads[key] = (
                    f'{{"health":{building.health},"constructionTimeLeft":{building.construction_time_left}'
                    f"{before}{building.weapon_cooldown_time_left}{after}"
                )
        # spec 2.4: the hit lists stay in engine coordinates and labels, even for B
        hit_lists = "".join(
            (
                '],"teslaHitList":[',
                ",".join(f"[{','.join(_hit_cell_json(c) for c in hits)}]" for hits in state.tesla_hits),
                '],"ironCurtainHitList":[',
                ",".join(_hit_cell_json(c) for c in state.curtain_hits),
                "]}",
            )
        )
        return heads, hit_lists

    def _render_view(self, state: GameState, viewer: str, cells: Cells, shared: tuple[dict, str]) -> str:
        heads, hit_lists = shared
        labels = self._views[viewer].labels
        slots, opens, closes = self._slots[viewer], self._opens[viewer], self._closes[viewer]
        building_ends, missile_ends = self._building_ends[viewer], self._missile_ends[viewer]
        board = self._empty_board[:]
        for key, (building, missiles) in cells.items():
            x, y = key
            building_json = heads[key] + building_ends[(x, y, building.owner)] if building is not None else ""
            missiles_json = ",".join(
                [f'{{"damage":{m.damage},"speed":{m.speed},"id":"{m.id}{missile_ends[(x, y, m.owner)]}'
                 for m in missiles]
            ) if missiles else ""
            board[slots[key]] = f'{opens[key]}{building_json}],"missiles":[{missiles_json}{closes[key]}'
        width = self.config.map_width
        players = state.players
        return "".join(
            (
                '{"gameDetails":{"round":',
                str(state.round),
                self._details_tail,
                self._player_json(players["A"], labels["A"]),
                ",",
                self._player_json(players["B"], labels["B"]),
                '],"gameMap":[[',
                "],[".join([",".join(board[start : start + width]) for start in range(0, len(board), width)]),
                "]",
                hit_lists,
            )
        )
