"""`td-runner verify`: exit codes, human and JSON output, located differences."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from runner.cli import main

TRACE = "gr-g1-vs-r11"


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def trace_copy(conformance_root: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(conformance_root / TRACE, tmp_path / TRACE))


def test_identical_log_exits_0_with_json_summary(conformance_root: Path) -> None:
    code, out, _ = run_cli("verify", str(conformance_root / TRACE), "--json")
    assert code == 0
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary == {"turns": 37, "differences": [], "first_turn": None, "order": "B,A"}
    assert "37 turns replayed, every input, record and final file identical" in out


def test_changed_score_is_located(trace_copy: Path) -> None:
    path = trace_copy / "Round 020" / "B - RandomBot" / "JsonMap.json"
    data = json.loads(path.read_text())
    data["players"][0]["score"] += 1
    path.write_text(json.dumps(data, separators=(",", ":")))
    code, out, _ = run_cli("verify", str(trace_copy), "--json")
    assert code == 1
    summary = json.loads(out.strip().splitlines()[-1])
    score = data["players"][0]["score"]
    assert summary["first_turn"] == 20
    assert summary["differences"] == [
        f"turn 20, seat B, Round 020/B - RandomBot/JsonMap.json: $.players[0].score: {score} != {score - 1}"]
    assert "  turn 20, seat B, Round 020/B - RandomBot/JsonMap.json: $.players[0].score" in out


def test_changed_text_map_line_is_located(trace_copy: Path) -> None:
    path = trace_copy / "Round 005" / "A - GreedyBot" / "TextMap.txt"
    path.write_text(path.read_text().replace("Round Number : 5", "Round Number : 6"))
    code, out, _ = run_cli("verify", str(trace_copy))
    assert code == 1
    assert "turn 5, seat A, Round 005/A - GreedyBot/TextMap.txt: line 2: 'Round Number : 6' != 'Round Number : 5'" in out


def test_wrong_end_game_state(trace_copy: Path) -> None:
    path = trace_copy / "Round 037" / "endGameState.txt"
    path.write_text(path.read_text().replace("score:2616", "score:2617"))
    code, out, _ = run_cli("verify", str(trace_copy), "--json")
    assert code == 1
    assert json.loads(out.splitlines()[-1])["differences"] == [
        "turn 37, Round 037/endGameState.txt: line 3: 'A - GreedyBot- score:2617 health:100' != "
        "'A - GreedyBot- score:2616 health:100'"]


def test_missing_round_folder(trace_copy: Path) -> None:
    shutil.rmtree(trace_copy / "Round 010")
    code, out, _ = run_cli("verify", str(trace_copy), "--json")
    assert code == 1
    assert json.loads(out.splitlines()[-1])["differences"][0] == (
        "turn 10, seat A, Round 010/A - GreedyBot/JsonMap.json: missing")


def test_explicit_wrong_order_still_replays_values(trace_copy: Path) -> None:
    (trace_copy / "driver-notes.json").unlink()
    code, out, _ = run_cli("verify", str(trace_copy), "--order", "auto", "--json")
    assert code == 0 and json.loads(out.splitlines()[-1])["order"] == "B,A"
    assert "command order B,A (detected)" in out
    code, out, _ = run_cli("verify", str(trace_copy), "--order", "A,B")
    assert code == 1 and "command order A,B (as given)" in out


@pytest.mark.parametrize("make", ["missing", "file", "empty"])
def test_not_a_match_log_exits_2(tmp_path: Path, make: str) -> None:
    target = tmp_path / "x"
    if make == "file":
        target.write_text("hello")
    elif make == "empty":
        target.mkdir()
    code, out, err = run_cli("verify", str(target))
    assert code == 2 and out == ""
    assert err.startswith("error: ") and str(target) in err and len(err.strip().splitlines()) == 1


def test_bad_order_value_exits_2(conformance_root: Path) -> None:
    code, _, err = run_cli("verify", str(conformance_root / TRACE), "--order", "C,D")
    assert code == 2 and "--order" in err


def test_an_interrupted_log_whose_rounds_are_identical_verifies(tmp_path: Path) -> None:
    """A match stopped by Ctrl-C/SIGTERM has no final round: verify says identical (exit 0)."""
    from runner.cli import main as cli_main

    bots = shutil.copytree(Path(__file__).resolve().parents[1] / "match" / "bots", tmp_path / "bots")
    code = cli_main(["match", str(bots / "idle"), str(bots / "echo"), "--output", str(tmp_path), "--name", "m",
                     "--max-rounds", "12", "--quiet"], out=io.StringIO(), err=io.StringIO())
    assert code == 0
    folder = tmp_path / "m"
    for number in range(7, 14):  # as if stopped after round 6 was played (the record then ends there too)
        shutil.rmtree(folder / f"Round {number:03d}")
    record = (folder / "record.jsonl").read_text().splitlines(keepends=True)
    (folder / "record.jsonl").write_text("".join(record[:8]))
    summary = json.loads((folder / "match.json").read_text())
    (folder / "match.json").write_text(json.dumps({**summary, "end_reason": "interrupted", "winner": None}))
    out = io.StringIO()
    assert cli_main(["verify", str(folder)], out=out, err=io.StringIO()) == 0
    assert "7 turns replayed, every input, record and final file identical" in out.getvalue()
    assert "the log records no result (a trace without an end line, a match cut short or interrupted), so none was " \
           "compared" in out.getvalue()
    shutil.rmtree(folder / "Round 003")
    out = io.StringIO()
    assert cli_main(["verify", str(folder)], out=out, err=io.StringIO()) == 1
    assert "  turn 3, seat A, Round 003/A - " in out.getvalue() and "JsonMap.json: missing" in out.getvalue()
