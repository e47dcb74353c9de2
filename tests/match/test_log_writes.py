"""A folder log's turn is written on the match loop (no log thread) right after the next turn's requests are
sent: a match cut short keeps every turn it played, each folder whole, with its record.jsonl line, whether
the interruption comes while the bots think or in the middle of a turn's write."""

from __future__ import annotations

import io
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.cli import main
from runner.matchlog.writer import MatchLogWriter

REPO = Path(__file__).resolve().parents[2]
STARTER = REPO / "starter-bots" / "lanes" / "python3-persistent"


def lanes_match(tmp_path: Path, turns: int) -> list[str]:
    """`td-runner match` arguments: the persistent Lanes starter against itself, hp high enough for `turns`."""
    config = tmp_path / "hp.json"
    config.write_text('{"start_hp": 100000}\n')
    bots = [shutil.copytree(STARTER, tmp_path / name) for name in ("one", "two")]
    return ["match", "--game", "lanes", *map(str, bots), "--game-config", str(config), "--max-turns", str(turns),
            "--output", str(tmp_path), "--name", "m", "--quiet"]


def assert_complete(folder: Path) -> int:
    """Every turn match.json counts has its whole folder and its record line, and nothing else is there (but
    the final folder, the last state, of a match that reached its end)."""
    summary = json.loads((folder / "match.json").read_text())
    played = summary["rounds"]
    turns = sorted(p.name for p in folder.iterdir() if p.name.startswith("Turn "))
    final = 0 if summary["end_reason"] == "interrupted" else 1
    assert turns == [f"Turn {n:03d}" for n in range(1, played + 1 + final)]
    for turn in turns[:played]:
        assert sorted(p.name for p in (folder / turn).iterdir()) == [
            "P1 - LanesPersistentPython", "P2 - LanesPersistentPython", "turn.json"]
        assert (folder / turn / "P2 - LanesPersistentPython" / "commands.txt").read_text().startswith("TURN ")
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".")]  # no partial folder left
    lines = (folder / "record.jsonl").read_text().splitlines()
    assert [json.loads(line)["turn"] for line in lines[1:]] == list(range(1, played + 1))
    return played


@pytest.mark.parametrize("when", ["before the rename", "after the rename"])
def test_ctrl_c_in_the_middle_of_a_turns_write_keeps_that_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                when: str) -> None:
    """Ctrl-C lands while turn 3's folder is written (the writes now run on the match loop, where the signal is
    raised): the turn is written at the end, once, and the match ends interrupted after it."""
    write_round = MatchLogWriter.write_round

    def interrupted(self, turn_folder, files, turn_files=None):
        if turn_folder == "Turn 003" and not getattr(self, "cut", False):
            self.cut = True
            if when == "after the rename":
                write_round(self, turn_folder, files, turn_files)
            raise KeyboardInterrupt
        write_round(self, turn_folder, files, turn_files)

    monkeypatch.setattr(MatchLogWriter, "write_round", interrupted)
    err = io.StringIO()
    code = main(lanes_match(tmp_path, 10), io.StringIO(), err)
    assert code == 130, err.getvalue()
    folder = tmp_path / "m"
    assert json.loads((folder / "match.json").read_text())["end_reason"] == "interrupted"
    assert assert_complete(folder) >= 3


def test_sigterm_keeps_every_turn_played_of_a_persistent_match(tmp_path: Path) -> None:
    """The real command, stopped from outside while it plays: every turn counted is in the log, whole."""
    process = subprocess.Popen([sys.executable, "-m", "runner", *lanes_match(tmp_path, 5000)], cwd=REPO,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    folder = tmp_path / "m"
    deadline = time.monotonic() + 60
    while not (folder / "Turn 005").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    assert assert_complete(folder) >= 5
    out = io.StringIO()
    assert main(["verify", str(folder)], out, io.StringIO()) == 0, out.getvalue()


def test_each_turns_record_line_is_on_disk_once_its_folder_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """record.jsonl is flushed with every turn folder written (not FLUSH_S later): when a turn's folder is being
    written, the line of every earlier turn is already in the file, so a runner killed with SIGKILL leaves a
    record as long as its folders (but for the turn being written)."""
    write_round = MatchLogWriter.write_round
    seen: list[tuple[int, int]] = []

    def checked(self, turn_folder, files, turn_files=None):
        lines = (self.folder / "record.jsonl").read_text().splitlines()
        seen.append((int(turn_folder.split()[1]), len(lines) - 1))  # the turn written, the turn lines on disk
        write_round(self, turn_folder, files, turn_files)

    monkeypatch.setattr(MatchLogWriter, "write_round", checked)
    err = io.StringIO()
    assert main(lanes_match(tmp_path, 6), io.StringIO(), err) == 0, err.getvalue()
    # turn 6's folder and the final one (Turn 007: the last state, no answers) are written together at the end
    assert seen == [(turn, turn - 1) for turn in range(1, 7)] + [(7, 5)]
    assert_complete(tmp_path / "m")
