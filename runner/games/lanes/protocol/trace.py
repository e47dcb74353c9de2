"""The trace format of spec 11: one JSON record per turn, a header line and an end line.

A turn record is also what the core's `JsonlLog` keeps per turn, so a lanes log.jsonl and a reference
trace share one format. Field order follows the reference traces, so records compare byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from runner.games.lanes.protocol.commands import render_orders
from runner.games.lanes.rules.orders import Orders, Problem
from runner.games.lanes.rules.state import PLAYERS, Player, Tower
from runner.games.lanes.rules.turn import Result, TurnResult

PROTOCOL = "twolane-1"
RESULT_NAMES = {0: "P1", 1: "P2", None: "draw"}


def render_tower(tower: Tower) -> dict[str, Any]:
    return {"type": tower.type, "col": tower.col, "row": tower.row, "hp": tower.hp}


def render_soldiers(player: Player, soldier_types: Sequence[str]) -> dict[str, int]:
    return {name: player.soldiers.get(name, 0) for name in soldier_types}


def render_turn_record(
    turn: int,
    orders: Sequence[Orders | None],
    problems: Sequence[Sequence[Problem]],
    raw: Sequence[list[str] | None],
    result: TurnResult,
    soldier_types: Sequence[str],
) -> dict[str, Any]:
    """spec 11: one turn. `raw[i]` is player i's file split at newlines, kept only when it was rejected."""
    state, summary = result.state, result.summary
    record: dict[str, Any] = {
        "turn": turn,
        "commands": [render_orders(orders[p], turn) for p in PLAYERS],
        "rejected": [[str(problem) for problem in problems[p]] for p in PLAYERS],
        "hp": [player.hp for player in state.players],
        "money": [player.money for player in state.players],
        "scored": list(summary.scored),
        "killed": list(summary.killed),
        "towers_lost": list(summary.towers_lost),
        "failed": [[], []],  # spec 11: always empty for engines that receive validated commands
    }
    if any(lines is not None for lines in raw):
        record["raw"] = list(raw)
    record["towers"] = [[render_tower(t) for t in lane] for lane in state.towers]
    record["soldiers"] = [render_soldiers(player, soldier_types) for player in state.players]
    record["steps"] = [list(step) for step in result.steps]
    return record


def render_record_line(record: Mapping[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":"))


def render_header(name: str, bots: Sequence[str], engine: str = "td-runner") -> dict[str, Any]:
    return {"game": name, "engine": engine, "bots": list(bots), "protocol": PROTOCOL}


def render_end(turns: int, players: Sequence[Player], result: Result) -> dict[str, Any]:
    return {"end": {"turns": turns, "hp": [p.hp for p in players], "result": RESULT_NAMES[result.winner]}}


def raw_lines(text: str) -> list[str]:
    """spec 11 `raw`: the file's text split at every newline (a final newline leaves a last "")."""
    return text.split("\n")
