"""The hand-rendered log line (protocol/record.py) is byte for byte json.dumps of the turn's record, and that
record is the spec 16 row plus `ir`/`dr` (and `faults`, `dq`) as before: whole reference games, odd answers,
faults, disqualification, the penalty and the end."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from runner.games.interface import Answer, Fault
from runner.games.invaders import GAME

DATA = Path(__file__).parent / "data"
GAMES = sorted(DATA.glob("*.jsonl.gz"))


def session(**options):
    return GAME.new_session(GAME.configure(None, options), GAME.seats(2), 0, options)


def encoded(record: dict) -> str:
    return json.dumps(record, separators=(",", ":"))


def checked_turn(game, defender: Answer, invader: Answer) -> dict:
    """Play one turn; its line must be the record's encoding."""
    report = game.play_turn({"defender": defender, "invader": invader})
    assert report.record_line == encoded(report.record)
    return report.record


@pytest.mark.parametrize("trace", GAMES, ids=[path.name.split(".")[0] for path in GAMES])
def test_every_turn_of_the_reference_games(trace: Path) -> None:
    with gzip.open(trace, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle][1:]
    game = session()
    for row in rows:
        game.inputs()
        record = checked_turn(game, Answer(json.dumps(row["da"])), Answer(json.dumps(row["ia"])))
        assert list(record) == [*row, "ir", "dr"]  # the spec 16 row in the trace's key order, then ir and dr
        assert {key: record[key] for key in row} == row  # the reference trace, field for field


ODD = ['{"action":"build","pos":3,"type":"turret","note":"\u00e9\u2603 \\"q\\" \\n"}', "[1, 2.5, -0.0, 1e400]",
       '"a string"', "true", "12345678901234567890123", '{"action":"spawn","hp":1.5}', "{}", "[]",
       '{"action":"upgrade","pos":3,"stat":"power"}', '{"action":"destroy","pos":3}', "  null  "]


def test_odd_answers_and_faults_keep_the_encoders_bytes() -> None:
    game = session()
    for turn in range(60):
        game.inputs()
        defender = ODD[turn % len(ODD)]
        invader = ODD[(turn * 7) % len(ODD)] if turn % 5 else "not json"
        fault = Answer("", Fault.TIMEOUT) if turn % 11 == 3 else None
        record = checked_turn(game, fault or Answer(defender), Answer(invader))
        assert ("faults" in record) == (turn % 5 == 0 or fault is not None)


def test_disqualification_line() -> None:
    game = session(faults="disqualify")
    game.inputs()
    report = game.play_turn({"defender": Answer('{"action":"build","pos":3,"type":"turret"}'),
                             "invader": Answer("{bad")})
    assert report.record["dq"] == ["invader"] and report.record_line == encoded(report.record)
    assert json.loads(report.record_line)["dq"] == ["invader"]


def test_penalty_and_end_rows() -> None:
    """An invader that never spawns hoards gold (the penalty, a float multiplier) and a defender that never
    builds loses (the `end` row)."""
    game = session()
    penalties = 0
    while game.outcome() is None:
        game.inputs()
        spawn = '{"action":"spawn","hp":3}' if game.turn % 40 == 0 else "null"
        record = checked_turn(game, Answer("null"), Answer(spawn))
        penalties += "pen" in record
    assert penalties and record.get("end") is True
