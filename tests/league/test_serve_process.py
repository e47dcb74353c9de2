"""`league serve` as its own process and `league run --serve` starting it as a child (issue 32.1): one error
line for a folder that is no league; the league plays on when its server is killed and a new `league serve`
picks up; the child dies with the league; the server runs below the league's CPU priority."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from league_helpers import REPO, run_cli, td_submissions

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")


def td_runner(*args: object, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "runner", *map(str, args)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def line_with(process: subprocess.Popen, words: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if words in line:
            return line
        if not line and process.poll() is not None:
            break
    raise AssertionError(f"no line with {words!r}; stderr: {process.stderr.read() if process.poll() else ''}")


def state(url: str) -> dict:
    with urllib.request.urlopen(url + "state.json", timeout=10) as response:
        return json.loads(response.read())


def scheduling(pid: int) -> tuple[int, int]:
    """A process's (nice value, scheduling policy), from /proc/PID/stat (fields 19 and 41)."""
    fields = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()
    return int(fields[16]), int(fields[38])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (not yet reaped) counts as gone
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_serve_on_a_folder_that_is_no_league_is_one_error_line(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "garbage").mkdir()
    (tmp_path / "garbage" / "league.sqlite").write_bytes(b"this is not a database" * 100)
    for folder, words in ((tmp_path / "empty", "is not a league folder"), (tmp_path / "nowhere", "is not a league"),
                          (tmp_path / "garbage", "not a league database")):
        code, out, err = run_cli("league", "serve", folder, "--port", "0")
        assert code == 2 and err.count("\n") == 1 and words in err, err
    if os.geteuid() != 0:  # root reads any folder: only an ordinary user can be kept out
        locked = tmp_path / "locked"
        locked.mkdir(mode=0)
        code, out, err = run_cli("league", "serve", locked, "--port", "0")
        assert code == 2 and err.count("\n") == 1 and "cannot read" in err


def test_the_league_plays_on_when_its_server_is_killed_and_a_new_one_picks_up(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 3)
    folder = tmp_path / "league"
    league = td_runner("league", "run", folder, "--submissions", subs, "--serve", "127.0.0.1:0", "--max-rounds", "3",
                       "--workers", "1")
    serve = None
    try:
        first = line_with(league, "league pages:")
        url = first.split("league pages: ")[1].split()[0]
        child = int(first.split("process ")[1].rstrip(")\n"))
        deadline = time.monotonic() + 60
        while state(url)["matches"] < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert state(url)["matches"] >= 2
        with urllib.request.urlopen(url, timeout=10) as response:
            assert b"Standings" in response.read()

        os.kill(child, signal.SIGKILL)
        line_with(league, "web server stopped")  # said once; the league goes on
        played = json.loads(run_cli("league", "status", folder, "--json")[1])["matches"]
        deadline = time.monotonic() + 60
        while json.loads(run_cli("league", "status", folder, "--json")[1])["matches"] < played + 2:
            assert time.monotonic() < deadline and league.poll() is None
            time.sleep(0.2)

        serve = td_runner("league", "serve", folder, "--port", "0", "--priority", "idle")
        url = line_with(serve, "league pages:").split("league pages: ")[1].split(";")[0]
        now = state(url)["matches"]
        assert scheduling(serve.pid)[1] == os.SCHED_IDLE  # (set before it serves) only the CPU the league leaves
        deadline = time.monotonic() + 60
        while state(url)["matches"] <= now:  # the new server sees the league's new matches
            assert time.monotonic() < deadline
            time.sleep(0.2)
    finally:
        for process in (league, serve):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process in (league, serve):
            if process is not None:
                process.wait(timeout=30)
    assert league.returncode == 0 and serve.returncode == 0


def test_the_server_child_dies_with_the_league(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 2)
    league = td_runner("league", "run", tmp_path / "league", "--submissions", subs, "--serve", "0", "--max-rounds",
                       "3", "--workers", "1")
    try:
        first = line_with(league, "league pages:")
        child = int(first.split("process ")[1].rstrip(")\n"))
        url = first.split("league pages: ")[1].split()[0]
        assert "key" in state(url)
        assert scheduling(child) == (10, os.SCHED_BATCH)  # --priority low: the league's matches come first
        league.kill()  # kill -9: no clean-up in the league
        league.wait(timeout=10)
        deadline = time.monotonic() + 3
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(child), "the server outlived its league"
    finally:
        if league.poll() is None:
            league.kill()
            league.wait()
