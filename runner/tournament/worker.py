"""A local worker process: reads pickled `(MatchTask, bot_dirs, folder)` jobs on stdin, plays each, and writes
the pickled `MatchResult` back. One process per slot, reused, so td-runner is imported once per slot.

SIGTERM and Ctrl-C end the match in progress as `td-runner match` does (its bots stopped, its log closed) and
then the worker; the pool sends SIGTERM when the tournament is interrupted. A worker whose parent died (even
by `kill -9`) stops its match, kills its bots and ends quietly within half a second (orphans.py).
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import traceback

from runner.interrupts import _raise_terminated
from runner.tournament.orphans import ParentWatch, playing_in
from runner.tournament.task import MatchResult, run_task


def main() -> int:
    results = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print cannot corrupt the result stream
    signal.signal(signal.SIGTERM, _raise_terminated)
    jobs = sys.stdin.buffer
    watch = ParentWatch(jobs.fileno())
    try:
        while True:
            try:
                task, bot_dirs, folder = pickle.load(jobs)
            except (EOFError, pickle.UnpicklingError):  # no more jobs (or the parent died while sending one)
                return 0
            watch.playing = True
            try:
                with playing_in(folder, watch):
                    result = run_task(task, bot_dirs, folder)
            except KeyboardInterrupt:
                raise
            except Exception as exc:  # the infrastructure's failure, not a bot's: reported, match unplayed
                detail = traceback.format_exc(limit=-3).strip().splitlines()[-1]
                result = MatchResult(task.match_id, None, f"{type(exc).__name__}: {exc} ({detail})")
            finally:
                watch.playing = False
            if watch.gone.is_set():
                watch.end()
            try:
                pickle.dump(result, results)
                results.flush()
            except OSError:  # the parent died after its watch last looked
                watch.end()
            if result.interrupted:
                return 130
    except KeyboardInterrupt:
        if watch.gone.is_set():
            watch.end()
        return 130


if __name__ == "__main__":
    sys.exit(main())
