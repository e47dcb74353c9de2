"""The spec 16 trace row: the state after a turn in the reference traces' compact shape, and a field-by-field
comparison that treats numbers by value (JSON `1` and `1.0` agree) but never a boolean as a number."""

from __future__ import annotations

from typing import Any

from runner.games.invaders.rules.jsnum import js_number
from runner.games.invaders.rules.state import State
from runner.games.invaders.rules.turn import Actions, Penalty, is_over

STATE_KEYS = ("t", "ig", "dg", "life", "thru", "inc", "bmax", "hpm", "tsls", "tw", "iv")
_EXACT_KEYS = frozenset({"ia", "da", "sp", "end"})  # where true and 1 must not pass for each other
TURN_KEYS = ("ia", "da", "sp", "pen", "end")  # absent from line 0; `pen` and `end` only when they happen


def render_row(
    state: State,
    invader_answer: Any = None,
    defender_answer: Any = None,
    actions: Actions | None = None,
    penalty: Penalty | None = None,
) -> dict[str, Any]:
    """The spec 16 row for `state`; with `actions`, a played turn's row (answers, spawn, penalty, end)."""
    row: dict[str, Any] = {
        "t": state.turn,
        "ig": state.invader_gold,
        "dg": state.defender_gold,
        "life": state.defender_life,
        "thru": state.invaders_through,
        "inc": state.invader_income,
        "bmax": state.invader_boost_max,
        "hpm": js_number(state.hp_multiplier),
        "tsls": state.turns_since_spawn,
    }
    if actions is not None:
        row["ia"] = invader_answer
        row["da"] = defender_answer
        row["sp"] = actions.spawned
        if penalty is not None:
            row["pen"] = [penalty.base, js_number(penalty.mult)]
        if is_over(state):
            row["end"] = True
    row["tw"] = [
        [t.pos, t.type, t.power, t.range, t.cooldown, t.level] for t in state.towers if t is not None
    ]
    row["iv"] = [
        [i.pos, i.hp, i.maxhp, i.defense, i.stun_res, i.stun_time] for i in state.invaders if i is not None
    ]
    return row


def same_value(a: Any, b: Any) -> bool:
    """JSON equality with numbers by value and booleans kept apart from numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def compare_rows(expected: dict[str, Any], actual: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    """The differing fields among `keys`, one line each (`field: expected X, got Y`); a missing key is None."""
    differences = []
    for key in keys:
        want, got = expected.get(key), actual.get(key)
        if want == got and key not in _EXACT_KEYS:
            continue  # fast path for the big tw/iv lists: equal by Python's ==, numbers by value
        if not same_value(want, got):
            differences.append(f"{key}: expected {_short(want)}, got {_short(got)}")
    return differences


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
