"""The reference's two sample AIs, hosted as koth-js bots, play a live match through `td-runner match` that is
the reference game itself: 12,630 turns, every field of every turn equal to the spec 16 trace
turret__vs__army. Skipped without node (the koth-js host runs under node)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from runner.cli import main
from runner.games.invaders import GAME

ROOT = Path(__file__).parents[3]
BOTS = ROOT / "starter-bots" / "invaders"
TRACE = Path(__file__).parent / "data" / "turret__vs__army.jsonl.gz"  # the spec 16 trace, kept here

pytestmark = [
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (koth-js bots run under node)"),
    pytest.mark.skipif(not TRACE.is_file(), reason=f"the reference trace {TRACE} is not present"),
]


@pytest.mark.parametrize(("folder", "entry"), [("koth-turret", "simpleTurretBuilder()"), ("koth-army", "simpleInvaderArmy()")])
def test_sample_bot_json_declares_a_koth_js_bot(folder: str, entry: str) -> None:
    data = json.loads((BOTS / folder / "bot.json").read_text())
    assert data["botLanguage"] == "koth-js" and data["entry"] == entry
    assert (BOTS / folder / data["botFileName"]).is_file()


@pytest.mark.slow
def test_live_match_of_the_samples_is_the_reference_game(tmp_path: Path) -> None:
    err = io.StringIO()
    code = main(["match", "--game", "invaders", "--quiet", "--output", str(tmp_path), "--name", "live",
                 str(BOTS / "koth-turret"), str(BOTS / "koth-army")], out=io.StringIO(), err=err)
    assert code == 0, err.getvalue()
    log = tmp_path / "live"
    summary = json.loads((log / "match.json").read_text())
    assert summary["end_reason"] == "life" and summary["rounds"] == summary["score"] == 12630
    assert all(player["events"] == [] for player in summary["players"])

    # td-runner diff: every turn's answers as sent and every spec 16 field (the trace keeps no `ir`/`dr`, and its
    # turn-0 row is the start every match has); then td-runner verify of the trace, the log and the two alike
    check = GAME.diff(log, TRACE, {})
    assert check.same and check.data["turns_a"] == check.data["turns_b"] == 12630, check.lines
    assert GAME.verify(log, {}).same and GAME.verify(TRACE, {}).same
