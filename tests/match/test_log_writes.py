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
    """Every turn match.json counts has its whole folder and its record line, and nothing else is there."""
    played = json.loads((folder / "match.json").read_text())["rounds"]
    turns = sorted(p.name for p in folder.iterdir() if p.name.startswith("Turn "))
    assert turns == [f"Turn {n:03d}" for n in range(1, played + 1)]
    for turn in turns:
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
