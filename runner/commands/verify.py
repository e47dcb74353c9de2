"""`td-runner verify LOG`: does our engine reproduce this match log, turn by turn, file by file?

The log's game (match.json's `game`, or the game that recognises the folder) replays it; each game words
its own report. Options some games take (Tower Defence's `--order`) are listed here for all.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from runner.commands.options import add_game_options, add_log_game_option, chosen_options
from runner.errors import ExitCode, UserError
from runner.games import all_games, game_of_log

EXITS = "exit codes: 0 identical, 1 different, 2 not a log or bad input, 70 a bug"


def _verify_options(argv: list[str]) -> list:
    """The options of the game of the log named in `argv`; every game's when none is named (`--help`).

    Loading only that game keeps `td-runner verify` quick: a cold start that imported every game cost
    about 0.3 s more than the comparison itself.
    """
    rest = argv[argv.index("verify") + 1 :] if "verify" in argv else []
    for argument in rest:
        if not argument.startswith("-") and Path(argument).exists():
            try:
                return list(game_of_log(Path(argument)).verify_options)
            except UserError:
                break
    return [option for game in all_games() for option in game.verify_options]


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("match_dir", metavar="LOG", help="match log folder (or a game's reference trace file)")
    add_game_options(parser, _verify_options(argv))
    parser.add_argument("--json", action="store_true", help="print a JSON summary as the last line")
    add_log_game_option(parser)


def run(args: argparse.Namespace, streams) -> int:
    path = Path(args.match_dir)
    game = game_of_log(path, args.game)
    check = game.verify(path, chosen_options(args, game.verify_options))
    for line in check.lines:
        print(line, file=streams.out)
    if args.json:
        print(json.dumps(dict(check.data)), file=streams.out)
    return ExitCode.OK if check.same else ExitCode.DIFFERENT
