"""Shared helpers for the lanes tests: play a turn from command texts, watch a lane timestep by timestep."""

from __future__ import annotations

import attrs

from runner.games.lanes.protocol.commands import read_orders
from runner.games.lanes.rules.battle import Lane
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.legality import apply_orders
from runner.games.lanes.rules.state import GameState, new_game
from runner.games.lanes.rules.turn import TurnResult, play_turn

CONFIG = LanesConfig()


def commands(turn: int, *lines: str) -> str:
    return "".join(f"{line}\n" for line in (f"TURN {turn}", *lines, "END"))


def play(state: GameState, p1: list[str], p2: list[str]) -> TurnResult:
    """Play one turn from the bodies of two command files; both must be accepted."""
    orders = []
    for player, body in enumerate((p1, p2)):
        accepted, problems = read_orders(commands(state.turn, *body), state, player, CONFIG)
        assert not problems, problems
        orders.append(accepted)
    return play_turn(CONFIG, state, (orders[0], orders[1]))


def play_first(p1: list[str], p2: list[str]) -> TurnResult:
    return play(new_game(CONFIG), p1, p2)


@attrs.frozen
class Frame:
    """Lane 2 after one timestep's cleanup: P1's soldiers as (type, col, row, hp) and P2's towers."""

    soldiers: tuple[tuple[str, int, int, int], ...]
    towers: tuple[tuple[str, int, int, int], ...]


def watch_lane_2(p1: list[str], p2: list[str]) -> list[Frame]:
    """Turn 1 on lane 2 (P2 defends, P1 attacks), one frame per timestep: frames[t - 1] is after t."""
    state = new_game(CONFIG)
    plans = []
    for player, body in enumerate((p1, p2)):
        accepted, problems = read_orders(commands(1, *body), state, player, CONFIG)
        assert not problems, problems
        plans.append(apply_orders(CONFIG, state, player, accepted))
    lane = Lane(CONFIG, plans[1].towers, plans[0].schedule)
    frames = []
    for timestep in range(1, CONFIG.timesteps + 1):
        lane.step(timestep)
        frames.append(
            Frame(
                tuple((s.type, s.col, s.row, s.hp) for s in lane.soldiers),
                tuple((t.type, t.col, t.row, t.hp) for t in lane.towers),
            )
        )
    return frames
