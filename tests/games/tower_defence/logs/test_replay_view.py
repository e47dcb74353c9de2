"""The terminal replay of official Tower Defence logs (the core's, runner/logtools/replay.py, over the record
of an official log): the engine's refusals per round, the view's lines, and where the replay parts from a log.
Until issue 33 this tested Tower Defence's own MatchReplay; it now tests the same facts through `GAME.replay`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from runner.games.tower_defence import GAME

OVERFLOW_ERROR = (
    "Player B: Unable to parse command entries, all parameters should be integers. Received:2147483648,2,1"
)


@pytest.mark.parametrize(
    ("trace", "errors"),
    # engine error-list entries A+B per the conformance README table
    [("gr-g1-vs-r11", 1), ("rr-101-vs-202", 3), ("rr-505-vs-606-invalid15", 15), ("inv50-abc-vs-g16noattack", 50)],
)
def test_error_counts_match_the_official_runs(conformance_root: Path, trace: str, errors: int) -> None:
    replay = GAME.replay(conformance_root / trace)
    assert replay.parted is None
    assert sum(len(frame.report.events) for frame in replay.frames.values() if frame.report) == errors


def test_round_view(conformance_root: Path) -> None:
    replay = GAME.replay(conformance_root / "gr-g1-vs-r11")
    frame = replay.frames[16]
    assert frame.report.rejected == {"B": (OVERFLOW_ERROR,)} and not replay.frames[15].report.events
    assert {seat: answer.text for seat, answer in frame.turn.answers.items()} == {"A": "7,1,0", "B": "2147483648,2,1"}
    assert [str(line) for line in frame.view[:2]] == [
        "A - GreedyBot, Health=100, Energy=    39, Score=   305, IronCurtainAvailable= No, HitsTaken=0",
        "B - RandomBot, Health=100, Energy=    40, Score=   272, IronCurtainAvailable= No, HitsTaken=0"]
    assert len(frame.view) == 10 and frame.view[2].startswith("[0E0]")
    assert replay.render(16, "B")[-1] == "round 16 energy 40: invalid:overflow -> '2147483648,2,1'"


def test_a_missing_round_folder_parts_the_replay_from_the_log(conformance_root: Path, tmp_path: Path) -> None:
    log = shutil.copytree(conformance_root / "gr-g1-vs-r11", tmp_path / "log")
    shutil.rmtree(log / "Round 020")
    replay = GAME.replay(log)
    assert replay.frames[16].report.rejected == {"B": (OVERFLOW_ERROR,)}
    assert replay.parted is not None and replay.parted[0] == 21  # round 20 played without its commands
    assert replay.render(21)[1].startswith("warning: the replay differs from the log from round 21 on")
