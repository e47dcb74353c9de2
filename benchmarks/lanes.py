"""Lanes speed: the engine alone per turn, and a 100-turn match of two starter bots through the core.

    python benchmarks/lanes.py [--repeat 3] [--turns 100] [--engine-only] [--json]

Engine (in-process, no files), median wall and CPU ms per turn of `--engine-runs` runs each:
  * full: both lanes full of towers (6 on each of rows 0..19 = 120 a lane, missile/rocket/frost/blockade
    in turn, the free cell moving from row to row) and 100 soldiers a side (25 of each type, half of them in
    fire stance, entering over timesteps 1..80 in every column): `rules.turn.play_turn`, 100 timesteps;
  * the same towers with no soldiers, and with 500 soldiers a side (a stress figure);
  * full, through the Session: render both seats' state.json, map.txt, errors.txt, read both command
    files (text, validated), play the turn and build its spec 11 record: the game's whole share of a turn;
  * reference: every turn of the 7 reference traces (validation + play), the median turn.

Match: the Python starter bot against itself, --turns turns, with `start_hp` 100000 in a game config (two
starters send all their rifles every turn, and at the spec's 10 HP the game ends within 20 turns; with
100000 every turn limit up to 100 is played). Two figures:
  * `td-runner match` run as a command (a subprocess): its wall time divided by the turns played
    (the interpreter's start and the log's last write included);
  * the same match in-process through `runner.play.plan_match` / `start_match` (what `td-runner match`
    calls) with an observer: per turn, the wall time, the slower bot's own time (both bots run at once),
    and the runner's own time = wall minus the slower bot (writing the inputs, the log, the engine).
Figures are medians. The machine is shared and noisy: compare figures of one run, not across runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner.games.interface import Answer  # noqa: E402
from runner.games.lanes import GAME  # noqa: E402
from runner.games.lanes.protocol.commands import render_orders  # noqa: E402
from runner.games.lanes.protocol.trace_replay import replay_turn  # noqa: E402
from runner.games.lanes.rules.config import LanesConfig  # noqa: E402
from runner.games.lanes.rules.orders import Deploy, Orders, Stance  # noqa: E402
from runner.games.lanes.rules.state import GameState, Player, Tower, new_game  # noqa: E402
from runner.games.lanes.rules.turn import play_turn  # noqa: E402
from runner.games.lanes.session import LanesSession  # noqa: E402
from runner.play import plan_match, start_match  # noqa: E402

TRACES = ROOT / "tests" / "games" / "lanes" / "data"
STARTER = ROOT / "starter-bots" / "lanes" / "python3"
TOWER_CYCLE = ("missile", "rocket", "frost", "blockade")
MS = 1000.0


def full_lane(config: LanesConfig, shift: int) -> tuple[Tower, ...]:
    """Six towers on every buildable row (the row rule's maximum); the free column moves row by row."""
    towers = []
    for row in range(config.max_build_row + 1):
        for col in range(config.width):
            if col != (row + shift) % config.width:
                kind = TOWER_CYCLE[(row * config.width + col) % len(TOWER_CYCLE)]
                towers.append(Tower(kind, col, row, config.units[kind].hp))
    return tuple(towers)


def full_state(config: LanesConfig, soldiers: int) -> tuple[GameState, Orders]:
    """Both lanes full, each player owning `soldiers` (a quarter of each type) and deploying all of them."""
    kinds = config.soldier_types
    player = Player(1000, 1000, {kind: soldiers // len(kinds) for kind in kinds})
    state = GameState(1, (player, player), (full_lane(config, 0), full_lane(config, 3)))
    deploys = tuple(
        Deploy(kinds[i % len(kinds)], 1 + (i * 7) % 80, i % config.width, 1,
               Stance.FIRE if (i // len(kinds)) % 2 else Stance.ADVANCE)
        for i in range(soldiers // len(kinds) * len(kinds))
    )
    return state, Orders(1, deploys)


def median_ms(run, runs: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of `run` (CPU time is what other users of the machine disturb least)."""
    run()  # warm-up
    wall, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        run()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return statistics.median(wall) * MS, statistics.median(cpu) * MS


def engine_figures(runs: int) -> dict[str, tuple[float, float] | float]:
    config = LanesConfig()
    figures: dict[str, tuple[float, float] | float] = {}
    for label, soldiers in (("empty_ms", 0), ("full_ms", 100), ("stress_500_ms", 500)):
        state, orders = full_state(config, soldiers)
        figures[label] = median_ms(lambda s=state, o=orders: play_turn(config, s, (o, o)), runs)

    state, orders = full_state(config, 100)
    text = "\n".join(render_orders(orders, 1)) + "\n"

    def session_turn() -> None:
        session = LanesSession(config)
        session.state = state
        session.inputs()
        report = session.play_turn({"P1": Answer(text), "P2": Answer(text)})
        assert not report.rejected, report.rejected

    figures["full_session_ms"] = median_ms(session_turn, runs)

    turn_times = []
    for path in sorted(TRACES.glob("*.jsonl")):
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:-1]]
        for _ in range(max(1, runs // 10)):
            game = new_game(config)
            for record in records:
                started = time.perf_counter()
                _, game = replay_turn(config, game, record)
                turn_times.append(time.perf_counter() - started)
    figures["reference_turn_ms"] = statistics.median(turn_times) * MS
    figures["reference_turns"] = len(turn_times)
    return figures


class TurnTimer:
    """MatchObserver: each turn's wall time and the slower bot's own seconds."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.turns: list[tuple[float, float]] = []

    def round_played(self, round_number, session, report, outcomes) -> None:
        now = time.perf_counter()
        self.turns.append((now - self.last, max(outcome.seconds for outcome in outcomes.values())))
        self.last = now


def match_figures(scratch: Path, turns: int, repeat: int) -> dict[str, float]:
    config_file = scratch / "long-game.json"
    config_file.write_text(json.dumps({"start_hp": 100000}))
    per_turn_command = []
    for run in range(repeat):
        name = f"cli{run}"
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "runner", "match", "--game", "lanes", str(STARTER), str(STARTER),
             "--game-config", str(config_file), "--max-turns", str(turns), "--output", str(scratch),
             "--name", name, "--quiet"],
            check=True, cwd=ROOT, stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - started
        played = json.loads((scratch / name / "match.json").read_text())["rounds"]
        assert played == turns, f"the match ended after {played} turns"
        per_turn_command.append(wall / played)
    timed: list[tuple[float, float]] = []
    for run in range(repeat):
        plan = plan_match(GAME, [STARTER, STARTER], options={"max_turns": turns}, config_file=config_file)
        timer = TurnTimer()
        summary = start_match(plan, scratch / f"inproc{run}", timer).run()
        assert summary.rounds == turns, summary.rounds
        timed += timer.turns[1:]  # turn 1 includes the log folder's creation
    return {
        "command_wall_per_turn_ms": statistics.median(per_turn_command) * MS,
        "wall_per_turn_ms": statistics.median(t[0] for t in timed) * MS,
        "slower_bot_ms": statistics.median(t[1] for t in timed) * MS,
        "runner_own_ms": statistics.median(t[0] - t[1] for t in timed) * MS,
        "turns_timed": len(timed),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="matches of each kind (default 2)")
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--engine-runs", type=int, default=30, help="timed runs per engine figure (default 30)")
    parser.add_argument("--engine-only", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = engine_figures(args.engine_runs)
    print("engine, median per turn (100 timesteps, both lanes):              wall       CPU")
    for key, label in (("full_ms", "both lanes full (120 towers each), 100 soldiers a side"),
                       ("empty_ms", "same towers, no soldiers"),
                       ("stress_500_ms", "same towers, 500 soldiers a side (stress)"),
                       ("full_session_ms", "full, through the Session (render inputs, read files)")):
        wall, cpu = figures[key]  # type: ignore[misc]
        print(f"  {label:<55} {wall:8.2f} ms {cpu:6.2f} ms")
    label = f"reference traces, {figures['reference_turns']} turns (validate + play), wall"
    print(f"  {label:<55} {figures['reference_turn_ms']:8.2f} ms")
    if not args.engine_only:
        with tempfile.TemporaryDirectory() as scratch:
            figures.update(match_figures(Path(scratch), args.turns, args.repeat))
        print(f"match: python3 starter vs itself, {args.turns} turns, start_hp 100000, median per turn:")
        print(f"  `td-runner match` as a command, wall / turns            {figures['command_wall_per_turn_ms']:8.1f} ms")
        print(f"  in-process, wall time                                   {figures['wall_per_turn_ms']:8.1f} ms")
        print(f"  in-process, the slower bot's own time                   {figures['slower_bot_ms']:8.1f} ms")
        print(f"  in-process, the runner's own time (wall - slower bot)   {figures['runner_own_ms']:8.1f} ms")
    if args.json:
        print(json.dumps({key: [round(v, 3) for v in value] if isinstance(value, tuple) else round(value, 3)
                          for key, value in figures.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
