"""Leagues of the other shapes: Warzone free-for-all tables (4 players, 3 seats) and Invaders sides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from league_helpers import REPO, check_consistent, copy_starter, database, run_cli

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")

MAP = REPO / "runner" / "games" / "warzone" / "maps" / "td-harbour.map"


def test_warzone_three_seat_tables(tmp_path: Path) -> None:
    subs = tmp_path / "submissions"
    for n, source in enumerate(["python3", "reference", "python3", "reference"]):
        copy_starter(f"starter-bots/warzone/{source}", subs / f"war{n}", f"War{n}", f"author{n}")
    league = tmp_path / "league"
    code, out, err = run_cli("league", "run", league, "--game", "warzone", "--submissions", subs, "--table-size", "3",
                             "--map", MAP, "--max-turns", "8", "--workers", "2", "--max-matches", "4")
    assert code == 0, err
    assert check_consistent(league) == 4
    db = database(league)
    tables = [[row[0] for row in db.execute("SELECT version_id FROM seats WHERE match_id = ? ORDER BY position", (m,))]
              for m in range(1, 5)]
    assert all(len(table) == 3 and len(set(table)) == 3 for table in tables)
    assert len({v for table in tables for v in table}) == 4  # every player has played
    for (log,) in db.execute("SELECT log FROM matches"):
        code, text, err = run_cli("verify", league / log)
        assert code == 0, text + err


def test_invaders_sides(tmp_path: Path) -> None:
    subs = tmp_path / "submissions"
    for n, source in enumerate(["python3", "reference", "python3"]):
        copy_starter(f"starter-bots/invaders/{source}", subs / f"inv{n}", f"Inv{n}", f"author{n}")
    league = tmp_path / "league"
    code, out, err = run_cli("league", "run", league, "--game", "invaders", "--submissions", subs,
                             "--max-turns", "60", "--workers", "2", "--max-matches", "8")
    assert code == 0, err
    assert check_consistent(league) == 8
    db = database(league)
    for match in range(1, 9):
        seats = db.execute("SELECT seat, role, version_id, score FROM seats WHERE match_id = ? ORDER BY position",
                           (match,)).fetchall()
        assert [s["seat"] for s in seats] == ["defender", "invader"] and [s["role"] for s in seats] == ["defender", "invader"]
        assert seats[0]["version_id"] != seats[1]["version_id"] and seats[0]["score"] is not None
    roles = {(row[0], row[1]) for row in db.execute("SELECT version_id, role FROM seats")}
    assert len(roles) == 6  # every version has played both sides
    data = json.loads(run_cli("league", "status", league, "--json")[1])
    assert sorted((p["name"], p["role"]) for p in data["players"]) == sorted(
        (f"inv{n}", role) for n in range(3) for role in ("defender", "invader"))
    # the first meeting with an opponent nobody else has met rates nobody; once two defenders have met one
    # invader, their results rate them (here every game lasts the 60 turns: ties, so only sigma moves)
    first = db.execute("SELECT * FROM seats WHERE match_id = 1").fetchall()
    assert all(row["sigma_after"] == row["sigma_before"] for row in first)
    assert db.execute("SELECT COUNT(*) FROM seats WHERE sigma_after < sigma_before").fetchone()[0] > 0


def test_a_league_on_a_dask_local_cluster(tmp_path: Path) -> None:
    """The same league on `--dask local` (worker processes started and closed by the command)."""
    pytest.importorskip("distributed", reason="--dask needs distributed (td-runner[dask])")
    from league_helpers import td_submissions

    subs = td_submissions(tmp_path, 3)
    league = tmp_path / "league"
    code, out, err = run_cli("league", "run", league, "--submissions", subs, "--dask", "local", "--workers", "2",
                             "--max-matches", "3", "--max-rounds", "3")
    assert code == 0, err
    assert "on Dask" in out and check_consistent(league) == 3
    code, _, err = run_cli("league", "run", tmp_path / "other", "--submissions", subs, "--dask", "tcp://127.0.0.1:1",
                           "--max-matches", "1")
    assert code == 2 and "cannot reach the scheduler" in err and err.count("\n") == 1
