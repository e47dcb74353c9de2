"""Compare match-log files modulo what the official engine leaves non-deterministic.

The conformance README ("How to compare") and spec 9.2 list three sources of run-to-run variation in
official output: (1) random missile ids, (2) the key order of `gameDetails.buildingPrices` /
`buildingsStats`, (3) list orders that follow the A/B command processing order (spec 3.4). Callers pick
what to forgive: `td-runner diff` forgives all three by default, `td-runner verify` replays with the
recorded order and so forgives only (1) and (2) (`ignore_list_order=False`).

Public API:
  normalise_state(text, ignore_list_order=...)   JSON state text -> comparable value
  json_differences(expected, actual)              iterator of Difference, in document order
  compare_states(expected_text, actual_text, ...) list of Difference (empty = equivalent); fast when equal
  compare_text(expected_text, actual_text, ...)   line differences; optional multiset text-map sections
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterator

import attrs

#: Objects whose key order varies between official runs (spec 7.1): compared as parsed mappings.
UNORDERED_DETAILS = ("buildingPrices", "buildingsStats")

#: Text-map sections whose line order follows the command processing order (spec 3.4).
TEXT_MAP_SECTIONS = ("######## BUILDING DATA", "####### MISSILE DATA")

# spec 7.1: missiles are the only objects with an "id"; Gson writes it as `"id":"<uuid>"` between
# `speed` and `x`. Stripping ids and sorting the members of the two unordered objects textually lets
# equivalent states skip JSON parsing (the common case, and what keeps `diff` fast on 400-round logs).
_ID_KEY = '"id":"'
_PLAYERS_KEY = ',"players":['


class _Missing:
    """Stands for a key or list element that one side does not have."""

    _instance: "_Missing | None" = None

    def __new__(cls) -> "_Missing":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()


@attrs.frozen
class Difference:
    """One differing place: a JSON path (`players[1].score`) or a text position (`line 12`)."""

    path: str
    expected: object
    actual: object


def _canonical(value: object) -> str:
    """Exact text form with sorted keys: equal iff the values are equal with JSON types (true != 1 != 1.0)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _equal_ignoring_ids(expected: str, actual: str) -> bool:
    """Equal texts once every `"id":"..."` value is blanked; str.split is far cheaper than a regex."""
    expected_parts, actual_parts = expected.split(_ID_KEY), actual.split(_ID_KEY)
    if len(expected_parts) != len(actual_parts) or expected_parts[0] != actual_parts[0]:
        return False
    for left, right in zip(expected_parts[1:], actual_parts[1:]):
        if left[left.find('"'):] != right[right.find('"'):]:
            return False
    return True


@functools.lru_cache(maxsize=64)
def _same_details_after_round(expected: str, actual: str) -> bool:
    """gameDetails after its round number, compared parsed (the two maps' key order varies officially).

    That text depends only on the config, so across a log the cache makes this one parse per match.
    """
    try:
        return _canonical(json.loads("{" + expected)) == _canonical(json.loads("{" + actual))
    except ValueError:
        return False


def _quick_equal(expected: str, actual: str) -> bool:
    """True only when the states are equal modulo missile ids and gameDetails key order, decided without
    parsing the board: the gameDetails head (before `"players"`) parsed, the rest as text with ids blanked."""
    head_expected, found_expected, tail_expected = expected.partition(_PLAYERS_KEY)
    head_actual, found_actual, tail_actual = actual.partition(_PLAYERS_KEY)
    if not (found_expected and found_actual) or not _equal_ignoring_ids(tail_expected, tail_actual):
        return False
    if head_expected == head_actual:
        return True
    round_expected, _, rest_expected = head_expected.partition(",")
    round_actual, _, rest_actual = head_actual.partition(",")
    return round_expected == round_actual and _same_details_after_round(rest_expected, rest_actual)


def normalise_state(text: str, *, ignore_list_order: bool) -> object:
    """Parse a JSON state (JsonMap.json / state.json) into a value that is equal across official runs.

    Always: missile `id`s are dropped and `buildingPrices`/`buildingsStats` are rebuilt with sorted keys.
    With `ignore_list_order`: the missiles of each cell, the inner lists of `teslaHitList` and the
    entries of `ironCurtainHitList` are sorted (compared as multisets; paths then index the sorted lists).
    `ironCurtainHitList` is included because its order follows missile-list and tesla order, both of
    which depend on the command order. Raises ValueError when the text is not JSON.
    """
    state = json.loads(text)
    if not isinstance(state, dict):
        return state
    details = state.get("gameDetails")
    if isinstance(details, dict):
        for key in UNORDERED_DETAILS:
            value = details.get(key)
            if isinstance(value, dict):
                details[key] = {k: value[k] for k in sorted(value)}
    game_map = state.get("gameMap")
    for row in game_map if isinstance(game_map, list) else ():
        for cell in row if isinstance(row, list) else ():
            missiles = cell.get("missiles") if isinstance(cell, dict) else None
            if not isinstance(missiles, list):
                continue
            for missile in missiles:
                if isinstance(missile, dict):
                    missile.pop("id", None)
            if ignore_list_order and len(missiles) > 1:
                missiles.sort(key=_canonical)
    if ignore_list_order:
        for key in ("teslaHitList", "ironCurtainHitList"):
            if isinstance(state.get(key), list):
                state[key].sort(key=_canonical)
    return state


