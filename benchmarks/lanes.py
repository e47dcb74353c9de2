"""Lanes speed: the engine alone per turn, and a 100-turn match of two starter bots through the core.

    python benchmarks/lanes.py [--repeat 3] [--turns 100] [--engine-only] [--json]
    python benchmarks/lanes.py --reference PATH [--reference-data DIR] [--pairs 7] [--json]

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

Reference (`--reference`, nothing else is measured then): the engine beside the course's C++ framework
(Fluxilis/GereonTDAI at 1fdc76f, fetched by hand OUTSIDE this repository) on the same two games. PATH is
the framework's sources (the folder holding TowerDefence.cpp, or the repository root above it) or a binary
already built from them. From sources, the run applies `headless.patch` (from --reference-data, default
../shared/bench/lanes-reference beside this checkout) unless the sources already carry it, and builds
`td_headless` next to them with that folder's README line (g++ -O2 -DHEADLESS). Each game's
`orders_*.jsonl` there (every turn's new towers and deployments, written by that build with --orders)
becomes two Lanes command files a turn (BUILD / RECRUIT what the deployments need / DEPLOY), played with
`start_hp` 100000 and money that never runs out (the framework never charges for recruits); the files are
checked once (`check_orders`) and each turn's HP is compared with the C++'s. Then `--pairs` alternating
pairs of: the C++ binary (100 turns, --quiet; its median turn of battle CPU, from its JSON summary) and
td-runner's `rules.turn.play_turn` on the pre-checked orders (the median turn's CPU). Printed: the median
over the pairs of each, and the ratio td-runner / C++ (issue 35's target: at most 3).
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
sys.path.insert(0, str(ROOT))

from collections import Counter  # noqa: E402

from runner.games.interface import Answer  # noqa: E402
from runner.games.lanes import GAME  # noqa: E402
from runner.games.lanes.protocol.commands import read_orders, render_orders  # noqa: E402
from runner.games.lanes.protocol.config_json import parse_config  # noqa: E402
from runner.games.lanes.protocol.trace_replay import replay_turn  # noqa: E402
from runner.games.lanes.rules.config import LanesConfig  # noqa: E402
from runner.games.lanes.rules.orders import Build, Deploy, Orders, Recruit, Stance  # noqa: E402
from runner.games.lanes.rules.state import GameState, Player, Tower, new_game  # noqa: E402
from runner.games.lanes.rules.turn import play_turn  # noqa: E402
from runner.games.lanes.session import LanesSession  # noqa: E402
from runner.play import plan_match, start_match  # noqa: E402

TRACES = ROOT / "tests" / "games" / "lanes" / "data"
STARTER = ROOT / "starter-bots" / "lanes" / "python3"
TOWER_CYCLE = ("missile", "rocket", "frost", "blockade")
MS = 1000.0
REFERENCE_DATA = ROOT.parent / "shared" / "bench" / "lanes-reference"  # developer tooling outside the repository
#: (label, orders file, the framework's --p1 and --p2 commanders)
REFERENCE_GAMES = (
    ("SoldierSpam vs Passive", "orders_spam_passive.jsonl", "spam", "passive"),
    ("CommanderB vs SoldierSpam", "orders_B_spam.jsonl", "B", "spam"),
)
REFERENCE_SOURCES = ("Cell.cpp", "Commander.cpp", "TowerDefence.cpp", "Unit.cpp", "UnitAI.cpp")
REFERENCE_HP = 100000  # the framework's --hp and the config's start_hp: every turn is played


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


class ReferenceMissing(Exception):
    """Something the side-by-side run needs is absent: the message is the one line the user sees."""


def reference_binary(path: Path, data: Path) -> Path:
    """The headless framework binary: PATH itself, or built from the sources at PATH (patched if needed)."""
    if path.is_file():
        if not os.access(path, os.X_OK):
            raise ReferenceMissing(f"--reference {path}: not an executable (give td_headless or the sources)")
        return path
    if not path.is_dir():
        raise ReferenceMissing(f"--reference {path}: no such file or folder (the framework's sources or td_headless)")
    sources = next((folder for folder in (path, path / "Project" / "TowerDefence" / "TowerDefence")
                    if (folder / "TowerDefence.cpp").is_file()), None)
    if sources is None:
        raise ReferenceMissing(f"--reference {path}: no TowerDefence.cpp there or in Project/TowerDefence/TowerDefence "
                               "(fetch Fluxilis/GereonTDAI at 1fdc76f)")
    binary = sources / "td_headless"
    newest = max((sources / name).stat().st_mtime for name in REFERENCE_SOURCES if (sources / name).exists())
    if binary.is_file() and binary.stat().st_mtime >= newest:
        return binary
    if "HEADLESS" not in (sources / "TowerDefence.cpp").read_text(encoding="utf-8", errors="replace"):
        patch = data / "headless.patch"
        if not patch.is_file():
            raise ReferenceMissing(f"{patch}: missing (the headless patch; see --reference-data)")
        run_tool(["patch", "-p0", "--forward", "-s", "-i", str(patch.resolve())], sources, "patch")
    run_tool(["g++", "-O2", "-std=c++17", "-DHEADLESS", "-w", "-o", binary.name, *REFERENCE_SOURCES], sources, "g++")
    return binary


def run_tool(command: list[str], cwd: Path, name: str) -> None:
    if shutil.which(command[0]) is None:
        raise ReferenceMissing(f"{command[0]}: not installed (needed to build the reference)")
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        first = (done.stderr or done.stdout).strip().splitlines()[:1] or ["no output"]
        raise ReferenceMissing(f"{name} in {cwd} failed (exit {done.returncode}): {first[0]}")


def reference_config():
    """Every turn played (HP 100000) and money that never runs out: the framework never charges recruits."""
    return parse_config({"start_hp": REFERENCE_HP, "start_money": 10**9}, "reference config")


def reference_texts(records: list[dict]) -> list[tuple[str, str]]:
    """Each turn's two command files: the framework's new towers, the recruits its deployments need, DEPLOY."""
    owned: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    texts = []
    for record in records:
        pair = []
        for player in (0, 1):
            builds = [Build(kind, col, row) for kind, col, row in record["builds"][player]]
            deploys = [Deploy(kind, timestep, col) for timestep, col, kind in record["deploys"][player]]
            wanted = Counter(deploy.soldier for deploy in deploys)
            recruits = [Recruit(kind, count - owned[player][kind])
                        for kind, count in wanted.items() if count > owned[player][kind]]
            owned[player].update({recruit.soldier: recruit.count for recruit in recruits})
            orders = Orders(record["turn"], (*builds, *recruits, *deploys))
            pair.append("\n".join(render_orders(orders, record["turn"])) + "\n")
        texts.append((pair[0], pair[1]))
    return texts


def reference_orders(config, records: list[dict]) -> tuple[list[tuple[Orders, Orders]], list[str]]:
    """The command files read and checked as a match would (once, untimed), and how the game compares.

    Returns the accepted orders of every turn and notes: the turns where td-runner's HP or tower count
    differs from the framework's (the rules are not the framework's in every detail, see spec), and the
    soldier-timesteps of both (the workload).
    """
    state = new_game(config)
    played: list[tuple[Orders, Orders]] = []
    hp_same = towers_same = 0
    steps = [0, 0]
    for turn, (record, texts) in enumerate(zip(records, reference_texts(records)), start=1):
        pair = []
        for player, text in enumerate(texts):
            orders, problems = read_orders(text, state, player, config)
            if orders is None:
                raise ReferenceMissing(f"turn {turn}, P{player + 1}: the command file is rejected: {problems[0]}")
            pair.append(orders)
        played.append((pair[0], pair[1]))
        result = play_turn(config, state, (pair[0], pair[1]))
        state = result.state
        hp_same += [p.hp for p in state.players] == record["hp"]
        towers_same += [len(t) for t in state.towers] == record["towers"]
        for lane in (0, 1):
            steps[lane] += sum(step[lane] for step in result.steps)
    cpp_steps = [sum(record["soldier_steps"][lane] for record in records) for lane in (0, 1)]
    final = [player.hp for player in state.players]
    notes = [
        f"same HP as the C++ after {hp_same}/{len(records)} turns (last: td-runner {final}, C++ {records[-1]['hp']}), "
        f"same tower count after {towers_same}",
        f"soldier-timesteps on lanes 1 / 2: td-runner {steps[0]:,} / {steps[1]:,}, "
        f"C++ {cpp_steps[0]:,} / {cpp_steps[1]:,}",
    ]
    return played, notes


def python_turn_cpu(config, played: list[tuple[Orders, Orders]]) -> float:
    """The median turn's CPU seconds of `play_turn` over the whole game (pre-checked orders, no files)."""
    clock = time.process_time
    state = new_game(config)
    times = []
    for orders in played:
        started = clock()
        state = play_turn(config, state, orders).state
        times.append(clock() - started)
    return statistics.median(times)


