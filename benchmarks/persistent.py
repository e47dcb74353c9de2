"""A whole match's CPU per turn (runner and bots) for per-turn and persistent bots of every game, beside the
game's Session turn alone: what staying alive saves (issue 35).

    python benchmarks/persistent.py [--pairs 3] [--games lanes,warzone,tower-defence,invaders] [--scratch DIR] [--json]

Matches, each `python -m runner match --quiet` run as a command (the interpreter's start, the imports and the
log's last write included), two Python bots each in a folder of its own:
  * lanes: per turn, starter-bots/lanes/python3 against itself; persistent, starter-bots/lanes/python3-persistent
    against itself (the core's frames); `start_hp` 100000 in a game config so that all `--turns` are played;
  * warzone: starter-bots/warzone/python3 against itself, and python3-persistent against itself; default map;
  * tower-defence: starter-bots/python3 against itself, per turn; persistent, the same starter's
    `choose_move` behind a `C;<round>;<command>` loop (made here: the same moves both ways); --max-rounds;
  * invaders: persistent only, starter-bots/invaders/python3 on both sides, `--invaders-turns` turns.
The match's CPU is user + system time of the runner and of every process it started (RUSAGE_CHILDREN: the
runner reaps its bots, so their time is in its children's), divided by the turns played (match.json `rounds`).

The Session turn: the same match's answers, read back from its log, replayed in this process through a fresh
session of the same config and seed; CPU (`time.process_time`) of `inputs()` + `play_turn()` per turn, the
median of three replays. That is the game's own share of a turn (rendering every seat's input, reading the
answers, the rules, the turn's record): a match cannot cost less. Each match is divided by its own Session
turn (the persistent Lanes and Warzone starters play their own plans, so their turns cost what they cost).

Where the logs go matters: a folder log writes a dozen files a turn, and on this VM's ext4 disk, under load,
creating them costs ~6 ms of CPU a turn (system time) against ~0.6 ms on tmpfs; `--scratch /dev/shm` puts the
bots' copies and the logs on tmpfs (the default: the system's temporary folder).

Each match is also played cut to its first turn (a 1-turn match: the command's fixed cost, the interpreter
and the imports, the bots' start-up and the log's first and last files), and `each more turn` is the difference
divided by the turns it adds: the cost of a turn once the match runs, against the same Session turn.

Runs alternate (each pair plays every game's per-turn match, then its persistent one); figures are medians
over the pairs. The machine is shared and noisy: compare the figures of one run, not across runs.

The runner is measured as installed: its modules' bytecode cached (pip compiles it). In a checkout run with
PYTHONDONTWRITEBYTECODE=1 and no __pycache__, every match would compile the runner's sources again (+65-80 ms
CPU a match, measured here); the matches therefore run without that variable, after one untimed 1-turn match of
each kind that writes the cache. Every match starts three Python interpreters (the runner, two bots): the line
`a Python start` gives the cost of one (`python -c pass`) and of one without `site` (`python -S -c pass`), the
part of the fixed cost that the machine's site-packages (.pth files) decide, not td-runner.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

# sys.path[0] is this folder, where benchmarks/runner.py would shadow the `runner` package
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from runner.games import get_game  # noqa: E402
from runner.games.interface import Answer, FolderLog, Session  # noqa: E402
from runner.play import plan_match  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STARTERS = ROOT / "starter-bots"
MS = 1000.0

#: Tower Defence's persistent twin of the per-turn starter: the same `choose_move` on each round's state.json
TD_PERSISTENT = """\
import json, sys
import starter
for line in sys.stdin:
    number = int(line)
    with open("state.json", encoding="utf-8") as handle:
        move = starter.choose_move(starter.Game(json.load(handle)))
    print(f"C;{number};" + ("" if move is None else "{},{},{}".format(*move)), flush=True)
