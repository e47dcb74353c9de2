"""`td-runner match [--game NAME] BOT BOT...`: run one match between bot folders (or console players).

Generic options are here; each game adds its own (`--map`, `--max-rounds`, ...), which
`td-runner match --game NAME --help` lists.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TextIO

import attrs

from runner.bots.limits import Limits
from runner.commands.options import add_game_options, chosen_options
from runner.config import RunnerConfig, load_runner_config
from runner.errors import ExitCode, UserError
from runner.games import DEFAULT_GAME, GAMES, get_game
from runner.games.interface import Game
from runner.interrupts import Terminated, sigterm_as_interrupt
from runner.match import MatchRunner, MatchSummary, Player
from runner.play import plan_match, start_match
from runner.terminal import match_display

EXITS = "exit codes: 0 the match was played (even if a bot crashed), 2 bad input, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 70 a bug"

DEFAULT_RUNNER_CONFIG = Path("game-runner-config.json")


def _game_named_in(argv: list[str]) -> str | None:
    """The value of `--game` in the raw arguments (the parser needs the game to know its options)."""
    for index, argument in enumerate(argv):
        if argument == "--game" and index + 1 < len(argv):
            return argv[index + 1]
        if argument.startswith("--game="):
            return argument.split("=", 1)[1]
    return None


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("players", nargs="*", metavar="PLAYER",
                        help="bot folders (holding bot.json) or 'console', one per seat; default: the runner config's")
    parser.add_argument("--game", help=f"the game to play: {', '.join(GAMES)} (default: the runner config's "
                        f"`game`, else {DEFAULT_GAME}; `td-runner games` lists them)")
    parser.add_argument("--config", type=Path, help="runner config (official game-runner-config.json keys); "
                        "default: ./game-runner-config.json when present")
    parser.add_argument("--game-config", type=Path, help="game rules file (Tower Defence: .json or official .properties)")
    parser.add_argument("--timeout-ms", type=int, help="wall-clock limit per bot turn (default: the game's)")
    parser.add_argument("--startup-ms", type=int, help="persistent bots: limit of the start-up and first answer "
                        "(default 10000)")
    parser.add_argument("--output", type=Path, help="parent folder of the match folder (default ./matches)")
    parser.add_argument("--name", help="match folder name (default: the start time, yyyy.MM.dd.HH.mm.ss, made unique)")
    parser.add_argument("--seed", type=int, help="the match seed (default 0)")
    parser.add_argument("--sandbox", action="store_true", help="run bots under bubblewrap (read-only system, "
                        "no network, own PID namespace)")
    parser.add_argument("--verbose", action="store_true",
                        help="print each round's engine errors (default: the runner config's verbose-mode)")
    parser.add_argument("--quiet", action="store_true", help="print only the result line")
    parser.add_argument("--html", action="store_true", help="also write a self-contained HTML replay beside "
                        "the log (<match folder>.html; `td-runner replay LOG --html` writes one later)")
    name = _game_named_in(argv)
    if name is not None and name in GAMES:
        game = get_game(name)
        group = parser.add_argument_group(f"{game.name} options")
        add_game_options(group, game.options)  # type: ignore[arg-type]
    else:  # no --game: the default game's options (an unknown --game is reported when the command runs)
        add_game_options(parser.add_argument_group(f"{DEFAULT_GAME} options (other games: --game NAME --help)"),
                         get_game(DEFAULT_GAME).options)  # type: ignore[arg-type]


def _runner_config(args: argparse.Namespace) -> RunnerConfig:
    if args.config is not None:
        return load_runner_config(args.config)
    if DEFAULT_RUNNER_CONFIG.is_file():
        return load_runner_config(DEFAULT_RUNNER_CONFIG)
    return RunnerConfig()


def _limits(args: argparse.Namespace, runner_config: RunnerConfig, game: Game) -> Limits:
    timeout_ms = args.timeout_ms if args.timeout_ms is not None else runner_config.max_runtime_ms
    if args.timeout_ms is None and runner_config.source is None:
        timeout_ms = game.timeout_ms  # no runner config: the game's own default
    if timeout_ms <= 0:
        raise UserError(f"the bot time limit must be positive, got {timeout_ms} ms")
    limits = runner_config.limits
    overrides = {
        "memory_bytes": limits.memory_mb and limits.memory_mb << 20,
        "cpu_seconds": limits.cpu_seconds,
        "file_size_bytes": limits.file_size_mb and limits.file_size_mb << 20,
        "open_files": limits.open_files,
        "output_cap_bytes": limits.output_kb and limits.output_kb << 10,
    }
    return Limits(
        timeout_ms=timeout_ms,
        sandbox=args.sandbox or runner_config.sandbox,
        **{key: value for key, value in overrides.items() if value is not None},
    )


def _match_folder(args: argparse.Namespace, runner_config: RunnerConfig) -> Path:
    parent = Path(args.output or runner_config.round_state_output_location)
    if args.name is not None:
        name = args.name
        if Path(name).name != name or name in ("", ".", ".."):
            raise UserError(f"--name must be a plain folder name, got {name!r}")
        folder = parent / name
        if folder.exists():
            raise UserError(f"match folder {folder} already exists; pick another --name or remove it")
        return folder
    return _unique_folder(parent, time.strftime("%Y.%m.%d.%H.%M.%S"))  # local time, as datetime.now() gave


def _unique_folder(parent: Path, stem: str) -> Path:
    """`parent/stem`, or `stem-2`, `stem-3`, ...: claimed with mkdir, so matches started in the same second
    (back to back, or at once in two processes) never share a folder."""
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{parent}: cannot create the match folder: {exc.strerror or exc}") from None
    for number in range(1, 10_000):
        folder = parent / (stem if number == 1 else f"{stem}-{number}")
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            continue
        except OSError as exc:
            raise UserError(f"{folder}: cannot create the match folder: {exc.strerror or exc}") from None
    raise UserError(f"{parent}: too many match folders named {stem}*")


def _console_input(streams, prompt: str):
    def ask(seat: str, view: str) -> str:
        print(view, file=streams.out)
        print(f"Player {seat}: {prompt}", end="", file=streams.out, flush=True)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

    return ask


def run(args: argparse.Namespace, streams) -> int:
    runner_config = _runner_config(args)
    if runner_config.is_tournament_mode:
        raise UserError(
            f"{runner_config.source}: is-tournament-mode true is not supported (the official tournament mode "
            "calls bot servers over HTTP); set it to false to run the bots locally"
        )
    game = get_game(args.game or runner_config.game or DEFAULT_GAME)
    folders, sources = _folders(args, runner_config)
    # a game option whose name is also a runner-config key (Tower Defence's command_order) defaults to it
    fallback = {field.name: getattr(runner_config, field.name) for field in attrs.fields(RunnerConfig)}
    config_file = args.game_config
    if config_file is None and game.name == (runner_config.game or DEFAULT_GAME):
        config_file = runner_config.game_config_file_location  # the runner config's file is for its own game
    plan = plan_match(
        game, folders,
        options=chosen_options(args, game.options, fallback),
        config_file=config_file,
        seed=args.seed if args.seed is not None else (runner_config.seed or 0),
        limits=_limits(args, runner_config, game),
        startup_ms=args.startup_ms,
        languages=runner_config.languages,
        sources=sources,
    )
    folder = _match_folder(args, runner_config)  # last: a folder is created only for a match that starts
    verbose = args.verbose or runner_config.verbose_mode
    display = match_display(streams.out, plan.players, None, quiet=args.quiet, verbose=verbose,
                            end_reasons=dict(game.end_reasons))
    runner = start_match(plan, folder, display, _console_input(streams, game.console_prompt or ""))
    display.set_total(runner.session.turn_limit)
    with sigterm_as_interrupt(), display:
        summary: MatchSummary = runner.run()
    display.show_result(summary)
    for player in summary.failing_players:
        _warn_failing(runner, summary, player, streams.err)
    if summary.interrupted:
        terminated = isinstance(runner.stopped_by, Terminated)
        print(f"{'terminated' if terminated else 'interrupted'}: the log of the {summary.turns_text()} played "
              f"is in {folder}", file=streams.err)
        return ExitCode.TERMINATED if terminated else ExitCode.INTERRUPTED
    if args.html:
        from runner.replay.html import write_html_replay

        written, size = write_html_replay(folder)
        if not args.quiet:
            print(f"replay: {written} ({size / 1e6:.2f} MB)", file=streams.out)
    return ExitCode.OK


#: Lines of a failing bot's last output that its warning shows (a traceback's last lines say why).
WARNING_LINES = 5


def _warn_failing(runner: MatchRunner, summary: MatchSummary, player: Player, err: TextIO) -> None:
    """A bot that never answered: what happened last, its last output lines, and the file holding the rest."""
    tally = summary.tallies[player.seat]
    last = tally.events[-1] if tally.events else None
    path = runner.bot_output_file(player.seat, last["round"] if last else summary.rounds)
    where = path if path.is_file() else summary.folder
    print(f"warning: {player.name} never answered in {tally.turns} {summary.turn_word}{'' if tally.turns == 1 else 's'} (last: "
          f"{last['event'] if last else 'no answer'}); see its bot output in {where}", file=err)
    lines = [line for line in tally.last_output.splitlines() if line.strip()][-WARNING_LINES:]
    if lines:
        print("  its last output:", file=err)
        for line in lines:
            print(f"    {line}", file=err)


def _folders(args: argparse.Namespace, runner_config: RunnerConfig) -> tuple[list, list[str] | None]:
    """The players' folders, from the command line or else the runner config (whose keys errors then name)."""
    if args.players:
        return list(args.players), None
    folders = [runner_config.player_a, runner_config.player_b]
    if None in folders:
        raise UserError("no players given and the runner config names none; try "
                        "`td-runner match starter-bots/python3 starter-bots/reference`")
    source = runner_config.source or "runner config"
    return folders, [f"{source}: player-a", f"{source}: player-b"]

