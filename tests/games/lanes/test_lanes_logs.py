"""The log tools: the core's for folder logs (runner/logtools), lanes' own for spec 11 traces; validate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.games.interface import Absent, Answer, Fault
from runner.games import game_of_log
from runner.games.lanes import GAME
from runner.games.lanes.rules.config import LanesConfig
from tests.games.lanes.lanes_logs import trickler, waller, write_folder_log

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def folder_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("logs") / "match"

    def sloppy(turn: int, state: str) -> Answer:
        return Answer("", absent=Absent.NO_FILE) if turn == 2 else trickler(turn, state)  # turn 2: no file (E01)

    write_folder_log(root, LanesConfig(max_turns=6), {"P1": sloppy, "P2": waller})
    return root


def copy(log: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(log, tmp_path / log.name))


def test_verify_a_folder_log_written_in_the_core_layout(folder_log: Path) -> None:
    assert game_of_log(folder_log).name == "lanes" and not GAME.is_log(folder_log)  # its record.jsonl names it
    check = GAME.verify(folder_log, {})
    assert check.same, check.lines
    assert check.data["turns"] == 6
    assert (folder_log / "Turn 002" / "turn.json").is_file() and (folder_log / "Turn 007" / "trace.jsonl").is_file()


def test_verify_finds_a_changed_state_json(folder_log: Path, tmp_path: Path) -> None:
    log = copy(folder_log, tmp_path)
    path = log / "Turn 004" / "P2 - botP2" / "state.json"
    path.write_text(path.read_text().replace('"money": ', '"money": 1', 1))
    check = GAME.verify(log, {})
    assert not check.same
    assert check.lines[1].startswith("  turn 4, seat P2, Turn 004/P2 - botP2/state.json: $.me.money: ")


def test_verify_finds_a_changed_answer(folder_log: Path, tmp_path: Path) -> None:
    log = copy(folder_log, tmp_path)
    (log / "Turn 003" / "P1 - botP1" / "commands.txt").write_text("TURN 3\nEND\n")
    check = GAME.verify(log, {})
    assert not check.same and check.lines[1].startswith("  turn 3, seat P1, Turn 003/P1 - botP1/commands.txt: line 2:")


def test_the_final_trace_and_the_reference_traces_verify(folder_log: Path) -> None:
    assert GAME.verify(folder_log / "Turn 007" / "trace.jsonl", {}).same is False  # max_turns 6 is not the default
    for name in ("once_vs_passive", "sloppy_vs_wall", "mixed_vs_turtle"):
        assert GAME.is_log(DATA / f"{name}.jsonl")
        check = GAME.verify(DATA / f"{name}.jsonl", {})
        assert check.same, check.lines


def test_diff(folder_log: Path, tmp_path: Path) -> None:
    assert GAME.diff(folder_log, folder_log, {"strict": True}).same
    other = copy(folder_log, tmp_path)
    (other / "Turn 002" / "P2 - botP2" / "BotOutput.txt").write_text("different chatter\n")
    assert GAME.diff(folder_log, other, {"strict": False}).same
    strict = GAME.diff(folder_log, other, {"strict": True})
    assert not strict.same and strict.lines == ("the logs part at turn 2: 1 difference",
                                                "turn 2, seat P2, BotOutput.txt: line 1: 'P2 says hi' != 'different chatter'")
    traces = GAME.diff(DATA / "wall_vs_wall.jsonl", DATA / "wall_vs_trickle.jsonl", {})
    assert not traces.same and "100 turns != 19 turns" in traces.data["differences"]  # the core's diff of traces
    assert traces.data["first_turn"] == 1 and traces.lines[1].startswith("turn 1, seat P2, answer: $.text: ")


def test_replay_shows_each_turn(folder_log: Path) -> None:
    replay = GAME.replay(folder_log)
    assert replay.turns == (1, 2, 3, 4, 5, 6, 7)
    turn2 = [str(line) for line in replay.render(2, "P1")]  # the core's replay: text_view(), events, answers
    assert turn2[0] == "turn 2" and turn2[1].startswith("turn 2  P1 hp 10 money") and turn2[2].startswith("lane 1")
    assert "P1: (nothing) -> refused: E01 bot wrote no commands.txt" in turn2 and "  absent: no_file" in turn2
    assert "--- P1 bot output ---" in turn2 and "P1 says hi" in turn2
    assert replay.render(7)[-1] == "end: max_turns, winner P1"


def test_validate_state_commands_and_config(folder_log: Path, tmp_path: Path) -> None:
    """Lanes' files known by content (other games' state.json and configs share the names), a commands.txt
    checked against the state.json beside it, and a trace file replayed as a whole log."""
    def problems(path: Path, kind: str | None = None) -> tuple[str, tuple[str, ...]] | None:
        reports = GAME.validate(path, kind, {})
        return None if reports is None else (reports[0].kind, tuple(map(str, reports[0].problems)))

    seat = folder_log / "Turn 003" / "P1 - botP1"
    assert problems(seat / "state.json") == ("lanes-state", ())
    assert problems(seat / "commands.txt") == ("lanes-commands", ())
    bot = tmp_path / "bot"
    shutil.copytree(seat, bot)
    (bot / "commands.txt").write_text("TURN 3\nRECRUIT bomb 500\nEND\n")
    kind, found = problems(bot / "commands.txt")
    assert kind == "lanes-commands" and len(found) == 1 and found[0].startswith("E13 line 2")  # money: state.json's
    alone = tmp_path / "commands.txt"
    alone.write_text("TURN 9\nBUILD laser 1 1\nEND\n")
    assert problems(alone)[1][0].startswith("E07 line 2")
    assert problems(folder_log / "game-config.json") == ("lanes-config", ())
    bad = tmp_path / "lanes-config.json"
    bad.write_text(json.dumps({"start_hp": -1}))
    kind, found = problems(bad)
    assert kind == "lanes-config" and found
    unplayable = tmp_path / "wide.json"
    unplayable.write_text(json.dumps({"width": 3, "max_towers_per_row": 3}))
    assert problems(unplayable) == ("lanes-config", ("game config: max_towers_per_row must be below width (3)",))
    broken = tmp_path / "state.json"
    broken.write_text(json.dumps({"protocol": "twolane-1", "turn": 0}))
    assert problems(broken)[1]
    other = tmp_path / "other" / "state.json"  # another game's state.json is not Lanes'
    other.parent.mkdir()
    other.write_text(json.dumps({"protocol": "warzone-1", "turn": 0}))
    assert problems(other) is None and problems(folder_log / "match.json") is None
    assert problems(DATA / "wall_vs_wall.jsonl") == ("lanes-log", ())


def test_not_a_log(tmp_path: Path) -> None:
    assert not GAME.is_log(tmp_path)
    with pytest.raises(UserError, match="not a match log written by td-runner"):
        GAME.verify(tmp_path, {})


def test_validate_through_the_game_gives_file_reports(folder_log: Path, tmp_path: Path) -> None:
    """The Game interface's validate: one FileReport per file, problems only when the file is invalid."""
    seat = next(p for p in (folder_log / "Turn 001").iterdir() if p.is_dir())
    [report] = GAME.validate(seat / "state.json", None, {})
    assert report.is_valid
    broken = tmp_path / "state.json"
    broken.write_text(json.dumps({"protocol": "twolane-1", "turn": "x"}))
    [report] = GAME.validate(broken, None, {})
    assert not report.is_valid and report.problems
    assert GAME.validate(tmp_path, None, {}) is None


