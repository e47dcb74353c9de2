"""CPU time of `td-runner grades` on a large league: the rank ranges' bootstrap is almost all of it (a
Bradley-Terry refit per resample), and inside the fit the Cholesky solve.

    python benchmarks/grades.py [--players 40] [--matches 10000] [--resamples 100] [--repeat 5]

A synthetic league of `--players` players (one version each) and `--matches` two-seat matches with results
drawn from fixed strengths is written once (rows through the store's schema, no logs); then, alternating,
the sheet is built with the Cholesky solve as it is (`sum(map(mul))` over row slices) and with the
textbook one it replaced (generator sums over indices), each `--repeat` times. Prints the medians of CPU
seconds (process time, so other processes on a shared machine count less) and checks both give the same
sheet.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner.league.grades import league_field  # noqa: E402
from runner.league.store import connect  # noqa: E402
from runner.tournament import rankstats  # noqa: E402
from runner.tournament.grades import build_sheet  # noqa: E402


def textbook_solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """The solve before: the same Cholesky, inner products as generator sums over indices."""
    size = len(vector)
    lower = [[0.0] * size for _ in range(size)]
    for row in range(size):
        for column in range(row + 1):
            total = matrix[row][column] - sum(lower[row][k] * lower[column][k] for k in range(column))
            lower[row][column] = math.sqrt(total) if row == column else total / lower[column][column]
    middle = [0.0] * size
    for row in range(size):
        middle[row] = (vector[row] - sum(lower[row][k] * middle[k] for k in range(row))) / lower[row][row]
    result = [0.0] * size
    for row in reversed(range(size)):
        result[row] = (middle[row] - sum(lower[k][row] * result[k] for k in range(row + 1, size))) / lower[row][row]
    return result


def write_league(folder: Path, players: int, matches: int) -> None:
    rng = random.Random(1)
    db = connect(folder, create=True)
    db.execute("INSERT INTO meta VALUES ('settings', ?)", (json.dumps({"game": "tower-defence"}),))
    db.execute("BEGIN")
    strength = {}
    for number in range(players):
        player = db.execute("INSERT INTO players (name, created) VALUES (?, 0)", (f"p{number:02d}",)).lastrowid
        version = db.execute("INSERT INTO versions (player_id, number, hash, created, status) VALUES "
                             "(?, 1, ?, 0, 'active')", (player, f"{number:016x}")).lastrowid
        strength[version] = rng.gauss(0, 1)
        db.execute("INSERT INTO ratings VALUES (?, '', 25, 8.33, ?, 2, 0)", (version, 25 + 5 * strength[version]))
    versions = list(strength)
    for match in range(1, matches + 1):
        first, second = rng.sample(versions, 2)
        won = rng.random() < 1 / (1 + math.exp(strength[second] - strength[first]))
        db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, "
                   "cpu_seconds) VALUES (?, ?, 0, 0, 'health', 10, 0, 1, 0)", (match, match))
        for position, (version, place) in enumerate(((first, 1 if won else 2), (second, 2 if won else 1))):
            db.execute("INSERT INTO seats (match_id, position, seat, version_id, role, place, result, started, "
                       "timeouts, crashes, failed_to_start, invalid, disqualified) VALUES "
                       "(?, ?, ?, ?, '', ?, ?, 1, 0, 0, 0, 0, 0)",
                       (match, position, "AB"[position], version, place, "win" if place == 1 else "loss"))
    db.execute("COMMIT")
    db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--resamples", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "league"
        write_league(folder, args.players, args.matches)
        field, references = league_field(folder)
        current = rankstats._solve
        times: dict[str, list[float]] = {"as it is": [], "textbook solve": []}
        sheets = {}
        for _ in range(args.repeat):
            for name, solve in (("as it is", current), ("textbook solve", textbook_solve)):
                rankstats._solve = solve
                start = time.process_time()
                sheets[name] = build_sheet(field, references, resamples=args.resamples).to_csv()
                times[name].append(time.process_time() - start)
        rankstats._solve = current
    print(f"grades of a league of {args.players} players, {args.matches} matches, {args.resamples} resamples "
          f"(median CPU seconds of {args.repeat} alternating runs):")
    for name, values in times.items():
        print(f"  {name:15} {statistics.median(values):6.2f} s")
    print("  same sheet:", sheets["as it is"] == sheets["textbook solve"])


if __name__ == "__main__":
    main()
