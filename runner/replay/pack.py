"""The record's per-turn columns packed for the page, and unpacked (viewer.js `unpack` is the page's twin).

A 100,000-turn match has a dozen columns of 100,000 values (the turn numbers, each seat's numbers, commands,
rulings and output), and most of them repeat: the turn numbers count up by one, a life stays at 100 for
thousands of turns, one ruling and two commands make up nine turns in ten. Written out they were most of a
15 MB page; packed they are a few hundred KB, and every turn's values are still there (issue 34: "every
turn's numbers still shown"). A column is one of:

* a plain list (short or varied columns: packing would not pay);
* `{"d": [first, step, step, [step, times], ...]}`: integers as the first one and the steps between them, a
  step repeated `times` (3 or more) times written once;
* `{"t": [distinct values], "i": [index, [index, times], ...]}`: any values, as indexes into a table, an
  index repeated `times` (3 or more) times written once.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby
from typing import Any

#: A column shorter than this stays a plain list.
PACK_FROM = 16
#: A run at least this long is written `[value, times]`.
RUN = 3


def _runs(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for value, group in groupby(items):
        times = len(list(group))
        if times >= RUN:
            out.append([value, times])
        else:
            out.extend([value] * times)
    return out


#: Values a table finds by value; any other (a list, a bool) by identity: the record shares equal rulings.
_BY_VALUE = frozenset({str, int, float, type(None)})


def pack(column: list[Any]) -> list[Any] | dict[str, list[Any]]:
    """One column, packed when it pays (module docstring)."""
    if len(column) < PACK_FROM:
        return column
    if set(map(type, column)) == {int}:  # (a bool is not an int here)
        return {"d": [column[0], *_runs([b - a for a, b in zip(column, column[1:])])]}
    keys = [value if type(value) in _BY_VALUE else id(value) for value in column]
    value_of = dict(zip(keys, column))  # (equal keys: equal values, or the same object)
    if len(value_of) * 2 > len(column):
        return column
    index = {key: i for i, key in enumerate(value_of)}
    return {"t": list(value_of.values()), "i": _runs(list(map(index.__getitem__, keys)))}


def unpack(column: list[Any] | dict[str, list[Any]]) -> list[Any]:
    """A packed column as the plain list it was."""
    if isinstance(column, list):
        return column
    out: list[Any] = []
    if "d" in column:
        value = column["d"][0]
        out.append(value)
        for step in column["d"][1:]:
            step, times = step if isinstance(step, list) else (step, 1)
            for _ in range(times):
                value += step
                out.append(value)
        return out
    table = column["t"]
    for index in column["i"]:
        index, times = index if isinstance(index, list) else (index, 1)
        out.extend([table[index]] * times)
    return out


#: The record's per-seat columns (lists of per-turn lists).
SEAT_COLUMNS = ("commands", "rulings", "outputs")


def packed(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its per-turn columns packed (`frames` and the rest as they are)."""
    return {**_columns(record, pack), "packed": True}


def unpacked(record: dict[str, Any]) -> dict[str, Any]:
    """A page's record as `packed` was given it."""
    if not record.get("packed"):
        return record
    return _columns({key: value for key, value in record.items() if key != "packed"}, unpack)


def _columns(record: dict[str, Any], change: Callable[[Any], Any]) -> dict[str, Any]:
    """The record with `change` applied to each per-turn column: turns, each stat's and each seat's values, the
    frame index."""
    out = dict(record)
    out["turns"] = change(record["turns"])
    out["stats"] = [{**stat, "values": [change(seat) for seat in stat["values"]]} for stat in record["stats"]]
    for key in SEAT_COLUMNS:
        out[key] = [change(seat) for seat in record[key]]
    if record.get("frame_index") is not None:
        out["frame_index"] = change(record["frame_index"])
    return out
