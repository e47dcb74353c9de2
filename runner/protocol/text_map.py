"""Render `textMap.txt` (= TextMap.txt) byte for byte as the official engine (spec 7.2)."""

from __future__ import annotations

from runner.engine.config import STATS_ORDER, GameConfig
from runner.engine.state import Building, GameState, PlayerState
from runner.protocol.view import View, cell_contents

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
        view = self._views[viewer]
        labels = view.labels
        me = state.players[viewer]
        them = state.players["B" if viewer == "A" else "A"]
        rows = [list(row) for row in self._empty_rows]
        for (x, y), (building, missiles) in cell_contents(state, view).items():
            letter = building_letter(building) if building is not None else "N"
            own = sum(1 for m in missiles if m.owner == viewer)
            rows[y][x] = f"[{x},{y},{letter},{own},{len(missiles) - own}]"
        buildings = "".join(
            f"[{view.x(b.x)},{b.y}] {labels[b.owner]}|{b.type.name}|{b.construction_time_left}|{b.health}|"
            f"{b.weapon_cooldown_time_left}|{b.stats.weapon_damage}|{b.stats.energy_generated_per_turn}\n"
            for b in state.buildings
        )
        missiles = "".join(
            f"[{view.x(m.x)},{m.y}] {labels[m.owner]}|{m.damage}|{m.speed}\n" for m in state.missiles
        )
        return "".join(
            (
                "XXXXXXXXX GAME INFO XXXXXXXXX\nRound Number : ",
                str(state.round),
                self._after_round,
                self._player_block("A", me),
                self._player_block("B", them),
                "############# MAP #############\n",
                "".join("".join(row) + "\n" for row in rows),
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
