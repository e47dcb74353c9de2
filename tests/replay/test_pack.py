"""The page's packed columns (runner/replay/pack.py) give back exactly what was packed, and pay where they should."""

from __future__ import annotations

import json

import pytest

from runner.replay.pack import pack, packed, unpack, unpacked

COLUMNS = [
    list(range(1, 1001)),  # turn numbers: one step, repeated
    [100] * 500 + [99] * 500,  # a life
    [(t * 7) % 101 for t in range(300)],  # a varying number
    [None] * 40,  # a seat's number it does not have
    [True, 1, 0, False] * 10,  # a bool is not an int
    [1.5, 2.0, None, 1.5] * 10,  # floats
    ["null", '{"hp":0}'] * 30 + ["x"],  # commands
    [["ok", "applied"], ["none", "no action"]] * 20,  # rulings
    [str(t) for t in range(50)],  # all different: stays a plain list
    [3, 4],  # short
]


@pytest.mark.parametrize("column", COLUMNS, ids=range(len(COLUMNS)))
def test_unpack_gives_back_the_column_value_for_value_and_type(column) -> None:
    back = unpack(json.loads(json.dumps(pack(column))))
    assert back == column and [type(v) for v in back] == [type(v) for v in column]


def test_repeating_columns_shrink_and_varied_ones_stay_plain() -> None:
    assert len(json.dumps(pack(list(range(100_000))))) < 30
    assert len(json.dumps(pack(["ok"] * 100_000))) < 40
    assert pack([str(t) for t in range(50)]) == [str(t) for t in range(50)]


def test_a_record_round_trips() -> None:
    record = {"turns": list(range(1, 41)), "stats": [{"name": "n", "values": [[5] * 40, [None] * 40]}],
              "commands": [["go"] * 40, [""] * 40], "rulings": [[["ok", ""]] * 40, [["none", ""]] * 40],
              "outputs": [[""] * 40, ["hi"] * 40], "frame_index": list(range(0, 40, 4)), "frames": [1] * 10}
    page = json.loads(json.dumps(packed(record)))
    assert page["packed"] is True and unpacked(page) == record
