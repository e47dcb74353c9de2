"""`kill -9` of `td-runner tournament` mid-match (the tournament process alone): its local workers and their
bots are gone within 1 s, nothing prints a traceback, and `--resume` plays what was left, every log verifying."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orphan_helpers import kill_mid_match, new_token, slow_bot
from tournament_helpers import games, run_cli


@pytest.mark.parametrize("persistent", [False, True], ids=["per-turn", "persistent"])
def test_kill_9_mid_match_leaves_no_worker_and_resume_verifies(persistent: bool, tmp_path: Path) -> None:
    token = new_token()
    bots = [str(slow_bot(tmp_path / "bots" / f"slow{n}", f"Slow{n}", token, row=n + 1, sleep_s=0.15,
                         persistent=persistent)) for n in range(2)]
    out = tmp_path / "t"
    kill_mid_match(["tournament", *bots, "--max-rounds", "20", "--output", str(out), "--workers", "2"], token,
                   tmp_path / "first", out / "matches")
    assert not (out / "games.jsonl").is_file() or not games(out)  # both matches were in flight

    code, stdout, stderr = run_cli("tournament", "--resume", "--output", str(out), "--workers", "2")
    assert code == 0, stderr
    lines = games(out)
    assert len(lines) == 2 and len({line["match"] for line in lines}) == 2
    assert sorted(p.name for p in (out / "matches").iterdir()) == sorted(Path(line["log"]).name for line in lines)
    for line in lines:
        assert json.loads((out / line["log"] / "match.json").read_text())["end_reason"] != "interrupted"
        code, verified, err = run_cli("verify", str(out / line["log"]))
        assert code == 0, verified + err
