"""`td-runner diff` in-process: exit codes, the text report and the --json object."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from runner.cli import main

TRACE = "gr-g1-vs-r11"  # 38 rounds; A - GreedyBot, B - RandomBot


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["diff", *argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def logs(conformance_root: Path, tmp_path: Path) -> tuple[Path, Path]:
    return (
        shutil.copytree(conformance_root / TRACE, tmp_path / "a"),
        shutil.copytree(conformance_root / TRACE, tmp_path / "b"),
    )


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8", newline="")


def test_identical(logs) -> None:
    code, out, err = _run(*map(str, logs))
    assert (code, err) == (0, "")
    assert out == f"{logs[0]} and {logs[1]}: 37 turns, identical (bot output and timing aside)\n"
    code, out, _ = _run(*map(str, logs), "--strict")
    assert code == 0 and out == f"{logs[0]} and {logs[1]}: 37 turns, identical\n"


def test_missile_ids_only(logs) -> None:
    a, b = logs
    _replace(b / "Round 024" / "A - GreedyBot" / "JsonMap.json", '"id":"0d995a5f', '"id":"ffffffff')
    assert _run(str(a), str(b))[0] == 0
    code, out, _ = _run(str(a), str(b), "--strict")
    assert code == 1
    assert out.splitlines() == [
        "the logs part at turn 24: 1 difference",
        "turn 24, seat A, JsonMap.json: $.gameMap[3][7].missiles[0].id: "
        "'0d995a5f-b12e-4acc-a4e4-d4ad91595acf' != 'ffffffff-b12e-4acc-a4e4-d4ad91595acf'",
    ]


def test_changed_field_text_and_json(logs) -> None:
    a, b = logs
    _replace(b / "Round 020" / "A - GreedyBot" / "JsonMap.json", '"score":383', '"score":384')
    code, out, err = _run(str(a), str(b))
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "the logs part at turn 20: 1 difference",
        "turn 20, seat A, JsonMap.json: $.players[1].score: 383 != 384",
    ]
    code, out, _ = _run(str(a), str(b), "--json")
    assert code == 1
    assert json.loads(out.splitlines()[-1]) == {
        "turns_a": 37, "turns_b": 37, "first_turn": 20,
        "differences": ["turn 20, seat A, JsonMap.json: $.players[1].score: 383 != 384"],
    }


def test_json_when_identical(logs) -> None:
    code, out, _ = _run(*map(str, logs), "--json")
    assert code == 0
    assert json.loads(out) == {"turns_a": 37, "turns_b": 37, "first_turn": None, "differences": []}


def test_list_order_only(logs) -> None:
    a, b = logs
    text_map = b / "Round 024" / "A - GreedyBot" / "TextMap.txt"
    _replace(text_map, "[15,3] A|5|2\n[13,5] A|5|2\n", "[13,5] A|5|2\n[15,3] A|5|2\n")
    assert _run(str(a), str(b))[0] == 0
    code, out, _ = _run(str(a), str(b), "--strict")
    assert code == 1
    assert "turn 24, seat A, TextMap.txt: line 87: '[15,3] A|5|2' != '[13,5] A|5|2'" in out


def test_truncated_log(logs) -> None:
    a, b = logs
    shutil.rmtree(b / "Round 037")
    (b / "Round 036" / "B - RandomBot" / "PlayerCommand.txt").unlink()
    code, out, _ = _run(str(a), str(b))
    assert code == 1
    assert out.splitlines()[:2] == ["the logs part at turn 36: 4 differences",
                                    "turn 36, seat B, answer: $.text: '5,' != ''"]
    assert "turn 37: Round 037/ in only one log" in out
    code, out, _ = _run(str(b), str(a), "--json")
    assert json.loads(out)["first_turn"] == 36


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda root: root / "nothing-here", "no such folder"),
        (lambda root: (root / "file.txt").write_text("x") and root / "file.txt", "not a folder"),
        (lambda root: (root / "empty").mkdir() or root / "empty", "not a match log: no 'Round NNN' folders"),
        (lambda root: (root / "x" / "Round 000").mkdir(parents=True) or root / "x",
         "expected folders 'A - <name>' and 'B - <name>'"),
    ],
)
def test_not_a_match_log(logs, tmp_path: Path, make, reason: str) -> None:
    bad = make(tmp_path)
    code, out, err = _run(str(logs[0]), str(bad))
    assert (code, out) == (2, "")
    assert err.startswith("error: ") and reason in err and err.count("\n") == 1


def test_fields_limits_the_differences_listed(logs) -> None:
    a, b = logs
    _replace(b / "Round 020" / "A - GreedyBot" / "JsonMap.json", '"score":383', '"score":384')
    _replace(b / "Round 021" / "A - GreedyBot" / "JsonMap.json", '"score":', '"score":1')
    code, out, _ = _run(str(a), str(b))
    listed = out.splitlines()[1:]
    assert code == 1 and len(listed) == 2 and "... and" not in out
    code, out, _ = _run(str(a), str(b), "--fields", "1")
    assert code == 1
    assert out.splitlines() == ["the logs part at turn 20: 2 differences",
                                "turn 20, seat A, JsonMap.json: $.players[1].score: 383 != 384", "... and 1 more"]
