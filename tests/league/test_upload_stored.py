"""An accepted upload is stored once: the league moves the uploaded folder to its snapshot `DIR/bots/<hash>/`
and leaves a link in the submissions folder; a later upload replaces the link, never the snapshot; a lost
snapshot of an upload stored once (no other copy) makes the version invalid, and the player uploads again."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from league_helpers import TD_BOT, check_consistent, database, run_cli, td_submissions
from test_unpack import make_zip
from runner.league.unpack import Caps
from runner.league.upload import accept

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")


def upload(subs: Path, row: int) -> bytes:
    data = json.loads((subs / "tiny0" / "bot.json").read_text()) | {"nickName": "Up"}
    return make_zip({"bot.json": json.dumps(data).encode(), "bot.py": TD_BOT.format(row=row, col=3).encode(),
                     "lib/big.bin": os.urandom(300_000)})


def versions(league: Path, player: str) -> list:
    db = database(league)
    try:
        return db.execute("SELECT v.* FROM versions v JOIN players p ON p.id = v.player_id WHERE p.name = ? "
                          "ORDER BY v.number", (player,)).fetchall()
    finally:
        db.close()


def test_an_upload_is_stored_once_and_replaced_by_the_next(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 2)
    league = tmp_path / "league"
    assert run_cli("league", "run", league, "--submissions", subs, "--max-matches", "1", "--max-rounds", "3")[0] == 0
    accept(upload(subs, 5), subs, "ann", "tower-defence", Caps())
    code, out, err = run_cli("league", "run", league, "--max-matches", "3")
    assert code == 0 and "not played" not in out, out + err
    first = versions(league, "ann")[0]
    snapshot = league / "bots" / first["hash"]
    assert (subs / "ann").is_symlink() and (subs / "ann").resolve() == snapshot.resolve()
    assert (snapshot / "lib" / "big.bin").stat().st_nlink == 1  # one copy on disk, not two
    assert first["status"] == "active"
    accept(upload(subs, 6), subs, "ann", "tower-defence", Caps())  # replaces the link, not the snapshot
    assert not (subs / "ann").is_symlink() and snapshot.is_dir()
    assert not [p for p in subs.iterdir() if p.name.startswith(".replaced")]
    code, out, err = run_cli("league", "run", league, "--max-matches", "3")
    assert code == 0 and "not played" not in out, out + err
    assert [row["status"] for row in versions(league, "ann")] == ["replaced", "active"]
    check_consistent(league)


def test_a_lost_snapshot_of_an_upload_stored_once_makes_it_invalid_and_a_new_upload_plays(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 2)
    league = tmp_path / "league"
    assert run_cli("league", "run", league, "--submissions", subs, "--max-matches", "1", "--max-rounds", "3")[0] == 0
    accept(upload(subs, 5), subs, "ann", "tower-defence", Caps())
    assert run_cli("league", "run", league, "--max-matches", "2")[0] == 0
    shutil.rmtree(league / "bots" / versions(league, "ann")[0]["hash"])
    code, out, err = run_cli("league", "run", league, "--max-matches", "3")
    assert code == 0 and "not played" not in out, out + err
    lost = versions(league, "ann")[0]
    assert lost["status"] == "invalid" and "deleted" in lost["reason"] and str(tmp_path) not in lost["reason"]
    db = database(league)
    retired = db.execute("SELECT retired FROM players WHERE name = 'ann'").fetchone()[0]
    db.close()
    assert retired is None  # the player keeps its token and uploads again
    accept(upload(subs, 6), subs, "ann", "tower-defence", Caps())
    assert run_cli("league", "run", league, "--max-matches", "2")[0] == 0
    assert [row["status"] for row in versions(league, "ann")] == ["invalid", "active"]
    check_consistent(league)
