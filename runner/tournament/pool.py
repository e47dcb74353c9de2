"""What the local pool and the Dask pool share: a stream of matches in, results out.

A tournament knows its whole schedule and hands it over at once (`run_jobs`); a league decides each match
from the ratings of the last ones, so it keeps a few matches in flight and submits one whenever a result
comes back. Both talk to a `Pool`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Protocol

from runner.tournament.task import MatchResult, MatchTask

#: A match and the folder its log is played into (a temporary one beside the final folder, which the caller
#: renames when it keeps the match). The local pool first removes what a killed run's worker left there.
Job = tuple[MatchTask, Path]


class Pool(Protocol):
    workers: int | None  # matches at once (None: as many as the cluster has workers)

    def add_bots(self, bot_dirs: Mapping[str, Path]) -> None: ...

    def submit(self, task: MatchTask, folder: Path) -> None: ...

    def in_flight(self) -> int: ...

    def next_result(self, timeout: float) -> tuple[MatchResult, Path] | None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


def run_jobs(pool: Pool, jobs: Iterable[Job], done: Callable[[MatchResult, Path], None]) -> None:
    """Submit every job, call `done` in this thread for each result; an interrupt stops the pool and propagates."""
    for task, folder in jobs:
        pool.submit(task, folder)
    try:
        while pool.in_flight():
            got = pool.next_result(0.2)
            if got is not None:
                done(*got)
    except BaseException:
        pool.stop()
        raise
    finally:
        pool.close()
