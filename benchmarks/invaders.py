"""Invaders speed: the engine, the session, and a live koth-js match beside the reference driver and the pipe.

    python benchmarks/invaders.py [--reference PATH/tower-defense.js] [--pairs 3] [--repeat 7] [--json]

1. engine: the recorded answers of turret__vs__army (12,630 turns, tests/games/invaders/data) replayed through
   the rules alone (start_turn + finish_turn), turns per second; target (issue) 50,000 turns/s.
2. session: the same game through InvadersSession as the match loop drives it (request lines rendered,
   answer lines parsed, the log record built and its line rendered), turns per second, with the default request
   and with the delta request the koth starter bots ask for; target (issue 24) 100,000 turns/s with the delta.
   Parts 1 and 2 run on the compiled board (runner/games/invaders/rules/_board.c) and on the pure Python rules,
   passes alternating, when the board is built; else on the pure rules only.
3. live, interleaved (at least 3 rounds of: reference, td-runner, pipe floor), medians:
   - reference: the reference page's own JavaScript (Beefster09/pcg-tower-defense at d3847b9, fetched by
     hand OUTSIDE this repository: give its tower-defense.js with --reference) playing its two sample AIs
     in-process, timed by the koth-reference driver (`run`, next to `echo.js`, --driver-dir);
   - td-runner: `td-runner match --game invaders` of starter-bots/invaders/koth-turret vs koth-army as a
     separate command (Python start, both node processes, the log and match.json included); the first log
     is compared with the reference trace at every turn;
   - pipe floor: the very request lines td-runner sends in that match, one per seat per turn, to two
     `node echo.js` processes driven from a Python process (benchmarks/turn_split.py), also a whole command.
   td-runner and the floor run with Python's bytecode caching on (caches in the scratch folder, after one
   untimed run each), as installed: a shell with PYTHONDONTWRITEBYTECODE would add ~0.15 s of compiling.
   Printed: the medians, reference/td-runner (the issue's target: at least 0.33) and td-runner/floor (at
   most 1.5).
4. split: one more live match in this process with timers (benchmarks/turn_split.py): microseconds per turn
   of engine, request rendering, pipe wait (`exchange`: the writes of the lines and the bots' thinking
   included) and the rest.

Without --reference, part 3 skips the reference. The machine is shared and noisy: compare figures printed
by the same run, and quote medians.
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
from runner.games.invaders import GAME, board  # noqa: E402
from runner.games.invaders.board import new_board  # noqa: E402
from runner.games.invaders.protocol.lines import DELTA  # noqa: E402
from runner.games.invaders.rules import State, finish_turn, is_over, start_turn  # noqa: E402
from runner.games.invaders.session import InvadersSession  # noqa: E402
from turn_split import installed_env, pipe_floor, split_match, timed_command  # noqa: E402

TRACE = ROOT / "tests" / "games" / "invaders" / "data" / "turret__vs__army.jsonl.gz"
DRIVER_DIR = ROOT.parent / "shared" / "bench" / "koth-reference"  # developer tooling outside the repository
BOTS = ROOT / "starter-bots" / "invaders"
SAMPLES = (BOTS / "koth-turret", BOTS / "koth-army")


def load_answers(trace: Path) -> list[tuple[object, object]]:
    """(invader answer, defender answer) of every turn of a spec 16 trace."""
    with gzip.open(trace, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    return [(row["ia"], row["da"]) for row in rows[1:]]


def engine_pass(answers: list[tuple[object, object]], compiled: bool = False) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one replay: the pure rules, or the compiled board."""
    if compiled:
        compiled_board = new_board(True)
        state, start, finish = compiled_board.state, compiled_board.start_turn, compiled_board.finish_turn
    else:
        state = State()
        start, finish = (lambda: start_turn(state)), (lambda invader, defender: finish_turn(state, invader, defender))
    started, cpu = time.perf_counter(), time.process_time()
    for invader, defender in answers:
        start()
        finish(invader, defender)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert is_over(state) and state.turn == len(answers), "the replay did not end where the trace does"
    return seconds, cpu


