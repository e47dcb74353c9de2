"""The log tools: the core's, for logs the match loop writes and for reference traces read into its record
(runner/logtools); validate."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.games import game_of_log
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
    core: list[str] = []  # the core's record.jsonl lines: the log is one the match loop would write
    records = play(game, builder, spawner, core)
    return write_log(tmp_path / "match", game, records, core)


def test_verify_accepts_its_own_log(log: Path) -> None:
    check = GAME.verify(log, {})
    assert check.same, check.lines
    assert check.data["turns"] == 400 and game_of_log(log).name == "invaders" and not GAME.is_log(log)


def test_verify_names_a_tampered_field(log: Path) -> None:
    lines = (log / "log.jsonl").read_text().splitlines()
    row = json.loads(lines[99])
    row["dg"] += 1
    row["dr"] = "applied?"
    lines[99] = json.dumps(row)
    (log / "log.jsonl").write_text("\n".join(lines) + "\n")
    check = GAME.verify(log, {})
    assert not check.same and check.lines[1].startswith("  turn 100, log.jsonl line 100: $.dg: ")


def test_verify_checks_match_json(log: Path) -> None:
    summary = json.loads((log / "match.json").read_text())
    summary["end_reason"] = "life"
    (log / "match.json").write_text(json.dumps(summary))
    check = GAME.verify(log, {})
    assert not check.same and check.lines[1] == "  match.json: $.end_reason: 'life' != 'max_turns'"


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
    assert not check.same and check.lines[1:] == ("  turn 500, bad.jsonl line 501: $.sp: 1 != true",)
    first = json.loads(lines[0])
    path.write_text("\n".join([json.dumps({**first, "dg": 49}), *lines[1:]]))
    check = GAME.verify(path, {})
    assert not check.same and check.lines[1:] == ("  turn 0, bad.jsonl line 1 (the start): $.dg: 49 != 50",
                                                  "  turn 500, bad.jsonl line 501: $.sp: 1 != true")
    path.write_text("{not json\n")
    assert not GAME.is_log(path)
    with pytest.raises(UserError, match="bad.jsonl: not a log of invaders"):
        GAME.verify(path, {})
    with pytest.raises(UserError, match="nothing.jsonl: no such log folder"):
        GAME.verify(tmp_path / "nothing.jsonl", {})
    path.write_text("\n".join([lines[0], "[1, 2]"]))
    with pytest.raises(UserError, match=r"bad.jsonl:2: not a spec 16 row \(a JSON object\)"):
        GAME.verify(path, {})


def test_diff(log: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(log, copy)
    same = GAME.diff(log, copy, {"strict": True})
    assert same.same and same.lines == (f"{log} and {copy}: 400 turns, identical",)
    lines = (copy / "log.jsonl").read_text().splitlines()
    row = json.loads(lines[20])
    row["ir"] = "other"
    lines[20] = json.dumps(row)
    (copy / "log.jsonl").write_text("\n".join(lines[:300]) + "\n")
    check = GAME.diff(log, copy, {"strict": False})
    assert not check.same and check.data["first_turn"] == 21
    assert check.lines[1] == "turn 21, log.jsonl line 21: $.ir: 'none' != 'other'"
    assert "turn 301, log.jsonl line 301: $: " in check.lines[2]
    against_trace = GAME.diff(TRACE, log, {})  # a reference trace read into the core's record: the core's diff
    assert not against_trace.same and against_trace.data["first_turn"] == 1
    assert GAME.diff(TRACE, TRACE, {"strict": True}).same
    # its own log.jsonl read as a trace: the answers are values there (as the rules read them, `{"a": 1}` for
    # `{"a":1}`), and the rows say the two agree
    assert GAME.diff(log, log / "log.jsonl", {}).same and GAME.verify(log / "log.jsonl", {}).same


def test_replay_shows_each_turn(log: Path) -> None:
    replay = GAME.replay(log)  # the core's replay: text_view(), the events, each answer and its ruling
    assert replay.turns == tuple(range(1, 401)) and replay.seats == ("defender", "invader")
    turn5 = replay.render(5)
    assert turn5[0] == "turn 5" and "life 100" in turn5[1]
    towers = turn5[3].split()[1]
    assert len(towers) == 100 and towers[0] == "s" and towers[60] == "b"  # stunner at 0, bomb at 60, both locked
    detail = replay.render(6, "defender")
    assert 'defender: {"action": "build", "type": "turret", "pos": 2.5} -> refused: build: pos must' in detail[-4]
    assert detail[-2:] == ["--- defender bot output ---", "(none)"]
    trace = GAME.replay(TRACE)  # a reference trace: the core's replay too, from turn 1 (turn 0 is its start)
    assert trace.turns == tuple(range(1, 1492))
    assert trace.render(1)[-2:] == ['defender: {"action":"build","type":"stunner","pos":0} -> accepted',
                                    "invader: null -> accepted"]


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


def test_verify_of_a_trace_does_not_claim_an_end_it_has_not(tmp_path: Path) -> None:
    """A koth trace keeps no end line (nor the config its turn cap came from): verify compares its rows and says
    that no result was compared, for a whole trace and for one cut short in the middle of a line alike."""
    note = ("; the log records no result (a trace without an end line, a match cut short or interrupted), so none "
            "was compared")
    with gzip.open(TRACE, "rt") as handle:
        text = handle.read()
    assert GAME.verify(TRACE, {}).lines[0].endswith(f"1491 turns replayed, every row identical{note}")
    path = tmp_path / "cut.jsonl"
    path.write_text(text[:3000])
    check = GAME.verify(path, {})
    assert check.same and 0 < check.data["turns"] < 1491
    assert check.lines[0].endswith(f"every row identical{note}")
