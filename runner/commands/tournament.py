"""`td-runner tournament BOT_DIR...`: many matches between bot folders, K at once or on a Dask cluster, rated.

The game's own match options pass through exactly as `td-runner match` takes them (`--game NAME --help` lists
them). Results go to DIR/games.jsonl and DIR/matches/; the standings to DIR/standings.json and .csv.
"""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from runner.commands.match import _game_named_in
from runner.commands.options import add_game_options, chosen_options
from runner.commands.standings import print_standings
from runner.errors import ExitCode, UserError
from runner.games import DEFAULT_GAME, GAMES, get_game
from runner.interrupts import Terminated, sigterm_as_interrupt
from runner.tournament.dask_backend import DaskBackend, DaskConnection
from runner.tournament.local import LocalBackend, default_workers
from runner.tournament.records import GameRecord, describe
from runner.tournament.run import (TournamentSettings, check_addable, claim_folder, prepare, run_tournament,
                                  with_entrants)
from runner.tournament.schedule import FORMATS, ROUND_ROBIN
from runner.words import plural

EXITS = ("exit codes: 0 every match played (bots that crash or cannot start included), 1 some matches could "
         "not be played (infrastructure errors; --resume retries them), 2 bad input, 130 interrupted (Ctrl-C), "
         "143 terminated (SIGTERM), 70 a bug")

DEFAULT_OUTPUT = Path("tournaments")


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("bots", nargs="*", metavar="BOT_DIR", help="bot folders (each holding bot.json)")
    parser.add_argument("--game", help=f"the game: {', '.join(GAMES)} (default {DEFAULT_GAME})")
    parser.add_argument("--format", choices=FORMATS, help="round-robin: every pair (or every table); gauntlet: "
                        "every bot against --baseline (default round-robin)")
    parser.add_argument("--baseline", metavar="BOT_DIR", help="gauntlet: the bot everyone plays (one of BOT_DIR)")
    parser.add_argument("--games-per-pair", type=int, metavar="N", help="seeds per pair, each played in both "
                        "seatings; multiplayer games: rounds of tables (default 1)")
    parser.add_argument("--table-size", type=int, metavar="N", help="multiplayer games: seats per table "
                        "(default: min(bots, 4))")
    parser.add_argument("--defender", action="append", default=[], metavar="BOT_DIR",
                        help="invaders: a bot that only defends (repeat; default: every bot plays both sides)")
    parser.add_argument("--invader", action="append", default=[], metavar="BOT_DIR",
                        help="invaders: a bot that only invades (repeat)")
    parser.add_argument("--seed", type=int, help="the first seed (default 0); the same seed gives the same games")
    parser.add_argument("--workers", type=int, metavar="K", help="matches at once (default: the cores / seats per "
                        "match); with --dask local, the number of Dask workers")
    parser.add_argument("--dask", metavar="ADDRESS", help="run the matches on a Dask cluster: a scheduler address "
                        "(tcp://HOST:8786) or 'local' (a LocalCluster here); needs td-runner[dask]")
    parser.add_argument("--output", type=Path, help="the tournament folder (default tournaments/<game>)")
    parser.add_argument("--resume", action="store_true", help="continue the tournament in --output (bots and "
                        "options from its tournament.json when none are given); finished matches are never replayed")
    parser.add_argument("--add", action="extend", nargs="+", default=[], metavar="BOT_DIR",
                        help="enter more bots into the tournament in DIR (given alone, or as --output): only "
                        "their matches are played; the others' are kept")
    parser.add_argument("--replace", action="append", default=[], metavar="OLD=NEW",
                        help="play bot folder NEW in place of OLD in the tournament in DIR: NEW's matches are "
                        "played, OLD's kept in the folder but dropped from the standings (marked superseded)")
    parser.add_argument("--game-config", type=Path, help="game rules file (as td-runner match)")
    parser.add_argument("--timeout-ms", type=int, help="wall-clock limit per bot turn (default: the game's)")
    parser.add_argument("--startup-ms", type=int, help="persistent bots: limit of the start-up (default 10000)")
    parser.add_argument("--match-timeout", type=_seconds, metavar="SECONDS", help="stop a match that runs longer, at "
                        "the end of the turn in progress; it is recorded as unfinished: no winner, not rated, not "
                        "played again by --resume (default: no limit)")
    parser.add_argument("--sandbox", action="store_true", help="run bots under bubblewrap (as td-runner match)")
    parser.add_argument("--quiet", action="store_true", help="no line per match, only the standings")
    name = _game_named_in(argv)
    game = get_game(name if name in GAMES else DEFAULT_GAME)
    add_game_options(parser.add_argument_group(f"{game.name} options"), game.options)  # type: ignore[arg-type]


