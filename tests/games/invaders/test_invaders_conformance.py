"""Every spec 16 reference trace replays exactly: each recorded answer pair through the rules, then every
field of the state after every turn (and the end flag on the last turn only)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from runner.games.invaders.rules import State, compare_rows, finish_turn, is_over, render_row, start_turn
from runner.games.invaders.rules.trace import STATE_KEYS, TURN_KEYS

DATA = Path(__file__).parent / "data"
TRACES = sorted(DATA.glob("*.jsonl.gz"))


def load_rows(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_all_six_traces_are_present() -> None:
    assert len(TRACES) == 6


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.name.removesuffix(".jsonl.gz"))
def test_trace_replays_exactly(path: Path) -> None:
    rows = load_rows(path)
    state = State()
    assert compare_rows(rows[0], render_row(state), STATE_KEYS) == []
    for row in rows[1:]:
        penalty = start_turn(state)
        actions = finish_turn(state, row["ia"], row["da"])
        differences = compare_rows(row, render_row(state, row["ia"], row["da"], actions, penalty), STATE_KEYS + TURN_KEYS)
        assert differences == [], f"turn {row['t']}: {differences}"
    assert is_over(state) == bool(rows[-1].get("end"))
