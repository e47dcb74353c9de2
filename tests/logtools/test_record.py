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