def new_session(request: str | None, compiled: bool | None = None):  # noqa: ANN201  (an InvadersSession)
    """A session as the match makes it; `compiled` picks the board (None: the compiled one if built)."""
    session = GAME.new_session(GAME.configure(None, {}), GAME.seats(2), 0, {})
    if compiled is not None:
        session = InvadersSession(session.config, compiled=compiled)
    for seat in GAME.seats(2) if request else ():
        session.use_request_format(seat, request)
    return session


def session_pass(lines: list[tuple[str, str]], request: str | None = None, compiled: bool | None = None,
                 ) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one pass."""
    session = new_session(request, compiled)
    started, cpu = time.perf_counter(), time.process_time()
    for invader, defender in lines:
        session.inputs()
        report = session.play_turn({"defender": Answer(defender), "invader": Answer(invader)})
        if report.record_line is None:  # what the match loop writes: the game's own line, or the record encoded
            json.dumps(report.record, separators=(",", ":"))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert session.outcome() is not None and session.outcome().reason == "life"
    return seconds, cpu


def request_lines(lines: list[tuple[str, str]], request: str | None) -> list[list[str]]:
    """The request lines (defender, invader) of every turn of the game, as the match sends them."""
    session = new_session(request)
    sent = []
    for invader, defender in lines:
        inputs = session.inputs()
        sent.append([inputs["defender"].line, inputs["invader"].line])
        session.play_turn({"defender": Answer(defender), "invader": Answer(invader)})
    return sent


def reference_pass(driver: Path, reference: Path) -> float:
    """Seconds of one reference run (node and the reference's game loop with its AIs in-process)."""
    out = subprocess.run([str(driver / "run"), str(reference), "--reps", "1"], capture_output=True, text=True,
                         check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    assert result["turns"] == 12630, f"the reference played {result['turns']} turns, not 12,630"
    return float(result["median_s"])


def live_command(scratch: Path, name: str) -> list[str]:
    return [sys.executable, "-m", "runner", "match", "--game", "invaders", "--quiet", "--output", str(scratch),
            "--name", name, *map(str, SAMPLES)]


def same_as_trace(log: Path, trace: Path) -> bool:
    # the core's diff: every turn's answers and row (the trace's turn-0 row is its start, not a turn; it keeps no
    # `ir`/`dr`, so they are left out)
    return GAME.diff(log, trace, {}).same


def median(values: list[float]) -> float:
    return statistics.median(values)


def live(args: argparse.Namespace, lines: list[tuple[str, str]], result: dict[str, object]) -> None:
    """Part 3: reference, td-runner and pipe floor in turns; part 4: the split of a turn."""
    reference = args.reference
    echo = ["node", str(args.driver_dir / "echo.js")]
    times: dict[str, list[float]] = {"reference": [], "td-runner": [], "floor": []}
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        requests = scratch / "requests.jsonl"
        requests.write_text("".join(json.dumps(turn) + "\n" for turn in request_lines(lines, DELTA)))
        env = installed_env(scratch / "pycache")
        timed_command([*live_command(scratch, "warm-up"), "--max-turns", "1"], ROOT, env)  # writes the caches
        pipe_floor(requests, [echo, echo], env)
        for index in range(args.pairs):
            if reference is not None:
                times["reference"].append(reference_pass(args.driver_dir, reference))
            times["td-runner"].append(timed_command(live_command(scratch, f"live{index}"), ROOT, env))
            times["floor"].append(pipe_floor(requests, [echo, echo], env)["wall_s"])
        load = os.getloadavg()[0]
        identical = same_as_trace(scratch / "live0", args.trace)
        split = split_match("invaders", SAMPLES, scratch / "split")
        split_identical = same_as_trace(scratch / "split", args.trace)
    td, floor = median(times["td-runner"]), median(times["floor"])
    shown = {name: ", ".join(f"{t:.2f}" for t in values) for name, values in times.items()}
    print(f"live, {args.pairs} interleaved rounds (seconds; load average {load:.1f}):")
    if reference is not None:
        ref = median(times["reference"])
        print(f"  reference driver, AIs in-process:   median {ref:6.2f} s  ({shown['reference']})")
    print(f"  td-runner match, koth-js bots:      median {td:6.2f} s  ({shown['td-runner']}); log "
          f"{'identical to' if identical else 'DIFFERS from'} the reference trace")
    print(f"  pipe floor, echo.js x2, same lines: median {floor:6.2f} s  ({shown['floor']})")
    if reference is not None:
        print(f"  reference/td-runner: {ref / td:.2f} (target >= 0.33, aim 0.5)")
        result.update(reference_s=round(ref, 3), reference_over_td=round(ref / td, 3))
    print(f"  td-runner/floor:     {td / floor:.2f} (target <= 1.5)")
    turns = split["turns"]
    parts = split["per_turn_us"]
    print(f"td-runner's turn, in this process ({turns} turns, loop {split['loop_s']:.2f} s; log "
          f"{'identical' if split_identical else 'DIFFERENT'}): " + ", ".join(f"{k} {v:.1f} us" for k, v in parts.items()))
    result.update(td_runner_s=round(td, 3), floor_s=round(floor, 3), td_over_floor=round(td / floor, 3),
                  live_identical=identical and split_identical, split_us=parts, runs=times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, help="the reference's tower-defense.js (fetched outside the repo)")
    parser.add_argument("--driver-dir", type=Path, default=DRIVER_DIR, help=f"the koth-reference driver (default {DRIVER_DIR})")
    parser.add_argument("--pairs", type=int, default=3, help="interleaved live rounds (default 3; 0 skips the live part)")
    parser.add_argument("--repeat", type=int, default=7, help="timed engine and session passes (default 7)")
    parser.add_argument("--trace", type=Path, default=TRACE)
    parser.add_argument("--json", action="store_true", help="also print a JSON summary as the last line")
    args = parser.parse_args()
    if args.reference is not None and not args.reference.is_file():
        parser.error(f"--reference {args.reference}: no such file")
    answers = load_answers(args.trace)
    lines = [(json.dumps(invader), json.dumps(defender)) for invader, defender in answers]
    turns = len(answers)
    engine_pass(answers)  # warm-up
    print(f"{args.trace.name}: {turns} turns; medians of {args.repeat}; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    result: dict[str, object] = {"turns": turns}
    # the compiled board (runner/games/invaders/rules/_board.c) and the pure rules, passes alternating
    boards = ((" [compiled]", "", True), (" [pure]", "_pure", False)) if board._COMPILED else ((" [pure]", "_pure", False),)
    if board._COMPILED is None:
        print("the compiled board is not built (or is stale): pure Python rules only")
    for label, key, run, data in (("engine only", "engine", engine_pass, answers),
                                  ("session, default request", "session",
                                   lambda data, compiled: session_pass(data, None, compiled), lines),
                                  ("session, delta request", "session_delta",
                                   lambda data, compiled: session_pass(data, DELTA, compiled), lines)):
        passes: dict[bool, list[tuple[float, float]]] = {compiled: [] for _, _, compiled in boards}
        for _ in range(args.repeat):
            for _, _, compiled in boards:
                passes[compiled].append(run(data, compiled))
        for which, suffix, compiled in boards:
            wall = statistics.median(turns / seconds for seconds, _ in passes[compiled])
            cpu = statistics.median(turns / cpu for _, cpu in passes[compiled])
            # on a loaded machine the wall figure falls with the load; the CPU-time figure much less
            print(f"{label + which + ':':37} {wall:9.0f} turns/s wall, {cpu:9.0f} turns/s of CPU time")
            result.update({f"{key}{suffix}_turns_per_s": round(wall), f"{key}{suffix}_turns_per_cpu_s": round(cpu)})
    if args.pairs:
        if shutil.which("node") is None:
            print("live: skipped (node is not installed)")
        else:
            live(args, lines, result)
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
