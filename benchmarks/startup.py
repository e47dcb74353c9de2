"""Fixed cost of one `td-runner` command: start-up and shut-down of a 1-turn match per game, and `--help`.

    python benchmarks/startup.py [--base OTHER_CHECKOUT] [--repeat 9] [--phases]

Each command runs as a separate process (`python -m runner ...`, the tree chosen by PYTHONPATH, from that tree's
root so its game-runner-config.json is read as a user's would be), interleaved across the cases and trees so
the machine's load hits all alike; printed: the median and min wall seconds of each. With --base, the same
commands also run against another checkout (e.g. `git archive main | tar -x -C /tmp/main`), and the last
column is base/this. Floors measured in the same run: `python -c pass`, and a bare Python that starts the two
koth-js node hosts of the Invaders match and waits for them to exit (no request).

Bytecode caching is on (caches in a scratch folder, one untimed run of each command first), as for an
installed td-runner: a shell with PYTHONDONTWRITEBYTECODE would add ~0.15 s of compiling to every command.

--phases: one more Invaders match per tree in a child that stamps the clock at the command's stages (imports
and parser, plan, bots started, first turn sent, last turn answered, bots closed, match.json, exit), printed
as milliseconds since the child was spawned.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the package `runner`, before benchmarks/runner.py beside this script

from turn_split import installed_env  # noqa: E402

#: game -> (turn-limit flag, the two bot folders relative to the tree's root)
MATCHES = {
    "tower-defence": ("--max-rounds", "starter-bots/python3", "starter-bots/reference"),
    "lanes": ("--max-turns", "starter-bots/lanes/python3", "starter-bots/lanes/reference"),
    "warzone": ("--max-turns", "starter-bots/warzone/python3", "starter-bots/warzone/reference"),
    "invaders": ("--max-turns", "starter-bots/invaders/koth-turret", "starter-bots/invaders/koth-army"),
}

#: A bare Python starting the two koth-js hosts of the Invaders match (argv from bot.json, as the runner
#: builds it), closing their stdin and waiting for them: the floor of an Invaders command.
_NODE_FLOOR = """
import subprocess, sys
hosts = [subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL) for argv, cwd in %r]
for host in hosts:
    host.stdin.close()
for host in hosts:
    host.wait()
"""

#: Stamps the stages of one Invaders match in the child (wraps runner functions; prints JSON on stderr).
_PHASES = r"""
import json, sys, time
stamps = [("interpreter ready", time.time())]
def stamp(name):
    stamps.append((name, time.time()))
import runner.cli
stamp("runner.cli imported")
real_build = runner.cli.build_parser
def build_parser(*a, **k):
    parser = real_build(*a, **k)
    stamp("parser built (match command and game imported)")
    return parser
runner.cli.build_parser = build_parser
import runner.commands.match as command, runner.match as loop
def wrap(owner, name, before=None, after=None, once=False):
    real = getattr(owner, name)
    seen = []
    def wrapped(*a, **k):
        if before and not (once and seen):
            stamp(before)
        result = real(*a, **k)
        if after and not (once and seen):
            stamp(after)
        seen.append(1)
        return result
    setattr(owner, name, wrapped)
wrap(command, "plan_match", after="match planned (bots and config checked)")
wrap(command, "start_match", after="bots started, log folder made")
wrap(loop.MatchRunner, "run_players", before="first requests sent", once=True)
real_final = loop.MatchRunner.write_final_turn
def final(self):
    stamp("last turn played")
    return real_final(self)
loop.MatchRunner.write_final_turn = final
real_json = loop.MatchLogWriter.write_json
def write_json(self, *a, **k):
    stamp("bots closed, log writes finished")
    result = real_json(self, *a, **k)
    stamp("match.json written")
    return result
loop.MatchLogWriter.write_json = write_json
real_main = runner.cli.main
def main():
    try:
        return real_main()
    finally:
        stamp("result printed")
        print(json.dumps(stamps), file=sys.stderr, flush=True)
