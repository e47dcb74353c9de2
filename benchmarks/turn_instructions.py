"""Runner instructions per turn of a live Invaders match, counted by valgrind: a figure that does not drift.

    python benchmarks/turn_instructions.py [--turns 1000,3000] [TREE ...]

The wall-clock figures of benchmarks/invaders.py move 20-40% from run to run on this project's shared 2-core
machines, which hides a 5% change; the instructions the runner process executes per turn do not move (a few
hundred of ~125,000). For each checkout TREE (default: this one), the koth-js sample match (turret vs army,
the bots as `td-runner match` runs them, the log written) is played in one process under
`valgrind --tool=callgrind` twice, to two turn limits; the difference of the two totals over the difference
of the turns is the runner's own cost of a turn, start-up and shut-down cancelled out. The bots are not
instrumented (valgrind follows no child process). Needs valgrind (Debian: apt-get install valgrind); a run
takes about a minute per tree.

Valgrind does not implement pidfd_open, which the runner's probe for PID namespaces uses, so the bots run in
a process group here: that changes how they are started, not the runner's work per turn.

Example (the same count for the session's start and now: `git archive BASE | tar -x -C /tmp/base`, copying
the built .so files beside their .c):
    python benchmarks/turn_instructions.py /tmp/base .
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: One in-process match of the koth-js samples, `argv[1]` the tree to import, `argv[2]` the turn limit.
_MATCH = r"""
import sys, tempfile
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import runner.bots.isolation as isolation
isolation._namespace_prefix = lambda: None  # valgrind has no pidfd_open (see the module's docstring)
from runner.play import plan_match, start_match
bots = Path(sys.argv[1]) / "starter-bots" / "invaders"
plan = plan_match("invaders", (bots / "koth-turret", bots / "koth-army"), options={"max_turns": int(sys.argv[2])})
summary = start_match(plan, Path(tempfile.mkdtemp()) / "match").run()
print(summary.rounds, summary.end_reason)
"""


def instructions(tree: Path, turns: int, scratch: Path) -> tuple[int, str]:
    """(instructions the runner process executed, what the match printed) for one match of `turns` turns."""
    out = scratch / f"callgrind.{turns}"
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
                           _MATCH, str(tree), str(turns)], capture_output=True, text=True, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind on {tree} failed ({done.returncode}): {done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path, default=[ROOT], help="checkouts to count (default: this one)")
    parser.add_argument("--turns", default="1000,3000", help="the two turn limits (default 1000,3000)")
    args = parser.parse_args()
    low, high = (int(value) for value in args.turns.split(","))
    with tempfile.TemporaryDirectory() as scratch:
        for tree in args.trees:
            (first, first_end), (second, second_end) = (instructions(tree.resolve(), turns, Path(scratch))
                                                        for turns in (low, high))
            per_turn = (second - first) / (high - low)
            print(f"{tree}: {per_turn:,.0f} runner instructions per turn ({low} turns: {first:,}; {high} turns: "
                  f"{second:,}; matches ended: {first_end} / {second_end})")


if __name__ == "__main__":
    main()
