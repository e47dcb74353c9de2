"""Every official 3.0.2 match log, replayed through our engine by `verify` (the core's, reading the official
layout into its record): every round's files identical.

The comparison forgives only what the official engine leaves to chance (conformance README): missile ids,
the key order of two gameDetails maps, and the A/B command order (taken from driver-notes.json).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from runner.games.tower_defence import GAME
from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.game import play_round
from runner.games.tower_defence.engine.state import GameState
from runner.games.tower_defence.logs.layout import open_match_log, recorded_order
from tests.conftest import TRACE_NAMES

CRASH_TRACE = "crash-comma-vs-r17"
ERROR_LIST = re.compile(r"^Starting round (\d+)\n=+\nError List: \[(.*)\]$", re.MULTILINE)


def test_all_traces_are_present() -> None:
    assert len(TRACE_NAMES) == 17


@pytest.mark.parametrize("name", TRACE_NAMES)
def test_every_round_identical(conformance_root: Path, name: str) -> None:
    log = open_match_log(conformance_root / name)
    check = GAME.verify(log.path, {})
    played = log.final_round + (1 if name == CRASH_TRACE else 0)
    assert check.data["turns"] == played and check.data["order"] == str(recorded_order(log))
    if name == CRASH_TRACE:
        # the official engine crashed on "," in round 12: no endGameState; ours carries on instead, and verify
        # says so as its only difference
        assert log.final_round == 12 and not check.same
        assert check.data["differences"] == [
            "the log stops after turn 12 without a match's final files; the replay goes on"]
    else:
        assert check.same, check.lines


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


def test_one_changed_line_late_in_a_long_log_is_named(conformance_root: Path, tmp_path: Path) -> None:
    import shutil

    copy = Path(shutil.copytree(conformance_root / "gg-mirror-g11", tmp_path / "copy"))
    text_map = copy / "Round 300" / "B - GreedyBot" / "TextMap.txt"
    text_map.write_text(text_map.read_text().replace("Round Number : 300", "Round Number : 299"))
    check = GAME.verify(copy, {})
    assert not check.same and check.data["first_turn"] == 300
    assert check.data["differences"] == [
        "turn 300, seat B, Round 300/B - GreedyBot/TextMap.txt: line 2: 'Round Number : 299' != 'Round Number : 300'"]


def test_one_changed_byte_in_the_console_map_is_named(conformance_root: Path, tmp_path: Path) -> None:
    import shutil

    copy = Path(shutil.copytree(conformance_root / "gr-g1-vs-r11", tmp_path / "copy"))
    console = copy / "Round 010" / "A - GreedyBot" / "Console" / "Console.txt"
    data = console.read_bytes()
    assert b"Energy=    33" in data
    console.write_bytes(data.replace(b"Energy=    33", b"Energy=    34", 1))
    check = GAME.verify(copy, {})
    assert not check.same
    assert check.data["differences"][0].startswith("turn 10, seat A, Round 010/A - GreedyBot/Console/Console.txt: ")
