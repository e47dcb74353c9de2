"""Per-turn overhead of runner.bots.run_turn for an instant bot, against a bare subprocess.run of the same
program; then what a round costs a JVM and a Python bot run per turn against the same bot kept persistent.
All measured in one run (medians after a warm-up, the variants taking turns so outside load hits all alike).

    python benchmarks/bot_turn.py [--turns N] [--bot-rounds N] [--json]

Part 1, the runner's own cost: each mode of isolation this machine supports is measured (PID namespace, the
default where allowed; process group only; the bubblewrap sandbox when bwrap works). The bot is `/bin/true`
started through the `custom` language: the figures are writing the two state files, the launch wrappers
(prlimit, unshare/bwrap), output capture, clean-up and reading command.txt.

Part 2, per-turn against persistent: bots/java/Bot.java (compiled here with javac into a temp folder; skipped
without a JDK) and bots/python/bot.py read the real round-0 Tower Defence state.json every round and answer a
fixed command, per turn (write command.txt and exit) or persistent (`C;<round>;<command>` per stdin line,
runner/bots/persistent.py). For each: the median per round of the bot's own seconds (TurnOutcome.seconds:
process start to exit per turn, request to answer persistent) and of the runner's wall time for the round
(files written, bot run, answer read). The first two rounds (warm-up; the persistent start-up) are not counted.

Part 3, a live persistent match (as benchmarks/invaders.py does for Invaders): a Tower Defence match of
`--match-rounds` rounds between two persistent bots/python/bot.py, played in this process with timers
(benchmarks/turn_split.py): microseconds per round of the engine, request (the round's files and line), the
pipe wait (the bots' answers) and the rest; beside it, interleaved, the pipe floor: the same round lines to
two Python echo processes, from a process of its own. Medians of `--match-runs` runs each.
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
sys.path.append(str(Path(__file__).resolve().parent))  # turn_split, after the package

from runner.bots.definition import load_bot
from runner.bots.isolation import check_isolation
from runner.bots.limits import Limits
from runner.bots.outcome import TurnOutcome, TurnStatus
from runner.bots.persistent import PersistentBot
from runner.bots.process import run_turn
from runner.errors import UserError
from runner.games.tower_defence import GAME
from turn_split import PARTS, pipe_floor, split_match

BOTS = Path(__file__).resolve().parent / "bots"
BOT_LIMITS = Limits(timeout_ms=20_000)  # generous: a JVM start on a busy shared machine takes seconds

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


def write_bot_json(folder: Path, nick: str, command: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    Path(folder, "bot.json").write_text(json.dumps({
        "author": "bench", "email": "", "nickName": nick, "botLocation": "", "botLanguage": "custom",
        "command": command,
    }))  # fmt: skip
    return folder


def bot_commands(work: Path) -> dict[str, list[str]]:
    """language -> the argv that starts its bot (the mode argument is added later); javac runs here."""
    commands = {}
    javac, java = shutil.which("javac"), shutil.which("java")
    if javac and java:
        classes = work / "java-classes"
        subprocess.run([javac, "-d", str(classes), str(BOTS / "java" / "Bot.java")], check=True)
        commands["java"] = [java, "-cp", str(classes), "Bot"]
    else:
        print("java: skipped (javac and java are needed)")
    commands["python"] = [sys.executable, str(BOTS / "python" / "bot.py")]
    return commands


class RoundTimer:
    """One bot, one mode: runs a round and keeps its bot seconds and runner wall seconds."""

    def __init__(self, play: Callable[[int], TurnOutcome]) -> None:
        self.play = play
        self.bot: list[float] = []
        self.wall: list[float] = []
        self.failures: list[str] = []

    def __call__(self, round_: int, counted: bool) -> None:
        start = time.perf_counter()
        outcome = self.play(round_)
        wall = time.perf_counter() - start
        if outcome.status is not TurnStatus.OK or outcome.command != "0,0,2":
            self.failures.append(f"round {round_}: {outcome.status.value} {outcome.command!r} {outcome.events}")
        if counted:
            self.bot.append(outcome.seconds)
            self.wall.append(wall)


def per_turn_vs_persistent(rounds: int) -> dict[str, float]:
    """Median ms per round of each language's bot, per turn and persistent (keys like java_persistent_wall_ms)."""
    session = GAME.new_session(GAME.configure(None, {}), ("A", "B"), 1, {})
    files = session.inputs()["A"].files  # the real round-0 state.json and textMap.txt
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        timers: dict[str, RoundTimer] = {}
        persistent: list[PersistentBot] = []
        try:
            for language, command in bot_commands(work).items():
                per_turn = load_bot(write_bot_json(work / f"{language}-per-turn", language, command))
                timers[f"{language}_per_turn"] = RoundTimer(
                    lambda _round, bot=per_turn: run_turn(bot, files, BOT_LIMITS))
                kept = load_bot(write_bot_json(work / f"{language}-persistent", language, [*command, "--persistent"]))
                persistent.append(PersistentBot(kept, BOT_LIMITS, GAME.accept_line, startup_ms=60_000))
                timers[f"{language}_persistent"] = RoundTimer(
                    lambda round_, bot=persistent[-1]: bot.ask(round_, files, str(round_)))
            warm_up = 2
            for round_ in range(rounds + warm_up):
                for timer in timers.values():
                    timer(round_, counted=round_ >= warm_up)
        finally:
            for bot in persistent:
                bot.close()
    for name, timer in timers.items():
        if timer.failures:
            print(f"{name}: {len(timer.failures)} rounds failed, first: {timer.failures[0]}")
        results[f"{name}_bot_ms"] = round(statistics.median(timer.bot) * 1000, 3)
        results[f"{name}_wall_ms"] = round(statistics.median(timer.wall) * 1000, 3)
    for language in ("java", "python"):
        if f"{language}_persistent_wall_ms" in results:
            ratio = results[f"{language}_per_turn_wall_ms"] / results[f"{language}_persistent_wall_ms"]
            results[f"{language}_per_turn_over_persistent_wall"] = round(ratio, 1)
    return results


