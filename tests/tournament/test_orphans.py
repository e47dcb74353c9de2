"""The lock between a run's workers and the next run (runner/tournament/orphans.py), with a real process
holding it as a worker does: the next run waits for it, and names it when it does not end."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.tournament.orphans import await_orphans

HOLDER = ("import fcntl, os, sys, time\nfd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)\n"
          "fcntl.flock(fd, fcntl.LOCK_SH)\nprint('held', flush=True)\ntime.sleep(float(sys.argv[2]))\n")


def _holder(folder: Path, seconds: float) -> subprocess.Popen[str]:
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder), str(seconds)], stdout=subprocess.PIPE,
                               text=True)
    assert process.stdout is not None and process.stdout.readline() == "held\n"
    return process


def test_the_next_run_waits_until_the_worker_lets_go(tmp_path: Path) -> None:
    holder = _holder(tmp_path, 0.6)
    try:
        started = time.monotonic()
        await_orphans(tmp_path, timeout_s=10)
        waited = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert 0.3 < waited < 5


def test_a_worker_that_never_ends_is_one_line_naming_it(tmp_path: Path) -> None:
    holder = _holder(tmp_path, 60)
    try:
        with pytest.raises(UserError) as raised:
            await_orphans(tmp_path, timeout_s=0.3)
    finally:
        holder.kill()
        holder.wait()
    message = str(raised.value)
    assert str(tmp_path) in message and f"process {holder.pid}" in message and "\n" not in message
    await_orphans(tmp_path, timeout_s=0.3)  # gone: nothing to wait for
    await_orphans(tmp_path / "missing")  # a folder not made yet holds no log