def test_validate_a_whole_log_folder(folder_log: Path, tmp_path: Path) -> None:
    """td-runner validate LOG (the core's): every state.json against schema/lanes/, and the replay."""
    [report] = GAME.validate(folder_log, None, {})
    assert report.kind == "lanes-log" and report.is_valid
    log = copy(folder_log, tmp_path)
    (log / "Turn 002" / "P1 - botP1" / "state.json").write_text(json.dumps({"protocol": "twolane-1", "turn": "x"}))
    [report] = GAME.validate(log, None, {})
    assert not report.is_valid and str(report.problems[0]).startswith("Turn 002/P1 - botP1/state.json $")


def _tampered(tmp_path: Path, name: str, change) -> Path:
    lines = [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines()]
    change(lines)
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))
    return path


def test_a_trace_is_read_into_the_core_record_and_a_changed_value_is_named_by_turn(tmp_path: Path) -> None:
    """A spec 11 trace gets the core's verify: each changed value named by turn, line and JSON path; the end line
    checked as match.json would be."""
    def steps(lines): lines[1]["steps"][10][5] = 10  # P2's HP after timestep 11 (the horse scores at t=11)

    def money(lines): lines[5]["money"][0] += 1

    def hp(lines): lines[-1]["end"]["hp"] = [10, 8]

    def turns(lines): lines[-1]["end"]["turns"] = 99

    def accepted(lines): lines[3]["commands"][0][1] = "RECRUIT horse 40"  # an order the trace did not send

    expected = {steps: "turn 1, once_vs_passive.jsonl line 2: $.steps[10][5]: 10 != 9",
                money: "turn 5, once_vs_passive.jsonl line 6: $.money[0]: 103 != 102",
                hp: "once_vs_passive.jsonl line 102 (the end): $.hp.P2: 8 != 9",
                turns: "once_vs_passive.jsonl line 102 (the end): $.rounds: 99 != 100",
                accepted: "turn 3, once_vs_passive.jsonl line 4: $.commands[0][1]: 'RECRUIT horse 40' != 'END'"}
    for change, line in expected.items():
        check = GAME.verify(_tampered(tmp_path, "once_vs_passive", change), {})
        assert not check.same and check.lines[1:] == (f"  {line}",), change.__name__


