"""Every official 3.0.2 match log, replayed through our engine: every round's files identical.

The comparison forgives only what the official engine leaves to chance (conformance README): missile ids,
the key order of two gameDetails maps, and the A/B command order (taken from driver-notes.json).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.game import play_round
from runner.games.tower_defence.engine.state import GameState
from runner.games.tower_defence.logs.layout import open_match_log
from runner.games.tower_defence.logs.verify import recorded_order, verify_log
from tests.conftest import TRACE_NAMES

CRASH_TRACE = "crash-comma-vs-r17"
ERROR_LIST = re.compile(r"^Starting round (\d+)\n=+\nError List: \[(.*)\]$", re.MULTILINE)


def test_all_traces_are_present() -> None:
    assert len(TRACE_NAMES) == 17


@pytest.mark.parametrize("name", TRACE_NAMES)
def test_every_round_identical(conformance_root: Path, name: str) -> None:
    log = open_match_log(conformance_root / name)
    report = verify_log(log, GameConfig())
    assert report.first_divergence is None, report.first_divergence.describe()
    assert report.identical == report.rounds == len(log.rounds)
    if name == CRASH_TRACE:
        # the official engine crashed on "," in round 12: no endGameState; ours carries on instead
        assert log.final_round == 12 and not report.result_identical and "without" in report.note
    else:
        assert report.ok


@pytest.mark.parametrize("name", TRACE_NAMES)
def test_error_lists_match_the_runner_log(conformance_root: Path, name: str) -> None:
    """The engine's error strings only appear in runner-stdout.log ("Error List: [...]" per round)."""
    log = open_match_log(conformance_root / name)
    recorded = {
        int(number): errors
        for number, errors in ERROR_LIST.findall((log.path / "runner-stdout.log").read_text(encoding="utf-8"))
    }
    assert recorded, "no error lists found in runner-stdout.log"
    state = GameState.new(GameConfig(), command_order=recorded_order(log))
    for number, commands in enumerate(log.commands()):
        play_round(state, commands)
        if number in recorded:
            assert ", ".join(state.errors) == recorded[number], f"round {number}"


def test_crash_trace_command_is_an_invalid_command_not_a_crash(conformance_root: Path) -> None:
    log = open_match_log(conformance_root / CRASH_TRACE)
    state = GameState.new(GameConfig(), command_order=recorded_order(log))
    commands = log.commands()
    assert commands[12]["A"] == ","
    for round_commands in commands:
        play_round(state, round_commands)
    assert "Player A: Unable to parse command expected 3 parameters, got 0" in state.errors
    assert state.round == 13


@pytest.mark.parametrize("name", ["gg-mirror-g11", "edge-commands-vs-nofile"])
def test_parallel_verify_gives_the_same_report(conformance_root: Path, tmp_path: Path, name: str) -> None:
    import shutil

    log = open_match_log(conformance_root / name)
    assert verify_log(log, GameConfig(), workers=2) == verify_log(log, GameConfig())
    # a difference in the second slice is found and counted from the start of the log
    copy = Path(shutil.copytree(log.path, tmp_path / name))
    text_map = copy / "Round 300" / log.player_dirs["B"] / "TextMap.txt"
    text_map.write_text(text_map.read_text().replace("Round Number : 300", "Round Number : 299"))
    report = verify_log(open_match_log(copy), GameConfig(), workers=2)
    assert report == verify_log(open_match_log(copy), GameConfig())
    assert report.identical == 300 and report.first_divergence.round == 300
    assert (report.first_divergence.player, report.first_divergence.file) == ("B", "TextMap.txt")
