"""state.json (spec 10.2): what one player sees at the start of a turn (spec 8: hidden facts left out)."""

from __future__ import annotations

import json
from typing import Any

from runner.games.lanes.protocol.trace import PROTOCOL, render_soldiers, render_tower
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.state import GameState, TurnSummary, opponent


def render_units(config: LanesConfig) -> dict[str, dict[str, Any]]:
    """spec 10.2 / 12.1.8: the unit table of spec 3."""
    return {
        name: {
            "kind": stats.kind.value,
            "hp": stats.hp,
            "damage": stats.damage,
            "range": stats.range,
            "speed": stats.speed,
            "cost": stats.cost,
        }
        for name, stats in config.units.items()
    }


def render_board(config: LanesConfig) -> dict[str, int]:
    return {
        "width": config.width,
        "rows": config.rows,
        "deploy_row": config.deploy_row,
        "goal_row": config.goal_row,
        "max_build_row": config.max_build_row,
        "max_towers_per_row": config.max_towers_per_row,
    }


def render_last_turn(summary: TurnSummary | None, me: int) -> dict[str, Any] | None:
    """spec 10.2: counts as {me, opponent}; the opponent's soldiers that entered my lane, in entry order."""
    if summary is None:
        return None
    them = opponent(me)
    entered = sorted(summary.deployments[them], key=lambda entry: entry.timestep)  # stable: schedule order
    return {
        "scored": {"me": summary.scored[me], "opponent": summary.scored[them]},
        "killed": {"me": summary.killed[me], "opponent": summary.killed[them]},
        "towers_lost": {"me": summary.towers_lost[me], "opponent": summary.towers_lost[them]},
        "opponent_deployments": [[entry.timestep, entry.col, entry.soldier] for entry in entered],
    }


def render_state_data(config: LanesConfig, state: GameState, me: int) -> dict[str, Any]:
    """The state.json object for player index `me` (0: P1, 1: P2)."""
    mine, them = state.players[me], state.players[opponent(me)]
    return {
        "protocol": PROTOCOL,
        "turn": state.turn,
        "max_turns": config.max_turns,
        "timesteps": config.timesteps,
        "you": me + 1,
        "board": render_board(config),
        "units": render_units(config),
        "me": {
            "hp": mine.hp,
            "money": mine.money,
            "soldiers": render_soldiers(mine, config.soldier_types),
            "towers": [render_tower(t) for t in state.towers[me]],
        },
        "opponent": {"hp": them.hp, "towers": [render_tower(t) for t in state.towers[opponent(me)]]},
        "last_turn": render_last_turn(state.last_turn, me),
        "errors": list(state.errors[me]),
    }


def render_state(config: LanesConfig, state: GameState, me: int) -> str:
    return json.dumps(render_state_data(config, state, me), indent=1) + "\n"
