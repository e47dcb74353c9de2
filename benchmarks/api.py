"""In-process API speed: turns per second of `runner.api.parallel_env` for each game, against the same turns
through the file protocol (`play_match` with instant bots: real processes, the log on disk).

    python benchmarks/api.py [--turns 200] [--repeat 3] [--td-turns 2000] [--scratch DIR] [--json]

In-process, Tower Defence plays random masked actions (observations and masks included); the other
games play "do nothing" text ("" , Invaders' "null"). Through processes, every bot is instant: `true` for
per-turn games (no answer file: do nothing), `sed -u s/.*/null/` for Invaders (answers null at once), so
the process figure is the runner's own cost per turn, the best any real bot could do. Figures are medians
of `--repeat` runs; the machine is shared and noisy, so compare the columns of one run.

Tower Defence also gets, in the same run: `--td-turns` rounds of random masked games through parallel_env as
it is (observations from the session's `observations()` / `action_masks()` hooks), the same through the
pre-hook path (each state.json rendered and json.loads-ed, masks from the parsed view), the same games' commands
replayed on the engine alone (no observations: the floor), and play_match with a real Python bot process per
turn, three kinds (`--python-turns` rounds each):

* `random_agent.py` wrapped by `runner.api.write_bot`: the same policy as in-process (uniform among the moves
  the mask allows), reading state.json into the very observation parallel_env gives: the same games through
  bot processes, as a user who trained in-process would run them;
* `random_bot.py`: the same policy written with the standard library only (json, random): the fastest a Python
  bot that plays these games can be;
* `bot.py`: reads state.json and answers one fixed command: no Python bot can be faster (the runner's floor).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from runner.api import parallel_env, write_bot  # noqa: E402
from runner.games.tower_defence.engine.game import check_game_over, play_round  # noqa: E402
from runner.games.tower_defence.engine.state import GameState  # noqa: E402
from runner.play import play_match  # noqa: E402

MAP = str(ROOT / "runner" / "games" / "warzone" / "maps" / "td-archipelago.map")
IDLE = {"lanes": "", "invaders": "null", "warzone": ""}
INSTANT = {"invaders": ["sed", "-u", "s/.*/null/"]}


def options_for(game: str, turns: int) -> dict:
    return {
        "tower-defence": {"max_rounds": turns - 1},  # rounds 0..turns-1 (a base may fall earlier)
        "lanes": {"max_turns": turns},
        "invaders": {"max_turns": turns},
        "warzone": {"map": MAP, "max_turns": turns},
    }[game]


def in_process(game: str, turns: int, seed: int) -> float:
    """Turns per second through parallel_env, episodes repeated until `turns` turns were played."""
    env = parallel_env(game, **options_for(game, turns))
    rng = random.Random(seed)
    played, started = 0, time.perf_counter()
    while played < turns:
        observations, _ = env.reset(seed=seed + played)
        while env.agents and played < turns:
            if game == "tower-defence":
                actions = {seat: int(rng.choice(observations[seat]["action_mask"].nonzero()[0]))
                           for seat in env.agents}
            else:
                actions = {seat: IDLE[game] for seat in env.agents}
            observations, *_ = env.step(actions)
            played += 1
    return played / (time.perf_counter() - started)


def tower_defence_api(rounds: int, seed: int, hooks: bool = True) -> tuple[float, list]:
    """Rounds per second of random masked games through parallel_env, and the games played (for replay).

    `hooks=False` clears the episode's hooks after each reset, so parallel_env takes its general path: every
    round both state.json files rendered and parsed, the masks computed from the parsed views.
    """
    env = parallel_env("tower-defence", max_rounds=399)
    rng = random.Random(seed)
    games, played = [], 0
    choice, decode = rng.choice, env.actions.decode
    started = time.perf_counter()
    while played < rounds:
        match_seed = seed * 1_000_003 + played
        observations, _ = env.reset(seed=match_seed)
        if not hooks:  # benchmark-only switch to the pre-hook path (runner/api/core.py Episode)
            env.episode._views = env.episode._masks = None
            observations = {seat: env.episode.observe((seat,))[seat] for seat in env.agents}
        commands = []
        while env.agents and played < rounds:
            # (a 1-d mask's nonzero()[0] is np.flatnonzero's array, a few us cheaper: the same games)
            actions = {seat: int(choice(observations[seat]["action_mask"].nonzero()[0])) for seat in env.agents}
            commands.append(actions)
            observations, *_ = env.step(actions)
            played += 1
        games.append((match_seed, env.setup.config, commands))
    speed = played / (time.perf_counter() - started)
    return speed, [(s, c, [{seat: decode(a) for seat, a in r.items()} for r in cs]) for s, c, cs in games]


def tower_defence_engine(games: list) -> float:
    """Rounds per second of the engine alone replaying the same games' commands (no views, no masks)."""
    played, started = 0, time.perf_counter()
    for seed, config, commands in games:
        state = GameState.new(config, seed=seed)
        for round_commands in commands:
            play_round(state, round_commands)
            check_game_over(state)
            played += 1
    return played / (time.perf_counter() - started)


