"""Render `textMap.txt` (= TextMap.txt) byte for byte as the official engine (spec 7.2)."""

from __future__ import annotations

from runner.engine.config import STATS_ORDER, GameConfig
from runner.engine.state import PLAYERS, Building, GameState, PlayerState
from runner.protocol.view import Cells, View, occupied_cells

_RULE = "###############################\n"


def building_letter(building: Building) -> str:
    """Config icon, upper case once constructed, lower case while under construction."""
    icon = building.stats.icon
    return icon.upper() if building.construction_time_left <= -1 else icon.lower()


class TextMapRenderer:
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
        self._empty_rows = [
            [f"[{x},{y},N,0,0]" for x in range(config.map_width)] for y in range(config.map_height)
        ]
        self._views = {p: View(p, config.map_width) for p in "AB"}

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

    def render(self, state: GameState, viewer: str) -> str:
        """The text map as `viewer` ("A" or "B") receives it; block "PLAYER A" is always the viewer."""
        return self.render_views(state, (viewer,))[viewer]

    def render_views(self, state: GameState, viewers: tuple[str, ...] = PLAYERS) -> dict[str, str]:
        """Render several viewers' text maps, sharing the view-independent work between them."""
        cells = occupied_cells(state)
        letters = {key: building_letter(b) if b is not None else "N" for key, (b, _) in cells.items()}
        # everything after "[x,y] Owner" is the same in every view
        building_tails = [
            f"|{b.type.name}|{b.construction_time_left}|{b.health}|{b.weapon_cooldown_time_left}|"
            f"{b.stats.weapon_damage}|{b.stats.energy_generated_per_turn}\n"
            for b in state.buildings
        ]
        return {
            viewer: self._render_view(state, viewer, cells, letters, building_tails) for viewer in viewers
        }

    def _render_view(
        self, state: GameState, viewer: str, cells: Cells, letters: dict, building_tails: list[str]
    ) -> str:
        view = self._views[viewer]
        labels = view.labels
        last_x = view.width - 1
        mirrored = view.mirrored
        rows = [row[:] for row in self._empty_rows]
        for key, (_, missiles) in cells.items():
            x = last_x - key[0] if mirrored else key[0]
            y = key[1]
            own = sum(1 for m in missiles if m.owner == viewer) if missiles else 0
            rows[y][x] = f"[{x},{y},{letters[key]},{own},{len(missiles) - own}]"
        buildings = "".join(
            [
                f"[{last_x - b.x if mirrored else b.x},{b.y}] {labels[b.owner]}{tail}"
                for b, tail in zip(state.buildings, building_tails)
            ]
        )
        missiles = "".join(
            [f"[{last_x - m.x if mirrored else m.x},{m.y}] {labels[m.owner]}|{m.damage}|{m.speed}\n" for m in state.missiles]
        )
        opponent = "B" if viewer == "A" else "A"
        return "".join(
            (
                "XXXXXXXXX GAME INFO XXXXXXXXX\nRound Number : ",
                str(state.round),
                self._after_round,
                self._player_block("A", state.players[viewer]),
                self._player_block("B", state.players[opponent]),
                "############# MAP #############\n",
                "".join(["".join(row) + "\n" for row in rows]),
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
