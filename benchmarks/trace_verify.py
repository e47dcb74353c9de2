"""`td-runner verify` of the reference traces (Lanes spec 11, Invaders koth): CPU seconds per trace (user + system
of the command), one command each (the interpreter's start and the imports included), for one or more source
trees run alternately. CPU rather than wall time: on this shared 2-core machine the wall time of one command
moves with the load several-fold, its CPU much less.

    python benchmarks/trace_verify.py [--tree PATH ...] [--rounds 5] [--traces NAME,...] [--json]

Each `--tree` is a checkout whose `runner` is imported (PYTHONPATH=PATH): give two to compare a change with the
tree before it (`--tree /work/main --tree .`); the default is this checkout alone. Every round runs each trace
once under each tree, trees alternating, and the figures are medians over the rounds. A run that does not
verify (exit code not 0) stops the benchmark: a verify that fails is not a speed. The machine is shared and
noisy: compare the figures of one run, not across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRACES = sorted((ROOT / "tests" / "games" / "lanes" / "data").glob("*.jsonl")) + sorted(
    (ROOT / "tests" / "games" / "invaders" / "data").glob("*.jsonl.gz"))


def seconds(tree: Path, trace: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "runner", "verify", str(trace)], env=env, capture_output=True,
                          text=True, check=False, cwd=tree)  # (`-m` puts the working folder before PYTHONPATH)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    took = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode != 0:
        raise SystemExit(f"{tree}: verify {trace.name} exited {done.returncode}: {done.stdout}{done.stderr}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", type=Path, help="a checkout to run (repeatable)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--traces", help="comma-separated trace names (default: all)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees = [tree.resolve() for tree in args.tree or [ROOT]]
    chosen = [t for t in TRACES if not args.traces or t.name.split(".")[0] in args.traces.split(",")]
    times: dict[str, dict[str, list[float]]] = {t.name: {str(tree): [] for tree in trees} for t in chosen}
    for _ in range(args.rounds):
        for trace in chosen:
            for tree in trees:
                times[trace.name][str(tree)].append(seconds(tree, trace))
    medians = {name: {tree: statistics.median(runs) for tree, runs in by_tree.items()}
               for name, by_tree in times.items()}
    if args.json:
        print(json.dumps(medians, indent=2))
        return
    print(f"median CPU seconds of {args.rounds} alternating runs of `python -m runner verify TRACE`")
    print(f"{'trace':32}" + "".join(f"{str(tree)[-24:]:>26}" for tree in trees))
    for name, by_tree in medians.items():
        print(f"{name:32}" + "".join(f"{by_tree[str(tree)]:26.2f}" for tree in trees))


if __name__ == "__main__":
    main()
