"""Replay recorded rows (a spec 16 trace or a td-runner log.jsonl) through the rules and list what differs.

A trace starts with the turn-0 row; a log starts at turn 1 and may carry `ir`/`dr` (what became of each
action) and `dq` (the turn a side was disqualified: nothing applied, the last line). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from runner.games.invaders.rules.state import State
from runner.games.invaders.rules.trace import STATE_KEYS, TURN_KEYS, compare_rows, render_row
from runner.games.invaders.rules.turn import Actions, finish_turn, is_over, start_turn

RESULT_KEYS = ("ir", "dr")


def check_rows(rows: Iterable[dict[str, Any]], limit: int = 20) -> tuple[int, list[str]]:
    """(turns replayed, problems): each problem is `turn T: field: expected X, got Y`; stops after `limit`."""
    state = State()
    problems: list[str] = []
    turns = 0
    ended = False
    for number, row in enumerate(rows):
        if not isinstance(row, dict):
            problems.append(f"line {number + 1}: not a JSON object")
            break
        if number == 0 and row.get("t") == 0 and "ia" not in row:  # a trace's initial-state row
            problems.extend(f"turn 0: {d}" for d in compare_rows(row, render_row(state), STATE_KEYS))
            continue
        if ended:
            problems.append(f"turn {row.get('t')}: the game had already ended at turn {state.turn}")
            break
        penalty = start_turn(state)
        turns += 1
        if row.get("t") != state.turn:
            problems.append(f"line {number + 1}: turn {row.get('t')!r}, expected turn {state.turn}")
            break
        invader, defender = row.get("ia"), row.get("da")
        if "dq" in row:  # spec 18 Faults: a disqualification ends the match before any action applies
            actions = Actions(str(row.get("ir")), str(row.get("dr")))
            ended = True
        else:
            actions = finish_turn(state, invader, defender)
            ended = is_over(state)
        ours = render_row(state, invader, defender, actions, penalty)
        keys = STATE_KEYS + TURN_KEYS
        if "ir" in row or "dr" in row:
            ours["ir"], ours["dr"] = actions.invader, actions.defender
            keys += RESULT_KEYS
        problems.extend(f"turn {state.turn}: {d}" for d in compare_rows(row, ours, keys))
        if len(problems) >= limit:
            break
    return turns, problems[:limit]
