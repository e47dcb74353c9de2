"""The log tools: verify (own logs and reference traces), diff, replay, is_log, validate."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.games.invaders import GAME

DATA = Path(__file__).parent / "data"
TRACE = DATA / "mixed__vs__army.jsonl.gz"


def builder(turn: int, request: dict) -> str:
    """A defender that builds, upgrades, destroys and sends a few invalid actions."""
    script = {
        2: {"action": "build", "type": "stunner", "pos": 0},
        3: {"action": "build", "type": "turret", "pos": 1},
        4: {"action": "build", "type": "bomb", "pos": 60},
        5: {"action": "upgrade", "stat": "range", "pos": 60},
        6: {"action": "build", "type": "turret", "pos": 2.5},
        40: {"action": "destroy", "pos": 1},
        41: "sell everything",
    }
    return json.dumps(script.get(turn, {"action": "build", "type": "turret", "pos": turn % 100}))


def spawner(turn: int, request: dict) -> str:
    state = request["state"]
    return json.dumps({"hp": state["invaderBoostMax"]} if state["invaderGold"] >= 10 + state["invaderBoostMax"] else None)


@pytest.fixture
def log(tmp_path: Path, play, write_log) -> Path:
    game = GAME.new_session(GAME.configure(None, {"max_turns": 400}), GAME.seats(2), 0, {})
    records = play(game, builder, spawner)
    return write_log(tmp_path / "match", game, records)


def test_verify_accepts_its_own_log(log: Path) -> None:
    check = GAME.verify(log, {})
    assert check.same, check.lines
    assert check.data["turns"] == 400 and GAME.is_log(log)


def test_verify_names_a_tampered_field(log: Path) -> None:
    lines = (log / "log.jsonl").read_text().splitlines()
    row = json.loads(lines[99])
    row["dg"] += 1
    row["dr"] = "applied?"
    lines[99] = json.dumps(row)
    (log / "log.jsonl").write_text("\n".join(lines) + "\n")
    check = GAME.verify(log, {})
    assert not check.same
    assert any(line.startswith("turn 100: dg: expected") for line in check.lines)
    assert any(line.startswith("turn 100: dr: expected") for line in check.lines)


def test_verify_checks_match_json(log: Path) -> None:
    summary = json.loads((log / "match.json").read_text())
    summary["turns"] = 399
    (log / "match.json").write_text(json.dumps(summary))
    check = GAME.verify(log, {})
    assert not check.same and "match.json: turns 399" in check.lines[1]


@pytest.mark.parametrize("plain", [False, True])
def test_verify_accepts_reference_traces(tmp_path: Path, plain: bool) -> None:
    path = TRACE
    if plain:
        path = tmp_path / "trace.jsonl"
        with gzip.open(TRACE, "rt") as handle:
            path.write_text(handle.read())
    assert GAME.is_log(path)
    check = GAME.verify(path, {})
    assert check.same and check.data["turns"] == 1491


def test_verify_of_a_tampered_trace_and_bad_files(tmp_path: Path) -> None:
    with gzip.open(TRACE, "rt") as handle:
        lines = handle.read().splitlines()
    assert '"sp":true' in lines[500]
    lines[500] = lines[500].replace('"sp":true', '"sp":1', 1)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines))
    check = GAME.verify(path, {})
    assert not check.same and check.lines[1].startswith("turn 500: sp: expected 1, got True")
    path.write_text("{not json\n")
    assert not GAME.is_log(path)
    with pytest.raises(UserError, match="not JSON"):
        GAME.verify(path, {})
    with pytest.raises(UserError, match="cannot read"):
        GAME.verify(tmp_path / "nothing.jsonl", {})


def test_diff(log: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(log, copy)
    same = GAME.diff(log, copy, {"strict": True})
    assert same.same and same.lines == ("the logs are identical",)
    lines = (copy / "log.jsonl").read_text().splitlines()
    row = json.loads(lines[20])
    row["ir"] = "other"
    lines[20] = json.dumps(row)
    (copy / "log.jsonl").write_text("\n".join(lines[:300]) + "\n")
    loose = GAME.diff(log, copy, {"strict": False})
    assert not loose.same and loose.data["differing_turns"] == 0 and "turns 301..400 only in A (100)" in loose.lines
    strict = GAME.diff(log, copy, {"strict": True})
    assert strict.data["first_difference"] == 21 and strict.lines[1].startswith("turn 21: ir:")
    against_trace = GAME.diff(TRACE, log, {})
    assert not against_trace.same and against_trace.data["first_difference"] is not None


def test_replay_draws_one_line_per_turn(log: Path) -> None:
    replay = GAME.replay(log)
    assert replay.turns == tuple(range(1, 401)) and replay.seats == ("defender", "invader")
    line = replay.render(5)[0]
    assert line.startswith("     5 ") and "life 100" in line
    path = line.split()[1]
    assert len(path) == 100 and path[0] == "s" and path[60] == "b"  # stunner at 0, bomb at 60, both locked
    detail = replay.render(6, "defender")
    assert detail[1].strip().startswith('defender: {"action":"build","type":"turret","pos":2.5} -> build: pos must')
    assert GAME.replay(TRACE).turns[0] == 0


def test_validate_config_state_and_log(tmp_path: Path, log: Path) -> None:
    good = tmp_path / "invaders.json"
    good.write_text('{"maxTurns": 20000}')
    [report] = GAME.validate(good, None, {})
    assert report.is_valid and report.kind == "invaders-config"
    bad = tmp_path / "bad.json"
    bad.write_text('{"maxTurns": 20000, "faults": "explode"}')
    [report] = GAME.validate(bad, None, {})
    assert [str(p) for p in report.problems] == ["$.faults: 'explode' is not one of 'disqualify', 'ignore'"]
    state = tmp_path / "state.json"
    request = GAME.new_session(GAME.configure(None, {}), GAME.seats(2), 0, {}).inputs()["defender"].line
    state.write_text(json.dumps(json.loads(request)["state"]))
    [report] = GAME.validate(state, None, {})
    assert report.is_valid and report.kind == "invaders-state"
    state.write_text('{"turnNumber": 1.5}')
    [report] = GAME.validate(state, None, {})
    problems = [str(p) for p in report.problems]
    assert "$: missing key 'towerSlots'" in problems and len(problems) == len(set(problems))
    [report] = GAME.validate(log, None, {})
    assert report.is_valid and report.kind == "invaders-log"
    [report] = GAME.validate(TRACE, None, {})
    assert report.is_valid
    other = tmp_path / "other.json"
    other.write_text('{"round": 3}')
    assert GAME.validate(other, None, {}) is None and GAME.validate(tmp_path, None, {}) is None
    assert GAME.config_problems({"maxTurns": True}) != [] and GAME.config_problems({}) == []
