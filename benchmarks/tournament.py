"""Tournament throughput: a round-robin of bots that sleep per turn, with 1, 2 and 4 local workers.

    python benchmarks/tournament.py                      # the issue's setting: 8 bots, 40 rounds, 200 ms
    python benchmarks/tournament.py --bots 4 --workers 1 4

Bots that sleep need no CPU, so K workers should be close to K times faster (the aim: 4 workers at least
3.5x faster than 1). Also printed: the runner's own CPU per match-round (the worker processes' CPU over the
rounds played; bot processes excluded), from each match's `cpu_seconds` in games.jsonl.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not benchmarks/, whose runner.py would hide the package

from runner.tournament.local import LocalBackend  # noqa: E402
from runner.tournament.records import read_records  # noqa: E402
from runner.tournament.run import TournamentSettings, claim_folder, prepare, run_tournament  # noqa: E402

#: A shell bot: sleeping needs no core, and starting `sh` costs ~1 ms where a Python start costs 20-40 ms of CPU
#: (with 8 bots at once on 2 cores, Python start-up, not the runner, would decide the speed-up).
BOT = "sleep {seconds}\n: > command.txt\n"


class Quiet:
    def started(self, total: int, done: int, workers: int) -> None:
        pass

    def finished(self, record, done: int, total: int) -> None:
        pass

    def failed(self, match_id: str, problem: str) -> None:
        print(f"  failed: {match_id}: {problem}")


def make_bots(root: Path, count: int, sleep_ms: int) -> list[str]:
    folders = []
    for number in range(count):
        folder = root / f"sleeper{number}"
        folder.mkdir(parents=True)
        (folder / "bot.json").write_text(json.dumps({
            "author": f"bench{number}", "email": "bench@example.invalid", "nickName": f"Sleeper{number}",
            "botLocation": "/", "botFileName": "bot.sh", "botLanguage": "custom", "command": ["sh", "bot.sh"]}))
        (folder / "bot.sh").write_text(BOT.format(seconds=sleep_ms / 1000))
        folders.append(str(folder))
    return folders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=40, help="Tower Defence --max-rounds")
    parser.add_argument("--sleep-ms", type=int, default=200)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="td-bench-") as temp:
        root = Path(temp)
        bots = make_bots(root / "bots", args.bots, args.sleep_ms)
        print(f"round-robin of {args.bots} bots sleeping {args.sleep_ms} ms a turn, tower-defence "
              f"--max-rounds {args.rounds}")
        walls = {}
        for workers in args.workers:
            folder = root / f"run-{workers}"
            settings = claim_folder(folder, TournamentSettings(game="tower-defence", bots=tuple(bots),
                                                               options={"max_rounds": args.rounds}))
            prepared = prepare(settings)
            started = time.monotonic()
            run_tournament(prepared, folder, lambda dirs: LocalBackend(workers, dirs), Quiet())
            walls[workers] = wall = time.monotonic() - started
            records = read_records(folder)
            rounds = sum(record.rounds for record in records)
            cpu = sum(record.cpu_seconds for record in records)
            print(f"{workers} worker{'s' if workers > 1 else ' '}: {len(records)} matches, {rounds} rounds in "
                  f"{wall:7.1f} s ({wall / len(records):5.2f} s a match); speed-up "
                  f"{walls[args.workers[0]] / wall:4.2f}x; runner CPU {cpu / rounds * 1000:5.1f} ms per match-round")


if __name__ == "__main__":
    main()
