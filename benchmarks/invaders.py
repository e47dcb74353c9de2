"""Invaders speed: the engine replaying the reference's own game, and a live koth-js match. Prints medians.

    python benchmarks/invaders.py [--repeat 7] [--live 3] [--json]

1. engine: the recorded answers of turret__vs__army (12,630 turns, tests/games/invaders/data) replayed through
   the rules alone (start_turn + finish_turn), turns per second; target (issue) 50,000 turns/s.
2. session: the same game through InvadersSession as the match loop drives it (request lines rendered,
   answer lines parsed, the log record built and serialised), turns per second.
3. live: `td-runner match --game invaders` of the two koth-js sample bots (starter-bots/invaders/koth-turret,
   koth-army) as a separate process, wall seconds including both node processes and the log; target under
   10 s. The first live match's log is compared with the reference trace (it must be identical).

The machine is shared and noisy: compare figures printed by the same run, and quote medians.
"""

from __future__ import annotations

import argparse
import gzip
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
sys.path.insert(0, str(ROOT))

from runner.games.interface import Answer  # noqa: E402
from runner.games.invaders import GAME  # noqa: E402
from runner.games.invaders.logs import diff  # noqa: E402
from runner.games.invaders.rules import State, finish_turn, is_over, start_turn  # noqa: E402

TRACE = ROOT / "tests" / "games" / "invaders" / "data" / "turret__vs__army.jsonl.gz"
BOTS = ROOT / "starter-bots" / "invaders"


def load_answers(trace: Path) -> list[tuple[object, object]]:
    """(invader answer, defender answer) of every turn of a spec 16 trace."""
    with gzip.open(trace, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    return [(row["ia"], row["da"]) for row in rows[1:]]


def engine_pass(answers: list[tuple[object, object]]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one replay."""
    state = State()
    started, cpu = time.perf_counter(), time.process_time()
    for invader, defender in answers:
        start_turn(state)
        finish_turn(state, invader, defender)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert is_over(state) and state.turn == len(answers), "the replay did not end where the trace does"
    return seconds, cpu


def session_pass(lines: list[tuple[str, str]]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one pass."""
    session = GAME.new_session(GAME.configure(None, {}), GAME.seats(2), 0, {})
    started, cpu = time.perf_counter(), time.process_time()
    for invader, defender in lines:
        session.inputs()
        report = session.play_turn({"defender": Answer(defender), "invader": Answer(invader)})
        json.dumps(report.record, separators=(",", ":"))  # what the match loop does with the record
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert session.outcome() is not None and session.outcome().reason == "life"
    return seconds, cpu


def live_pass(scratch: Path, name: str) -> tuple[float, float]:
    """(wall seconds of the whole command, match.json wall_seconds)."""
    command = [sys.executable, "-m", "runner", "match", "--game", "invaders", "--quiet", "--output", str(scratch),
               "--name", name, str(BOTS / "koth-turret"), str(BOTS / "koth-army")]
    started = time.perf_counter()
    subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    summary = json.loads((scratch / name / "match.json").read_text())
    return wall, summary["wall_seconds"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed engine and session passes (default 7)")
    parser.add_argument("--live", type=int, default=3, help="live matches (default 3; 0 skips them)")
    parser.add_argument("--trace", type=Path, default=TRACE)
    parser.add_argument("--json", action="store_true", help="also print a JSON summary as the last line")
    args = parser.parse_args()
    answers = load_answers(args.trace)
    lines = [(json.dumps(invader), json.dumps(defender)) for invader, defender in answers]
    turns = len(answers)
    engine_pass(answers)  # warm-up
    print(f"{args.trace.name}: {turns} turns; medians of {args.repeat}; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    result: dict[str, object] = {"turns": turns}
    for label, key, run, data in (("engine only (rules)", "engine", engine_pass, answers),
                                  ("session (requests, log lines)", "session", session_pass, lines)):
        passes = [run(data) for _ in range(args.repeat)]
        wall = statistics.median(turns / seconds for seconds, _ in passes)
        cpu = statistics.median(turns / cpu for _, cpu in passes)
        # on a loaded machine the wall figure falls with the load; the CPU-time figure much less
        print(f"{label + ':':31} {wall:9.0f} turns/s wall, {cpu:9.0f} turns/s of CPU time")
        result.update({f"{key}_turns_per_s": round(wall), f"{key}_turns_per_cpu_s": round(cpu)})
    if args.live:
        if shutil.which("node") is None:
            print("live match: skipped (node is not installed)")
        else:
            with tempfile.TemporaryDirectory() as scratch:
                runs = [live_pass(Path(scratch), f"live{i}") for i in range(args.live)]
                load = os.getloadavg()[0]
                check = diff(Path(scratch) / "live0", args.trace)
            walls = [wall for wall, _ in runs]
            loops = [loop for _, loop in runs]
            # the trace has a turn-0 row that a match log does not: that is the only difference allowed
            same = check.data["differing_turns"] == 0 and check.data["turns_b"] == check.data["turns_a"] + 1
            print(f"live koth-js match (turret vs army), {args.live} runs: median wall {statistics.median(walls):.2f} s "
                  f"(min {min(walls):.2f}, max {max(walls):.2f}); match loop {statistics.median(loops):.2f} s; "
                  f"log {'identical to' if same else 'DIFFERS from'} the reference trace; load average {load:.1f}")
            result.update(live_wall_s=round(statistics.median(walls), 2), live_loop_s=round(statistics.median(loops), 2),
                          live_identical=same)
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
