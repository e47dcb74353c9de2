"""Where two logged values first differ: JSON compared structurally (a JSON path), text by lines."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any


def first_difference(a: Any, b: Any, forgive: Collection[str] = (), where: str = "$") -> str | None:
    """`$.board[2].armies: 5 != 7` for the first place two JSON values differ (keys in `forgive` skipped)."""
    if isinstance(a, (dict, list)) and a == b and repr(a) == repr(b):
        return None  # equal, types and key order too (`True == 1`, `1 == 1.0`: repr tells them apart), at C speed
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            if key in forgive:
                continue
            if key not in a or key not in b:
                return (f"{where}.{key}: {'missing' if key not in a else _short(a[key])} != "
                        f"{'missing' if key not in b else _short(b[key])}")
            if found := first_difference(a[key], b[key], forgive, f"{where}.{key}"):
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b)):
            if found := first_difference(x, y, forgive, f"{where}[{index}]"):
                return found
        return None if len(a) == len(b) else f"{where}: {len(a)} items != {len(b)} items"
    return None if a == b and type(a) is type(b) else f"{where}: {_short(a)} != {_short(b)}"


def equal_but(a: Any, b: Any, keys: Collection[str]) -> bool:
    """Whether two rows are equal once `keys` are left out, as `==` finds them (a top-level value's type too:
    `true` is not `1`): the quick test of a trace's row, which keeps less than the session's, before the
    search for where they differ (as `row != replayed` is for a log.jsonl the core wrote)."""
    if not keys or not isinstance(a, dict) or not isinstance(b, dict):
        return False
    kept_a = {key: value for key, value in a.items() if key not in keys}
    kept_b = {key: value for key, value in b.items() if key not in keys}
    return kept_a == kept_b and all(type(value) is type(kept_b[key]) for key, value in kept_a.items())


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def first_line_difference(a: str, b: str) -> str | None:
    """`line 3: 'x' != 'y'` for the first differing line of two texts, or None when they are equal."""
    if a == b:
        return None
    lines_a, lines_b = a.splitlines(), b.splitlines()
    for number, (x, y) in enumerate(zip(lines_a, lines_b), start=1):
        if x != y:
            return f"line {number}: {_short(x)} != {_short(y)}"
    if len(lines_a) != len(lines_b):
        return f"{len(lines_a)} lines != {len(lines_b)} lines"
    return "the line ends differ"


def file_difference(name: str, a: str, b: str, forgive: Collection[str] = ()) -> str | None:
    """Two versions of one logged file: structurally when both are JSON (a `.json` name), else by lines."""
    if name.endswith(".json"):
        try:
            return first_difference(json.loads(a), json.loads(b), forgive)
        except ValueError:
            pass  # not JSON (a damaged file): by lines
    return first_line_difference(a, b)
