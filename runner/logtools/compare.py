"""Where two logged values first differ: JSON compared structurally (a JSON path), text by lines."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Collection
from typing import Any


def first_difference(a: Any, b: Any, forgive: Collection[str] = (), where: str = "$",
                     unordered: Collection[str] = ()) -> str | None:
    """`$.board[2].armies: 5 != 7` for the first place two JSON values differ (keys in `forgive` skipped; the
    lists under keys in `unordered` compared in any order, their paths then indexing the sorted lists)."""
    if isinstance(a, (dict, list)) and a == b and repr(a) == repr(b):
        return None  # equal, types and key order too (`True == 1`, `1 == 1.0`: repr tells them apart), at C speed
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            if key in forgive:
                continue
            if key not in a or key not in b:
                return (f"{where}.{key}: {'missing' if key not in a else _short(a[key])} != "
                        f"{'missing' if key not in b else _short(b[key])}")
            x, y = a[key], b[key]
            if key in unordered and isinstance(x, list) and isinstance(y, list):
                x, y = _sorted(x, forgive), _sorted(y, forgive)
            if found := first_difference(x, y, forgive, f"{where}.{key}", unordered):
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b)):
            if found := first_difference(x, y, forgive, f"{where}[{index}]", unordered):
                return found
        return None if len(a) == len(b) else f"{where}: {len(a)} items != {len(b)} items"
    return None if a == b and type(a) is type(b) else f"{where}: {_short(a)} != {_short(b)}"


def _sorted(items: list[Any], forgive: Collection[str]) -> list[Any]:
    return sorted(items, key=lambda item: json.dumps(_without(item, forgive), sort_keys=True))


def _without(value: Any, forgive: Collection[str]) -> Any:
    if isinstance(value, dict):
        return {k: _without(v, forgive) for k, v in value.items() if k not in forgive}
    return [_without(v, forgive) for v in value] if isinstance(value, list) else value


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


def first_line_difference(a: str, b: str, unordered: Collection[str] = ()) -> str | None:
    """`line 3: 'x' != 'y'` for the first differing line of two texts, or None when they are equal (each run of
    lines starting with one of the `unordered` prefixes compared in any order)."""
    if a == b:
        return None
    lines_a, lines_b = _runs_sorted(a.splitlines(), unordered), _runs_sorted(b.splitlines(), unordered)
    for number, (x, y) in enumerate(zip(lines_a, lines_b), start=1):
        if x != y:
            return f"line {number}: {_short(x)} != {_short(y)}"
    if len(lines_a) != len(lines_b):
        return f"{len(lines_a)} lines != {len(lines_b)} lines"
    return "the line ends differ" if _ends(a) != _ends(b) else None  # else: the runs' order only


def _ends(text: str) -> list[str]:
    return [line[len(line.rstrip("\r\n")):] for line in text.splitlines(keepends=True)]


def _runs_sorted(lines: list[str], prefixes: Collection[str]) -> list[str]:
    if not prefixes:
        return lines
    result: list[str] = []
    run: list[str] = []
    for line in [*lines, None]:
        if line is not None and line.startswith(tuple(prefixes)):
            run.append(line)
            continue
        result += sorted(run) + ([] if line is None else [line])
        run = []
    return result


def file_difference(name: str, a: str, b: str, forgive: Collection[str] = (),
                    unordered: Collection[str] = ()) -> str | None:
    """Two versions of one logged file: structurally when both are JSON (a `.json` name), else by lines;
    `unordered` names the JSON keys whose lists, or the line prefixes whose runs of lines, may come in any order."""
    if a == b:
        return None
    if name.endswith(".json"):
        try:
            if same_json(a, b, forgive):
                return None
            return first_difference(json.loads(a), json.loads(b), forgive, unordered=unordered)
        except ValueError:
            pass  # not JSON (a damaged file): by lines
    return first_line_difference(a, b, unordered)


def same_json(a: str, b: str, forgive: Collection[str] = ()) -> bool:
    """A quick yes for two JSON texts equal apart from key order and the scalar values of keys in `forgive`,
    decided in C (about 10x faster than `first_difference`'s walk, which remains for finding a difference):
    those values blanked in the text, numbers kept as their bytes so that 1, 1.0 and true stay apart.
    False means "not shown equal" (a forgiven key holding an object, say), not "different"."""
    if forgive:
        blank = _blanker(tuple(sorted(forgive)))
        a, b = blank.sub(r"\1null", a), blank.sub(r"\1null", b)
        if a == b:
            return True
    return json.loads(a, parse_int=str.encode, parse_float=str.encode) == json.loads(
        b, parse_int=str.encode, parse_float=str.encode)


@functools.lru_cache(maxsize=16)
def _blanker(keys: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(re.escape(json.dumps(key)[1:-1]) for key in keys)
    return re.compile(rf'("(?:{names})"\s*:\s*)(?:"(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false|null)')
