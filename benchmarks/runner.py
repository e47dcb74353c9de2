"""Runner speed: wall time per round against the bots' own time, and the runner's overhead per round.

    python benchmarks/runner.py [--rounds 40] [--sleep-ms 100] [--repeat 3] [--json]

Two matches are played in-process through MatchRunner with real bot processes (botLanguage `custom`):

1. both bots sleep `--sleep-ms` per turn (`sleep` from coreutils) and write no command. Both run at the same
   time, so the physical limit per round is the slower bot's time; the official runner runs them one after
   the other, so its limit is the sum.
2. both bots are `true` (instant): wall time per round minus the slower bot's own time is the runner's
   overhead per round (rendering both views, 10 log files, command.txt handling, process start/clean-up).

Figures are medians over rounds of the `--repeat` runs. The machine is shared and noisy: compare the two
columns of one run, not numbers across runs. The overhead includes writing the round's 10 log files, so it
follows the disk's latency (on an ext4 mounted with `discard` it grows after many deleted files); use
`--scratch /dev/shm` to see the runner's own part.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import attrs  # noqa: E402

from runner.bots.definition import load_bot  # noqa: E402
from runner.bots.limits import Limits  # noqa: E402
from runner.games.tower_defence.engine.config import GameConfig  # noqa: E402
from runner.games.tower_defence import GAME  # noqa: E402
from runner.games.tower_defence.session import TowerDefenceSession  # noqa: E402
from runner.match import MatchRunner, MatchSettings, Player  # noqa: E402


class RoundTimer:
    """MatchObserver recording each round's wall time and each bot's own seconds."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.rounds: list[tuple[float, float, float]] = []  # (wall, slower bot, sum of bots)

    def round_played(self, round_number, session, report, outcomes) -> None:
        now = time.perf_counter()
        seconds = [outcome.seconds for outcome in outcomes.values()]
        self.rounds.append((now - self.last, max(seconds), sum(seconds)))
        self.last = now


def make_bot(folder: Path, nick: str, argv: list[str]) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.json").write_text(json.dumps({
        "author": "bench", "email": "bench@example.invalid", "nickName": nick, "botLocation": "/",
        "botFileName": "none", "botLanguage": "custom", "command": argv,
    }))
    return folder


def play(scratch: Path, name: str, argv: list[str], rounds: int) -> list[tuple[float, float, float]]:
    players = tuple(
        Player(seat, f"{seat} - {name}", load_bot(make_bot(scratch / f"{name}-{seat}", name, argv)))
        for seat in "AB"
    )
    config = attrs.evolve(GameConfig(), max_rounds=rounds - 1)
    timer = RoundTimer()
    settings = MatchSettings(players=players, folder=scratch / f"log-{name}", limits=Limits())
    MatchRunner(GAME, TowerDefenceSession(config), settings, timer).run()
    return timer.rounds[1:]  # round 0 includes start-up costs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--sleep-ms", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--scratch", help="folder for the bots and logs (default: the system temp folder; "
                        "/dev/shm takes the disk's latency out of the overhead figure)")
    args = parser.parse_args()
    sleeping, instant = [], []
    for run in range(args.repeat):
        with tempfile.TemporaryDirectory(dir=args.scratch) as scratch:
            sleeping += play(Path(scratch), f"Sleep{run}", ["sleep", str(args.sleep_ms / 1000)], args.rounds)
            instant += play(Path(scratch), f"True{run}", ["true"], args.rounds)
    ms = 1000.0
    wall = statistics.median(r[0] for r in sleeping) * ms
    slower = statistics.median(r[1] for r in sleeping) * ms
    both = statistics.median(r[2] for r in sleeping) * ms
    instant_wall = statistics.median(r[0] for r in instant) * ms
    overhead = statistics.median(r[0] - r[1] for r in instant) * ms
    print(f"bots sleeping {args.sleep_ms} ms, {len(sleeping)} rounds (median per round):")
    print(f"  td-runner wall time        {wall:8.1f} ms")
    print(f"  slower bot's own time      {slower:8.1f} ms   (limit when bots run concurrently)")
    print(f"  both bots' time, summed    {both:8.1f} ms   (limit for a sequential runner, as the official one)")
    print(f"instant bots (`true`), {len(instant)} rounds (median per round):")
    print(f"  td-runner wall time        {instant_wall:8.1f} ms")
    print(f"  runner overhead            {overhead:8.1f} ms   (wall minus the slower bot's own time)")
    if args.json:
        print(json.dumps({"sleep_wall_ms": round(wall, 2), "sleep_slower_bot_ms": round(slower, 2),
                          "sleep_bots_sum_ms": round(both, 2), "instant_wall_ms": round(instant_wall, 2),
                          "overhead_ms": round(overhead, 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
