"""Render `state.json` (= JsonMap.json) exactly as the official engine's Gson output (spec 7.1).

Speed matters (this runs twice per round): everything that depends only on the config is rendered once
per config, both viewers' texts are assembled in one pass over the board, the view-dependent pieces of a
building (its cell's opening, its coordinates and label) are rendered once per building and reused every
round, and each view is one join over a template of the whole file in which only occupied cells change.
"""

from __future__ import annotations

from runner.games.tower_defence.engine.config import STATS_ORDER, BuildingStats, BuildingType, GameConfig
from runner.games.tower_defence.engine.state import PLAYERS, Building, GameState, HitCell, Missile, PlayerState
from runner.games.tower_defence.protocol.view import PerViewRenderer, View


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


def _player_tail(player: PlayerState) -> str:
    """A player object after its playerType label (the label is the only part that depends on the view)."""
    lifetime = player.iron_curtain_time_left
    return (
        f'","energy":{player.energy},"health":{player.health},'
        f'"hitsTaken":{player.hits_taken},"score":{player.score},'
        f'"ironCurtainAvailable":{_bool(player.can_place_iron_curtain)},'
        f'"activeIronCurtainLifetime":{lifetime},"isIronCurtainActive":{_bool(lifetime >= 0)}}}'
    )


#: the template's fixed slots before the board: the round number and the two player objects
_ROUND, _PLAYER_A, _PLAYER_B, _BOARD = 1, 4, 6, 8
_MISSILES_OPEN = '],"missiles":['


