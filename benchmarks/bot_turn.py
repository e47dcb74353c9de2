"""Per-turn overhead of runner.bots.run_turn for an instant bot, against a bare subprocess.run of the same
program, measured in one run (median of N turns after a warm-up).

    python benchmarks/bot_turn.py [--turns N] [--json]

Each mode of isolation this machine supports is measured: PID namespace (the default where allowed),
process group only, and the bubblewrap sandbox when bwrap is installed. The bot is `/bin/true` started
through the `custom` language, so the figures are the runner's own cost: writing the two state files,
the launch wrappers (prlimit, unshare/bwrap), output capture, clean-up and reading command.txt.
"""

from __future__ import annotations

import argparse
import functools
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# sys.path[0] is this folder, where benchmarks/runner.py would shadow the `runner` package
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from runner.bots.definition import load_bot
from runner.bots.isolation import check_isolation
from runner.bots.limits import Limits
from runner.bots.process import run_turn
from runner.errors import UserError

STATE = {"state.json": "{" + '"x":1,' * 3000 + '"y":2}', "textMap.txt": "#" * 4000 + "\n"}


def interleaved_medians(actions: dict[str, Callable[[], object]], turns: int) -> dict[str, float]:
    """Median milliseconds of each action, taking turns so that load from elsewhere hits all alike."""
    times: dict[str, list[float]] = {name: [] for name in actions}
    for round_ in range(turns + max(3, turns // 10)):
        for name, action in actions.items():
            start = time.perf_counter()
            action()
            if round_ >= max(3, turns // 10):  # the first rounds are a warm-up
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) * 1000 for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    true = shutil.which("true") or "/bin/true"
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "bot.json").write_text(json.dumps({
            "author": "bench", "email": "", "nickName": "instant", "botLocation": "",
            "botLanguage": "custom", "command": [true],
        }))  # fmt: skip
        bot = load_bot(Path(folder))
        actions: dict[str, Callable[[], object]] = {"bare_subprocess": lambda: subprocess.run([true], cwd=folder, check=False)}
        modes = {"pid_namespace": Limits(), "process_group": Limits(pid_namespace=False), "sandbox": Limits(sandbox=True)}
        for name, limits in modes.items():
            try:
                mode = check_isolation(limits)
            except UserError as exc:
                print(f"{name}: skipped ({exc})")
                continue
            if name == "pid_namespace" and mode.name != "PID_NAMESPACE":
                print(f"{name}: skipped (not permitted here)")
                continue
            actions[name] = functools.partial(run_turn, bot, STATE, limits)
        medians = interleaved_medians(actions, args.turns)
    bare = medians.pop("bare_subprocess")
    results = {"turns": args.turns, "bare_subprocess_ms": round(bare, 3)}
    for name, turn in medians.items():
        results[f"{name}_turn_ms"] = round(turn, 3)
        results[f"{name}_overhead_ms"] = round(turn - bare, 3)
    for key, value in results.items():
        print(f"{key:28} {value:>9}")
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
