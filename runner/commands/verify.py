"""`td-runner verify MATCH_DIR`: does our engine reproduce this match log, file by file?"""

from __future__ import annotations

import argparse
import json
import os

from runner.engine.state import CommandOrder
from runner.errors import ExitCode, UserError
from runner.matchlog.layout import log_game_config, open_match_log
from runner.matchlog.verify import verify_log

HELP = "replay a match log's commands through the engine and compare every round's files"

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("match_dir", metavar="MATCH_DIR", help="match folder in the official layout")
    parser.add_argument(
        "--order",
        default="auto",
        help="command processing order: auto (driver-notes.json, else detected), A,B or B,A",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON summary as the last line")


def run(args: argparse.Namespace, streams) -> int:
    order = None
    if args.order != "auto":
        try:
            order = CommandOrder.parse(args.order)
        except ValueError as exc:
            raise UserError(f"--order: {exc}") from None
    log = open_match_log(args.match_dir)
    config, config_path = log_game_config(log)
    report = verify_log(log, config, order, workers=os.cpu_count() or 1)
    out = streams.out
    source = config_path.name if config_path else "default game config"
    print(f"{log.path}: {report.rounds} rounds compared ({source}, command order {report.order})", file=out)
    if report.first_divergence is not None:
        print(f"first difference: {report.first_divergence.describe()}", file=out)
    elif report.note:
        print(f"rounds identical: {report.identical}/{report.rounds}; result not compared: {report.note}", file=out)
    else:
        print(f"identical: all {report.identical} rounds and endGameState.txt", file=out)
    if args.json:
        print(json.dumps(report.to_json()), file=out)
    return ExitCode.OK if report.ok else ExitCode.DIFFERENT
