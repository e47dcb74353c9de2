"""Warzone speed: six bots on a generated 200-territory map play 100 turns through `td-runner match`.

    python benchmarks/warzone.py [--turns 100] [--territories 200] [--continents 12] [--bots 6] [--repeat 1]
                                 [--bot starter-bots/warzone/python3] [--scratch DIR]

The match runs in-process through `runner.cli.main(["match", ...])` with real bot processes (copies of the
Python starter bot, one folder per seat). The session's `inputs` and `play_turn` are wrapped with timers
(results unchanged), which gives per turn:

* wall: from one `play_turn` call to the next (views, bot processes, reading orders, the rules, the log);
* slowest bot: the largest `seconds` any seat's bot took that turn (bots run at the same time);
* runner: wall minus the slowest bot, i.e. the runner's own time per turn excluding bots;
* game: the time inside the session (rendering six state.json/state.txt views, parsing orders, the turn).

Figures are medians over turns (and over `--repeat` runs). The machine is shared and noisy: compare columns
of one run, not numbers across runs.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner.cli import main  # noqa: E402
from runner.games.warzone.session import WarzoneSession  # noqa: E402


class SessionTimer:
    """Wraps WarzoneSession.inputs/play_turn to time them and to timestamp each turn."""

    def __init__(self) -> None:
        self.game: list[float] = []  # seconds inside the session per turn
        self.stamps: list[float] = []  # perf_counter at each play_turn return
        self.slowest: list[float] = []  # slowest bot's seconds per turn
        self._inputs = WarzoneSession.inputs
        self._play = WarzoneSession.play_turn
        self._pending = 0.0

    def __enter__(self) -> "SessionTimer":
        timer = self

        def inputs(session):
            started = time.perf_counter()
            result = timer._inputs(session)
            timer._pending += time.perf_counter() - started
            return result

        def play_turn(session, answers):
            started = time.perf_counter()
            report = timer._play(session, answers)
            now = time.perf_counter()
            timer.game.append(timer._pending + now - started)
            timer._pending = 0.0
            timer.stamps.append(now)
            timer.slowest.append(max((answer.seconds for answer in answers.values()), default=0.0))
            return report

        WarzoneSession.inputs, WarzoneSession.play_turn = inputs, play_turn
        return self

    def __exit__(self, *exc: object) -> None:
        WarzoneSession.inputs, WarzoneSession.play_turn = self._inputs, self._play


def run_once(args: argparse.Namespace, scratch: Path) -> dict[str, list[float] | float]:
    map_path = scratch / "bench.map"
    out, err = io.StringIO(), io.StringIO()
    code = main(["warzone-map", "--territories", str(args.territories), "--continents", str(args.continents),
                 "--seed", "2024", "--output", str(map_path)], out=out, err=err)
    if code:
        raise SystemExit(err.getvalue())
    bots = [str(shutil.copytree(args.bot, scratch / "bots" / f"bot{index}")) for index in range(args.bots)]
    started = time.perf_counter()
    with SessionTimer() as timer:
        code = main(["match", "--game", "warzone", "--map", str(map_path), *bots, "--output", str(scratch),
                     "--name", "bench", "--quiet", "--seed", "7", "--max-turns", str(args.turns)], out=out, err=err)
    wall = time.perf_counter() - started
    if code:
        raise SystemExit(err.getvalue())
    match = json.loads((scratch / "bench" / "match.json").read_text())
    walls = [b - a for a, b in zip(timer.stamps, timer.stamps[1:])]  # turn 2 onwards: whole turns
    return {"wall": wall, "turns": float(match["rounds"]), "turn_wall": walls, "slowest": timer.slowest[1:],
            "runner": [w - s for w, s in zip(walls, timer.slowest[1:])], "game": timer.game,
            "end": match["end_reason"]}


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--territories", type=int, default=200)
    parser.add_argument("--continents", type=int, default=12)
    parser.add_argument("--bots", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--bot", type=Path, default=ROOT / "starter-bots" / "warzone" / "python3")
    parser.add_argument("--scratch", type=Path, default=None, help="folder for the logs (default: a temp dir)")
    args = parser.parse_args()
    runs = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory(dir=args.scratch) as scratch:
            runs.append(run_once(args, Path(scratch)))

    def median_ms(key: str) -> float:
        return 1000 * statistics.median(value for run in runs for value in run[key])

    print(f"warzone: {args.bots} bots ({args.bot.name}), {args.territories} territories, "
          f"{int(runs[0]['turns'])} turns played ({runs[0]['end']}), {args.repeat} run(s)")
    print(f"  match wall time           {statistics.median(run['wall'] for run in runs):8.2f} s")
    print(f"  per turn, median:  wall   {median_ms('turn_wall'):8.1f} ms")
    print(f"                     slowest bot {median_ms('slowest'):6.1f} ms")
    print(f"                     runner (wall - slowest bot) {median_ms('runner'):6.1f} ms")
    print(f"                     game (session: views + rules) {median_ms('game'):6.1f} ms")


if __name__ == "__main__":
    main_bench()
