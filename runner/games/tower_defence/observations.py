"""Each player's `state.json` as data, built straight from the engine state: what `json.loads` of the rendered
file gives (protocol/json_state.py), without rendering or parsing it. For the in-process API (runner/api).

Speed matters (issue 16: thousands of rounds a second with observations): everything that depends only on
the config is built once per config and shared by every session of it (`builder_for`); `gameDetails` once per
round number; a board row without buildings or missiles is the same list object every round; a building's
fixed fields (stats, view coordinates, label) are one template dict per building, copied and given its three
changing numbers (health, constructionTimeLeft, weaponCooldownTimeLeft) each round.

So observations share objects with each other (between rounds, seats and sessions of one config): they are
read-only. Nothing here ever changes a dict or list once it has been handed out; a caller that wants to
change one must copy it first (`copy.deepcopy`). Key order follows the rendered file, so even iteration
order matches `json.loads`.

Pure: values in, values out.
"""

from __future__ import annotations

from typing import Any

from runner.games.tower_defence.engine.config import STATS_ORDER, BuildingStats, BuildingType, GameConfig
from runner.games.tower_defence.engine.state import PLAYERS, Building, GameState, PlayerState
from runner.games.tower_defence.protocol.view import missiles_by_cell

Json = dict[str, Any]

_SWAP = {"A": "B", "B": "A"}
_NO_CELLS: dict[int, list] = {}  # no missile anywhere (never changed)
_BUILDINGS_CACHE_LIMIT = 1024  # building templates kept per config; dropped wholesale, like the renderers'


def _stats_json(stats: BuildingStats) -> Json:
    return {
        "health": stats.health, "constructionTime": stats.construction_time, "price": stats.price,
        "weaponDamage": stats.weapon_damage, "weaponSpeed": stats.weapon_speed,
        "weaponCooldownPeriod": stats.weapon_cooldown_period,
        "energyGeneratedPerTurn": stats.energy_generated_per_turn,
        "destroyMultiplier": stats.destroy_multiplier, "constructionScore": stats.construction_score,
    }


def _building_json(stats: BuildingStats, kind: BuildingType, x: int, y: int, label: str) -> Json:
    """A building object with its changing fields (health, construction, cooldown) still to be set."""
    return {
        "health": 0, "constructionTimeLeft": 0, "price": stats.price, "weaponDamage": stats.weapon_damage,
        "weaponSpeed": stats.weapon_speed, "weaponCooldownTimeLeft": 0,
        "weaponCooldownPeriod": stats.weapon_cooldown_period, "destroyMultiplier": stats.destroy_multiplier,
        "constructionScore": stats.construction_score, "energyGeneratedPerTurn": stats.energy_generated_per_turn,
        "maxRange": stats.max_range, "buildingType": kind.name, "energyPerShot": stats.energy_per_shot,
        "x": x, "y": y, "playerType": label,
    }


def _player_json(label: str, player: PlayerState) -> Json:
    lifetime = player.iron_curtain_time_left
    return {
        "playerType": label, "energy": player.energy, "health": player.health, "hitsTaken": player.hits_taken,
        "score": player.score, "ironCurtainAvailable": bool(player.can_place_iron_curtain),
        "activeIronCurtainLifetime": lifetime, "isIronCurtainActive": lifetime >= 0,
    }


