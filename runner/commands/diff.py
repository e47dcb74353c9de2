"""`td-runner diff LOG_A LOG_B`: say whether two match logs are the same and where they first differ."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from runner.commands.options import add_log_game_option
from runner.errors import ExitCode, UserError
from runner.games import game_of_log

EXITS = "exit codes: 0 identical, 1 different, 2 not a log or bad input, 70 a bug"


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("log_a", metavar="LOG_A", help="match log folder")
    parser.add_argument("log_b", metavar="LOG_B", help="match log folder to compare with LOG_A")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="compare every file byte for byte, bot output included (default: normalise what the game's "
        "reference engine does not make deterministic and skip the bots' own output)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object for scripts instead of text")
    add_log_game_option(parser)
    parser.add_argument(
        "--fields", type=int, default=30, metavar="N", help="differences listed (default 30; the rest are counted)"
    )


def run(args: argparse.Namespace, streams) -> int:
    path_a, path_b = Path(args.log_a), Path(args.log_b)
    game = game_of_log(path_a, args.game)
    other = game_of_log(path_b, args.game)
    if other.name != game.name:
        raise UserError(f"{path_a} is a {game.name} log but {path_b} is a {other.name} log")
    check = game.diff(path_a, path_b, {"strict": args.strict, "fields": args.fields})
    if args.json:
        print(json.dumps(dict(check.data)), file=streams.out)
    else:
        for line in check.lines:
            print(line, file=streams.out)
    return ExitCode.OK if check.same else ExitCode.DIFFERENT
