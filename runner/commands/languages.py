"""`td-runner languages [--game NAME]`: the launch table (botLanguage -> command line) and whether each tool is
installed. A game may add languages of its own (Invaders' koth-js, which runs in a node host the package
ships): `--game NAME` shows exactly the table `td-runner match --game NAME` launches bots with."""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from runner.bots import languages as lang
from runner.commands.match import DEFAULT_RUNNER_CONFIG
from runner.config import load_runner_config
from runner.errors import ExitCode
from runner.games import GAMES, all_games, get_game

EXITS = "exit codes: 0, 2 bad runner config or unknown game, 70 a bug"


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("--game", help=f"the table of this game's matches ({', '.join(GAMES)}): the common "
                        "languages and the game's own; default: every game's, each marked with its game")
    parser.add_argument("--config", type=Path, help="runner config whose `languages` override the table "
                        "(default: ./game-runner-config.json when present)")


def _program_status(argv: Sequence[str]) -> str:
    """Whether the program is there; an absolute path among the arguments (a host script the package ships)
    must exist too."""
    program = argv[0]
    if program == sys.executable:
        status = "yes (the Python running td-runner)"
    elif program.startswith("./"):
        return "the bot's own executable"
    else:
        found = shutil.which(program)
        if not found:
            return "NOT INSTALLED"
        status = f"yes ({found})"
    missing = [argument for argument in argv[1:] if Path(argument).is_absolute() and not Path(argument).exists()]
    return f"{status}, but {', '.join(missing)} is MISSING" if missing else status


def _game_languages(game_name: str | None) -> dict[str, tuple[Sequence[str] | lang.LaunchTemplate, str]]:
    """The languages games add, with the note that says which game (none when --game names the game)."""
    games = [get_game(game_name)] if game_name else all_games()
    added: dict[str, tuple[Sequence[str] | lang.LaunchTemplate, str]] = {}
    for game in games:
        for name, argv in game.languages.items():
            added.setdefault(name, (argv, "" if game_name else f"; {game.name} only"))
    return added


def run(args: argparse.Namespace, streams) -> int:
    added = _game_languages(args.game)
    path = args.config or (DEFAULT_RUNNER_CONFIG if DEFAULT_RUNNER_CONFIG.is_file() else None)
    overrides: Mapping[str, Sequence[str]] = load_runner_config(path).languages if path is not None else {}
    # as a match builds it (runner.play.load_player): the game's languages, then the runner config's
    table = lang.language_table({**{name: argv for name, (argv, _) in added.items()}, **overrides})
    rows = []
    for name, template in table.items():
        argv = lang.expand(template, file="{file}", directory="{dir}", cores=None, entry="{entry}")
        cores = f" [+ {' '.join(template.with_cores)} with coreCount]" if template.with_cores else ""
        cores += f" [environment without {', '.join(template.unset_env)}]" if template.unset_env else ""
        note = added[name][1] if name in added and name not in overrides else ""
        rows.append((name, " ".join(argv) + cores, _program_status(argv) + note))
    rows.append((lang.CUSTOM, "bot.json's `command` list", "-"))
    width = max(len(row[0]) for row in rows)
    command_width = max(len(row[1]) for row in rows)
    print(f"{'language':<{width}}  {'command line':<{command_width}}  installed", file=streams.out)
    for name, command, status in rows:
        print(f"{name:<{width}}  {command:<{command_width}}  {status}", file=streams.out)
    return ExitCode.OK
