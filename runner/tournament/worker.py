"""A local worker process: reads pickled `(MatchTask, bot_dirs, folder)` jobs on stdin, plays each, and writes
the pickled `MatchResult` back. One process per slot, reused, so td-runner is imported once per slot.

SIGTERM and Ctrl-C end the match in progress as `td-runner match` does (its bots stopped, its log closed) and
then the worker; the pool sends SIGTERM when the tournament is interrupted.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import traceback

from runner.interrupts import _raise_terminated
from runner.tournament.task import MatchResult, run_task


def main() -> int:
    results = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print cannot corrupt the result stream
    signal.signal(signal.SIGTERM, _raise_terminated)
    jobs = sys.stdin.buffer
    try:
        while True:
            try:
                task, bot_dirs, folder = pickle.load(jobs)
            except EOFError:
                return 0
            try:
                result = run_task(task, bot_dirs, folder)
            except KeyboardInterrupt:
                raise
            except Exception as exc:  # the infrastructure's failure, not a bot's: reported, match unplayed
                detail = traceback.format_exc(limit=-3).strip().splitlines()[-1]
                result = MatchResult(task.match_id, None, f"{type(exc).__name__}: {exc} ({detail})")
            pickle.dump(result, results)
            results.flush()
            if result.interrupted:
                return 130
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
