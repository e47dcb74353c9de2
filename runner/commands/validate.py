"""`td-runner validate PATH...`: check files (or whole match logs) against the schemas under `schema/`.

stdout gets one line per problem, `file: JSON-path: message`; stderr gets files that could not be checked
and a summary. Exit 0 all valid, 1 a problem found, 2 a path unreadable or of unknown kind.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from runner.errors import ExitCode
from runner.games import get_game
from runner.games.interface import FileReport
from runner.schemas import MAX_PROBLEMS
from runner.validate import kinds, validate_path

EXITS = "exit codes: 0 every file valid, 1 a problem found, 2 a path unreadable or of unknown kind, 70 a bug"


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                        help="a file, a match-log folder (every file in it) or a bot folder (its bot.json)")
    parser.add_argument("--kind", choices=kinds(),
                        help="check every PATH as this kind of file instead of detecting it from its name/content")
    parser.add_argument("--game", help="the game whose files these are (default: detected); for a bot folder, "
                        "check its language as `match --game GAME` would (default: any game's)")
    parser.add_argument("--lenient", action="store_true", help="maps: accept what the lenient reader accepts")


def run(args: argparse.Namespace, streams) -> int:
    options = {"game": args.game, "lenient": args.lenient}
    if args.game is not None:
        get_game(args.game)  # an unknown name is a usage error, before any file is read
    reports = [report for path in args.paths for report in validate_path(path, args.kind, options)]
    for report in reports:
        _print_report(report, streams)
    unreadable = sum(report.unreadable is not None for report in reports)
    invalid = [report for report in reports if report.problems]
    problems = sum(len(report.problems) for report in invalid)
    files = f"{len(reports)} file{'s' if len(reports) != 1 else ''}"
    if not invalid and not unreadable:
        print(f"{files} valid", file=streams.err)
        return ExitCode.OK
    parts = []
    if invalid:
        parts.append(f"{len(invalid)} of {files} invalid ({problems} problem{'s' if problems != 1 else ''})")
    if unreadable:
        parts.append(f"{unreadable} could not be checked")
    print("; ".join(parts), file=streams.err)
    return ExitCode.USAGE if unreadable else ExitCode.DIFFERENT


def _print_report(report: FileReport, streams) -> None:
    if report.unreadable is not None:
        print(f"{report.path}: {report.unreadable}", file=streams.err)
        return
    for problem in report.problems[:MAX_PROBLEMS]:
        print(f"{report.path}: {problem}", file=streams.out)
    if len(report.problems) > MAX_PROBLEMS:
        print(f"{report.path}: ... and {len(report.problems) - MAX_PROBLEMS} more problems", file=streams.out)
