"""A league's replays are built off the serving path (issue 32.4): the worker that played a match writes its
page gzipped, the recorder moves it to DIR/replays/<id>.html.gz, the match's log folder stays exactly as
`td-runner match` writes it, and a low-priority background process fills the gaps (an older league's
uncompressed pages, a failed build), ending with the league, kill -9 included."""

from __future__ import annotations

import gzip
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.replay import cache
from runner.replay.cache import build_missing_replays, replay_file, start_backfill

from tests.league.league_helpers import check_consistent, database, run_cli, td_submissions

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")

ROOT = Path(__file__).resolve().parents[2]
#: What `td-runner match` writes into a Tower Defence match folder: nothing of the replay's.
MATCH_FILES = {"match.json"}


def _recorded(folder: Path) -> dict[int, Path]:
    db = database(folder)
    try:
        return {row["id"]: folder / row["log"] for row in db.execute("SELECT id, log FROM matches")}
    finally:
        db.close()


def _page_of(path: Path) -> str:
    page = gzip.decompress(path.read_bytes()).decode("utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("</script>") == 3
    return page


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> Path:
    """A Tower Defence league that played 4 matches on 2 workers (`league run`, as an organiser runs it)."""
    root = tmp_path_factory.mktemp("league")
    folder = root / "league"
    code, out, err = run_cli("league", "run", folder, "--submissions", td_submissions(root, 3), "--workers", "2",
                             "--max-matches", "4", "--max-rounds", "4")
    assert code == 0, err
    return folder


def test_every_recorded_match_has_its_gzipped_replay_and_an_untouched_log(league: Path) -> None:
    matches = _recorded(league)
    assert len(matches) == 4 and check_consistent(league) == 4
    assert sorted(p.name for p in (league / "replays").iterdir()) == sorted(f"{i}.html.gz" for i in matches)
    for match_id, log in matches.items():
        page = _page_of(replay_file(league, match_id))
        names = re.search(r"<title>(.*?)</title>", page).group(1)
        assert " vs " in names
        assert MATCH_FILES <= {p.name for p in log.iterdir()}
        assert not [p for p in log.rglob("*") if "html" in p.name]  # the log folder holds no replay
        code, verified, err = run_cli("verify", log)
        assert code == 0, verified + err
    assert not [p.name for p in (league / "matches").iterdir() if p.name.endswith(".gz") or p.name.startswith(".")]


def test_build_missing_replays_fills_the_gaps_and_replaces_old_uncompressed_pages(league: Path, tmp_path) -> None:
    matches = _recorded(league)
    first, second, *_ = sorted(matches)
    replay_file(league, first).unlink()
    replay_file(league, second).unlink()
    old = league / "replays" / f"{second}.html"
    old.write_text("<html>an old page built on a request</html>", encoding="utf-8")
    stale = league / "replays" / f".{first}.html.gz.tmp"
    stale.write_bytes(b"half")
    assert build_missing_replays(league, stop=lambda: True) == 0  # asked to stop before the first
    assert build_missing_replays(league) == 2
    assert replay_file(league, first).is_file() and replay_file(league, second).is_file()
    assert not old.exists() and not stale.exists()
    _page_of(replay_file(league, second))
    assert build_missing_replays(league) == 0  # nothing left to do


def test_a_log_no_replay_can_be_made_of_is_tried_once_and_the_others_still_built(league: Path) -> None:
    matches = _recorded(league)
    broken, other = sorted(matches)[-2:]
    for match_id in (broken, other):
        replay_file(league, match_id).unlink()
    saved = (matches[broken] / "match.json").read_bytes()
    rounds = sorted(p for p in matches[broken].iterdir() if p.is_dir() or p.name == "record.jsonl")
    moved = [p.rename(p.with_name("x" + p.name)) for p in rounds]  # no rounds left to draw, no record to play
    try:
        failed: set[int] = set()
        assert build_missing_replays(league, skip=failed) == 1
        assert failed == {broken} and replay_file(league, other).is_file()
        assert build_missing_replays(league, skip=failed) == 0  # not tried again
    finally:
        for path in moved:
            path.rename(path.with_name(path.name[1:]))
        assert (matches[broken] / "match.json").read_bytes() == saved
    assert build_missing_replays(league) == 1


def test_the_background_builder_runs_niced_and_stops(league: Path) -> None:
    matches = _recorded(league)
    for match_id in matches:
        replay_file(league, match_id).unlink()
    backfill = start_backfill(league)
    try:
        pid = backfill.process.pid
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not all(replay_file(league, i).is_file() for i in matches):
            time.sleep(0.2)
        assert all(replay_file(league, i).is_file() for i in matches)
        assert os.getpriority(os.PRIO_PROCESS, pid) >= os.getpriority(os.PRIO_PROCESS, 0) + cache.NICENESS - 1
    finally:
        backfill.stop()
    assert not backfill.process.is_alive()


def test_the_background_builder_dies_with_a_killed_league(league: Path, tmp_path: Path) -> None:
    """kill -9 of the process that started it: the builder is gone within a second or two."""
    script = ("import sys, time\nfrom pathlib import Path\nfrom runner.replay.cache import start_backfill\n"
              "b = start_backfill(Path(sys.argv[1]))\nprint(b.process.pid, flush=True)\ntime.sleep(120)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen([sys.executable, "-c", script, str(league)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        child = int(parent.stdout.readline())
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and _alive(child):
            time.sleep(0.05)
        assert not _alive(child)
    finally:
        if parent.poll() is None:
            parent.kill()


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie (an orphan is reaped by init, but maybe not at once)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_clean_orphans_removes_a_replay_left_beside_a_partial_log(tmp_path: Path) -> None:
    """A league killed after a worker wrote its replay but before the match was recorded: the next start
    removes the file (the match is played again)."""
    from runner.league.recorder import clean_orphans
    from runner.league.store import connect

    folder = tmp_path / "league"
    (folder / "matches" / ".00000007.partial").mkdir(parents=True)
    (folder / "matches" / ".00000007.partial.html.gz").write_bytes(b"x")
    (folder / "matches" / "..00000007.partial.html.gz.tmp").write_bytes(b"x")
    db = connect(folder, create=True)
    try:
        assert clean_orphans(db, folder) == 3
    finally:
        db.close()
    assert list((folder / "matches").iterdir()) == []


def test_league_run_fills_an_older_leagues_gaps_in_the_background(league: Path) -> None:
    """`league run` on a league whose replays are missing (or old uncompressed pages): they appear while it
    plays on, and every match it records meanwhile has its own."""
    matches = _recorded(league)
    for match_id in matches:
        replay_file(league, match_id).unlink()
    (league / "replays" / f"{min(matches)}.html").write_text("<html>old</html>", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "runner", "league", "run", str(league), "--workers", "1",
                                "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if all(replay_file(league, i).is_file() for i in matches) and len(_recorded(league)) > len(matches):
                break
            time.sleep(0.3)
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    assert process.returncode in (0, 143), err
    assert b"Traceback" not in err
    now = _recorded(league)
    assert all(replay_file(league, i).is_file() for i in matches)
    assert not (league / "replays" / f"{min(matches)}.html").exists()
    assert len(now) > len(matches)
    assert all(replay_file(league, i).is_file() for i in now)  # the new ones from their workers
    assert check_consistent(league) == len(now)
