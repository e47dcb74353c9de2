"""`td-runner watch BOT_DIR [OPPONENT...]`: re-run a fixed set of seeded matches each time the bot changes.

The bot folder is watched with watchdog. Events are debounced; files the runner itself writes into a bot
folder (the game's input files, the answer file), editor temp files and caches are ignored, and a hash of
the remaining files' contents decides whether anything really changed. Each run plays every table once per
seed 0..N-1 with the bot in the first seat: 1 vs 1 against each opponent (default: the game's reference
bot), or with `--players N` the bot and N-1 opponents taken in order and cycled (watch_run.py). It writes the
logs under `--output/run-NNN/` and an HTML replay per match, and prints a one-screen summary
(watch_summary.py): results per table and what changed since the previous run, the bot's place per seed
when more than two play, the first invalid command and its reason, the replay to look at. Ctrl-C stops it
(exit 0).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import threading
import time
from collections.abc import Callable
from pathlib import Path

from runner.commands.options import add_game_options, chosen_options
from runner.commands.watch_run import MatchResult, WatchPlan, play_run, seat_tables
from runner.commands.watch_summary import render_summary
from runner.errors import ExitCode, UserError
from runner.games import DEFAULT_GAME, GAMES, get_game
from runner.games.interface import Game

__all__ = ["MatchResult", "WatchPlan", "content_hash", "render_summary", "runner_files", "watch"]

EXITS = "exit codes: 0 stopped (Ctrl-C, or --runs reached), 2 bad input, 70 a bug"

STARTER_BOTS = Path(__file__).resolve().parents[2] / "starter-bots"
#: The reference bot of each game, relative to starter-bots/ (the default opponent).
REFERENCE_BOTS = {"tower-defence": "reference", "lanes": "lanes/reference", "warzone": "warzone/reference",
                  "invaders": "invaders/reference"}
#: Files the runner writes into bot folders for any game (the game's own come from its Game).
RUNNER_FILES = frozenset({"state.json", "textMap.txt", "map.txt", "errors.txt", "command.txt", "commands.txt",
                          "orders.txt", "state.txt"})
IGNORED_DIRS = frozenset({"__pycache__", ".git", ".hg", ".svn", ".mypy_cache", ".pytest_cache", ".idea",
                          ".vscode", "node_modules", ".ruff_cache", ".venv", "venv"})
IGNORED_SUFFIXES = (".swp", ".swo", ".swx", ".tmp", ".bak", ".pyc", ".orig", ".crswap", "~")
IGNORED_PREFIXES = (".#", "#", ".~")
IGNORED_NAMES = frozenset({"4913", ".DS_Store"})  # vim's write test; macOS folder data


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("bot", metavar="BOT_DIR", help="the bot folder to watch (holding bot.json)")
    parser.add_argument("opponents", nargs="*", metavar="OPPONENT",
                        help="opponent bot folders (default: the game's reference bot)")
    parser.add_argument("--game", help=f"the game: {', '.join(GAMES)} (default {DEFAULT_GAME})")
    parser.add_argument("--players", type=int, default=2, metavar="N",
                        help="seats per match: the bot and N-1 opponents, taken in order and cycled (default 2; "
                        "the game's player counts, e.g. warzone 2-6)")
    parser.add_argument("--seeds", type=int, default=2, metavar="N", help="matches per opponent (per table with "
                        "--players), seeds 0..N-1 (default 2)")
    parser.add_argument("--output", type=Path, default=Path("matches/watch"), metavar="DIR",
                        help="where each run's logs go, one folder per run (default matches/watch)")
    parser.add_argument("--debounce-ms", type=int, default=400, metavar="MS",
                        help="wait this long after the last change before running (default 400)")
    parser.add_argument("--runs", type=int, metavar="N", help="stop after N runs (default: until Ctrl-C)")
    parser.add_argument("--timeout-ms", type=int, help="wall-clock limit per bot turn (default: the game's)")
    name = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--game"), None)
    game = get_game(name if name in GAMES else DEFAULT_GAME)
    add_game_options(parser.add_argument_group(f"{game.name} options"), game.options)  # type: ignore[arg-type]


# --- what counts as a change -----------------------------------------------------------------------------


def runner_files(game: Game) -> frozenset[str]:
    """Names the runner writes into a bot folder for this game: never a reason to re-run."""
    names = set(RUNNER_FILES) | {game.answer_file.name}
    names |= set(getattr(game.log, "file_names", {}) or {})
    return frozenset(names)


def is_ignored(relative: Path, ignored_names: frozenset[str]) -> bool:
    """Whether a path inside the bot folder is the runner's, an editor's temp file or a cache."""
    if any(part in IGNORED_DIRS for part in relative.parts[:-1]):
        return True
    name = relative.name
    return (name in ignored_names or name in IGNORED_NAMES or name.endswith(IGNORED_SUFFIXES)
            or name.startswith(IGNORED_PREFIXES))


def content_hash(folder: Path, ignored_names: frozenset[str]) -> str:
    """A hash of every file of the folder that matters: relative path and bytes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder)
        if relative.parts and relative.parts[0] in IGNORED_DIRS or is_ignored(relative, ignored_names):
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue  # removed while we looked: the next event says so
        digest.update(str(relative).encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


# --- the watch loop --------------------------------------------------------------------------------------


class _Changes:
    """watchdog handler: remembers when something that may matter last changed."""

    def __init__(self, root: Path, ignored: frozenset[str]) -> None:
        self.root, self.ignored = root, ignored
        self.last: float | None = None
        self.lock = threading.Lock()
        self.wake = threading.Event()

    def dispatch(self, event) -> None:  # watchdog's FileSystemEventHandler protocol
        paths = [getattr(event, "src_path", ""), getattr(event, "dest_path", "")]
        for raw in paths:
            if not raw:
                continue
            try:
                relative = Path(str(raw if isinstance(raw, str) else raw.decode())).resolve().relative_to(self.root)
            except ValueError:
                continue
            if relative.parts and not is_ignored(relative, self.ignored):
                with self.lock:
                    self.last = time.monotonic()
                self.wake.set()
                return

    def quiet_for(self, seconds: float) -> bool:
        with self.lock:
            return self.last is not None and time.monotonic() - self.last >= seconds

    def clear(self) -> None:
        with self.lock:
            self.last = None
        self.wake.clear()


def watch(plan: WatchPlan, out: Callable[[str], None], stop: threading.Event) -> int:
    """Run now, then after every real change until `stop` is set or `plan.runs` runs were made; the count."""
    from watchdog.observers import Observer

    root = plan.bot.resolve()
    ignored = runner_files(plan.game)
    changes = _Changes(root, ignored)
    observer = Observer()
    observer.schedule(changes, str(root), recursive=True)
    observer.start()
    runs, previous, last_hash = 0, None, None
    why = "start"
    try:
        while not stop.is_set():
            current = content_hash(root, ignored)
            if current != last_hash:
                runs += 1
                out(f"run {runs} starting ({why}) at {datetime.datetime.now():%H:%M:%S}")
                started = time.monotonic()
                results = play_run(plan, runs)
                for line in render_summary(runs, why, time.monotonic() - started, results, previous,
                                           plan.output / f"run-{runs:03d}"):
                    out(line)
                previous, last_hash = results, current
                if plan.runs is not None and runs >= plan.runs:
                    break
                out(f"watching {plan.bot} (Ctrl-C stops)")
            changes.clear()  # what the run itself wrote into the folder is not a change
            while not stop.is_set():  # wait for a change, then for the folder to be quiet
                changes.wake.wait(0.2)
                if changes.quiet_for(plan.debounce):
                    break
            why = "the bot changed"
    finally:
        observer.stop()
        observer.join(timeout=5)
    return runs


def _plan(args: argparse.Namespace) -> WatchPlan:
    game = get_game(args.game or DEFAULT_GAME)
    bot = Path(args.bot)
    if not (bot / "bot.json").is_file():
        raise UserError(f"{bot}: not a bot folder (no bot.json)")
    if args.players not in game.player_counts:
        raise UserError(f"--players {args.players}: {game.name} is played by {_counts(game.player_counts)} players")
    if args.seeds < 1:
        raise UserError(f"--seeds must be at least 1, got {args.seeds}")
    if args.debounce_ms < 0:
        raise UserError(f"--debounce-ms must be 0 or more, got {args.debounce_ms}")
    opponents = [Path(o) for o in args.opponents]
    if not opponents:
        reference = REFERENCE_BOTS.get(game.name)
        if reference is None or not (STARTER_BOTS / reference / "bot.json").is_file():
            raise UserError(f"{game.name}: no reference bot to play against; name an OPPONENT")
        opponents = [STARTER_BOTS / reference]
    from runner.play import plan_match

    options = chosen_options(args, game.options)
    tables = seat_tables(opponents, args.players)
    for table in tables:  # every problem (bot.json, --map, ...) before the first run
        plan_match(game, [bot, *table.opponents], options=options)
    return WatchPlan(game, bot, tables, args.players, args.seeds, args.output, options, args.timeout_ms,
                     args.debounce_ms / 1000, args.runs)


def _counts(counts: tuple[int, ...]) -> str:
    """(2,) -> '2'; (2, 3, 4, 5, 6) -> '2 to 6'; (2, 4) -> '2 or 4'."""
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


def run(args: argparse.Namespace, streams) -> int:
    plan = _plan(args)

    def out(line: str) -> None:
        print(line, file=streams.out, flush=True)

    if plan.players == 2:
        matches = f"{len(plan.tables)} opponent(s) x {plan.seeds} seed(s)"
    else:
        tables = " | ".join(f"the bot + {table.label}" for table in plan.tables)
        matches = f"{plan.players} players ({tables}), {plan.seeds} seed(s) per table"
    out(f"watching {plan.bot}: {plan.game.name}, {matches}; logs under {plan.output}")
    try:
        watch(plan, out, threading.Event())
    except KeyboardInterrupt:
        out("stopped")
    return ExitCode.OK