def _same_scalar(expected: object, actual: object) -> bool:
    # bool is an int subclass and 1 == 1.0 in Python; JSON text tells them apart, so do we
    return type(expected) is type(actual) and expected == actual


def json_differences(expected: object, actual: object, path: str = "") -> Iterator[Difference]:
    """Yield every differing leaf, in `expected`'s document order.

    Keys missing on one side give `MISSING` on that side; lists of different lengths are reported once,
    whole, at the list's path (element-wise paths would be misleading after an insertion).
    """
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else key
            if key in actual:
                yield from json_differences(value, actual[key], sub)
            else:
                yield Difference(sub, value, MISSING)
        for key, value in actual.items():
            if key not in expected:
                yield Difference(f"{path}.{key}" if path else key, MISSING, value)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            yield Difference(path, expected, actual)
            return
        for index, (left, right) in enumerate(zip(expected, actual)):
            yield from json_differences(left, right, f"{path}[{index}]")
    elif not _same_scalar(expected, actual):
        yield Difference(path, expected, actual)


def compare_states(
    expected_text: str, actual_text: str, *, ignore_list_order: bool, limit: int | None = 10
) -> list[Difference]:
    """Return up to `limit` differences between two JSON state texts after normalisation ([] = same).

    Texts equal once missile ids are stripped and the unordered objects sorted are accepted without
    parsing; parsed states are compared in C (canonical dumps) before the Python walk that locates
    differences. Raises ValueError when a text is not JSON.
    """
    if expected_text == actual_text or _quick_equal(expected_text, actual_text):
        return []
    expected = normalise_state(expected_text, ignore_list_order=ignore_list_order)
    actual = normalise_state(actual_text, ignore_list_order=ignore_list_order)
    if _canonical(expected) == _canonical(actual):
        return []
    return list(itertools.islice(json_differences(expected, actual), limit))


def _numbered_lines(text: str, sorted_sections: tuple[str, ...]) -> list[tuple[int, str]]:
    """Split into (1-based line number, line) pairs, sorting the `[`-lines inside the given sections."""
    lines = list(enumerate(text.split("\n"), start=1))
    if not sorted_sections:
        return lines
    result: list[tuple[int, str]] = []
    index = 0
    while index < len(lines):
        result.append(lines[index])
        if lines[index][1].startswith(sorted_sections):
            index += 1
            # header, FORMAT line, empty line, then the data lines (spec 7.2)
            while index < len(lines) and not lines[index][1].startswith("["):
                if lines[index][1].startswith("#"):
                    break
                result.append(lines[index])
                index += 1
            start = index
            while index < len(lines) and lines[index][1].startswith("["):
                index += 1
            result.extend(sorted(lines[start:index], key=lambda item: item[1]))
            continue
        index += 1
    return result


def compare_text(
    expected_text: str, actual_text: str, *, sorted_sections: tuple[str, ...] = (), limit: int | None = 10
) -> list[Difference]:
    """Return up to `limit` line differences ([] = same); path is `line N` (`line N/M` if the numbers differ).

    Lines are split on `\\n` only, so a `\\r` or a missing final newline shows up as a difference.
    `sorted_sections` (e.g. TEXT_MAP_SECTIONS) names section headers whose data lines are compared as a
    multiset. A line that one side lacks is `MISSING` on that side.
    """
    if expected_text == actual_text:
        return []
    left = _numbered_lines(expected_text, sorted_sections)
    right = _numbered_lines(actual_text, sorted_sections)
    differences = []
    for a, b in itertools.zip_longest(left, right):
        if a is not None and b is not None and a[1] == b[1]:
            continue
        if a is None:
            differences.append(Difference(f"line {b[0]}", MISSING, b[1]))
        elif b is None:
            differences.append(Difference(f"line {a[0]}", a[1], MISSING))
        else:
            where = f"line {a[0]}" if a[0] == b[0] else f"line {a[0]}/{b[0]}"
            differences.append(Difference(where, a[1], b[1]))
        if limit is not None and len(differences) >= limit:
            break
    return differences
