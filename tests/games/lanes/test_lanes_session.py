"""The Session and Game behind the core's interface: whole games with scripted answers, faults, outcomes."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.games.interface import Absent, Answer, AnswerLines, BotMode, Fault
from runner.games.lanes import GAME
from runner.games.lanes.protocol.trace_replay import replay_trace
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.session import LanesSession
from tests.games.lanes.lanes_logs import idle, rusher, trickler, waller

PACKAGE = Path(__file__).parents[3] / "runner" / "games" / "lanes"


def play_out(session: LanesSession, scripts) -> list:
    reports = []
    while session.outcome() is None:
        inputs = session.inputs()
        answers = {s: scripts[s](session.turn, inputs[s].files["state.json"]) for s in session.active_seats()}
        reports.append(session.play_turn(answers))
    return reports


def test_static_facts_match_the_brief() -> None:
    assert GAME.name == "lanes" and GAME.player_counts == (2,)
    # per turn by default (spec 10.1); persistent by opt-in, through the core's frames (issue 35)
    assert GAME.bot_modes == frozenset({BotMode.PER_TURN, BotMode.PERSISTENT}) and GAME.default_mode is BotMode.PER_TURN
    assert GAME.persistent_frames
    assert (GAME.answer_file.name, GAME.answer_file.lines) == ("commands.txt", AnswerLines.ALL)
    assert GAME.timeout_ms == 5000 and GAME.log.turn_folder == "Turn {turn:03d}" and GAME.log.answer == "commands.txt"
    assert [o.dest for o in GAME.options] == ["max_turns"]
    assert GAME.seats(2) == ("P1", "P2")
    with pytest.raises(UserError):
        GAME.seats(3)


def test_a_whole_game_rusher_against_idle_ends_on_hp() -> None:
    session = GAME.new_session(GAME.configure(None, {}), GAME.seats(2), 7, {})
    reports = play_out(session, {"P1": rusher, "P2": idle})
    outcome = session.outcome()
    assert (outcome.reason, outcome.winner, outcome.ranking) == ("hp", "P1", (("P1",), ("P2",)))
    assert len(reports) == 1  # 50 rifles in one turn kill an undefended opponent (spec 9's balance note)
    assert session.active_seats() == ()
    assert session.standings()["P1"]["scored"] == 50 and session.standings()["P2"]["hp"] == -40
    assert reports[0].record["hp"] == [10, -40] and json.loads(reports[0].log_files["turn.json"]) == reports[0].record


def test_the_same_answers_give_the_same_game() -> None:
    runs = []
    for _ in range(2):
        session = LanesSession(LanesConfig(max_turns=6))
        runs.append([r.record for r in play_out(session, {"P1": trickler, "P2": waller})])
    assert runs[0] == runs[1] and len(runs[0]) == 6


def test_a_draw_after_the_turn_limit_is_one_ranking_group() -> None:
    config = GAME.configure(None, {"max_turns": 2})
    session = GAME.new_session(config, GAME.seats(2), 0, {})
    play_out(session, {"P1": idle, "P2": idle})
    outcome = session.outcome()
    assert (outcome.reason, outcome.ranking, outcome.winner) == ("max_turns", (("P1", "P2"),), None)
    assert session.state.turn == 3 and outcome.details == {"hp": {"P1": 10, "P2": 10}}


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (Answer("", Fault.TIMEOUT, detail="did not finish within 5.0 s"), "E01 bot did not finish within 5.0 s"),
        (Answer("", Fault.CRASH, detail="exited with status 1"), "E01 bot exited with status 1"),
        (Answer("", Fault.TIMEOUT), "E01 bot did not finish within the time limit"),  # no words from the core
        (Answer("", Fault.CRASH), "E01 bot crashed or exited with a non-zero status"),
        (Answer("", absent=Absent.NO_FILE), "E01 bot wrote no commands.txt"),
        (Answer("", absent=Absent.REFUSED, detail="wrote a commands.txt that cannot be read: commands.txt has 2 hard links"),
         "E01 bot wrote a commands.txt that cannot be read: commands.txt has 2 hard links"),
        (Answer("TURN 1\n" + "#" * 65_530 + "\nEND\n"), "E02 commands.txt is larger than 65536 bytes"),
    ],
)
def test_a_failed_bot_does_nothing_and_the_game_goes_on(answer: Answer, message: str) -> None:
    session = LanesSession(LanesConfig())
    report = session.play_turn({"P1": answer, "P2": rusher(1, session.inputs()["P2"].files["state.json"])})
    assert report.rejected == {"P1": (message,)}
    assert session.outcome() is not None  # P2's rush ended it, with P1 doing nothing
    files = session.inputs()["P1"].files
    assert list(files) == ["map.txt", "errors.txt", "state.json"]
    assert files["errors.txt"] == message + "\n"
    assert json.loads(files["state.json"])["errors"] == [message]


def test_an_empty_file_is_a_file_without_header_and_end_not_e01() -> None:
    session = LanesSession(LanesConfig())
    report = session.play_turn({"P1": Answer(""), "P2": Answer("", absent=Absent.NO_FILE)})
    assert [line[:3] for line in report.rejected["P1"]] == ["E03", "E04"]
    assert report.rejected["P2"] == ("E01 bot wrote no commands.txt",)


def test_inputs_hide_the_opponents_money_and_show_turn_and_seat() -> None:
    session = LanesSession(LanesConfig())
    inputs = session.inputs()
    p2 = json.loads(inputs["P2"].files["state.json"])
    assert p2["you"] == 2 and p2["turn"] == 1 and "money" not in p2["opponent"]
    assert inputs["P1"].files["map.txt"] == inputs["P2"].files["map.txt"]
    assert "money" not in inputs["P1"].files["map.txt"] and "money" in session.text_view()


def test_final_files_are_a_trace_that_replays_identically() -> None:
    session = LanesSession(LanesConfig(max_turns=5))
    play_out(session, {"P1": waller, "P2": rusher})
    trace = session.final_files({"P1": "wall", "P2": "rush"})["trace.jsonl"]
    lines = [json.loads(line) for line in trace.splitlines()]
    assert lines[0]["bots"] == ["wall", "rush"] and lines[-1]["end"]["turns"] == session.state.turn - 1
    report = replay_trace(lines, LanesConfig(max_turns=5))
    assert report.same, report.differences[:3]


def test_any_answer_text_never_raises_in_play_turn() -> None:
    session = LanesSession(LanesConfig())
    for text in ["\x00\xff", "TURN 1\nDEPLOY horse 1 3 99999999999999999999\nEND", "END\nTURN 1", "TURN 1\r\nEND\r\n"]:
        session.play_turn({"P1": Answer(text), "P2": Answer(text)})
    assert session.turn == 5


def test_configure_reads_a_config_file_and_applies_max_turns(tmp_path: Path) -> None:
    path = tmp_path / "game-config.json"
    path.write_text(json.dumps({"start_hp": 20}))
    config = GAME.configure(path, {"max_turns": 7})
    assert (config.start_hp, config.max_turns) == (20, 7)
    assert GAME.config_json(config)["max_turns"] == 7
    path.write_text("{nope")
    with pytest.raises(UserError, match="not valid JSON"):
        GAME.configure(path, {})
    with pytest.raises(UserError, match="missing.json: no such file"):
        GAME.configure(tmp_path / "missing.json", {})


FORBIDDEN = {"os", "subprocess", "time", "random", "pathlib", "io", "shutil", "socket", "threading", "datetime"}


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize(
    "path",
    sorted([*PACKAGE.glob("rules/*.py"), *PACKAGE.glob("protocol/*.py"), PACKAGE / "session.py"]),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_rules_protocol_and_session_are_pure(path: Path) -> None:
    assert not {name.split(".")[0] for name in _imports(path)} & FORBIDDEN


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_lanes_imports_no_other_game(path: Path) -> None:
    """Lanes may use the core's helpers, never another game's package (tests/games/test_boundaries.py)."""
    for name in _imports(path):
        if name.startswith("runner.games.") and name != "runner.games.interface":
            assert name.startswith("runner.games.lanes"), name
