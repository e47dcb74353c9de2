"""In-process API speed: turns per second of `runner.api.parallel_env` for each game, against the same turns
through the file protocol (`play_match` with instant bots: real processes, the log on disk).

    python benchmarks/api.py [--turns 200] [--repeat 3] [--scratch DIR] [--json]

In-process, Tower Defence plays random masked actions (observation parsing and masks included); the other
games play "do nothing" text ("" , Invaders' "null"). Through processes, every bot is instant: `true` for
per-turn games (no answer file: do nothing), `sed -u s/.*/null/` for Invaders (answers null at once), so
the process figure is the runner's own cost per turn, the best any real bot could do. Figures are medians
of `--repeat` runs; the machine is shared and noisy, so compare the columns of one run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from runner.api import parallel_env  # noqa: E402
from runner.play import play_match  # noqa: E402

MAP = str(ROOT / "runner" / "games" / "warzone" / "maps" / "td-archipelago.map")
IDLE = {"lanes": "", "invaders": "null", "warzone": ""}
INSTANT = {"invaders": ["sed", "-u", "s/.*/null/"]}


def options_for(game: str, turns: int) -> dict:
    return {
        "tower-defence": {"max_rounds": turns - 1},  # rounds 0..turns-1 (a base may fall earlier)
        "lanes": {"max_turns": turns},
        "invaders": {"max_turns": turns},
        "warzone": {"map": MAP, "max_turns": turns},
    }[game]


def in_process(game: str, turns: int, seed: int) -> float:
    """Turns per second through parallel_env, episodes repeated until `turns` turns were played."""
    env = parallel_env(game, **options_for(game, turns))
    rng = random.Random(seed)
    played, started = 0, time.perf_counter()
    while played < turns:
        observations, _ = env.reset(seed=seed + played)
        while env.agents and played < turns:
            if game == "tower-defence":
                actions = {seat: int(rng.choice(np.flatnonzero(observations[seat]["action_mask"])))
                           for seat in env.agents}
            else:
                actions = {seat: IDLE[game] for seat in env.agents}
            observations, *_ = env.step(actions)
            played += 1
    return played / (time.perf_counter() - started)


def make_bot(folder: Path, argv: list[str]) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.json").write_text(json.dumps({
        "author": "bench", "email": "bench@example.invalid", "nickName": folder.name, "botLocation": "/",
        "botFileName": "none", "botLanguage": "custom", "command": argv,
    }))
    return folder


def through_processes(game: str, turns: int, scratch: Path, seed: int) -> float:
    argv = INSTANT.get(game, ["true"])
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        bots = [make_bot(Path(tmp) / name, argv) for name in ("one", "two")]
        started = time.perf_counter()
        summary = play_match(game, bots, Path(tmp) / "match", seed=seed, options=options_for(game, turns))
        return summary.rounds / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scratch", type=Path, default=None, help="where the process matches write logs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = {}
    for game in ("tower-defence", "lanes", "invaders", "warzone"):
        api = statistics.median(in_process(game, args.turns, seed) for seed in range(args.repeat))
        files = statistics.median(through_processes(game, args.turns, args.scratch, seed)
                                  for seed in range(args.repeat))
        rows[game] = {"api_turns_per_s": round(api, 1), "process_turns_per_s": round(files, 1),
                      "speed_up": round(api / files, 1)}
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{'game':<14} {'parallel_env turns/s':>21} {'play_match turns/s':>19} {'ratio':>7}")
    for game, row in rows.items():
        print(f"{game:<14} {row['api_turns_per_s']:>21,.0f} {row['process_turns_per_s']:>19,.0f} "
              f"{row['speed_up']:>6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
