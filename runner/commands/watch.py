"""`td-runner watch BOT_DIR [OPPONENT...]`: re-run a fixed set of seeded matches each time the bot changes.

The bot folder is watched with watchdog. Events are debounced; files the runner itself writes into a bot
folder (the game's input files, the answer file), what a build makes (the compiled bot, target/, object
files), editor temp files and caches are ignored, and a hash of the remaining files' contents decides
whether anything really changed. A run first builds the bot when it has a build (`td-runner build`'s
recipe: build.sh, cargo, go, make, a venv...), so an edit of the source plays the new binary; a failed build
is the run's result, printed at once with the end of its output. Then it plays every table once per seed
0..N-1 with the bot in the first seat: 1 vs 1 against each opponent (default: a private copy of the game's
reference bot, which ships inside the package), or with `--players N` the bot and N-1 opponents taken in
order and cycled (watch_run.py). A game without randomness (Lanes, Invaders) plays one seed unless
`--seeds` asks for more. It writes the logs under `--output/run-NNN/` and an HTML replay per match, and
prints a one-screen summary (watch_summary.py): results per table and what changed since the previous run,
the bot's place per seed when more than two play, the first invalid command and its reason, the replay to
look at. Changes made while a run is going on are gathered into exactly one more run, started as soon as
the run ends (and the folder has been quiet for the debounce time). Ctrl-C stops it (exit 0).
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
from runner.bundled import copy_reference
from runner.commands.watch_run import MatchResult, WatchPlan, build_bot, play_run, seat_tables
from runner.commands.watch_summary import plural, render_build, render_summary
from runner.errors import ExitCode, UserError
from runner.games import DEFAULT_GAME, GAMES, get_game
from runner.games.interface import Game

__all__ = ["MatchResult", "WatchPlan", "content_hash", "render_summary", "runner_files", "watch"]

EXITS = "exit codes: 0 stopped (Ctrl-C, or --runs reached), 2 bad input, 70 a bug"

#: Files the runner writes into bot folders for any game (the game's own come from its Game).
RUNNER_FILES = frozenset({"state.json", "textMap.txt", "map.txt", "errors.txt", "command.txt", "commands.txt",
                          "orders.txt", "state.txt"})
IGNORED_DIRS = frozenset({"__pycache__", ".git", ".hg", ".svn", ".mypy_cache", ".pytest_cache", ".idea",
                          ".vscode", "node_modules", ".ruff_cache", ".venv", "venv", "target"})  # target: cargo, mvn
IGNORED_SUFFIXES = (".swp", ".swo", ".swx", ".tmp", ".bak", ".pyc", ".orig", ".crswap", "~", ".o", ".class")
#: Launch files that are sources, never a build's output (a Python bot with a requirements.txt has a build).
SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".ts", ".go", ".rs", ".c", ".cpp", ".cc", ".java", ".kt", ".scala", ".cs",
                   ".rb", ".php", ".lua", ".sh", ".pl", ".jl", ".hs", ".ml", ".exs", ".dart", ".swift")
IGNORED_PREFIXES = (".#", "#", ".~")
IGNORED_NAMES = frozenset({"4913", ".DS_Store"})  # vim's write test; macOS folder data
#: watchdog events that change nothing (inotify reports every open and every close without a write)
READ_ONLY_EVENTS = frozenset({"opened", "closed_no_write"})


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("bot", metavar="BOT_DIR", help="the bot folder to watch (holding bot.json)")
    parser.add_argument("opponents", nargs="*", metavar="OPPONENT",
                        help="opponent bot folders (default: the game's reference bot)")
    parser.add_argument("--game", help=f"the game: {', '.join(GAMES)} (default {DEFAULT_GAME})")
    parser.add_argument("--players", type=int, default=2, metavar="N",
                        help="seats per match: the bot and N-1 opponents, taken in order and cycled (default 2; "
                        "the game's player counts, e.g. warzone 2-6)")
    parser.add_argument("--seeds", type=int, metavar="N", help="matches per opponent (per table with --players), "
                        "seeds 0..N-1 (default 2; 1 for a game without randomness: lanes, invaders)")
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


def build_outputs(bot: Path) -> frozenset[str]:
    """The bot's launch file when a build makes it (`./bot`, `bot.jar`): a build writes it, the user does not
    edit it, so it is never a reason to re-run (a source named as the launch file is not ignored)."""
    from runner.bots.build import plan_build
    from runner.bots.definition import read_bot_json

    try:
        data = read_bot_json(bot)
        plan = plan_build(bot, data)
    except UserError:
        return frozenset()  # the run says what is wrong with bot.json
    name = data.get("botFileName")
    if plan is None or not isinstance(name, str) or not name or name.endswith(SOURCE_SUFFIXES):
        return frozenset()
    return frozenset({Path(name).name})


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

    def __init__(self, root: Path, ignored: frozenset[str]) -> None:  # `ignored` may be replaced between runs
        self.root, self.ignored = root, ignored
        self.last: float | None = None
        self.lock = threading.Lock()
        self.wake = threading.Event()

    def dispatch(self, event) -> None:  # watchdog's FileSystemEventHandler protocol
        if getattr(event, "event_type", "") in READ_ONLY_EVENTS:
            return  # the runner (or the build) reading the bot's files is no change
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
    """Run now, then after every real change until `stop` is set or `plan.runs` runs were made; the count.

    The hash a run is compared against is taken as the run starts, before its build, and the watchdog
    events are cleared then: whatever is saved during the build or the matches shows after the run as a
    difference, and starts one more run (however many saves there were)."""
    from watchdog.observers import Observer

    root = plan.bot.resolve()
    changes = _Changes(root, runner_files(plan.game) | build_outputs(plan.bot))
    observer = Observer()
    observer.schedule(changes, str(root), recursive=True)
    observer.start()
    runs, previous, last_hash = 0, None, None
    number = first_run_number(plan.output)
    why = "start"
    try:
        while not stop.is_set():
            changes.ignored = runner_files(plan.game) | build_outputs(plan.bot)  # bot.json may have changed
            changes.clear()  # from here on, an event is a change made during this run
            current = content_hash(root, changes.ignored)
            if current != last_hash:
                runs += 1
                out(f"run {number} starting ({why}) at {datetime.datetime.now():%H:%M:%S}")
                results = one_run(plan, number, why, previous, out)
                previous = results if results is not None else previous
                last_hash, number = current, number + 1
                if plan.runs is not None and runs >= plan.runs:
                    break
                if changes.last is None:
                    out(f"watching {plan.bot} (Ctrl-C stops)")
                    why = "the bot changed"
                else:
                    why = f"the bot changed during run {number - 1}"
            else:
                why = "the bot changed"
            while not stop.is_set():  # wait for a change (one made during the run counts), then for quiet
                changes.wake.wait(0.2)
                changes.wake.clear()
                if changes.quiet_for(plan.debounce):
                    break
    finally:
        observer.stop()
        observer.join(timeout=5)
    return runs


def one_run(plan: WatchPlan, number: int, why: str, previous: list[MatchResult] | None,
            out: Callable[[str], None]) -> list[MatchResult] | None:
    """Build the bot (when it has a build), then play the run and print its summary; None when the build
    failed (its error, printed at once, is the run's result)."""
    started = time.monotonic()
    try:
        built = build_bot(plan.bot)
    except UserError as exc:  # bot.json cannot be read or leads outside the folder
        out(f"run {number} ({why}): the bot cannot be built: {exc}")
        return None
    if built is not None:
        for line in render_build(number, why, built):
            out(line)
        if not built.ok:
            return None
    try:
        results = play_run(plan, number)
    except UserError as exc:  # e.g. bot.json broken by the edit: the run's result, and watch goes on
        out(f"run {number} ({why}): {exc}")
        return None
    for line in render_summary(number, why, time.monotonic() - started, results, previous,
                               plan.output / f"run-{number:03d}"):
        out(line)
    return results


def first_run_number(output: Path) -> int:
    """1, or one more than the last `run-NNN` already under `output` (a watch started again keeps counting
    instead of failing on the first run's existing folder)."""
    numbers = [int(p.name[4:]) for p in output.glob("run-*") if p.name[4:].isdigit()] if output.is_dir() else []
    return max(numbers, default=0) + 1


def _plan(args: argparse.Namespace) -> WatchPlan:
    game = get_game(args.game or DEFAULT_GAME)
    bot = Path(args.bot)
    if not (bot / "bot.json").is_file():
        raise UserError(f"{bot}: not a bot folder (no bot.json)")
    if args.players not in game.player_counts:
        raise UserError(f"--players {args.players}: {game.name} is played by {_counts(game.player_counts)} players")
    seeds = args.seeds if args.seeds is not None else 2 if getattr(game, "uses_seed", True) else 1
    if seeds < 1:
        raise UserError(f"--seeds must be at least 1, got {seeds}")
    if args.debounce_ms < 0:
        raise UserError(f"--debounce-ms must be 0 or more, got {args.debounce_ms}")
    opponents = [Path(o) for o in args.opponents]
    if not opponents:  # a private copy: the runner writes each turn's files into its bots' folders
        opponents = [copy_reference(game.name, args.output / "reference")]
    from runner.play import plan_match

    options = chosen_options(args, game.options)
    tables = seat_tables(opponents, args.players)
    # every problem (bot.json, --map, ...) before the first run; a bot with a build is checked by each run
    # after its build (its program may not exist yet), so here an opponent stands in for its seat
    from runner.bots.build import plan_build
    from runner.bots.definition import read_bot_json

    builds = plan_build(bot, read_bot_json(bot)) is not None
    for table in tables:
        plan_match(game, [table.opponents[0] if builds else bot, *table.opponents], options=options)
    return WatchPlan(game, bot, tables, args.players, seeds, args.output, options, args.timeout_ms,
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

    seeds = plural(plan.seeds, "seed")
    if plan.players == 2:
        matches = f"{plural(len(plan.tables), 'opponent')} x {seeds}"
    else:
        tables = " | ".join(f"the bot + {table.label}" for table in plan.tables)
        matches = f"{plan.players} players ({tables}), {seeds} per table"
    out(f"watching {plan.bot}: {plan.game.name}, {matches}; logs under {plan.output}")
    try:
        watch(plan, out, threading.Event())
    except KeyboardInterrupt:
        out("stopped")
    return ExitCode.OK
