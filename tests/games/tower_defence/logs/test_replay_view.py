"""matchlog.replay: round views of official traces, errors from the engine replay, divergence warnings."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.state import CommandOrder
from runner.games.tower_defence.logs.layout import open_match_log, recorded_order
from runner.games.tower_defence.logs.replay import MatchReplay, PlayerSummary

OVERFLOW_ERROR = (
    "Player B: Unable to parse command entries, all parameters should be integers. Received:2147483648,2,1"
)


def _replay(path: Path) -> MatchReplay:
    log = open_match_log(path)
    return MatchReplay(log, GameConfig(), recorded_order(log) or CommandOrder.B_FIRST)


@pytest.mark.parametrize(
    ("trace", "errors"),
    # engine error-list entries A+B per the conformance README table
    [("gr-g1-vs-r11", 1), ("rr-101-vs-202", 3), ("rr-505-vs-606-invalid15", 15), ("inv50-abc-vs-g16noattack", 50)],
)
def test_error_counts_match_the_official_runs(conformance_root: Path, trace: str, errors: int) -> None:
    replay = _replay(conformance_root / trace)
    assert replay.diverged_at is None
    assert sum(len(replay.round(number).errors) for number in replay.rounds) == errors


def test_round_view(conformance_root: Path) -> None:
    replay = _replay(conformance_root / "gr-g1-vs-r11")
    view = replay.round(16)
    assert view.errors == (OVERFLOW_ERROR,)
    assert view.commands == {"A": "7,1,0", "B": "2147483648,2,1"}
    assert view.players["A"] == PlayerSummary(100, 39, 305, 0, False, -16)
    assert view.players["B"].score == 272
    assert len(view.console_map) == 8 and view.console_map[0].startswith("[0E0]")
    assert view.bot_output["B"] == "round 16 energy 40: invalid:overflow -> '2147483648,2,1'\n"
    assert not view.is_final and view.end_game_state is None and view.warning is None
    assert replay.round(15).errors == ()


def test_final_round_and_crashed_log(conformance_root: Path) -> None:
    final = _replay(conformance_root / "gr-g1-vs-r11").round(37)
    assert final.is_final and final.end_game_state.startswith("The winner is: A - GreedyBot")
    assert final.errors == ()
    crashed = _replay(conformance_root / "crash-comma-vs-r17")
    last = crashed.round(12)
    # the official engine crashed on A's ',' here; ours records it as an invalid command
    assert last.is_final and last.end_game_state is None
    assert last.errors == ("Player A: Unable to parse command expected 3 parameters, got 0",)


def test_divergence_from_the_log_is_flagged(conformance_root: Path, tmp_path: Path) -> None:
    log = shutil.copytree(conformance_root / "gr-g1-vs-r11", tmp_path / "log")
    state = log / "Round 010" / "A - GreedyBot" / "JsonMap.json"
    text = state.read_text(encoding="utf-8")
    state.write_text(text.replace('"score":135', '"score":136', 1), encoding="utf-8")
    replay = _replay(log)
    assert replay.diverged_at == 10
    assert replay.round(9).warning is None
    assert "from round 10 on" in replay.round(10).warning and replay.round(30).warning


def test_missing_round_folder_stops_the_engine(conformance_root: Path, tmp_path: Path) -> None:
    log = shutil.copytree(conformance_root / "gr-g1-vs-r11", tmp_path / "log")
    shutil.rmtree(log / "Round 020")
    replay = _replay(log)
    assert replay.diverged_at == 20
    assert replay.round(16).errors == (OVERFLOW_ERROR,)
    assert replay.round(21).errors == () and replay.round(21).warning
