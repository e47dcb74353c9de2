"""The Session and Game behind the core interface: request lines, answers, faults, the cap, standings."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner.errors import UserError
from runner.games.interface import Answer, BotMode, Fault, JsonlLog
from runner.games.invaders import GAME
from runner.games.invaders.rules import render_view

DATA = Path(__file__).parent / "data"


def session(**options):
    return GAME.new_session(GAME.configure(None, options), GAME.seats(2), 0, options)


def idle(turn: int, request: dict) -> str:
    return "null"


def test_static_facts() -> None:
    assert GAME.name == "invaders" and GAME.seats(2) == ("defender", "invader")
    assert GAME.bot_modes == frozenset({BotMode.PERSISTENT}) and GAME.default_mode is BotMode.PERSISTENT
    assert isinstance(GAME.log, JsonlLog) and GAME.timeout_ms == 1000
    assert {o.dest for o in GAME.options} == {"max_turns", "faults"}
    assert GAME.accept_line('  {"hp": 1}\r\n', 3) == '{"hp": 1}'
    with pytest.raises(UserError):
        GAME.seats(3)


def test_request_line_is_compact_json_of_the_spec7_view() -> None:
    game = session()
    inputs = game.inputs()
    assert set(inputs) == {"defender", "invader"}
    line = inputs["invader"].line
    assert "\n" not in line and ": " not in line
    request = json.loads(line)
    assert request["turn"] == 1 and request["side"] == "invader"
    assert request["state"] == render_view(game.state)
    assert request["state"]["turnNumber"] == 1 and len(request["state"]["towerSlots"]) == 100
    assert json.loads(inputs["defender"].line)["state"] == request["state"]


def test_session_reproduces_a_reference_trace_through_answer_texts(play) -> None:
    with gzip.open(DATA / "mixed__vs__tank.jsonl.gz", "rt") as handle:
        rows = [json.loads(line) for line in handle]
    by_turn = {row["t"]: row for row in rows}
    game = session()
    records = play(
        game,
        lambda turn, _: json.dumps(by_turn[turn]["da"]),
        lambda turn, _: json.dumps(by_turn[turn]["ia"]),
    )
    assert len(records) == len(rows) - 1
    for record, row in zip(records, rows[1:]):
        assert {k: v for k, v in record.items() if k not in ("ir", "dr")} == row
    outcome = game.outcome()
    assert outcome.reason == "life" and outcome.winner == "invader" and outcome.details["score"] == 1512
    assert game.standings()["defender"] == {"score": 1512, "turns": 1512, "life": 0, "gold": 6}
    assert game.active_seats() == ()


def test_turn_cap_ends_with_max_turns_and_the_defender_ranked_first(play) -> None:
    game = session(max_turns=30)
    records = play(game, idle, idle)
    assert len(records) == 30 and game.turn == 30 == game.turn_limit
    assert game.outcome().reason == "max_turns" and game.outcome().ranking == (("defender",), ("invader",))
    assert game.standings()["invader"]["score"] == 30


def test_rejections_are_reported_with_reasons() -> None:
    game = session()
    report = game.play_turn(
        {"defender": Answer('{"action":"build","type":"laser","pos":3}'), "invader": Answer('{"hp":1}')}
    )
    assert report.rejected["defender"] == ("build: unknown tower type \"laser\" (turret, bomb or stunner)",)
    assert report.rejected["invader"] == ("spawn: costs 11 gold, invader has 0",)
    assert report.record["dr"].startswith("build: unknown") and report.record["sp"] is False
    report = game.play_turn({"defender": Answer('{"action":"build","type":"bomb","pos":3}'), "invader": Answer("null")})
    assert report.rejected == {} and report.record["dr"] == "applied" and report.record["ir"] == "none"


@pytest.mark.parametrize(
    ("answer", "fault"),
    [(Answer("", Fault.TIMEOUT), "timeout"), (Answer("{nope"), "answer is not JSON"), (Answer("", Fault.CRASH), "crash")],
)
def test_a_fault_disqualifies_by_default(answer: Answer, fault: str) -> None:
    game = session()
    game.play_turn({"defender": Answer("null"), "invader": Answer("null")})
    report = game.play_turn({"defender": Answer('{"action":"build","type":"bomb","pos":3}'), "invader": answer})
    outcome = game.outcome()
    assert outcome.reason == "disqualified" and outcome.ranking == (("defender",), ("invader",))
    assert outcome.details["disqualified"] == "invader" and outcome.details["faults"]["invader"].startswith(fault)
    assert outcome.details["score"] == 100_000  # spec 18: a disqualified invader gives the cap
    assert report.record["dq"] == ["invader"] and game.state.towers[3] is None  # nothing applied
    assert game.active_seats() == ()


def test_a_disqualified_defender_scores_zero() -> None:
    game = session()
    game.play_turn({"defender": Answer("", Fault.FAILED_TO_START), "invader": Answer("null")})
    assert game.outcome().details == {"disqualified": "defender", "faults": {"defender": "failed_to_start"}, "score": 0}
    assert game.standings()["defender"]["score"] == 0


def test_faults_ignored_become_null_actions_and_events() -> None:
    game = session(faults="ignore")
    report = game.play_turn({"defender": Answer("", Fault.TIMEOUT), "invader": Answer("[1,")})
    assert game.outcome() is None and game.turn == 2
    assert report.record["faults"] == {"defender": "timeout", "invader": report.record["faults"]["invader"]}
    assert report.record["ia"] is None and report.record["da"] is None
    assert any("defender: fault (timeout)" in event for event in report.events)


@settings(max_examples=150, deadline=None)
@given(defender=st.text(max_size=40), invader=st.text(max_size=40), faults=st.sampled_from(["ignore", "disqualify"]))
def test_any_answer_text_never_raises(defender: str, invader: str, faults: str) -> None:
    game = session(faults=faults)
    for _ in range(3):
        if game.outcome() is not None:
            break
        report = game.play_turn({"defender": Answer(defender), "invader": Answer(invader)})
        json.dumps(report.record)


def test_configure_from_file_and_options(tmp_path: Path) -> None:
    config_file = tmp_path / "invaders.json"
    config_file.write_text('{"maxTurns": 500, "faults": "ignore"}')
    config = GAME.configure(config_file, {})
    assert (config.max_turns, config.faults) == (500, "ignore")
    config = GAME.configure(config_file, {"max_turns": 7, "faults": None})
    assert GAME.config_json(config) == {"maxTurns": 7, "faults": "ignore"}
    assert GAME.config_json(GAME.configure(None, {})) == {"maxTurns": 100_000, "faults": "disqualify"}
    config_file.write_text('{"maxTurns": 0}')
    with pytest.raises(UserError, match=r"maxTurns: 0 is less than the minimum of 1"):
        GAME.configure(config_file, {})
    with pytest.raises(UserError, match="not valid JSON"):
        config_file.write_text("{")
        GAME.configure(config_file, {})
    with pytest.raises(UserError, match="missing.json: no such file"):
        GAME.configure(tmp_path / "missing.json", {})
