"""League throughput: matches per minute with 1 and 4 local workers, and the league process's own CPU per match.

    python benchmarks/league.py                         # 4 shell bots sleeping 100 ms a turn, 12 matches a run
    python benchmarks/league.py --matches 20 --repeat 5

The bots sleep (no CPU), so the workers should scale; the league process itself (watching the submissions,
matchmaking, recording each match in SQLite, rating it) should cost little beside a match: the aim is under
20 ms of its CPU per match. Runs of 1 and 4 workers alternate (`--repeat` pairs); medians are printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not benchmarks/, whose runner.py would hide the package

from benchmarks.tournament import make_bots  # noqa: E402
from runner.league.run import open_league  # noqa: E402
from runner.tournament.local import LocalPool  # noqa: E402

def make_submissions(root: Path, count: int, sleep_ms: int) -> Path:
    """The tournament benchmark's sleeping shell bots, as a submissions folder."""
    make_bots(root, count, sleep_ms)
    return root


def one_run(folder: Path, submissions: Path, workers: int, matches: int, rounds: int) -> tuple[float, float]:
    """(matches per minute, league CPU ms per match) of one league run of `matches` matches; the CPU is counted
    from the first match recorded to the last (the first scan of the submissions, with its validations and
    imports, is the league's start-up, not a match's cost)."""
    pool = LocalPool(workers)
    league = open_league(folder, {"submissions": str(submissions), "options": {"max_rounds": rounds}}, pool,
                         lambda line: None)
    try:
        stats = league.run(matches, threading.Event())
    finally:
        pool.close()
        league.close()
    steady = stats.steady_cpu_per_match
    return stats.played / stats.wall_seconds * 60, (steady if steady is not None else stats.cpu_seconds) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=10, help="Tower Defence --max-rounds")
    parser.add_argument("--sleep-ms", type=int, default=100)
    parser.add_argument("--matches", type=int, default=12, help="matches per run")
    parser.add_argument("--repeat", type=int, default=3, help="pairs of runs (1 worker, 4 workers)")
    args = parser.parse_args()
    print(f"league of {args.bots} shell bots sleeping {args.sleep_ms} ms a turn, tower-defence --max-rounds "
          f"{args.rounds}, {args.matches} matches a run")
    figures: dict[int, list[tuple[float, float]]] = {1: [], 4: []}
    with tempfile.TemporaryDirectory(prefix="td-bench-league-") as temp:
        root = Path(temp)
        submissions = make_submissions(root / "submissions", args.bots, args.sleep_ms)
        for attempt in range(args.repeat):
            for workers in (1, 4):
                rate, cpu = one_run(root / f"league-{workers}-{attempt}", submissions, workers, args.matches,
                                    args.rounds)
                figures[workers].append((rate, cpu))
                print(f"  {workers} worker{'s' if workers > 1 else ' '}: {rate:6.1f} matches/min, league CPU "
                      f"{cpu:5.1f} ms per match")
                time.sleep(0.2)
    medians = {w: (statistics.median(r for r, _ in runs), statistics.median(c for _, c in runs))
               for w, runs in figures.items()}
    print(f"medians: 1 worker {medians[1][0]:.1f} matches/min, 4 workers {medians[4][0]:.1f} matches/min "
          f"({medians[4][0] / medians[1][0]:.2f}x); league CPU per match {medians[1][1]:.1f} ms (1 worker), "
          f"{medians[4][1]:.1f} ms (4 workers); aim: under 20 ms")


if __name__ == "__main__":
    main()
