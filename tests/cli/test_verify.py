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
    assert summary["rounds"] == summary["identical"] == 38
    assert summary["first_divergence"] is None and summary["result_identical"] is True
    assert "identical: all 38 rounds" in out


def test_changed_score_is_located(trace_copy: Path) -> None:
    path = trace_copy / "Round 020" / "B - RandomBot" / "JsonMap.json"
    data = json.loads(path.read_text())
    data["players"][0]["score"] += 1
    path.write_text(json.dumps(data, separators=(",", ":")))
    code, out, _ = run_cli("verify", str(trace_copy), "--json")
    assert code == 1
    summary = json.loads(out.strip().splitlines()[-1])
    divergence = summary["first_divergence"]
    assert (divergence["round"], divergence["player"], divergence["file"]) == (20, "B", "JsonMap.json")
    assert divergence["where"] == "players[0].score"
    assert divergence["expected"] == divergence["actual"] + 1
    assert summary["identical"] == 20
    assert "first difference: round 20, player B, JsonMap.json, players[0].score" in out


def test_changed_text_map_line_is_located(trace_copy: Path) -> None:
    path = trace_copy / "Round 005" / "A - GreedyBot" / "TextMap.txt"
    path.write_text(path.read_text().replace("Round Number : 5", "Round Number : 6"))
    code, out, _ = run_cli("verify", str(trace_copy))
    assert code == 1
    assert "round 5, player A, TextMap.txt, line 2" in out


def test_wrong_end_game_state(trace_copy: Path) -> None:
    path = trace_copy / "Round 037" / "endGameState.txt"
    path.write_text(path.read_text().replace("score:2616", "score:2617"))
    code, out, _ = run_cli("verify", str(trace_copy), "--json")
    assert code == 1
    assert json.loads(out.splitlines()[-1])["first_divergence"]["file"] == "endGameState.txt"


def test_missing_round_folder(trace_copy: Path) -> None:
    shutil.rmtree(trace_copy / "Round 010")
    code, out, _ = run_cli("verify", str(trace_copy), "--json")
    assert code == 1
    assert json.loads(out.splitlines()[-1])["first_divergence"]["file"] == "Round 010"


def test_explicit_wrong_order_still_replays_values(trace_copy: Path) -> None:
    (trace_copy / "driver-notes.json").unlink()
    code, out, _ = run_cli("verify", str(trace_copy), "--order", "auto", "--json")
    assert code == 0 and json.loads(out.splitlines()[-1])["order"] == "B,A"


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
    """A match stopped by Ctrl-C/SIGTERM has no final round: verify says identical (exit 0) with a note."""
    from runner.cli import main as cli_main

    bots = shutil.copytree(Path(__file__).resolve().parents[1] / "match" / "bots", tmp_path / "bots")
    code = cli_main(["match", str(bots / "idle"), str(bots / "echo"), "--output", str(tmp_path), "--name", "m",
                     "--max-rounds", "12", "--quiet"], out=io.StringIO(), err=io.StringIO())
    assert code == 0
    folder = tmp_path / "m"
    for number in range(7, 14):  # as if stopped after round 6 was played
        shutil.rmtree(folder / f"Round {number:03d}")
    summary = json.loads((folder / "match.json").read_text())
    (folder / "match.json").write_text(json.dumps({**summary, "end_reason": "interrupted", "winner": None}))
    out = io.StringIO()
    assert cli_main(["verify", str(folder)], out=out, err=io.StringIO()) == 0
    assert "identical: all 7 rounds; the match was interrupted" in out.getvalue()
    shutil.rmtree(folder / "Round 003")
    out = io.StringIO()
    assert cli_main(["verify", str(folder)], out=out, err=io.StringIO()) == 1
    assert "first difference: round 3: the log lacks the folder Round 003" in out.getvalue()
