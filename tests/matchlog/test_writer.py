"""MatchLogWriter: a turn folder appears whole or not at all; write failures are one-line user errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.games.tower_defence.logs.layout import open_match_log
import runner.matchlog.writer as writer_module
from runner.matchlog.writer import LogWriteError, MatchLogWriter

NAMES = {"A": "A - Alpha", "B": "B - Beta"}


def files(text: str) -> dict[str, dict[str, str]]:
    return {seat: {"JsonMap.json": text, "Console/Console.txt": "\n"} for seat in NAMES}


def test_rounds_are_renamed_into_place(tmp_path: Path) -> None:
    writer = MatchLogWriter(tmp_path / "m", NAMES)
    writer.write_round("Round 000", files("{}"))
    writer.write_round("Round 001", files("{}"), {"endGameState.txt": "The game ended in a tie\n\n"})
    log = open_match_log(tmp_path / "m")
    assert log.rounds == (0, 1) and log.end_game_state() == "The game ended in a tie\n\n"
    assert log.player_file(1, "B", "JsonMap.json") == "{}"
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["Round 000", "Round 001"]
    assert not list((tmp_path / "m").glob(".*"))


def test_interrupted_round_leaves_nothing(tmp_path: Path) -> None:
    writer = MatchLogWriter(tmp_path / "m", NAMES)

    class Boom(dict):
        def items(self):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        writer.write_round("Round 000", {"A": Boom()})
    assert list((tmp_path / "m").iterdir()) == []


def test_existing_round_is_a_one_line_error(tmp_path: Path) -> None:
    writer = MatchLogWriter(tmp_path / "m", NAMES)
    writer.write_round("Round 000", files("{}"))
    (tmp_path / "m" / "Round 001" / "A - Alpha").mkdir(parents=True)
    (tmp_path / "m" / "Round 001" / "A - Alpha" / "x").write_text("x")
    with pytest.raises(LogWriteError, match="Round 001: cannot write the match log"):
        writer.write_round("Round 001", files("{}"))
    assert not list((tmp_path / "m").glob(".*"))


def test_jsonl_lines_and_binary_side_files(tmp_path: Path) -> None:
    writer = MatchLogWriter(tmp_path / "m", NAMES)
    writer.append_line("log.jsonl", '{"turn":1}\n')
    assert (tmp_path / "m" / "log.jsonl").read_text() == '{"turn":1}\n'  # the first line is on disk at once
    writer.append_line("log.jsonl", '{"turn":2}\n')
    writer.write_file("map.map", b"[continents]\r\n\xff")
    writer.close()  # the line log stays open for the match
    assert (tmp_path / "m" / "log.jsonl").read_text() == '{"turn":1}\n{"turn":2}\n'
    assert (tmp_path / "m" / "map.map").read_bytes() == b"[continents]\r\n\xff"


def test_jsonl_lines_reach_the_disk_within_flush_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One write per FLUSH_S, not per line: a SIGKILLed runner loses at most the lines of the last FLUSH_S."""
    clock = [100.0]
    monkeypatch.setattr(writer_module.time, "monotonic", lambda: clock[0])
    writer = MatchLogWriter(tmp_path / "m", NAMES)
    log = tmp_path / "m" / "log.jsonl"
    writer.append_line("log.jsonl", "1\n")
    writer.append_line("log.jsonl", "2\n")  # within FLUSH_S of the first: still in memory
    assert log.read_text() == "1\n"
    clock[0] += writer_module.FLUSH_S
    writer.append_line("log.jsonl", "3\n")
    assert log.read_text() == "1\n2\n3\n"
    writer.append_line("log.jsonl", "4\n")
    writer.close()
    assert log.read_text() == "1\n2\n3\n4\n"
