"""The log tools: the core's for folder logs (runner/logtools), lanes' own for spec 11 traces; validate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.games.interface import Absent, Answer
from runner.games import game_of_log
from runner.games.lanes import GAME
from runner.games.lanes import logs as LOGS
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
    assert not traces.same and any("turns: 100 vs 19" in line for line in traces.lines)


def test_replay_shows_each_turn(folder_log: Path) -> None:
    replay = GAME.replay(folder_log)
    assert replay.turns == (1, 2, 3, 4, 5, 6, 7)
    turn2 = [str(line) for line in replay.render(2, "P1")]  # the core's replay: text_view(), events, answers
    assert turn2[0] == "turn 2" and turn2[1].startswith("turn 2  P1 hp 10 money") and turn2[2].startswith("lane 1")
    assert "P1: (nothing) -> refused: E01 bot wrote no commands.txt" in turn2 and "  absent: no_file" in turn2
    assert "--- P1 bot output ---" in turn2 and "P1 says hi" in turn2
    assert replay.render(7)[-1] == "end: max_turns, winner P1"


def test_validate_state_commands_and_config(folder_log: Path, tmp_path: Path) -> None:
    seat = folder_log / "Turn 003" / "P1 - botP1"
    assert LOGS.validate(seat / "state.json").same
    check = LOGS.validate(seat / "commands.txt")
    assert check.same and "against state.json" in check.lines[0]
    bot = tmp_path / "bot"
    shutil.copytree(seat, bot)
    (bot / "commands.txt").write_text("TURN 3\nRECRUIT bomb 500\nEND\n")
    rejected = LOGS.validate(bot / "commands.txt")
    assert not rejected.same and rejected.lines[1].startswith("E13 line 2")
    alone = tmp_path / "commands.txt"
    alone.write_text("TURN 9\nBUILD laser 1 1\nEND\n")
    assert LOGS.validate(alone).lines[1].startswith("E07 line 2")
    assert LOGS.validate(folder_log / "game-config.json").same
    bad = tmp_path / "lanes-config.json"
    bad.write_text(json.dumps({"start_hp": -1}))
    assert not LOGS.validate(bad).same
    broken = tmp_path / "state.json"
    broken.write_text(json.dumps({"protocol": "twolane-1", "turn": 0}))
    assert not LOGS.validate(broken).same
    assert LOGS.validate(folder_log / "match.json") is None
    assert LOGS.validate(DATA / "wall_vs_wall.jsonl") is None


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
