"""Engine speed: replay official-layout match logs in-process and print rounds per second.

    python benchmarks/engine.py [MATCH_DIR ...] [--repeat 5] [--json]
    python benchmarks/engine.py --official [--pairs 5] [--java-args "--reps 200,40 --last 50,15"] [MATCH_DIR]

Default: every conformance trace bundled under tests/games/tower_defence/data/conformance. Two figures, each
the median of `--repeat` timed passes after one warm-up pass over all logs: engine only (play_round), and
engine plus rendering both players' JSON state and text map every round (what the runner does per round).

`--official` puts td-runner beside the official 3.0.2 Java engine on one log (default gg-mirror-g11):
`../shared/bench/official-td/run` (its README; developer tooling: the project's shared folder beside the
repository on developers' machines, not part of the repository, so a user's clone has no `--official`) and
td-runner's own replay run interleaved, Java first, for
`--pairs` pairs; it prints each pair, the medians and the ratios td-runner / Java for both modes. Figures
from different runs or machines do not compare; these ratios do. Where no Java runtime can be had it says
so and prints td-runner's figures alone.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
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
from runner.games.tower_defence.logs.layout import open_match_log, recorded_order  # noqa: E402
from runner.games.tower_defence.protocol import Renderers  # noqa: E402

TRACES = ROOT / "tests" / "games" / "tower_defence" / "data" / "conformance"
OFFICIAL = ROOT.parent / "shared" / "bench" / "official-td"
OFFICIAL_LOG = "gg-mirror-g11"


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


def run_official(runner: Path, log: Path, java_args: list[str]) -> tuple[dict | None, str]:
    """One run of the official engine's replay driver: ({"engine": rounds/s, "render": rounds/s}, "") or
    (None, why not)."""
    if not runner.is_file():
        return None, f"{runner} is missing"
    try:
        done = subprocess.run([str(runner), str(log), *java_args], capture_output=True, text=True, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, str(error)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return None, (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
    try:
        figures = json.loads(lines[-1])
        return {mode: float(figures[mode]["rounds_per_s"]) for mode in ("engine", "render")}, ""
    except (ValueError, KeyError, TypeError):
        return None, f"unexpected output: {lines[-1][:200]}"


def official(args: argparse.Namespace, log: Path) -> int:
    """Interleave the official Java engine and td-runner on one log; print medians and ratios."""
    matches = load_matches([log])
    java_args = shlex.split(args.java_args)
    runner = args.official_dir / "run"
    java: dict[str, list[float]] = {"engine": [], "render": []}
    ours: dict[str, list[float]] = {"engine": [], "render": []}
    no_java = ""
    rounds = 0
    print(f"side by side on {log.name}: {args.pairs} pairs (Java, td-runner), td-runner median of {args.repeat} "
          f"passes per figure; Java: {runner} {' '.join(java_args)}")
    for pair in range(1, args.pairs + 1):
        line = f"pair {pair}:"
        if not no_java:
            figures, no_java = run_official(runner, log, java_args)
            if figures is not None:
                for mode in java:
                    java[mode].append(figures[mode])
                line += f" Java {figures['engine']:9.0f} engine, {figures['render']:7.0f} render rounds/s;"
        rounds, engine_rate = rounds_per_second(matches, render=False, repeat=args.repeat)
        _, render_rate = rounds_per_second(matches, render=True, repeat=args.repeat)
        ours["engine"].append(engine_rate)
        ours["render"].append(render_rate)
        print(f"{line} td-runner {engine_rate:9.0f} engine, {render_rate:7.0f} render rounds/s", flush=True)
    result: dict = {"log": log.name, "rounds": rounds, "pairs": args.pairs}
    print(f"medians ({rounds} rounds per replay):")
    for mode, title in (("engine", "engine only"), ("render", "engine + render A,B json+txt")):
        mine = statistics.median(ours[mode])
        result[f"td_runner_{mode}_rounds_per_s"] = round(mine, 1)
        if java[mode]:
            theirs = statistics.median(java[mode])
            ratio = mine / theirs
            result[f"java_{mode}_rounds_per_s"] = round(theirs, 1)
            result[f"{mode}_ratio"] = round(ratio, 3)
            print(f"  {title:29s} td-runner {mine:9.0f}  Java {theirs:9.0f}  ratio {ratio:5.2f}x Java")
        else:
            print(f"  {title:29s} td-runner {mine:9.0f}")
    if no_java:
        result["java"] = f"unavailable: {no_java}"
        print(f"no Java figures: the official engine could not run ({no_java}); td-runner's figures alone")
    if args.json:
        print(json.dumps(result))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match_dirs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--official", action="store_true", help="interleave with the official Java engine")
    parser.add_argument("--pairs", type=int, default=5, help="--official: Java/td-runner pairs (default 5)")
    parser.add_argument("--java-args", default="", help="--official: arguments for the official run script "
                        "after LOG_DIR (default: its own, --mode engine,render --reps 200,40 --last 50,15)")
    parser.add_argument("--official-dir", type=Path, default=OFFICIAL, help=f"default {OFFICIAL}")
    args = parser.parse_args()
    if args.official and len(args.match_dirs) > 1:
        parser.error("--official compares one match log")
    with tempfile.TemporaryDirectory() as scratch:
        paths = args.match_dirs
        if not paths:
            for archive in sorted(TRACES.glob("*.tar.gz")):
                if args.official and not archive.name.startswith(OFFICIAL_LOG + "."):
                    continue
                with tarfile.open(archive) as tar:
                    tar.extractall(scratch, filter="data")
            paths = sorted(Path(scratch).iterdir())
        if args.official:
            return official(args, paths[0])
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