def test_a_trace_replays_in_the_terminal_and_bad_lines_are_one_error(tmp_path: Path) -> None:
    replay = GAME.replay(DATA / "sloppy_vs_wall.jsonl")  # the core's replay: the session's view, events, answers
    assert replay.turns == tuple(range(1, 102)) and replay.seats == ("P1", "P2")
    turn1 = [str(line) for line in replay.render(1)]
    assert any(line.startswith("P1: TURN 1 | RECRUIT rifle 3") and "-> refused: E10 line 3" in line for line in turn1)
    assert "  P1: E10 line 3: row 20 out of range 0..19 (row 20 is the deploy row)" in turn1  # the turn's events
    assert replay.render(101)[-1] == "end: max_turns, winner none"  # the end line: a draw
    broken = _tampered(tmp_path, "wall_vs_trickle", lambda lines: lines[3].pop("commands"))
    with pytest.raises(UserError, match=r"wall_vs_trickle.jsonl:4: not a spec 11 turn record"):
        GAME.verify(broken, {})


def test_the_trace_of_a_match_with_faults_verifies(tmp_path: Path) -> None:
    """A match's own trace.jsonl (default config) with E01s of each kind: no file, a time-out in the core's
    words, a crash without them; each is read back as the fault it stands for."""
    def faulty(turn: int, state: str) -> Answer:
        faults = {2: Answer("", absent=Absent.NO_FILE),
                  3: Answer("", Fault.TIMEOUT, detail="did not finish within 5.0 s"),
                  4: Answer("", Fault.CRASH)}
        return faults.get(turn) or trickler(turn, state)

    session = write_folder_log(tmp_path / "m", LanesConfig(), {"P1": faulty, "P2": waller})
    trace = next((tmp_path / "m").glob("Turn */trace.jsonl"))
    rejected = [record["rejected"][0] for record in session.records[1:4]]
    assert rejected == [["E01 bot wrote no commands.txt"], ["E01 bot did not finish within 5.0 s"],
                        ["E01 bot crashed or exited with a non-zero status"]]
    check = GAME.verify(trace, {})
    assert check.same, check.lines
