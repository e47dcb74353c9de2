"""A league of persistent Warzone bots (the core's frames) beside a per-turn one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from league_helpers import REPO, check_consistent, copy_starter, database, run_cli

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")


def test_warzone_league_with_persistent_bots(tmp_path: Path) -> None:
    subs = tmp_path / "submissions"
    for n, source in enumerate(["python3-persistent", "python3-persistent", "python3"]):
        copy_starter(f"starter-bots/warzone/{source}", subs / f"war{n}", f"War{n}", f"author{n}")
    league = tmp_path / "league"
    code, _, err = run_cli("league", "run", league, "--game", "warzone", "--submissions", subs,
                           "--map", REPO / "runner/games/warzone/maps/tiny-ring.map", "--max-turns", "4",
                           "--workers", "2", "--max-matches", "3")
    assert code == 0, err
    assert check_consistent(league) == 3
    for (log,) in database(league).execute("SELECT log FROM matches"):
        match = json.loads((league / log / "match.json").read_text())
        assert all(p["timeouts"] == p["crashes"] == 0 for p in match["players"]), match
        code, text, err = run_cli("verify", league / log)
        assert code == 0, text + err
