"""Properties of whole games (hypothesis): any mix of valid, invalid and garbage command files, played for
many turns through the Session, never raises and keeps the invariants of spec 2, 6 and 7.

Each turn each player's file is drawn from what its state.json shows (so most files are plausible and many
are accepted), then possibly spoiled: garbage lines, a wrong header, a missing END, an overdraft, a full row.
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.games.interface import Answer, Fault
from runner.games.lanes.protocol.trace_replay import replay_trace
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.session import LanesSession

TOWERS = ("missile", "rocket", "frost", "blockade")
SOLDIERS = ("shield", "rifle", "bomb", "horse")
GARBAGE = st.text(alphabet=st.sampled_from(list("BUILDRECRUITDEPLOYTURNEND missilerifle fire#0123456789-\t\r\nx")),
                  max_size=40)


@st.composite
def command_line(draw: st.DrawFn, state: dict) -> str:
    """One plausible command for this state; some are illegal (taken cell, full row, too many, overdraft)."""
    kind = draw(st.sampled_from(["build", "build", "recruit", "deploy", "deploy"]))
    if kind == "build":
        return f"BUILD {draw(st.sampled_from(TOWERS))} {draw(st.integers(0, 6))} {draw(st.integers(0, 19))}"
    if kind == "recruit":
        return f"RECRUIT {draw(st.sampled_from(SOLDIERS))} {draw(st.integers(1, 12))}"
    owned = {name: count for name, count in state["me"]["soldiers"].items() if count}
    if not owned:
        return f"RECRUIT {draw(st.sampled_from(SOLDIERS))}"
    soldier = draw(st.sampled_from(sorted(owned)))
    count = draw(st.integers(1, owned[soldier]))
    stance = draw(st.sampled_from(["", "advance", "fire"]))
    return f"DEPLOY {soldier} {draw(st.integers(1, 100))} {draw(st.integers(0, 6))} {count} {stance}".rstrip()


@st.composite
def answer(draw: st.DrawFn, state: dict) -> Answer:
    """A command file for this turn: mostly plausible, sometimes spoiled, sometimes a fault or garbage."""
    turn = state["turn"]
    shape = draw(st.sampled_from(["plausible"] * 6 + ["full row", "garbage", "bad header", "no end", "fault", "empty"]))
    if shape == "fault":
        return Answer("", draw(st.sampled_from(list(Fault))))
    if shape == "empty":
        return Answer("")
    lines = draw(st.lists(command_line(state), max_size=10))
    if shape == "full row":  # seven blockades in one row: the seventh must be refused (E12, or E11 first)
        row = draw(st.integers(0, 19))
        lines += [f"BUILD blockade {col} {row}" for col in draw(st.permutations(range(7)))]
    if shape == "garbage":
        lines.insert(draw(st.integers(0, len(lines))), draw(GARBAGE))
    header = f"TURN {turn + 1}" if shape == "bad header" else f"TURN {turn}"
    body = [header, *lines] + ([] if shape == "no end" else ["END"])
    return Answer("\n".join(body) + "\n")


def check_invariants(before: LanesSession, after_state, record: dict) -> None:
    config = before.config
    for player in (0, 1):
        was, now = before.state.players[player], after_state.players[player]
        assert now.money >= 0  # spec 6: money is never negative
        assert now.hp <= was.hp  # HP only falls
        assert all(now.soldiers[k] >= was.soldiers[k] for k in was.soldiers)  # spec 7: soldiers are permanent
        towers = after_state.towers[player]
        cells = Counter((t.col, t.row) for t in towers)
        assert max(cells.values(), default=1) == 1  # one tower per cell
        rows = Counter(t.row for t in towers)
        assert max(rows.values(), default=0) <= config.max_towers_per_row  # spec 2: at most 6 per row
        assert all(0 <= t.col < config.width and 0 <= t.row <= config.max_build_row and t.hp > 0 for t in towers)
        old = {(t.col, t.row): t.hp for t in before.state.towers[player]}
        for tower in towers:  # a tower's HP only falls; a new one starts at most at full HP
            assert tower.hp <= old.get((tower.col, tower.row), config.units[tower.type].hp)
    steps = record["steps"]
    assert len(steps) == config.timesteps
    for column in (4, 5):  # HP after each timestep never rises within the turn either
        assert all(a[column] >= b[column] for a, b in zip(steps, steps[1:]))
    assert all(step[6] >= 0 and step[7] >= 0 for step in steps)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.integers(25, 50), st.sampled_from([10, 60, 400]))
def test_long_games_of_random_files_never_raise_and_keep_the_invariants(data, max_turns: int, start_hp: int) -> None:
    config = LanesConfig(max_turns=max_turns, start_hp=start_hp)
    session = LanesSession(config)
    records = []
    while session.outcome() is None:
        inputs = session.inputs()
        states = {seat: json.loads(inputs[seat].files["state.json"]) for seat in session.seats}
        answers = {seat: data.draw(answer(states[seat]), label=f"{seat} turn {session.turn}") for seat in session.seats}
        before = LanesSession(config)
        before.state = session.state
        report = session.play_turn(answers)
        check_invariants(before, session.state, dict(report.record))
        assert set(report.rejected) <= set(session.seats)
        records.append(report.record)
    assert session.state.turn - 1 <= max_turns
    # the spec 11 trace of the game replays with zero differences, rejected files and faults included
    trace = [json.loads(line) for line in session.final_files({"P1": "a", "P2": "b"})["trace.jsonl"].splitlines()]
    replay = replay_trace(trace, config)
    assert replay.same, [str(d) for d in replay.differences[:3]]