"""


def bot_copy(source: Path, folder: Path) -> Path:
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("__pycache__", "*.txt", "state.json"))
    return folder


def td_persistent(folder: Path) -> Path:
    """The Tower Defence starter, made persistent: its bot.py as `starter`, a loop as bot.py."""
    bot_copy(STARTERS / "python3", folder)
    (folder / "bot.py").rename(folder / "starter.py")
    (folder / "bot.py").write_text(TD_PERSISTENT)
    data = json.loads((folder / "bot.json").read_text())
    (folder / "bot.json").write_text(json.dumps({**data, "persistent": True}))
    return folder


def setups(scratch: Path, turns: int, invaders_turns: int) -> dict[str, dict[str, Any]]:
    """Per game: the bot folders per mode (two each), the match options, and the options given to plan_match."""
    hp = scratch / "lanes-hp.json"
    hp.write_text('{"start_hp": 100000}\n')
    folders: dict[str, dict[str, list[Path]]] = {}

    def pair(game: str, mode: str, make: Callable[[Path], Path]) -> None:
        folders.setdefault(game, {})[mode] = [make(scratch / game / mode / seat) for seat in ("one", "two")]

    pair("lanes", "per-turn", lambda f: bot_copy(STARTERS / "lanes" / "python3", f))
    pair("lanes", "persistent", lambda f: bot_copy(STARTERS / "lanes" / "python3-persistent", f))
    pair("warzone", "per-turn", lambda f: bot_copy(STARTERS / "warzone" / "python3", f))
    pair("warzone", "persistent", lambda f: bot_copy(STARTERS / "warzone" / "python3-persistent", f))
    pair("tower-defence", "per-turn", lambda f: bot_copy(STARTERS / "python3", f))
    pair("tower-defence", "persistent", td_persistent)
    pair("invaders", "persistent", lambda f: bot_copy(STARTERS / "invaders" / "python3", f))
    # `short`: the same match cut to its first turn (Tower Defence: round 0 only), for the fixed cost
    return {
        "lanes": {"bots": folders["lanes"], "argv": ["--max-turns", str(turns), "--game-config", str(hp)],
                  "short": ["--max-turns", "1", "--game-config", str(hp)], "options": {"max_turns": turns},
                  "config": hp},
        "warzone": {"bots": folders["warzone"], "argv": ["--max-turns", str(turns)], "short": ["--max-turns", "1"],
                    "options": {"max_turns": turns}, "config": None},
        "tower-defence": {"bots": folders["tower-defence"], "argv": ["--max-rounds", str(turns)],
                          "short": ["--max-rounds", "0"], "options": {"max_rounds": turns}, "config": None},
        "invaders": {"bots": folders["invaders"], "argv": ["--max-turns", str(invaders_turns)],
                     "short": ["--max-turns", "1"], "options": {"max_turns": invaders_turns}, "config": None},
    }


#: the matches' environment: bytecode written and read, as an installed runner's is (see the docstring)
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def cpu_ms(argv: list[str]) -> float:
    """CPU (user + system) of one command and what it starts, in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, env=ENV, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * MS


def play(game: str, bots: list[Path], argv: list[str], log: Path) -> dict[str, float]:
    """One match as a command: CPU and wall per turn (runner and bots), and the turns played."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "runner", "match", "--game", game, *map(str, bots), *argv, "--seed", "1",
                    "--output", str(log.parent), "--name", log.name, "--quiet"], check=True, cwd=ROOT, env=ENV,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    turns = json.loads((log / "match.json").read_text())["rounds"]
    return {"turns": turns, "cpu_s": cpu, "cpu_ms": cpu / turns * MS, "wall_ms": wall / turns * MS}


def logged_answers(game_name: str, log: Path) -> Callable[[Session], dict[str, Answer]]:
    """The answers of a log's turn, as the session asks for them."""
    game = get_game(game_name)
    names = {p["seat"]: p["name"] for p in json.loads((log / "match.json").read_text())["players"]}
    if isinstance(game.log, FolderLog):
        folder_log = game.log

        def from_folder(session: Session) -> dict[str, Answer]:
            folder = log / folder_log.turn_folder.format(turn=session.turn)
            answers = {}
            for seat in session.active_seats():
                text = (folder / names[seat] / folder_log.answer).read_text(encoding="utf-8")
                answers[seat] = Answer("" if folder_log.blank_answer and text == folder_log.blank_answer else text)
            return answers

        return from_folder
    rows = {row["t"]: row for row in map(json.loads, (log / "log.jsonl").read_text().splitlines())}

    def from_rows(session: Session) -> dict[str, Answer]:  # Invaders: each side's answer as the row keeps it
        row = rows[session.turn]
        return {"defender": Answer(json.dumps(row["da"])), "invader": Answer(json.dumps(row["ia"]))}

    return from_rows


