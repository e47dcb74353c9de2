"""Run tournament matches on this machine, K at once, each slot a reused worker process (`worker.py`).

Processes, not threads: a match's own work (rules, log writing) is Python, and K matches in one interpreter
would share one core. The main thread only hands out tasks and collects results, so Ctrl-C and SIGTERM reach
it promptly; it then stops every worker with SIGTERM, which ends each match in flight cleanly. Those
matches are not recorded (they are played again on `--resume`): an interruption loses at most K matches.
"""

from __future__ import annotations

import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import runner
from runner.tournament.task import MatchResult, MatchTask

#: Where a job's log goes: the backend is told the final folder and plays into a temporary one beside it.
Job = tuple[MatchTask, Path]


def default_workers(seats_per_match: int) -> int:
    """What the cores allow: one core per bot process of a match (the runner's own work fits beside them)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return max(1, cores // max(1, seats_per_match))


class LocalBackend:
    """K worker processes; `run` plays every job and calls `done` in the calling thread for each result."""

    def __init__(self, workers: int, bot_dirs: Mapping[str, Path]) -> None:
        self.workers = workers
        self.bot_dirs = dict(bot_dirs)

    def run(self, jobs: Iterable[Job], done: Callable[[MatchResult, Path], None]) -> None:
        pending: queue.Queue[Job] = queue.Queue()
        for job in jobs:
            pending.put(job)
        total = pending.qsize()
        results: queue.Queue[tuple[MatchResult, Path]] = queue.Queue()
        stopping = threading.Event()
        processes: list[subprocess.Popen[bytes]] = []
        lock = threading.Lock()

        def slot() -> None:
            process = None
            try:
                while not stopping.is_set():
                    try:
                        task, folder = pending.get_nowait()
                    except queue.Empty:
                        return
                    if process is None:
                        with lock:
                            if stopping.is_set():
                                return
                            process = subprocess.Popen(
                                [sys.executable, "-m", "runner.tournament.worker"], env=_worker_env(),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                            processes.append(process)
                    result = _play(process, task, self.bot_dirs, folder)
                    results.put((result, folder))
                    if result.interrupted or (process.poll() is not None):
                        process = None
            finally:
                if process is not None and process.stdin:
                    try:
                        process.stdin.close()
                    except OSError:
                        pass

        threads = [threading.Thread(target=slot, daemon=True) for _ in range(min(self.workers, max(total, 1)))]
        for thread in threads:
            thread.start()
        finished = 0
        try:
            while finished < total:
                try:
                    result, folder = results.get(timeout=0.2)
                except queue.Empty:
                    if not any(thread.is_alive() for thread in threads) and results.empty():
                        break
                    continue
                finished += 1
                done(result, folder)
        except BaseException:
            stopping.set()
            with lock:
                for process in processes:
                    if process.poll() is None:
                        process.send_signal(signal.SIGTERM)
            for thread in threads:
                thread.join(timeout=30)
            raise
        finally:
            stopping.set()
            for process in processes:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()


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
