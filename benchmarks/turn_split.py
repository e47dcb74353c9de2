"""Where a live match's turn goes, for the benchmarks of persistent bots (invaders.py, bot_turn.py).

`split_match` plays one match in this process with timers around the match loop's parts: the engine
(`Session.play_turn`: rules, answer parsing, the log record), request rendering (`Session.inputs`, then
`PersistentBot.send`: turn files, the line's encoding and its write to the pipe), the pipe wait
(`collect_all`: from the last request written to the last answer read, the bots' thinking included; when
every seat is persistent and the turn has no files, as in Invaders, `exchange`, whose writes of the lines
are then in the pipe wait too), and the rest of `MatchRunner.play_one_turn` (tallies, the log line written while the bots think, bot output).
Each timer costs well under a microsecond a call; figures are microseconds per turn.

`pipe_floor` is the cost of the pipe alone: the same request lines sent to echo programs (one process per
seat, one line each way per turn, every seat's line written before any answer is read, as the match loop
does), timed from the start of the driver process to its end like a `td-runner match` command.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import runner.match as match_module
from runner.bots.persistent import PersistentBot
from runner.match import MatchRunner
from runner.play import plan_match, start_match

PARTS = ("engine", "request", "pipe_wait", "rest")


@contextmanager
def _timed(owner: Any, name: str, totals: dict[str, float], part: str) -> Iterator[None]:
    original = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            totals[part] += time.perf_counter() - started

    setattr(owner, name, wrapper)
    try:
        yield
    finally:
        if owner.__dict__.get(name) is wrapper:
            if isinstance(owner, type) or owner is match_module:
                setattr(owner, name, original)
            else:
                delattr(owner, name)  # the instance's own attribute: the class's method shows again


@contextmanager
def _timed_exchange(totals: dict[str, float]) -> Iterator[None]:
    """`exchange` (every seat persistent, no files: Invaders) writes, waits and reads: all of it is pipe_wait,
    except the log lines it writes while the bots think (`meanwhile`), which stay in the rest."""
    original = match_module.exchange

    def wrapper(bots: Any, turn: int, lines: Any, meanwhile: Any) -> Any:
        inside = 0.0

        def timed_meanwhile() -> None:
            nonlocal inside
            started = time.perf_counter()
            meanwhile()
            inside += time.perf_counter() - started

        started = time.perf_counter()
        try:
            return original(bots, turn, lines, timed_meanwhile)
        finally:
            totals["pipe_wait"] += time.perf_counter() - started - inside

    match_module.exchange = wrapper
    try:
        yield
    finally:
        match_module.exchange = original


def split_match(game: str, folders: Sequence[Path], folder: Path, **plan_options: Any) -> dict[str, Any]:
    """Play one match with timers; microseconds per turn of each part, the turns, and the loop's seconds."""
    plan = plan_match(game, folders, **plan_options)
    match = start_match(plan, folder)
    totals = dict.fromkeys([*PARTS, "loop"], 0.0)
    session = match.session
    with (_timed(session, "play_turn", totals, "engine"), _timed(session, "inputs", totals, "request"),
          _timed(PersistentBot, "send", totals, "request"), _timed(match_module, "collect_all", totals, "pipe_wait"),
          _timed_exchange(totals), _timed(MatchRunner, "play_one_turn", totals, "loop")):
        gc.freeze()  # as `td-runner match` does after start-up: this process's own heap (traces, lines) stays out
        try:
            summary = match.run()
        finally:
            gc.unfreeze()
    turns = summary.rounds
    totals["rest"] = totals["loop"] - totals["engine"] - totals["request"] - totals["pipe_wait"]
    split = {part: round(totals[part] / turns * 1e6, 1) for part in PARTS}
    return {"turns": turns, "loop_s": round(totals["loop"], 3), "per_turn_us": split,
            "end_reason": summary.end_reason}


#: The driver of `pipe_floor`, run as its own Python process: argv = lines file, then one command per seat.
_FLOOR_DRIVER = r"""
import json, os, select, subprocess, sys, time
started = time.perf_counter()
lines_file, commands = sys.argv[1], [json.loads(c) for c in sys.argv[2:]]
with open(lines_file, "rb") as handle:
    turns = [json.loads(line) for line in handle]
procs = [subprocess.Popen(c, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for c in commands]
ins = [p.stdin.fileno() for p in procs]
outs = [p.stdout.fileno() for p in procs]
turns = [[line.encode() + b"\n" for line in turn] for turn in turns]
poller = select.poll()
for fd in outs:
    poller.register(fd, select.POLLIN)
loop = time.perf_counter()
for turn in turns:
    for fd, data in zip(ins, turn):
        os.write(fd, data)
    owed = set(outs)
    while owed:
        for fd, _ in poller.poll():
            if not os.read(fd, 65536).endswith(b"\n"):
                continue  # an answer in pieces: wait for its end
            owed.discard(fd)
loop = time.perf_counter() - loop
for p in procs:
    p.stdin.close()
    p.wait()
print(json.dumps({"total_s": time.perf_counter() - started, "loop_s": loop}))
"""


def installed_env(pycache: Path) -> dict[str, str]:
    """The environment for a timed Python command, with bytecode caching on (in `pycache`, outside the repo).

    An installed td-runner has its modules compiled; a shell with PYTHONDONTWRITEBYTECODE set (as some
    development setups do) would instead compile every runner module on every start, ~0.15 s that no user
    pays. The caller runs each command once untimed first, so the caches exist when the timing starts."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(pycache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def pipe_floor(turn_lines: Path, commands: Sequence[Sequence[str]], env: dict[str, str] | None = None) -> dict[str, float]:
    """One run of the bare pipe: `turn_lines` holds a JSON list of request lines (one per seat) per line."""
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _FLOOR_DRIVER, str(turn_lines), *map(json.dumps, commands)],
                         capture_output=True, text=True, check=True, env=env).stdout
    wall = time.perf_counter() - started
    result = json.loads(out)
    return {"wall_s": wall, "loop_s": result["loop_s"]}


def timed_command(command: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """Wall seconds of one command (its output discarded)."""
    started = time.perf_counter()
    subprocess.run(list(command), check=True, cwd=cwd, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - started