def cpp_turn_cpu(binary: Path, p1: str, p2: str, turns: int) -> float:
    """The framework's median turn of battle CPU seconds (its own timers, around the 100 timesteps)."""
    done = subprocess.run([str(binary), "--turns", str(turns), "--hp", str(REFERENCE_HP), "--p1", p1, "--p2", p2,
                           "--quiet"], capture_output=True, text=True, check=True)
    summary = json.loads(done.stderr.strip().splitlines()[-1])
    assert summary["turns"] == turns, summary
    return summary["median_turn_cpu_s"]


def reference_figures(binary: Path, data: Path, pairs: int) -> dict[str, dict[str, object]]:
    config = reference_config()
    figures: dict[str, dict[str, object]] = {}
    for label, name, p1, p2 in REFERENCE_GAMES:
        path = data / name
        if not path.is_file():
            raise ReferenceMissing(f"{path}: missing (the orders of {label}; see --reference-data)")
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        played, notes = reference_orders(config, records)
        cpp, python = [], []
        python_turn_cpu(config, played)  # warm-up
        for _ in range(pairs):
            cpp.append(cpp_turn_cpu(binary, p1, p2, len(records)))
            python.append(python_turn_cpu(config, played))
        figures[label] = {"cpp_ms": statistics.median(cpp) * MS, "python_ms": statistics.median(python) * MS,
                          "cpp_runs": [round(t * MS, 3) for t in cpp],
                          "python_runs": [round(t * MS, 3) for t in python], "notes": notes}
    return figures


