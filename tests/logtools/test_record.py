"""The core's record (record.jsonl) and its reader: a log cut short still opens and verifies what it holds; a
damaged line is one error naming the file and line; a record line gives back the Answer the game was given."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.games import get_game
from runner.games.interface import Absent, Answer, Fault, TurnInput, TurnReport
from runner.logtools.compare import file_difference, first_difference
from runner.logtools.record import open_record
from runner.matchlog.record import RECORD_FILE, answer_of, input_digest, turn_line
from tests.logtools.scripted import play


@pytest.fixture(scope="module")
def lanes_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play("lanes", tmp_path_factory.mktemp("lanes") / "log")


def test_a_turn_line_gives_back_each_answer() -> None:
    answers = {"A": Answer('say "hi"\n', Fault.TIMEOUT, 2.5, Absent.NO_FILE, "did not finish within 2.0 s"),
               "B": Answer("", None, 0.01)}
    inputs = {"A": TurnInput({}, "line A"), "B": TurnInput({"x.txt": "1"})}
    line = json.loads(turn_line(3, answers, inputs, TurnReport(("an event",), {"A": ("late",)})))
    assert line["turn"] == 3 and line["events"] == ["an event"] and line["rejected"] == {"A": ["late"]}
    assert {seat: answer_of(entry) for seat, entry in line["seats"].items()} == answers
    assert line["seats"]["A"]["input"] == input_digest("line A") and "input" not in line["seats"]["B"]


def test_a_log_cut_short_opens_and_verifies_its_turns(lanes_log: Path, tmp_path: Path) -> None:
    log = Path(shutil.copytree(lanes_log, tmp_path / "cut"))
    (log / "match.json").unlink()
    text = (log / RECORD_FILE).read_text()
    (log / RECORD_FILE).write_text(text[: text.rindex("\n", 0, len(text) - 1) + 20])  # killed mid-line
    game = get_game("lanes")
    record = open_record(game, log)
    assert record.match is None and len(record.turns) == len(text.splitlines()) - 2
    check = game.verify(log, {})
    assert check.same, check.lines


def test_a_damaged_line_is_one_error_naming_file_and_line(lanes_log: Path, tmp_path: Path) -> None:
    log = Path(shutil.copytree(lanes_log, tmp_path / "damaged"))
    lines = (log / RECORD_FILE).read_text().splitlines(keepends=True)
    lines[1] = "{not json\n"
    (log / RECORD_FILE).write_text("".join(lines))
    with pytest.raises(UserError, match=r"record.jsonl:2: not valid JSON"):
        get_game("lanes").verify(log, {})


def test_a_log_of_another_game_is_refused(lanes_log: Path) -> None:
    with pytest.raises(UserError, match=r"a lanes log, not a warzone log"):
        open_record(get_game("warzone"), lanes_log)


def test_comparisons_name_the_place() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "$.a[1].b: 2 != 3"
    assert first_difference({"a": 1, "seconds": 2}, {"a": 1, "seconds": 3}, forgive=("seconds",)) is None
    assert first_difference({"a": 1}, {"a": 1.0}) == "$.a: 1 != 1.0"
    assert file_difference("x.txt", "a\nb\n", "a\nc\n") == "line 2: 'b' != 'c'"
    assert file_difference("x.json", '{"k": [1]}', '{"k": [1, 2]}') == "$.k: 1 items != 2 items"


TRACES = Path(__file__).parents[1] / "games"


@pytest.mark.parametrize(("game_name", "trace", "turns"), [
    ("lanes", TRACES / "lanes" / "data" / "wall_vs_trickle.jsonl", 19),
    ("invaders", TRACES / "invaders" / "data" / "idle__vs__greedy.jsonl.gz", 1100)])
def test_a_trace_from_outside_is_read_into_a_record_by_its_game(game_name: str, trace: Path, turns: int) -> None:
    """`open_record` asks the game's `open_foreign_log` where a path has no record.jsonl: a trace becomes a record
    that keeps rows (like a JsonlLog, from line 2: line 1 is the trace's header or start) and no events, so the
    core's verify, diff, replay and validate serve it."""
    game = get_game(game_name)
    record = open_record(game, trace)
    assert len(record.turns) == len(record.rows) == turns and record.row_line(0) == 2
    assert all(turn.events is None and turn.inputs == {} for turn in record.turns)
    assert record.log.file_name == trace.name and record.bot_output(1, record.seats[0]) == ""
    assert game.verify(trace, {}).same and game.diff(trace, trace, {"strict": True}).same
    assert game.replay(trace).turns[:2] == (1, 2)
    [report] = game.validate(trace, None, {})
    assert report.kind == f"{game_name}-log" and report.is_valid


def test_a_file_no_game_reads_is_one_error_naming_it(tmp_path: Path) -> None:
    trace = TRACES / "lanes" / "data" / "wall_vs_trickle.jsonl"
    with pytest.raises(UserError, match=r"wall_vs_trickle.jsonl: not a log of warzone \(a folder td-runner wrote"):
        open_record(get_game("warzone"), trace)
    with pytest.raises(UserError, match=r"nothing: no such log folder"):
        open_record(get_game("lanes"), tmp_path / "nothing")


def test_verify_checks_match_json_rounds_and_the_games_own_result_keys(lanes_log: Path, tmp_path: Path) -> None:
    """Besides the winner, end reason and ranking: `rounds` and the keys the game's Outcome adds (Lanes' `hp`),
    where match.json has them (a trace's end line says the same things)."""
    for key, value, line in (("rounds", 5, "  match.json: $.rounds: 5 != 4"),
                             ("hp", {"P1": 10, "P2": 9}, "  match.json: $.hp.P2: 9 != 10")):
        log = Path(shutil.copytree(lanes_log, tmp_path / key))
        summary = json.loads((log / "match.json").read_text())
        summary[key] = value
        (log / "match.json").write_text(json.dumps(summary))
        check = get_game("lanes").verify(log, {})
        assert not check.same and check.lines[1:] == (line,), check.lines