def _seconds(text: str) -> float:
    """argparse type: a number (its range is checked with the other settings, in `prepare`)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None


def settings_from(args: argparse.Namespace) -> TournamentSettings | None:
    """The settings the arguments ask for; None for `--resume` with no bots (the stored ones are used)."""
    if not args.bots and not args.defender and not args.invader:
        if args.resume:
            return None
        raise UserError("give the bot folders to play (at least two), or --resume --output DIR")
    game = get_game(args.game or DEFAULT_GAME)
    if args.workers is not None and args.workers < 1:
        raise UserError(f"--workers must be at least 1, got {args.workers}")
    repeated = next((bot for index, bot in enumerate(args.bots) if bot in args.bots[:index]), None)
    if repeated is not None:
        raise UserError(f"bot folder {repeated} is given twice; enter each bot once")
    bots = [*args.bots, *(b for b in [*args.defender, *args.invader] if b not in args.bots)]
    return TournamentSettings(
        game=game.name, bots=tuple(dict.fromkeys(bots)), format=args.format or ROUND_ROBIN,
        baseline=args.baseline, games_per_pair=1 if args.games_per_pair is None else args.games_per_pair,
        seed=args.seed or 0, table_size=args.table_size, defenders=tuple(args.defender),
        invaders=tuple(args.invader), options=_json_options(chosen_options(args, game.options)),
        game_config=str(args.game_config) if args.game_config else None, timeout_ms=args.timeout_ms,
        startup_ms=args.startup_ms, sandbox=args.sandbox, match_timeout_s=args.match_timeout,
    )


def _json_options(values: dict) -> dict:
    return {key: str(value) if isinstance(value, Path) else value for key, value in values.items()}


class _Progress:
    """The Reporter of the CLI: one line per finished match on stdout, one progress bar (on a terminal)."""

    def __init__(self, streams, quiet: bool) -> None:
        self.out, self.quiet = streams.out, quiet
        self.err = streams.err
        terminal = getattr(streams.err, "isatty", lambda: False)()
        self.bar = Progress(TextColumn("matches"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            TextColumn("ETA"), TimeRemainingColumn(), console=Console(file=streams.err),
                            transient=True, disable=not terminal)
        self.task = None
        self.failures = 0
        self.unfinished = 0  # matches stopped at --match-timeout in this run

    def started(self, total: int, done: int, workers: int) -> None:
        left = total - done
        where = f"{workers} at once" if workers else "on the Dask cluster"
        print(f"{plural(total, 'match')}, {done} already played, {left} to play ({where})", file=self.out)
        self.bar.start()
        self.task = self.bar.add_task("matches", total=total, completed=done)

    def finished(self, record: GameRecord, done: int, total: int) -> None:
        self.bar.update(self.task, completed=done)
        self.unfinished += record.unfinished is not None
        if not self.quiet:
            self.bar.console.file.flush()
            print(f"[{done}/{total}] {describe(record)}", file=self.out, flush=True)

    def failed(self, match_id: str, problem: str) -> None:
        self.failures += 1
        print(f"warning: match {match_id} not played: {problem} (run again with --resume to retry it)",
              file=self.err)

    def stop(self) -> None:
        self.bar.stop()


#: The flags that make a tournament's settings: `--add` and `--replace` take them from tournament.json.
_SETTINGS_FLAGS = (("--game", "game"), ("--format", "format"), ("--baseline", "baseline"),
                   ("--games-per-pair", "games_per_pair"), ("--table-size", "table_size"), ("--seed", "seed"), ("--defender", "defender"),
                   ("--invader", "invader"), ("--game-config", "game_config"), ("--timeout-ms", "timeout_ms"),
                   ("--startup-ms", "startup_ms"), ("--match-timeout", "match_timeout"), ("--sandbox", "sandbox"))


def _changed(args: argparse.Namespace) -> tuple[Path, TournamentSettings]:
    """`DIR --add BOT_DIR... --replace OLD=NEW`: the tournament folder and its settings with those entrants."""
    if args.output is not None and args.bots or len(args.bots) > 1:
        raise UserError("with --add or --replace, give only the tournament folder (DIR or --output DIR)")
    if args.output is None and not args.bots:
        raise UserError("--add and --replace need the tournament folder: td-runner tournament DIR --add BOT_DIR")
    given = [flag for flag, dest in _SETTINGS_FLAGS if getattr(args, dest, None) not in (None, False, [])]
    given += [f"--{option.dest.replace('_', '-')}" for option in get_game(args.game or DEFAULT_GAME).options
              if getattr(args, option.dest, None) is not None]
    if given:
        raise UserError(f"--add and --replace keep the tournament's settings; drop {', '.join(given)}")
    folder = args.output or Path(args.bots[0])
    pairs = []
    for text in args.replace:
        old, sep, new = text.partition("=")
        if not sep or not old or not new:
            raise UserError(f"--replace {text}: expected OLD=NEW (two bot folders)")
        pairs.append((old, new))
    return folder, with_entrants(claim_folder(folder, None), args.add, pairs)


def run(args: argparse.Namespace, streams) -> int:
    changed = bool(args.add or args.replace)
    if changed:
        folder, settings = _changed(args)
    else:
        settings = settings_from(args)
        game_name = settings.game if settings else (args.game or DEFAULT_GAME)
        folder = args.output or DEFAULT_OUTPUT / game_name
        if settings is None:
            settings = claim_folder(folder, None)  # --resume alone: the stored settings
    prepared = prepare(settings)  # every input checked before the folder is claimed: a typo leaves no trace
    if args.add:
        check_addable(prepared)
    for entrant in prepared.entrants:
        if not entrant.can_start:
            print(f"warning: {entrant.name} cannot start, it loses every match: {entrant.problem}", file=streams.err)
    seats = len(prepared.schedule[0].seats) if prepared.schedule else 2
    workers = args.workers or default_workers(seats)
    reporter = _Progress(streams, args.quiet)
    with contextlib.ExitStack() as stack:
        if args.dask is not None:  # a bad address or a missing package: one line, and the folder untouched
            connection = stack.enter_context(DaskConnection(args.dask, workers))
            backend_for = lambda bot_dirs: DaskBackend(connection, bot_dirs)  # noqa: E731
        else:
            backend_for = lambda bot_dirs: LocalBackend(workers, bot_dirs)  # noqa: E731
        claim_folder(folder, settings, changed=changed)
        try:
            with sigterm_as_interrupt():
                standings = run_tournament(prepared, folder, backend_for, reporter)
        except KeyboardInterrupt as stop:
            reporter.stop()
            terminated = isinstance(stop, Terminated)
            print(f"{'terminated' if terminated else 'interrupted'}: the finished matches are in "
                  f"{folder / 'games.jsonl'}; continue with: td-runner tournament --resume --output {folder}",
                  file=streams.err)
            return ExitCode.TERMINATED if terminated else ExitCode.INTERRUPTED
        finally:
            reporter.stop()
    print_standings(standings.to_json(), streams.out)
    print(f"standings: {folder / 'standings.json'}, {folder / 'standings.csv'}; games: {folder / 'games.jsonl'}",
          file=streams.out)
    if reporter.unfinished:
        print(f"warning: {_matches(reporter.unfinished)} reached --match-timeout {settings.match_timeout_s:g} s: "
              "recorded as unfinished (no winner, not rated, not played again by --resume)", file=streams.err)
    if reporter.failures:
        print(f"warning: {_matches(reporter.failures)} could not be played; run again with --resume to retry",
              file=streams.err)
        return ExitCode.DIFFERENT
    return ExitCode.OK


def _matches(count: int) -> str:
    return f"{count} match{'es' if count != 1 else ''}"
