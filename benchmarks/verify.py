"""`td-runner verify` of every official Tower Defence log, as a user runs it (one process per log), timed for
one or more source trees in alternating runs (so a busy machine slows each tree alike).

    python benchmarks/verify.py [--tree PATH ...] [--repeat 5] [--logs DIR]

Default tree: this one. `--tree /work/main --tree .` compares a tree before and after a change. Each run
verifies the 17 traces of tests/games/tower_defence/data/conformance unpacked once (or the log folders of
`--logs`); prints, per tree, the median wall time of the whole sweep and of the longest log (gg-mirror-g11,
401 rounds), and checks every tree gives the same exit code for every log.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRACES = ROOT / "tests" / "games" / "tower_defence" / "data" / "conformance"
LONGEST = "gg-mirror-g11"


def verify(tree: Path, log: Path) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", "import sys; from runner.cli import entry; sys.exit(entry())",
                           "verify", str(log)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", help="a source tree (repeatable; default: this one)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--logs", type=Path, help="a folder of official log folders (default: the traces)")
    args = parser.parse_args()
    trees = [tree.resolve() for tree in args.tree or [ROOT]]
    with tempfile.TemporaryDirectory() as temp:
        root = args.logs
        if root is None:
            root = Path(temp)
            for archive in sorted(TRACES.glob("*.tar.gz")):
                with tarfile.open(archive) as opened:
                    opened.extractall(root, filter="data")
        logs = sorted(path for path in root.iterdir() if path.is_dir())
        sweeps: dict[Path, list[float]] = {tree: [] for tree in trees}
        longest: dict[Path, list[float]] = {tree: [] for tree in trees}
        codes: dict[Path, dict[str, int]] = {tree: {} for tree in trees}
        for _ in range(args.repeat):
            for tree in trees:  # alternating: tree 1, tree 2, tree 1, ...
                total = 0.0
                for log in logs:
                    seconds, code = verify(tree, log)
                    total += seconds
                    codes[tree][log.name] = code
                    if log.name == LONGEST:
                        longest[tree].append(seconds)
                sweeps[tree].append(total)
    print(f"td-runner verify of {len(logs)} official logs, median of {args.repeat} alternating runs:")
    for tree in trees:
        slow = f", {LONGEST} {statistics.median(longest[tree]):.2f} s" if longest[tree] else ""
        failing = sorted(name for name, code in codes[tree].items() if code != 0)
        print(f"  {tree}: all {statistics.median(sweeps[tree]):.2f} s{slow}; exit != 0: {', '.join(failing) or 'none'}")
    same = all(codes[tree] == codes[trees[0]] for tree in trees)
    print("every tree gives the same exit codes" if same else "EXIT CODES DIFFER between trees")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