def print_reference(figures: dict[str, dict[str, object]], pairs: int) -> None:
    print(f"engine beside the C++ framework, CPU ms per turn (100 timesteps), medians of {pairs} alternating pairs:")
    print(f"  {'game':<27} {'C++ logic':>10} {'play_turn':>10} {'ratio':>7}")
    for label, figure in figures.items():
        cpp, python = figure["cpp_ms"], figure["python_ms"]
        print(f"  {label:<27} {cpp:10.3f} {python:10.3f} {python / cpp:6.2f}x")  # type: ignore[operator]
    for label, figure in figures.items():
        print(f"  {label}: " + "; ".join(figure["notes"]))  # type: ignore[arg-type]
    print(f"  load average {os.getloadavg()[0]:.1f}; target: ratio at most 3 (issue 35)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="matches of each kind (default 2)")
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--engine-runs", type=int, default=30, help="timed runs per engine figure (default 30)")
    parser.add_argument("--engine-only", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--reference", type=Path,
                        help="the C++ framework's sources (Fluxilis/GereonTDAI, fetched outside the repo) "
                        "or its td_headless build")
    parser.add_argument("--reference-data", type=Path, default=REFERENCE_DATA,
                        help=f"headless.patch and the orders files (default {REFERENCE_DATA})")
    parser.add_argument("--pairs", type=int, default=7, help="alternating C++ / td-runner pairs (default 7)")
    args = parser.parse_args()
    if args.reference is not None:
        try:
            binary = reference_binary(args.reference, args.reference_data)
            figures = reference_figures(binary, args.reference_data, args.pairs)
        except ReferenceMissing as missing:
            print(f"lanes.py: {missing}", file=sys.stderr)
            return 2
        print_reference(figures, args.pairs)
        if args.json:
            print(json.dumps({label: {k: round(v, 3) if isinstance(v, float) else v for k, v in figure.items()}
                              for label, figure in figures.items()}))
        return 0
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