runner.cli.main = main
(getattr(runner.cli, "entry", None) or (lambda: sys.exit(main())))()  # the program's own exit path
"""


def command_of(case: str, tree: Path, scratch: Path, run: int) -> list[str]:
    """The argv of one case (`help`, or a game's 1-turn match into a fresh folder)."""
    if case == "help":
        return [sys.executable, "-m", "runner", "--help"]
    flag, first, second = MATCHES[case]
    return [sys.executable, "-m", "runner", "match", "--game", case, "--quiet", "--output", str(scratch),
            "--name", f"{case}-{tree.name}-{run}", flag, "1", str(tree / first), str(tree / second)]


def node_floor_launches(tree: Path) -> list[list]:
    """The koth-js launch (argv, working folder) of both Invaders sample bots, from their bot.json."""
    code = ("import json,sys; from runner.bots.definition import load_bot; from runner.games import get_game;"
            "table=dict(get_game('invaders').languages);"
            "print(json.dumps([[list(b.argv), str(b.bot_dir)] for b in (load_bot(p, table) for p in sys.argv[1:])]))")
    out = subprocess.run([sys.executable, "-c", code, *(str(tree / p) for p in MATCHES["invaders"][1:])],
                         capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(tree)})
    return json.loads(out.stdout)


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def phases(tree: Path, scratch: Path, env: dict[str, str]) -> list[tuple[str, float]]:
    """Milliseconds from spawning the child to each stage of one Invaders match."""
    argv = command_of("invaders", tree, scratch, 0)[3:]
    argv[argv.index("--name") + 1] += "-phases"
    started = time.time()
    child = subprocess.run([sys.executable, "-c", _PHASES, *argv], cwd=tree, env=env, capture_output=True, text=True)
    ended = time.time()
    stamps = json.loads(child.stderr.strip().splitlines()[-1])
    return [("spawned", 0.0)] + [(name, (at - started) * 1000) for name, at in stamps] + [("exited", (ended - started) * 1000)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", type=Path, help="another checkout to time beside this one (e.g. main)")
    parser.add_argument("--repeat", type=int, default=9, help="timed runs of each command (default 9)")
    parser.add_argument("--cases", nargs="*", default=["help", *MATCHES], help="help and/or game names")
    parser.add_argument("--phases", action="store_true", help="also stamp the stages of an Invaders match")
    args = parser.parse_args()
    trees = {"this": ROOT} | ({"base": args.base.resolve()} if args.base else {})
    scratch = Path(tempfile.mkdtemp(prefix="td-startup-"))
    try:
        envs = {label: installed_env(scratch / f"pycache-{label}") | {"PYTHONPATH": str(tree)}
                for label, tree in trees.items()}
        floors = {"python -c pass": ([sys.executable, "-c", "pass"], envs["this"])}
        if "invaders" in args.cases and shutil.which("node"):
            launches = node_floor_launches(ROOT)
            floors["python + 2 koth-js hosts"] = ([sys.executable, "-c", _NODE_FLOOR % (launches,)], envs["this"])
        jobs = {(case, label): (tree, envs[label]) for case in args.cases for label, tree in trees.items()}
        times: dict[object, list[float]] = {key: [] for key in [*jobs, *floors]}
        for run in range(args.repeat + 1):  # run 0 is untimed: it fills the bytecode caches
            for (case, label), (tree, env) in jobs.items():
                seconds = timed(command_of(case, tree, scratch, run), tree, env)
                if run:
                    times[(case, label)].append(seconds)
            for name, (argv, env) in floors.items():
                seconds = timed(argv, ROOT, env)
                if run:
                    times[name].append(seconds)
        print(f"wall seconds, median (min) of {args.repeat} runs, interleaved; load average "
              f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        header = f"{'command':<34}{'this':>16}" + (f"{'base':>16}{'base/this':>11}" if args.base else "")
        print(header)
        for case in args.cases:
            label = "td-runner --help" if case == "help" else f"match --game {case}"
            mine = times[(case, "this")]
            line = f"{label:<34}{_figure(mine):>16}"
            if args.base:
                theirs = times[(case, "base")]
                line += f"{_figure(theirs):>16}{statistics.median(theirs) / statistics.median(mine):>10.2f}x"
            print(line)
        for name in floors:
            print(f"{'floor: ' + name:<34}{_figure(times[name]):>16}")
        if args.phases and "invaders" in args.cases:
            for label, tree in trees.items():
                print(f"\nstages of one Invaders --max-turns 1 match ({label}), ms since spawn:")
                previous = 0.0
                for name, at in phases(tree, scratch, envs[label]):
                    print(f"  {at:8.1f}  (+{at - previous:6.1f})  {name}")
                    previous = at
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _figure(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f})"


if __name__ == "__main__":
    main()