ECHO = "import sys\nfor line in sys.stdin:\n    print('C;' + line.strip() + ';0,0,2', flush=True)\n"


def persistent_match(rounds: int, runs: int) -> dict[str, object]:
    """Part 3: a Tower Defence match of persistent Python bots with its split, and the pipe floor, interleaved."""
    splits: list[dict[str, float]] = []
    loops: list[float] = []
    floors: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        bots = []
        for seat in "AB":  # two folders: one folder for both seats would make the seats take turns
            bot = write_bot_json(work / f"persistent-{seat}", "python", [sys.executable, str(BOTS / "python" / "bot.py"),
                                                                          "--persistent"])
            data = json.loads((bot / "bot.json").read_text())
            (bot / "bot.json").write_text(json.dumps({**data, "persistent": True}))
            bots.append(bot)
        lines = work / "rounds.jsonl"
        lines.write_text("".join(json.dumps([str(r), str(r)]) + "\n" for r in range(1, rounds + 1)))
        echo = [sys.executable, "-c", ECHO]
        for index in range(runs):
            result = split_match("tower-defence", bots, work / f"match{index}", options={"max_rounds": rounds},
                                 limits=BOT_LIMITS)
            splits.append(result["per_turn_us"])
            loops.append(result["loop_s"] / result["turns"] * 1e6)
            floors.append(pipe_floor(lines, [echo, echo])["loop_s"] / rounds * 1e6)
    split = {part: round(statistics.median(s[part] for s in splits), 1) for part in PARTS}
    return {"match_rounds": rounds, "match_round_us": round(statistics.median(loops), 1),
            "floor_round_us": round(statistics.median(floors), 1), "match_split_us": split}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300, help="rounds of the /bin/true part (default 300)")
    parser.add_argument("--bot-rounds", type=int, default=40, help="rounds of the java/python part (default 40)")
    parser.add_argument("--match-rounds", type=int, default=300, help="rounds of the live match (default 300)")
    parser.add_argument("--match-runs", type=int, default=3, help="live matches and floors (default 3)")
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
    bots = per_turn_vs_persistent(args.bot_rounds)
    print(f"\nmedian ms per round over {args.bot_rounds} rounds (bot: its own seconds; wall: the runner's round)")
    print(f"{'':22}{'bot ms':>10}{'wall ms':>10}")
    for name in ("java_per_turn", "java_persistent", "python_per_turn", "python_persistent"):
        if f"{name}_bot_ms" in bots:
            print(f"{name:22}{bots[name + '_bot_ms']:>10}{bots[name + '_wall_ms']:>10}")
    for language in ("java", "python"):
        key = f"{language}_per_turn_over_persistent_wall"
        if key in bots:
            print(f"{language}: per turn / persistent, wall per round: {bots[key]}x")
    results.update(bot_rounds=args.bot_rounds, **bots)
    match = persistent_match(args.match_rounds, args.match_runs)
    print(f"\nlive Tower Defence match, two persistent python bots, {args.match_rounds} rounds, medians of "
          f"{args.match_runs}: {match['match_round_us']} us per round; pipe floor (same lines, python echo x2) "
          f"{match['floor_round_us']} us; match/floor {match['match_round_us'] / match['floor_round_us']:.2f}")
    print("  per round: " + ", ".join(f"{k} {v} us" for k, v in match["match_split_us"].items()))
    results.update(match)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
