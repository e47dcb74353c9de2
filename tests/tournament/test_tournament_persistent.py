"""A tournament of persistent Lanes bots (the core's frames) beside per-turn ones."""

from __future__ import annotations

import json
from pathlib import Path

from tournament_helpers import REPO, copy_starter, games, run_cli


def test_lanes_persistent_starter_against_the_per_turn_one(tmp_path: Path) -> None:
    bots = [copy_starter("starter-bots/lanes/python3-persistent", tmp_path / "live", "Live", "a"),
            str(REPO / "starter-bots/lanes/python3")]
    out = tmp_path / "t"
    code, _, stderr = run_cli("tournament", *bots, "--game", "lanes", "--max-turns", "2", "--output", str(out))
    assert code == 0, stderr
    lines = games(out)
    assert len(lines) == 2
    for line in lines:
        log = out / line["log"]
        match = json.loads((log / "match.json").read_text())
        assert all(p["timeouts"] == p["crashes"] == p["invalid_commands"] == 0 for p in match["players"]), match
        live = next(p["name"] for p in match["players"] if p["name"].endswith("Live"))
        # only the frames can have answered: run per turn, the persistent starter would find stdin empty
        assert (log / "Turn 001" / live / "commands.txt").read_text().startswith("TURN 1\n")
        code, text, err = run_cli("verify", str(log))
        assert code == 0, text + err
