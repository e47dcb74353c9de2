"""`td-runner watch BOT_DIR [OPPONENT...]`: re-run a fixed set of seeded matches each time the bot changes.

The bot folder is watched with watchdog. Events are debounced; files the runner itself writes into a bot
folder (the game's input files, the answer file), editor temp files and caches are ignored, and a hash of
the remaining files' contents decides whether anything really changed. Each run plays every opponent
(default: the game's reference bot) once per seed 0..N-1 with the bot in the first seat, writes the logs
under `--output/run-NNN/` and an HTML replay per match, and prints a one-screen summary: results per
opponent and what changed since the previous run, the first invalid command and its reason, the replay
to look at. Ctrl-C stops it (exit 0).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from runner.commands.options import add_game_options, chosen_options
from runner.errors import ExitCode, UserError
from runner.games import DEFAULT_GAME, GAMES, get_game
from runner.games.interface import Game

HELP = "watch a bot folder and re-run seeded matches against opponents after every change, with a summary"
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
    parser.add_argument("--seeds", type=int, default=2, metavar="N", help="matches per opponent, seeds 0..N-1 "
                        "(default 2)")
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


# --- one run ---------------------------------------------------------------------------------------------


@attrs.frozen
class MatchResult:
    opponent: str
    seed: int
    log: Path
    outcome: str  # "won", "drew", "lost"
    score: float | None
    score_name: str | None
    faults: int
    invalid: int
    first_invalid: str | None
    replay: Path | None


@attrs.frozen
class WatchPlan:
    game: Game
    bot: Path
    opponents: tuple[Path, ...]
    seeds: int
    output: Path
    options: dict[str, Any]
    timeout_ms: int | None
    debounce: float
    runs: int | None


def _outcome(summary, seat: str) -> str:
    winner = summary.winner
    if winner == seat:
        return "won"
    if winner is None and (summary.outcome is None or summary.outcome.draw or seat in summary.outcome.ranking[0]):
        return "drew"
    return "lost"


def _first_invalid(log: Path, seat_index: int) -> tuple[int, str | None, Path | None]:
    """Invalid answers of the bot, the first one as text, and the HTML replay written (None if it failed)."""
    from runner.replay.html import build_record, default_target, render_page

    try:
        record, board_js = build_record(log)
    except UserError:
        return 0, None, None
    target = default_target(log)
    target.write_text(render_page(record, board_js), encoding="utf-8")
    word = record.get("turn_word", "turn").lower()
    found = [(record["turns"][i], record["commands"][seat_index][i], text)
             for i, (kind, text) in enumerate(record["rulings"][seat_index]) if kind == "invalid"]
    if not found:
        return 0, None, target
    turn, command, text = found[0]
    shown = command.strip().replace("\n", " | ")
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return len(found), f"{word} {turn}: {shown!r} -> {text}", target


def play_run(plan: WatchPlan, number: int) -> list[MatchResult]:
    from runner.bots.limits import Limits
    from runner.play import play_match

    folder = plan.output / f"run-{number:03d}"
    results = []
    limits = Limits(timeout_ms=plan.timeout_ms) if plan.timeout_ms else None
    seat = plan.game.seats(2)[0]
    for opponent in plan.opponents:
        for seed in range(plan.seeds):
            log = folder / f"{opponent.name}-seed{seed}"
            summary = play_match(plan.game, [plan.bot, opponent], log, options=plan.options, seed=seed,
                                 limits=limits)
            if summary.interrupted:
                raise KeyboardInterrupt
            mine = summary.standings.get(seat, {})
            score_name = next(iter(mine), None)
            tally = summary.tallies[seat]
            invalid, first, replay = _first_invalid(log, 0)
            results.append(MatchResult(
                opponent.name, seed, log, _outcome(summary, seat),
                mine.get(score_name) if score_name else None, score_name,
                tally.timeouts + tally.crashes, max(invalid, tally.invalid_commands), first, replay))
    return results


def _tally(results: list[MatchResult]) -> dict[str, dict[str, Any]]:
    by: dict[str, dict[str, Any]] = {}
    for r in results:
        entry = by.setdefault(r.opponent, {"won": 0, "drew": 0, "lost": 0, "scores": [], "faults": 0,
                                           "invalid": 0, "score_name": r.score_name})
        entry[r.outcome] += 1
        if isinstance(r.score, (int, float)):
            entry["scores"].append(r.score)
        entry["faults"] += r.faults
        entry["invalid"] += r.invalid
    for entry in by.values():
        entry["score"] = sum(entry["scores"]) / len(entry["scores"]) if entry["scores"] else None
    return by


def _change(now: float | int | None, before: float | int | None) -> str:
    if before is None or now is None:
        return ""
    delta = now - before
    if delta == 0:
        return " (=)"
    return f" ({'+' if delta > 0 else ''}{delta:g})"


def render_summary(number: int, why: str, seconds: float, results: list[MatchResult],
                   previous: list[MatchResult] | None, folder: Path) -> list[str]:
    """The one-screen summary of a run, compared with the previous run when there was one."""
    now, before = _tally(results), _tally(previous or [])
    lines = [f"run {number} ({why}): {len(results)} matches in {seconds:.1f} s; logs in {folder}"]
    for opponent, entry in now.items():
        old = before.get(opponent)
        record = f"{entry['won']}-{entry['drew']}-{entry['lost']}"
        was = f" (was {old['won']}-{old['drew']}-{old['lost']})" if old else ""
        score = ""
        if entry["score"] is not None:
            score = f"  {entry['score_name']} {entry['score']:g}{_change(entry['score'], old and old['score'])}"
        lines.append(f"  vs {opponent}: won-drew-lost {record}{was}{score}  faults {entry['faults']}"
                     f"{_change(entry['faults'], old and old['faults'])}  invalid {entry['invalid']}"
                     f"{_change(entry['invalid'], old and old['invalid'])}")
    first = next((r for r in results if r.first_invalid), None)
    if first is not None:
        lines.append(f"  first invalid command: vs {first.opponent} seed {first.seed}, {first.first_invalid}")
    else:
        lines.append("  no invalid command")
    shown = next((r for r in results if r.outcome != "won" and r.replay), None) or next(
        (r for r in results if r.replay), None)
    if shown is not None:
        lines.append(f"  replay: {shown.replay}" + (f" ({shown.outcome} vs {shown.opponent}, seed {shown.seed})"))
    return lines


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
    if 2 not in game.player_counts:
        raise UserError(f"{game.name}: watch plays 2-player matches, the game takes {game.player_counts}")
    from runner.play import plan_match

    options = chosen_options(args, game.options)
    for opponent in opponents:  # every problem (bot.json, --map, ...) before the first run
        plan_match(game, [bot, opponent], options=options)
    return WatchPlan(game, bot, tuple(opponents), args.seeds, args.output, options, args.timeout_ms,
                     args.debounce_ms / 1000, args.runs)


def run(args: argparse.Namespace, streams) -> int:
    plan = _plan(args)

    def out(line: str) -> None:
        print(line, file=streams.out, flush=True)

    out(f"watching {plan.bot}: {plan.game.name}, {len(plan.opponents)} opponent(s) x {plan.seeds} seed(s); "
        f"logs under {plan.output}")
    try:
        watch(plan, out, threading.Event())
    except KeyboardInterrupt:
        out("stopped")
    return ExitCode.OK
