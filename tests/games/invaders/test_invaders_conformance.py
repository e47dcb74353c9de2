"""Every spec 16 reference trace replays exactly: each recorded answer pair through the rules, then the state
after every turn must render to the very same JSON line (every field, the spawn and penalty flags, and the
end flag on the last turn only); on a mismatch the differing fields are named."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from runner.games.invaders.rules import State, compare_rows, finish_turn, is_over, render_row, start_turn
from runner.games.invaders.rules.trace import STATE_KEYS, TURN_KEYS

DATA = Path(__file__).parent / "data"
TRACES = sorted(DATA.glob("*.jsonl.gz"))


def load_lines(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return handle.read().splitlines()


def test_all_six_traces_are_present() -> None:
    assert len(TRACES) == 6


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.name.removesuffix(".jsonl.gz"))
def test_trace_replays_exactly(path: Path) -> None:
    lines = load_lines(path)
    state = State()
    assert compare_rows(json.loads(lines[0]), render_row(state), STATE_KEYS) == []
    for line in lines[1:]:
        row = json.loads(line)
        penalty = start_turn(state)
        actions = finish_turn(state, row["ia"], row["da"])
        ours = render_row(state, row["ia"], row["da"], actions, penalty)
        if json.dumps(ours, separators=(",", ":")) != line:  # byte-identical is the fast, strict check
            differences = compare_rows(row, ours, STATE_KEYS + TURN_KEYS)
            pytest.fail(f"turn {row['t']}: {differences or 'same values, different JSON text'}")
    assert is_over(state) == bool(json.loads(lines[-1]).get("end"))
