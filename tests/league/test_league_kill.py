"""`kill -9` of `td-runner league run` mid-match (the league process alone, as an out-of-memory killer or a
crash would): its workers and their bots are gone within 1 s, nothing prints a traceback, and the league
started again at once finds no orphan writing into its folder and verifies every log."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from league_helpers import check_consistent, database, run_cli

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from orphan_helpers import (bots_of, end_all, kill_mid_match, new_token, slow_bot, start, tagged, wait_for,  # noqa: E402
                            workers_of)

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")


def _sandbox_works() -> bool:
    from runner.bots.isolation import check_isolation
    from runner.bots.limits import Limits
    from runner.errors import UserError

    try:
        check_isolation(Limits(sandbox=True))
    except UserError:
        return False
    return True


@pytest.mark.parametrize("sandbox", [False, True], ids=["namespaces", "sandbox"])
def test_kill_9_mid_match_leaves_no_worker_and_the_restart_verifies(sandbox: bool, tmp_path: Path) -> None:
    if sandbox and not _sandbox_works():
        pytest.skip("bubblewrap cannot make a sandbox here")
    token = new_token()
    subs = tmp_path / "submissions"
    for n in range(4):
        slow_bot(subs / f"slow{n}", f"Slow{n}", token, row=n + 1, sleep_s=0.15)
    league = tmp_path / "league"
    arguments = ["league", "run", str(league), "--submissions", str(subs), "--workers", "2", "--max-rounds", "20",
                 *(["--sandbox"] if sandbox else [])]
    kill_mid_match(arguments, token, tmp_path / "first", league / "matches")

    before = check_consistent(league)
    code, out, err = run_cli("league", "run", league, "--workers", "2", "--max-matches", "2")
    assert code == 0, err
    assert check_consistent(league) == before + 2
    assert not [p.name for p in (league / "matches").iterdir() if p.name.startswith(".")]
    db = database(league)
    logs = [row[0] for row in db.execute("SELECT log FROM matches")]
    db.close()
    assert len(logs) == before + 2
    for log in logs:
        code, verified, err = run_cli("verify", league / log)
        assert code == 0, verified + err


def test_a_restart_waits_for_an_orphan_still_writing_a_log(tmp_path: Path) -> None:
    """The race itself: the killed league's workers are held stopped (SIGSTOP) so they cannot end; the league
    started again leaves their partial logs alone until they are gone, then cleans them and plays on."""
    token = new_token()
    subs = tmp_path / "submissions"
    for n in range(3):
        slow_bot(subs / f"slow{n}", f"Slow{n}", token, row=n + 1, sleep_s=0.1)
    league = tmp_path / "league"
    process = start(["league", "run", str(league), "--submissions", str(subs), "--workers", "2",
                     "--max-rounds", "20"], token, tmp_path / "first")
    again = None
    try:
        partials = lambda: sorted((league / "matches").glob(".*.partial")) if (league / "matches").is_dir() else []  # noqa: E731
        wait_for(lambda: len(partials()) == 2 and bots_of(token), 60, "two matches in flight")
        workers = workers_of(process, token)
        assert len(workers) == 2
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)
        orphaned = partials()
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        again = start(["league", "run", str(league), "--workers", "2", "--max-matches", "1"], new_token(),
                      tmp_path / "again")
        time.sleep(2.0)  # far longer than a start needs
        assert again.poll() is None and partials() == orphaned  # waiting: the orphans' logs untouched
        assert "Ctrl-C stops" not in (tmp_path / "again" / "stdout").read_text()  # not playing yet
        for pid in workers:
            os.kill(pid, signal.SIGCONT)  # they see their parent gone and end
        assert again.wait(timeout=120) == 0, (tmp_path / "again" / "stderr").read_text()
        assert not tagged(token)
    finally:
        end_all(process, token)
        if again is not None and again.poll() is None:
            again.kill()
            again.wait()
    for run in ("first", "again"):
        stderr = (tmp_path / run / "stderr").read_text()
        assert "Traceback" not in stderr and "Error" not in stderr, stderr
    assert not [p.name for p in (league / "matches").iterdir() if p.name.startswith(".")]
    check_consistent(league)
    db = database(league)
    logs = [row[0] for row in db.execute("SELECT log FROM matches")]
    db.close()
    for log in logs:
        code, verified, err = run_cli("verify", league / log)
        assert code == 0, verified + err
