"""Engine speed: replay official-layout match logs in-process and print rounds per second.

    python benchmarks/engine.py [MATCH_DIR ...] [--repeat 5] [--json]

Default: every conformance trace bundled under tests/data/conformance. Two figures, each the median of
`--repeat` timed passes after one warm-up pass over all logs: engine only (play_round), and engine plus
rendering both players' JSON state and text map every round (what the runner does per round).
Reference (issue 2): the official Java engine replaying gg-mirror-g11 does ~41,000 rounds/s engine only and
~840 rounds/s with rendering (2 cores, warm JIT).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner.games.tower_defence.engine.config import GameConfig  # noqa: E402
from runner.games.tower_defence.engine.game import check_game_over, play_round  # noqa: E402
from runner.games.tower_defence.engine.state import GameState  # noqa: E402
from runner.games.tower_defence.logs.layout import open_match_log  # noqa: E402
from runner.games.tower_defence.logs.verify import recorded_order  # noqa: E402
from runner.games.tower_defence.protocol import Renderers  # noqa: E402

TRACES = ROOT / "tests" / "data" / "conformance"


def load_matches(paths: list[Path]) -> list[tuple[str, list[dict[str, str]], object]]:
    matches = []
    for path in paths:
        log = open_match_log(path)
        matches.append((path.name, log.commands(), recorded_order(log)))
    return matches


def replay(matches, render: bool) -> int:
    """Play every match once; return the number of rounds processed."""
    rounds = 0
    for _, commands, order in matches:
        state = GameState.new(GameConfig(), command_order=order) if order else GameState.new(GameConfig())
        renderers = Renderers(state.config) if render else None
        for round_commands in commands:
            if check_game_over(state) is not None:
                break
            if renderers is not None:
                renderers.player_files(state)
            play_round(state, round_commands)
            rounds += 1
    return rounds


def rounds_per_second(matches, render: bool, repeat: int) -> tuple[int, float]:
    replay(matches, render)  # warm-up
    timings = []
    rounds = 0
    for _ in range(repeat):
        start = time.perf_counter()
        rounds = replay(matches, render)
        timings.append(time.perf_counter() - start)
    return rounds, rounds / statistics.median(timings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match_dirs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        paths = args.match_dirs
        if not paths:
            for archive in sorted(TRACES.glob("*.tar.gz")):
                with tarfile.open(archive) as tar:
                    tar.extractall(scratch, filter="data")
            paths = sorted(Path(scratch).iterdir())
        matches = load_matches(paths)
    rounds, engine_rate = rounds_per_second(matches, render=False, repeat=args.repeat)
    _, render_rate = rounds_per_second(matches, render=True, repeat=args.repeat)
    names = ", ".join(name for name, _, _ in matches) if len(matches) <= 3 else f"{len(matches)} logs"
    print(f"replayed {rounds} rounds ({names}); median of {args.repeat}")
    print(f"engine only:                 {engine_rate:10.0f} rounds/s")
    print(f"engine + render A,B json+txt: {render_rate:9.0f} rounds/s")
    if args.json:
        print(json.dumps({"rounds": rounds, "engine_rounds_per_s": round(engine_rate, 1),
                          "render_rounds_per_s": round(render_rate, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
