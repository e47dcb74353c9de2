"""Seats share their snapshot: a league match's bot runs in a fresh folder whose files are hard links to the
snapshot's (not a copy per seat per match), read-only; a bot that writes through one (it can, as root) has
its snapshot healed after the match, and its player's folder is never touched."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from league_helpers import TD_BOT, check_consistent, database, run_cli, td_submissions, write_bot

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")

SPY = '''import json, os
seen = os.stat("bot.py")
with open({spy!r}, "a") as out:
    out.write(json.dumps([seen.st_ino, seen.st_nlink, seen.st_mode & 0o777, os.getcwd()]) + "\\n")
open("command.txt", "w").write("")
'''

REWRITER = '''try:
    with open("bot.py", "a") as mine:  # its own shipped file, in place
        mine.write("# changed\\n")
except OSError:
    pass
open("command.txt", "w").write("")
'''


def snapshot_of(league: Path, player: str) -> Path:
    db = database(league)
    try:
        digest = db.execute("SELECT v.hash FROM versions v JOIN players p ON p.id = v.player_id WHERE p.name = ? "
                            "ORDER BY v.number DESC LIMIT 1", (player,)).fetchone()[0]
    finally:
        db.close()
    return league / "bots" / digest


@pytest.fixture
def outside_tmp() -> Iterator[Path]:
    """A folder outside /tmp, where an unsandboxed bot may report to (each bot has its own /tmp)."""
    folder = Path(tempfile.mkdtemp(prefix="td-seat-spy-", dir="/var/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_seat_links_the_snapshot_read_only(tmp_path: Path, outside_tmp: Path) -> None:
    subs = td_submissions(tmp_path, 2)
    spy = outside_tmp / "spy.jsonl"
    write_bot(subs / "spy", "Spy", SPY.format(spy=str(spy)))
    league = tmp_path / "league"
    code, out, err = run_cli("league", "run", league, "--submissions", subs, "--max-matches", "3", "--max-rounds", "3")
    assert code == 0, err
    snapshot = snapshot_of(league, "spy")
    rows = [json.loads(line) for line in spy.read_text().splitlines()]
    assert rows, "the spy never played"
    for inode, links, mode, folder in rows:
        assert inode == (snapshot / "bot.py").stat().st_ino and links >= 2  # the snapshot's own file, shared
        assert mode & 0o222 == 0 and Path(folder) != snapshot  # read-only, in a folder of its own
    assert (snapshot / "bot.py").stat().st_nlink == 1  # every seat removed after its match
    assert not list((league / "bots" / ".seats").iterdir())
    check_consistent(league)


def test_a_bot_writing_through_its_seat_has_its_snapshot_healed(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 2)
    write_bot(subs / "rewriter", "Rewriter", REWRITER)
    league = tmp_path / "league"
    code, out, err = run_cli("league", "run", league, "--submissions", subs, "--max-matches", "4", "--max-rounds", "3")
    assert code == 0 and "not played" not in out, out + err
    snapshot = snapshot_of(league, "rewriter")
    assert (subs / "rewriter" / "bot.py").read_text() == REWRITER  # the player's folder is never written
    assert (snapshot / "bot.py").read_text() == REWRITER  # healed after each match it changed
    if os.geteuid() == 0:  # root writes read-only files: seen and repaired
        assert "changed since it was built" in out
    db = database(league)
    status = db.execute("SELECT v.status FROM versions v JOIN players p ON p.id = v.player_id "
                        "WHERE p.name = 'rewriter'").fetchone()[0]
    db.close()
    assert status == "active"
    check_consistent(league)


def test_a_tournament_plays_on_shared_read_only_snapshots(tmp_path: Path) -> None:
    bots = [write_bot(tmp_path / f"b{n}", f"B{n}", TD_BOT.format(row=n + 1, col=0)) for n in range(2)]
    out_dir = tmp_path / "out"
    code, out, err = run_cli("tournament", *bots, "--max-rounds", "3", "--output", out_dir, "--quiet")
    assert code == 0, err
    for snapshot in (out_dir / "bots").iterdir():
        if snapshot.name.startswith("."):
            continue
        assert (snapshot / "bot.py").stat().st_mode & 0o222 == 0
    for bot in bots:
        assert (bot / "bot.py").stat().st_mode & 0o200  # the user's own folders keep their modes
