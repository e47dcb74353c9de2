"""`td-runner match [PLAYER_A PLAYER_B]`: run one match between two bot folders (or console players)."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

import attrs

from runner.bots.definition import load_bot
from runner.bots.isolation import check_isolation
from runner.bots.limits import Limits
from runner.config import (
    RunnerConfig,
    game_config_to_json,
    load_game_config,
    load_runner_config,
)
from runner.engine.config import GameConfig
from runner.engine.state import CommandOrder
from runner.errors import ExitCode, UserError
from runner.games.tower_defence import TowerDefenceSession
from runner.match import MatchRunner, MatchSettings, MatchSummary, Player
from runner.terminal import MatchDisplay

HELP = "run a match between two bot folders and write its log"

DEFAULT_RUNNER_CONFIG = Path("game-runner-config.json")
CONSOLE_PLAYER = "console"
CONSOLE_PROMPT = "Enter x,y,type (0 defence, 1 attack, 2 energy, 3 deconstruct, 4 tesla, 5 iron curtain): "


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("players", nargs="*", metavar="PLAYER",
                        help="two bot folders (holding bot.json) or 'console'; default: the runner config's")
    parser.add_argument("--config", type=Path, help="runner config (official game-runner-config.json keys); "
                        "default: ./game-runner-config.json when present")
    parser.add_argument("--game-config", type=Path, help="game rules (.json or official .properties)")
    parser.add_argument("--max-rounds", type=int, help="override the game config's maxRounds")
    parser.add_argument("--timeout-ms", type=int, help="wall-clock limit per bot turn (default 2000)")
    parser.add_argument("--output", type=Path, help="parent folder of the match folder (default ./matches)")
    parser.add_argument("--name", help="match folder name (default: the start time, yyyy.MM.dd.HH.mm.ss)")
    parser.add_argument("--seed", type=int, help="seed of the missile ids (default 0)")
    parser.add_argument("--order", help="command processing order A,B or B,A (default B,A, as official)")
    parser.add_argument("--sandbox", action="store_true", help="run bots under bubblewrap (read-only system, "
                        "no network, own PID namespace)")
    parser.add_argument("--verbose", action="store_true",
                        help="print each round's engine errors (default: the runner config's verbose-mode)")
    parser.add_argument("--quiet", action="store_true", help="print only the result line")


def _runner_config(args: argparse.Namespace) -> RunnerConfig:
    if args.config is not None:
        return load_runner_config(args.config)
    if DEFAULT_RUNNER_CONFIG.is_file():
        return load_runner_config(DEFAULT_RUNNER_CONFIG)
    return RunnerConfig()


def _game_config(args: argparse.Namespace, runner_config: RunnerConfig) -> GameConfig:
    path = args.game_config or runner_config.game_config_file_location
    config = load_game_config(path) if path is not None else GameConfig()
    if args.max_rounds is not None:
        if args.max_rounds < 0:
            raise UserError(f"--max-rounds must be >= 0, got {args.max_rounds}")
        config = attrs.evolve(config, max_rounds=args.max_rounds)
    return config


def _limits(args: argparse.Namespace, runner_config: RunnerConfig) -> Limits:
    timeout_ms = args.timeout_ms if args.timeout_ms is not None else runner_config.max_runtime_ms
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


def _players(args: argparse.Namespace, runner_config: RunnerConfig) -> tuple[Player, Player]:
    if len(args.players) not in (0, 2):
        raise UserError(f"give two players (bot folders or 'console'), got {len(args.players)}")
    folders = list(args.players) or [runner_config.player_a, runner_config.player_b]
    if None in folders:
        raise UserError("no players given and the runner config names none; try "
                        "`td-runner match starter-bots/python3 starter-bots/reference`")
    players = []
    for seat, folder in zip("AB", folders):
        if str(folder) == CONSOLE_PLAYER:
            players.append(Player(seat, f"{seat} - Console", None))
            continue
        bot = load_bot(Path(folder), runner_config.languages or None)
        players.append(Player(seat, f"{seat} - {bot.nick_name}", bot))
    return players[0], players[1]


def _match_folder(args: argparse.Namespace, runner_config: RunnerConfig) -> Path:
    parent = args.output or runner_config.round_state_output_location
    name = args.name or datetime.datetime.now().strftime("%Y.%m.%d.%H.%M.%S")
    if Path(name).name != name or name in ("", ".", ".."):
        raise UserError(f"--name must be a plain folder name, got {name!r}")
    folder = Path(parent) / name
    if folder.exists():
        raise UserError(f"match folder {folder} already exists; pick another --name or remove it")
    return folder


def _console_input(streams):
    def ask(seat: str, console: str) -> str:
        print(console, file=streams.out)
        print(f"Player {seat}: {CONSOLE_PROMPT}", end="", file=streams.out, flush=True)
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
    game_config = _game_config(args, runner_config)
    players = _players(args, runner_config)
    limits = _limits(args, runner_config)
    check_isolation(limits)  # e.g. --sandbox without bubblewrap: say so before round 0
    seed = args.seed if args.seed is not None else (runner_config.seed or 0)
    try:
        order = CommandOrder.parse(args.order) if args.order else runner_config.command_order
    except ValueError as exc:
        raise UserError(f"--order: {exc}") from None
    folder = _match_folder(args, runner_config)
    settings = MatchSettings(
        players=players,
        folder=folder,
        seed=seed,
        limits=limits,
        extra_files={"game-config.json": json.dumps(game_config_to_json(game_config), indent=2) + "\n"},
    )
    session = TowerDefenceSession(game_config, seed=seed, command_order=order)
    verbose = args.verbose or runner_config.verbose_mode
    display = MatchDisplay(streams.out, players, game_config.max_rounds, quiet=args.quiet, verbose=verbose)
    with display:
        summary: MatchSummary = MatchRunner(session, settings, display, _console_input(streams)).run()
    display.show_result(summary)
    if summary.interrupted:
        print(f"interrupted: the log of the {summary.rounds} rounds played is in {folder}", file=streams.err)
        return ExitCode.INTERRUPTED
    return ExitCode.OK