def session_turn_ms(game_name: str, bots: list[Path], options: Mapping[str, Any], config: Path | None,
                    log: Path) -> float:
    """CPU ms of the game's own share of a turn: the logged match replayed through inputs() + play_turn()."""
    game = get_game(game_name)
    plan = plan_match(game, bots, options=options, config_file=config, seed=1)
    answers_of = logged_answers(game_name, log)
    totals = []
    for _ in range(3):
        seats = tuple(p.seat for p in plan.players)
        session = game.new_session(plan.config, seats, plan.seed,
                                   {**plan.options, "names": {p.seat: p.bot.nick_name for p in plan.players}})
        answers_list = []
        spent, turns = 0.0, 0
        while session.outcome() is None:
            answers = answers_of(session)
            answers_list.append(answers)
            started = time.process_time()
            session.inputs()
            session.play_turn(answers)
            spent += time.process_time() - started
            turns += 1
        totals.append(spent / turns * MS)
    return statistics.median(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="alternating runs of every match (default 3)")
    parser.add_argument("--turns", type=int, default=100, help="turns of Lanes, Warzone, Tower Defence (100)")
    parser.add_argument("--invaders-turns", type=int, default=1000, help="turns of Invaders (default 1000)")
    parser.add_argument("--games", default="lanes,warzone,tower-defence,invaders")
    parser.add_argument("--scratch", type=Path, help="folder for the bot copies and the logs (default: the "
                        "system's temporary folder); /dev/shm puts the logs on tmpfs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = args.games.split(",")
    with tempfile.TemporaryDirectory(prefix="persistent-bench-", dir=args.scratch) as scratch_name:
        scratch = Path(scratch_name)
        plan = setups(scratch, args.turns, args.invaders_turns)
        runs: dict[tuple[str, str], list[dict[str, float]]] = {}
        for game in games:  # untimed: writes the bytecode cache, warms the page cache
            for mode, bots in plan[game]["bots"].items():
                play(game, bots, plan[game]["short"], scratch / "logs" / f"{game}-{mode}-warm-up")
        starts: list[tuple[float, float]] = []
        for index in range(args.pairs):
            starts.append((cpu_ms([sys.executable, "-c", "pass"]), cpu_ms([sys.executable, "-S", "-c", "pass"])))
            for game in games:
                for mode, bots in plan[game]["bots"].items():
                    log = scratch / "logs" / f"{game}-{mode}-{index}"
                    figures = play(game, bots, plan[game]["argv"], log)
                    figures["session_ms"] = session_turn_ms(game, bots, plan[game]["options"], plan[game]["config"],
                                                            log)
                    shutil.rmtree(log)
                    short = play(game, bots, plan[game]["short"], log)
                    shutil.rmtree(log)
                    figures["fixed_ms"] = short["cpu_s"] * MS
                    figures["marginal_ms"] = (figures["cpu_s"] - short["cpu_s"]) / (figures["turns"] - short["turns"]) * MS
                    runs.setdefault((game, mode), []).append(figures)
    rows = []
    for (game, mode), figures in runs.items():
        row = {"game": game, "bots": mode,
               **{key: statistics.median(f[key] for f in figures)
                  for key in ("turns", "cpu_ms", "wall_ms", "session_ms", "fixed_ms", "marginal_ms")}}
        row["ratio"] = row["cpu_ms"] / row["session_ms"]
        row["marginal_ratio"] = row["marginal_ms"] / row["session_ms"]
        rows.append(row)
    where = str(args.scratch or tempfile.gettempdir())
    python_start = {"cpu_ms": statistics.median(s[0] for s in starts),
                    "without_site_ms": statistics.median(s[1] for s in starts)}
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"pairs": args.pairs, "logs_in": where, "load_average": load, "python_start": python_start,
                          "rows": rows}, indent=1))
        return
    print(f"medians of {args.pairs} alternating runs, logs in {where}; CPU of runner + bots per turn, against the "
          "Session turn alone")
    print(f"{'game':<14} {'bots':<11} {'turns':>5} {'match CPU/turn':>15} {'wall/turn':>10} {'Session turn':>13} "
          f"{'ratio':>7} {'1-turn match':>13} {'each more turn':>15} {'ratio':>7}")
    for row in rows:
        print(f"{row['game']:<14} {row['bots']:<11} {row['turns']:>5.0f} {row['cpu_ms']:>12.2f} ms {row['wall_ms']:>7.2f} ms "
              f"{row['session_ms']:>10.3f} ms {row['ratio']:>6.1f}x {row['fixed_ms']:>10.0f} ms "
              f"{row['marginal_ms']:>12.2f} ms {row['marginal_ratio']:>6.1f}x")
    print(f"a Python start (python -c pass): {python_start['cpu_ms']:.0f} ms CPU, "
          f"{python_start['without_site_ms']:.0f} ms without site (-S); a match starts three. "
          f"Load average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