class JsonStateRenderer(PerViewRenderer):
    """Renders one config's states for either viewer."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        width, height = config.map_width, config.map_height
        half = config.half
        prices = ",".join(f'"{t.name}":{config.buildings[t].price}' for t in STATS_ORDER)
        stats = ",".join(f'"{t.name}":{_stats_json(config.buildings[t])}' for t in STATS_ORDER)
        curtain = config.iron_curtain
        details_tail = (
            f',"maxRounds":{config.max_rounds},"mapWidth":{config.map_width},"mapHeight":{config.map_height},'
            f'"roundIncomeEnergy":{config.round_income_energy},"buildingPrices":{{{prices}}},'
            f'"buildingsStats":{{{stats}}},"ironCurtainStats":{{"activeRounds":{curtain.active_rounds},'
            f'"resetPeriod":{curtain.reset_period},"price":{curtain.price},'
            f'"constructionScore":{curtain.construction_score}}}}},"players":['
        )
        self._building_parts = {t: self._building_template(config.buildings[t], t) for t in BuildingType}
        self._views = {p: View(p, width) for p in PLAYERS}
        cells = width * height

        def separator(slot: int) -> str:  # what follows the cell in the view's row-major order
            if slot == cells - 1:
                return "]"
            return "],[" if slot % width == width - 1 else ","

        # per viewer, per engine cell index: its slot in the view's board, the text of its opening
        # ({"x":..,"y":..,"buildings":[) and of its close (cellOwner, then the separator that follows it)
        self._slots: dict[str, list[int]] = {}
        self._opens: dict[str, list[str]] = {}
        self._closes: dict[str, list[str]] = {}
        #: per viewer, per (engine cell index * 2 + owner is B): a building's / missile's coordinates and label
        self._building_ends: dict[str, list[str]] = {}
        self._missile_ends: dict[str, list[str]] = {}
        self._templates: dict[str, list[str]] = {}
        for viewer, view in self._views.items():
            slots, opens, closes, building_ends, missile_ends = [], [], [], [], []
            board = [""] * cells
            for cell in range(cells):
                x, y = cell % width, cell // width
                vx = view.x(x)
                slot = y * width + vx
                slots.append(slot)
                opens.append(f'{{"x":{vx},"y":{y},"buildings":[')
                closes.append(f'],"cellOwner":"{"A" if vx < half else "B"}"}}{separator(slot)}')
                board[slot] = f"{opens[-1]}{_MISSILES_OPEN}{closes[-1]}"
                for owner in PLAYERS:
                    label = view.labels[owner]
                    building_ends.append(f'{vx},"y":{y},"playerType":"{label}"}}')
                    missile_ends.append(f'","x":{vx},"y":{y},"playerType":"{label}"}}')
            self._slots[viewer], self._opens[viewer], self._closes[viewer] = slots, opens, closes
            self._building_ends[viewer], self._missile_ends[viewer] = building_ends, missile_ends
            self._templates[viewer] = [
                '{"gameDetails":{"round":', "", details_tail, '{"playerType":"', "", ',{"playerType":"', "",
                '],"gameMap":[[', *board, "",
            ]
        #: per building: (slot A, slot B, before, after, cell start A, cell start B, cell end A, cell end B)
        self._pieces: dict[Building, tuple] = {}
        #: per missile: its object up to the end of its id (the same in both views and every round)
        self._missile_heads: dict[Missile, str] = {}

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

    def _pieces_of(self, building: Building) -> tuple:
        """The parts of a building's cell that never change while it stands, for both views."""
        cell = building.cell
        key = cell * 2 + (building.owner == "B")
        before, after = self._building_parts[building.type]
        pieces = (
            self._slots["A"][cell] + _BOARD, self._slots["B"][cell] + _BOARD, before, after,
            self._opens["A"][cell], self._opens["B"][cell],
            f'{self._building_ends["A"][key]}{_MISSILES_OPEN}{self._closes["A"][cell]}',
            f'{self._building_ends["B"][key]}{_MISSILES_OPEN}{self._closes["B"][cell]}',
        )
        if len(self._pieces) > 1024:  # buildings that left the board: drop them all, the rest come back
            self._pieces.clear()
        self._pieces[building] = pieces
        return pieces

    def render_views(self, state: GameState, viewers: tuple[str, ...] = PLAYERS) -> dict[str, str]:
        """Render the viewers' texts (both are built: the work is shared)."""
        now = state.clock[0]
        a_board, b_board = self._templates["A"][:], self._templates["B"][:]
        known = self._pieces
        for building in state.buildings:
            pieces = known.get(building)
            if pieces is None:
                pieces = self._pieces_of(building)
            a_slot, b_slot, before, after, a_open, b_open, a_end, b_end = pieces
            head = (
                f'{{"health":{building.health},"constructionTimeLeft":{building.finish - now}'
                f"{before}{building.weapon_cooldown_time_left}{after}"
            )
            a_board[a_slot] = a_open + head + a_end
            b_board[b_slot] = b_open + head + b_end
        if state.missiles:
            self._missile_cells(state, a_board, b_board)
        players = state.players
        a_tail, b_tail = _player_tail(players["A"]), _player_tail(players["B"])
        hit_lists = self._hit_lists(state)
        number = str(state.round)
        texts = {}
        for viewer, board in (("A", a_board), ("B", b_board)):
            if viewer not in viewers:
                continue
            labels = self._views[viewer].labels
            board[_ROUND] = number
            board[_PLAYER_A] = labels["A"] + a_tail
            board[_PLAYER_B] = labels["B"] + b_tail
            board[-1] = hit_lists
            texts[viewer] = "".join(board)
        return texts

    def _missile_cells(self, state: GameState, a_board: list[str], b_board: list[str]) -> None:
        """Rewrite the cells that hold missiles (in missile-list order), with their building if any."""
        known = self._missile_heads
        if len(known) > 1024:  # missiles that are gone: drop them all, the rest come back
            known.clear()
        cells: dict[int, list[tuple[str, int]]] = {}
        for missile in state.missiles:
            head = known.get(missile)
            if head is None:
                head = known[missile] = f'{{"damage":{missile.damage},"speed":{missile.speed},"id":"{missile.id}'
            cell = missile.row + missile.x
            found = cells.get(cell)
            if found is None:
                cells[cell] = [(head, cell * 2 + (missile.owner == "B"))]
            else:
                found.append((head, cell * 2 + (missile.owner == "B")))
        board = state.board
        now = state.clock[0]
        for cell, missiles in cells.items():
            building = board[cell]
            head = ""
            if building is not None:
                before, after = self._building_parts[building.type]
                head = (
                    f'{{"health":{building.health},"constructionTimeLeft":{building.finish - now}'
                    f"{before}{building.weapon_cooldown_time_left}{after}"
                )
            for viewer, texts in (("A", a_board), ("B", b_board)):
                ends = self._missile_ends[viewer]
                building_json = head and head + self._building_ends[viewer][cell * 2 + (building.owner == "B")]
                missiles_json = ",".join([start + ends[key] for start, key in missiles])
                texts[self._slots[viewer][cell] + _BOARD] = (
                    f"{self._opens[viewer][cell]}{building_json}{_MISSILES_OPEN}{missiles_json}"
                    f"{self._closes[viewer][cell]}"
                )

    @staticmethod
    def _hit_lists(state: GameState) -> str:
        # spec 2.4: the hit lists stay in engine coordinates and labels, even for B
        if not state.tesla_hits and not state.curtain_hits:
            return '],"teslaHitList":[],"ironCurtainHitList":[]}'
        return "".join(
            (
                '],"teslaHitList":[',
                ",".join(f"[{','.join(_hit_cell_json(c) for c in hits)}]" for hits in state.tesla_hits),
                '],"ironCurtainHitList":[',
                ",".join(_hit_cell_json(c) for c in state.curtain_hits),
                "]}",
            )
        )
