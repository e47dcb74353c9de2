"""spec 12.4: every reference trace replays with zero differences, field for field, timestep for timestep."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runner.games.lanes.protocol.trace import render_record_line
from runner.games.lanes.protocol.trace_replay import replay_trace, replay_turn
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.state import new_game
from runner.games.lanes.rules.turn import decide

DATA = Path(__file__).parent / "data"
TRACES = sorted(path.stem for path in DATA.glob("*.jsonl"))


def load(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]


def test_all_seven_traces_are_here() -> None:
    assert len(TRACES) == 7


@pytest.mark.parametrize("name", TRACES)
def test_trace_replays_with_zero_differences(name: str) -> None:
    lines = load(name)
    report = replay_trace(lines)
    assert report.turns == len(lines) - 2
    assert report.same, "\n".join(map(str, report.differences[:10]))


@pytest.mark.parametrize("name", TRACES)
def test_turn_records_are_byte_identical(name: str) -> None:
    """Our record of each turn is the reference line itself (same key order, same separators)."""
    config = LanesConfig()
    state = new_game(config)
    texts = (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()[1:-1]
    for text in texts:
        record, state = replay_turn(config, state, json.loads(text))
        assert render_record_line(record) == text


def test_a_changed_trace_is_reported_at_the_first_bad_timestep() -> None:
    lines = load("once_vs_passive")
    lines[1]["steps"][10][5] = 10  # P2's HP after timestep 11 (the horse scores at t=11)
    report = replay_trace(lines)
    assert [str(d).split(":")[:2] for d in report.differences] == [["turn 1", " steps[t=11]"]]


def test_an_accepted_file_this_engine_would_reject_is_reported_but_applied_as_recorded() -> None:
    """spec 11: replay feeds the recorded commands without validation; the disagreement is one difference."""
    lines = load("once_vs_passive")
    lines[1]["commands"][0][1] = "RECRUIT horse 40"  # 120 money: E13 here, yet the trace says accepted
    report = replay_trace(lines)
    fields = {(d.turn, d.field) for d in report.differences}
    assert (1, "rejected") in fields
    assert (1, "money") in fields and (1, "soldiers") in fields  # applied: 40 horses bought on credit
    assert (1, "scored") not in fields and (1, "hp") not in fields  # the recorded deployment still ran


@pytest.mark.parametrize(("name", "hp", "result"), [("once_vs_passive", [10, 9], "P1"), ("wall_vs_wall", [10, 10], "draw")])
def test_turn_100_is_decided_on_hp(name: str, hp: list[int], result: str) -> None:
    """spec 12.1.10: after turn 100 more HP wins (once_vs_passive 10-9), equal HP is a draw (wall_vs_wall)."""
    config = LanesConfig()
    state = new_game(config)
    for line in load(name)[1:-1]:
        _, state = replay_turn(config, state, line)
    outcome = decide(config, state)
    assert state.turn - 1 == 100 and [p.hp for p in state.players] == hp
    assert (outcome.winner, outcome.reason) == ({"P1": 0, "P2": 1, "draw": None}[result], "max_turns")
    assert load(name)[-1] == {"end": {"turns": 100, "hp": hp, "result": result}}


def test_sloppy_vs_wall_rejects_turns_1_to_6_with_the_spec_codes() -> None:
    """spec 12.3: E10, E17, E03, E04, E12, then E15+E09 in turns 1-6, then valid play; our codes agree."""
    config = LanesConfig()
    state = new_game(config)
    found = []
    for line in load("sloppy_vs_wall")[1:-1]:
        record, state = replay_turn(config, state, line)
        found.append([[problem.split()[0] for problem in seat] for seat in record["rejected"]])
    assert found[:6] == [[["E10"], []], [["E17"], []], [["E03"], []], [["E04"], []], [["E12"], []],
                         [["E15", "E09"], []]]
    assert all(turn == [[], []] for turn in found[6:])