class ObservationBuilder:
    """Builds both players' views of one config's states; one per config (`builder_for`), shared."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        width, height, half = config.map_width, config.map_height, config.half
        self.width = width
        curtain = config.iron_curtain
        #: gameDetails without its first key, the round (which `_details` puts first, as rendered)
        self._details_tail: Json = {
            "maxRounds": config.max_rounds, "mapWidth": width, "mapHeight": height,
            "roundIncomeEnergy": config.round_income_energy,
            "buildingPrices": {t.name: config.buildings[t].price for t in STATS_ORDER},
            "buildingsStats": {t.name: _stats_json(config.buildings[t]) for t in STATS_ORDER},
            "ironCurtainStats": {"activeRounds": curtain.active_rounds, "resetPeriod": curtain.reset_period,
                                 "price": curtain.price, "constructionScore": curtain.construction_score},
        }
        self._details: dict[int, Json] = {}
        #: per engine cell: its row, and its column in A's and in B's view (B sees the board mirrored)
        self._row = [cell // width for cell in range(width * height)]
        self._column = {"A": [cell % width for cell in range(width * height)],
                        "B": [width - 1 - cell % width for cell in range(width * height)]}
        #: per view, per row: the row with no building or missile (its cells and the list itself are shared)
        self._empty_rows: dict[str, list[list[Json]]] = {
            viewer: [
                [{"x": x, "y": y, "buildings": [], "missiles": [], "cellOwner": "A" if x < half else "B"}
                 for x in range(width)]
                for y in range(height)
            ]
            for viewer in PLAYERS
        }
        #: per building: (row, column in A's view, in B's view, its two template objects, its two empty cells)
        self._buildings: dict[Building, tuple[int, int, int, Json, Json, Json, Json]] = {}
        #: the same per (engine cell, building type, owner): at most cells x types x 2, all config data
        self._templates: dict[tuple[int, BuildingType, str], tuple[int, int, int, Json, Json, Json, Json]] = {}

    def _details_of(self, number: int) -> Json:
        details = self._details.get(number)
        if details is None:
            details = self._details[number] = {"round": number, **self._details_tail}
        return details

    def _template(self, building: Building) -> tuple[int, int, int, Json, Json, Json, Json]:
        cell, kind, owner = building.cell, building.type, building.owner
        key = (cell, kind, owner)
        template = self._templates.get(key)  # the same for every building of that type, owner and cell
        if template is None:
            y, a_x, b_x = self._row[cell], self._column["A"][cell], self._column["B"][cell]
            stats = self.config.buildings[kind]
            template = self._templates[key] = (
                y, a_x, b_x, _building_json(stats, kind, a_x, y, owner),
                _building_json(stats, kind, b_x, y, _SWAP[owner]),
                self._empty_rows["A"][y][a_x], self._empty_rows["B"][y][b_x])
        if len(self._buildings) >= _BUILDINGS_CACHE_LIMIT:  # buildings that left the board go with the rest
            self._buildings.clear()
        self._buildings[building] = template
        return template

    def views(self, state: GameState) -> tuple[Json, Json]:
        """A's and B's state.json of `state` as data: each equals `json.loads(render(state, viewer))`."""
        now = state.clock[0]
        a_empty, b_empty = self._empty_rows["A"], self._empty_rows["B"]
        a_rows, b_rows = a_empty[:], b_empty[:]  # rows are copied the first time one of their cells changes
        known = self._buildings
        missile_cells = missiles_by_cell(state) if state.missiles else _NO_CELLS
        for building in state.buildings:
            found = known.get(building)
            if found is None:
                found = self._template(building)
            if building.cell in missile_cells:
                continue  # drawn with its cell's missiles below
            y, a_x, b_x, a_template, b_template, a_cell, b_cell = found
            health, left, cooldown = building.health, building.finish - now, building.weapon_cooldown_time_left
            a_row = a_rows[y]
            if a_row is a_empty[y]:  # A's and B's row y change together: one test for both
                a_row = a_rows[y] = a_row[:]
                b_row = b_rows[y] = b_empty[y][:]
            else:
                b_row = b_rows[y]
            shown = a_template.copy()
            shown["health"] = health
            shown["constructionTimeLeft"] = left
            shown["weaponCooldownTimeLeft"] = cooldown
            cell = a_cell.copy()
            cell["buildings"] = [shown]
            a_row[a_x] = cell
            shown = b_template.copy()
            shown["health"] = health
            shown["constructionTimeLeft"] = left
            shown["weaponCooldownTimeLeft"] = cooldown
            cell = b_cell.copy()
            cell["buildings"] = [shown]
            b_row[b_x] = cell
        if missile_cells:
            self._draw_missiles(state, missile_cells, a_rows, b_rows)
        details = self._details_of(state.round)
        players = state.players
        a, b = players["A"], players["B"]
        tesla_hits = [[{"x": x, "y": y, "playerType": p} for x, y, p in hits] for hits in state.tesla_hits]
        curtain_hits = [{"x": x, "y": y, "playerType": p} for x, y, p in state.curtain_hits]
        a_view = {"gameDetails": details, "players": [_player_json("A", a), _player_json("B", b)],
                  "gameMap": a_rows, "teslaHitList": tesla_hits, "ironCurtainHitList": curtain_hits}
        b_view = {"gameDetails": details, "players": [_player_json("B", a), _player_json("A", b)],
                  "gameMap": b_rows, "teslaHitList": tesla_hits, "ironCurtainHitList": curtain_hits}
        return a_view, b_view

    def _draw_missiles(self, state: GameState, missile_cells: dict[int, list], a_rows: list, b_rows: list) -> None:
        """Set the cells that hold missiles, with their building if any, in both views at once."""
        board, now = state.board, state.clock[0]
        a_empty, b_empty = self._empty_rows["A"], self._empty_rows["B"]
        rows, a_columns, b_columns = self._row, self._column["A"], self._column["B"]
        for cell, missiles in missile_cells.items():
            y, a_x, b_x = rows[cell], a_columns[cell], b_columns[cell]
            building = board[cell]
            if building is not None:
                found = self._buildings.get(building)
                if found is None:
                    found = self._template(building)
                health, left = building.health, building.finish - now
                cooldown = building.weapon_cooldown_time_left
                shown = found[3].copy()  # (the template tuple of `_template`: A's, then B's)
                shown["health"] = health
                shown["constructionTimeLeft"] = left
                shown["weaponCooldownTimeLeft"] = cooldown
                a_buildings = [shown]
                shown = found[4].copy()
                shown["health"] = health
                shown["constructionTimeLeft"] = left
                shown["weaponCooldownTimeLeft"] = cooldown
                b_buildings = [shown]
            else:
                a_buildings, b_buildings = [], []
            a_missiles, b_missiles = [], []
            for m in missiles:
                damage, speed, owner = m.damage, m.speed, m.owner
                missile_id = m._id or m.id  # (the engine computes an id once, when first asked)
                a_missiles.append({"damage": damage, "speed": speed, "id": missile_id, "x": a_x, "y": y,
                                   "playerType": owner})
                b_missiles.append({"damage": damage, "speed": speed, "id": missile_id, "x": b_x, "y": y,
                                   "playerType": _SWAP[owner]})
            a_row = a_rows[y]
            if a_row is a_empty[y]:
                a_row = a_rows[y] = a_row[:]
                b_row = b_rows[y] = b_empty[y][:]
            else:
                b_row = b_rows[y]
            shown_cell = a_row[a_x].copy()
            shown_cell["buildings"] = a_buildings
            shown_cell["missiles"] = a_missiles
            a_row[a_x] = shown_cell
            shown_cell = b_row[b_x].copy()
            shown_cell["buildings"] = b_buildings
            shown_cell["missiles"] = b_missiles
            b_row[b_x] = shown_cell


_BUILDERS: dict[int, tuple[GameConfig, ObservationBuilder]] = {}
_BUILDERS_LIMIT = 16


def builder_for(config: GameConfig) -> ObservationBuilder:
    """The builder of `config`, shared by every session of that config object (it keeps the config alive,
    so its id cannot be reused while cached)."""
    found = _BUILDERS.get(id(config))
    if found is not None and found[0] is config:
        return found[1]
    if len(_BUILDERS) >= _BUILDERS_LIMIT:
        _BUILDERS.clear()
    builder = ObservationBuilder(config)
    _BUILDERS[id(config)] = (config, builder)
    return builder
