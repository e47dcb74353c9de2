"""Run matches on this machine, K at once, each slot a reused worker process (`worker.py`).

Processes, not threads: a match's own work (rules, log writing) is Python, and K matches in one interpreter
would share one core. The caller's thread only hands out tasks and collects results, so Ctrl-C and SIGTERM
reach it promptly; `stop` then sends every worker SIGTERM, which ends each match in flight cleanly. Those
matches are not recorded (they are played again): an interruption loses at most K matches.

A worker outlives its parent by at most half a second, even a parent killed with `kill -9` (orphans.py); the
pool waits for such orphans of an earlier run before it plays into a folder they may still be writing in.

`LocalPool` is a stream (submit a match whenever one is wanted, take results as they come), which a league
needs because it picks each match from the ratings of the last ones; a tournament submits its whole schedule
at once through `run_jobs` (pool.py).
"""

from __future__ import annotations

import os
import pickle
import queue
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import runner
from runner.tournament.orphans import await_orphans
from runner.tournament.pool import Job, run_jobs
from runner.tournament.task import MatchResult, MatchTask

__all__ = ["Job", "LocalBackend", "LocalPool", "default_workers"]


def default_workers(seats_per_match: int) -> int:
    """What the cores allow: one core per bot process of a match (the runner's own work fits beside them)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return max(1, cores // max(1, seats_per_match))


class LocalPool:
    """K slots, each a thread feeding one worker process (started on first use, replaced when it dies)."""

    def __init__(self, workers: int, bot_dirs: Mapping[str, Path] = ()) -> None:
        self.workers = workers
        self.bot_dirs = dict(bot_dirs)
        self._pending: queue.Queue[Job] = queue.Queue()
        self._results: queue.Queue[tuple[MatchResult, Path]] = queue.Queue()
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._processes: list[subprocess.Popen[bytes]] = []
        self._threads: list[threading.Thread] = []
        self._submitted = self._delivered = 0
        self._settled: set[Path] = set()  # folders no earlier run's orphan writes in any more

    def add_bots(self, bot_dirs: Mapping[str, Path]) -> None:
        """Make more bot snapshots playable (a league's new versions)."""
        self.bot_dirs.update(bot_dirs)

    def submit(self, task: MatchTask, folder: Path) -> None:
        """Play `task` into `folder`; what an earlier run's worker left there is removed, once it is gone."""
        if folder.parent not in self._settled:
            await_orphans(folder.parent)
            self._settled.add(folder.parent)
        shutil.rmtree(folder, ignore_errors=True)
        self._submitted += 1
        self._pending.put((task, folder))
        if len(self._threads) < self.workers:
            thread = threading.Thread(target=self._slot, daemon=True, name=f"td-slot-{len(self._threads)}")
            self._threads.append(thread)
            thread.start()

    def in_flight(self) -> int:
        """Matches submitted whose result has not been taken yet."""
        return self._submitted - self._delivered

    def next_result(self, timeout: float) -> tuple[MatchResult, Path] | None:
        """The next finished match, or None after `timeout` seconds without one."""
        try:
            result = self._results.get(timeout=timeout)
        except queue.Empty:
            return None
        self._delivered += 1
        return result

    def stop(self) -> None:
        """Interrupt: every worker gets SIGTERM (its match ends cleanly, unrecorded); queued jobs are dropped."""
        self._stopping.set()
        with self._lock:
            for process in self._processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
        for thread in self._threads:
            thread.join(timeout=30)

    def close(self) -> None:
        """No more jobs: workers end when their input closes (a stopped pool's are killed if they linger)."""
        self._stopping.set()
        for thread in self._threads:
            thread.join(timeout=30)
        for process in self._processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()

    def run(self, jobs: Iterable[Job], done: Callable[[MatchResult, Path], None]) -> None:
        """A tournament's whole schedule: play every job, `done` called in this thread for each result."""
        run_jobs(self, jobs, done)

    def _slot(self) -> None:
        process = None
        try:
            while not self._stopping.is_set():
                try:
                    task, folder = self._pending.get(timeout=0.1)
                except queue.Empty:
                    continue
                try:
                    if process is None:
                        with self._lock:
                            if self._stopping.is_set():
                                return
                            process = subprocess.Popen(
                                [sys.executable, "-m", "runner.tournament.worker"], env=_worker_env(),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                            self._processes.append(process)
                    result = _play(process, task, self.bot_dirs, folder)
                except Exception as exc:  # no worker could start, a bot not handed over: this match only
                    self._results.put((MatchResult(task.match_id, None, f"{type(exc).__name__}: {exc}"), folder))
                    continue
                self._results.put((result, folder))
                if result.interrupted or process.poll() is not None:
                    process = None
        finally:
            if process is not None and process.stdin:
                try:
                    process.stdin.close()
                except OSError:
                    pass


#: The tournament's name for the pool (a schedule played through `run`).
LocalBackend = LocalPool


def _worker_env() -> dict[str, str]:
    """The environment of a worker: this one, with the folder holding this `runner` package first on the
    path, so a worker imports the very td-runner that started it whatever the current folder."""
    env = dict(os.environ)
    package_root = str(Path(runner.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return env


def _play(process: subprocess.Popen[bytes], task: MatchTask, bot_dirs: Mapping[str, Path], folder: Path) -> MatchResult:
    """Send one job to a worker and read its result; a worker that dies is an interrupted match."""
    assert process.stdin is not None and process.stdout is not None
    needed = {bot_hash: bot_dirs[bot_hash] for bot_hash in task.bots}
    try:
        pickle.dump((task, needed, folder), process.stdin)
        process.stdin.flush()
        return pickle.load(process.stdout)
    except (EOFError, OSError, pickle.UnpicklingError):
        code = process.wait()
        interrupted = code in (130, 143, -signal.SIGTERM, -signal.SIGINT)
        return MatchResult(task.match_id, None, "interrupted" if interrupted else
                           f"the worker process ended with exit code {code}", interrupted=interrupted)
