"""The spec 7 JSON view the AIs receive: the reference Game's data properties, empty cells null."""

from __future__ import annotations

from typing import Any

from runner.games.invaders.rules.jsnum import js_number
from runner.games.invaders.rules.state import Invader, State, Tower


def _invader(invader: Invader | None) -> dict[str, Any] | None:
    if invader is None:
        return None
    return {
        "pos": invader.pos,
        "hp": invader.hp,
        "maxhp": invader.maxhp,
        "defense": invader.defense,
        "stunRes": invader.stun_res,
        "stunTime": invader.stun_time,
    }


def _tower(tower: Tower | None) -> dict[str, Any] | None:
    if tower is None:
        return None
    return {
        "level": tower.level,
        "pos": tower.pos,
        "power": tower.power,
        "range": tower.range,
        "cooldown": tower.cooldown,
        "type": tower.type,
    }


def render_view(state: State) -> dict[str, Any]:
    """The spec 7 view of `state` (JSON-able; key order as the reference's JSON.stringify writes it)."""
    return {
        "turnNumber": state.turn,
        "invaderGold": state.invader_gold,
        "invaderIncome": state.invader_income,
        "invaderBoostMax": state.invader_boost_max,
        "invaderHPMultiplier": js_number(state.hp_multiplier),
        "turnsSinceLastSpawn": state.turns_since_spawn,
        "defenderGold": state.defender_gold,
        "defenderLife": state.defender_life,
        "invaderSlots": [_invader(i) for i in state.invaders],
        "towerSlots": [_tower(t) for t in state.towers],
    }