PYTHON_BOTS = ROOT / "benchmarks" / "bots" / "python"


def tower_defence_report(args: argparse.Namespace) -> dict:
    """The Tower Defence figures of the module docstring, medians of `--repeat` runs each."""
    runs = [tower_defence_api(args.td_turns, seed) for seed in range(args.repeat)]
    api = statistics.median(speed for speed, _ in runs)
    engine = statistics.median(tower_defence_engine(games) for _, games in runs)
    parsed = statistics.median(tower_defence_api(args.td_turns, seed, hooks=False)[0] for seed in range(args.repeat))
    figures = {"engine_rounds_per_s": round(engine, 1), "api_rounds_per_s": round(api, 1),
               "api_parse_path_rounds_per_s": round(parsed, 1)}
    bots = {
        "wrapped_agent": lambda folder: write_bot(folder, PYTHON_BOTS / "random_agent.py", "tower-defence"),
        "stdlib_random_bot": lambda folder: make_bot(folder, [sys.executable, str(PYTHON_BOTS / "random_bot.py")]),
        "fixed_command_bot": lambda folder: make_bot(folder, [sys.executable, str(PYTHON_BOTS / "bot.py")]),
    }
    for name, make in bots.items():
        speed = statistics.median(
            through_processes("tower-defence", args.python_turns, args.scratch, seed, make)
            for seed in range(args.repeat))
        figures[f"{name}_rounds_per_s"] = round(speed, 1)
        figures[f"api_over_{name}"] = round(api / speed, 1)
    return figures


def make_bot(folder: Path, argv: list[str]) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.json").write_text(json.dumps({
        "author": "bench", "email": "bench@example.invalid", "nickName": folder.name, "botLocation": "/",
        "botFileName": "none", "botLanguage": "custom", "command": argv,
    }))
    return folder


def through_processes(game: str, turns: int, scratch: Path, seed: int,
                      make: Callable[[Path], Path] | None = None) -> float:
    """Turns per second of play_match between two copies of a bot, made in a fresh folder by `make` (default:
    the game's instant bot)."""
    make = make or (lambda folder: make_bot(folder, INSTANT.get(game, ["true"])))
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        bots = [make(Path(tmp) / name) for name in ("one", "two")]
        started = time.perf_counter()
        summary = play_match(game, bots, Path(tmp) / "match", seed=seed, options=options_for(game, turns))
        return summary.rounds / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--td-turns", type=int, default=2000, help="Tower Defence rounds per in-process run")
    parser.add_argument("--python-turns", type=int, default=40, help="rounds per match with Python bot processes")
    parser.add_argument("--scratch", type=Path, default=None, help="where the process matches write logs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = {}
    for game in ("tower-defence", "lanes", "invaders", "warzone"):
        api = statistics.median(in_process(game, args.turns, seed) for seed in range(args.repeat))
        files = statistics.median(through_processes(game, args.turns, args.scratch, seed)
                                  for seed in range(args.repeat))
        rows[game] = {"api_turns_per_s": round(api, 1), "process_turns_per_s": round(files, 1),
                      "speed_up": round(api / files, 1)}
    td = tower_defence_report(args)
    if args.json:
        print(json.dumps({"games": rows, "tower-defence": td}))
        return 0
    print(f"{'game':<14} {'parallel_env turns/s':>21} {'play_match turns/s':>19} {'ratio':>7}")
    for game, row in rows.items():
        print(f"{game:<14} {row['api_turns_per_s']:>21,.0f} {row['process_turns_per_s']:>19,.0f} "
              f"{row['speed_up']:>6.1f}x")
    print(f"\ntower-defence, random masked games, rounds/s (medians of {args.repeat}; one run, same machine load):")
    print(f"  engine alone, same games' commands        {td['engine_rounds_per_s']:>10,.0f}")
    print(f"  parallel_env, observations + masks        {td['api_rounds_per_s']:>10,.0f}")
    print(f"  parallel_env, render + json.loads path    {td['api_parse_path_rounds_per_s']:>10,.0f}")
    print("  play_match, two Python bot processes started every round:")
    for name, words in (("wrapped_agent", "the same agent, wrapped by write_bot"),
                        ("stdlib_random_bot", "the same policy, standard library only"),
                        ("fixed_command_bot", "a fixed command, no parsing (floor)")):
        print(f"    {words:<40}{td[name + '_rounds_per_s']:>8,.1f}   (parallel_env {td['api_over_' + name]:,.0f}x faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
