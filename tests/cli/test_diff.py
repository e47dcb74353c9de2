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
    assert out.startswith("identical: 38 rounds compared (ignoring missile ids")
    code, out, _ = _run(*map(str, logs), "--strict")
    assert code == 0 and out.startswith("identical: 38 rounds compared (byte for byte")


def test_missile_ids_only(logs) -> None:
    a, b = logs
    _replace(b / "Round 024" / "A - GreedyBot" / "JsonMap.json", '"id":"0d995a5f', '"id":"ffffffff')
    assert _run(str(a), str(b))[0] == 0
    code, out, _ = _run(str(a), str(b), "--strict")
    assert code == 1
    assert "Round 024, player A, JsonMap.json:" in out
    assert 'gameMap[3][7].missiles[0].id: "0d995a5f-b12e-4acc-a4e4-d4ad91595acf" | "ffffffff-b12e-' in out
    assert out.rstrip().endswith("differing rounds: 1 of 38 (24)")


def test_changed_field_text_and_json(logs) -> None:
    a, b = logs
    _replace(b / "Round 020" / "A - GreedyBot" / "JsonMap.json", '"score":383', '"score":384')
    code, out, err = _run(str(a), str(b))
    assert (code, err) == (1, "")
    assert out.splitlines()[1:] == [
        f"LOG_A = {a}",
        f"LOG_B = {b}",
        "first divergent round: 20",
        "  Round 020, player A, JsonMap.json:",
        "    players[1].score: 383 | 384",
        "differing rounds: 1 of 38 (20)",
    ]
    code, out, _ = _run(str(a), str(b), "--json")
    assert code == 1
    report = json.loads(out.splitlines()[-1])
    assert report["identical"] is False
    assert (report["rounds_compared"], report["differing_rounds"]) == (38, 1)
    assert report["first_difference"] == {
        "round": 20, "player": "A", "file": "JsonMap.json", "path": "players[1].score", "a": 383, "b": 384
    }


def test_json_when_identical(logs) -> None:
    code, out, _ = _run(*map(str, logs), "--json")
    report = json.loads(out)
    assert code == 0
    assert report["identical"] is True and report["first_difference"] is None
    assert (report["rounds_compared"], report["differing_rounds"]) == (38, 0)


def test_list_order_only(logs) -> None:
    a, b = logs
    text_map = b / "Round 024" / "A - GreedyBot" / "TextMap.txt"
    _replace(text_map, "[15,3] A|5|2\n[13,5] A|5|2\n", "[13,5] A|5|2\n[15,3] A|5|2\n")
    assert _run(str(a), str(b))[0] == 0
    code, out, _ = _run(str(a), str(b), "--strict")
    assert code == 1
    assert '    line 87: "[15,3] A|5|2" | "[13,5] A|5|2"' in out


def test_truncated_log(logs) -> None:
    a, b = logs
    shutil.rmtree(b / "Round 037")
    (b / "Round 036" / "B - RandomBot" / "PlayerCommand.txt").unlink()
    code, out, _ = _run(str(a), str(b))
    assert code == 1
    assert "  Round 036, player B, PlayerCommand.txt: missing in LOG_B" in out
    assert "differing rounds: 2 of 38 (36, 37)" in out
    code, out, _ = _run(str(b), str(a), "--json")
    first = json.loads(out)["first_difference"]
    assert first == {"round": 36, "player": "B", "file": "PlayerCommand.txt", "path": None, "a": None, "b": None,
                     "missing": "A"}
    shutil.rmtree(b / "Round 036")
    code, out, _ = _run(str(a), str(b))
    assert "  Round 036, round folder: missing in LOG_B" in out


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
