"""`td-runner grades DIR`: a tournament's grade sheet (who, W-D-L, points, margin, each fault kind, rating,
rank range), as a table, CSV or JSON; `--against BOT_DIR` adds each entrant's win rate against a reference."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from runner.errors import ExitCode, UserError
from runner.tournament.grades import GradeSheet, grade
from runner.words import plural

EXITS = "exit codes: 0 written, 2 not a tournament folder or bad option, 70 a bug"


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("folder", metavar="DIR", help="a tournament folder (holds games.jsonl)")
    parser.add_argument("--against", action="extend", nargs="+", default=[], metavar="BOT_DIR",
                        help="reference bots (entrants of the tournament): each entrant's win rate against each, "
                        "draws half, with a Wilson interval")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--csv", metavar="OUT", help="write the sheet as CSV to OUT ('-': standard output)")
    output.add_argument("--json", action="store_true", help="print the sheet as JSON")
    parser.add_argument("--confidence", type=float, default=0.95, help="of rank ranges and intervals (default 0.95)")
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples of the games (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="of the bootstrap (default 0): the same sheet every run")


def run(args: argparse.Namespace, streams) -> int:
    sheet = grade(Path(args.folder), args.against, confidence=args.confidence, resamples=args.resamples,
                  seed=args.seed)
    if args.json:
        print(json.dumps(sheet.to_json(), indent=2), file=streams.out)
    elif args.csv == "-":
        streams.out.write(sheet.to_csv())
    elif args.csv:
        try:
            Path(args.csv).write_text(sheet.to_csv(), encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{args.csv}: cannot write: {exc.strerror or exc}") from None
        print(f"wrote {len(sheet.rows)} grades to {args.csv}", file=streams.out)
    else:
        print_sheet(sheet, streams.out)
    return ExitCode.OK


def print_sheet(sheet: GradeSheet, out) -> None:
    width = None if getattr(out, "isatty", lambda: False)() else 200
    table = Table(title=f"{sheet.game}: {plural(sheet.matches, 'match')}; sorted by ordinal (mu - 3 sigma); rank ranges "
                  f"at {sheet.confidence:g} confidence")
    references = sheet.references
    for column in ("rank", "bot", "folder", "author", "language", "W-D-L", "points", "margin", "crash",
                   "time-out", "invalid", "no start", "mu", "sigma", "ordinal", *(f"vs {r}" for r in references)):
        table.add_column(column, justify="left" if column in ("bot", "folder", "author", "language") else "right")
    for row in sheet.rows:
        versus = {item.reference: item for item in row.against}
        table.add_row(row.rank, row.name, row.folder, row.author, row.language,
                      f"{row.wins}-{row.draws}-{row.losses}", f"{row.points:g}",
                      "" if row.margin is None else f"{row.margin:.1f}", str(row.crashes), str(row.timeouts),
                      str(row.invalid), str(row.failed_to_start + row.cannot_start), f"{row.mu:.2f}",
                      f"{row.sigma:.2f}", f"{row.ordinal:.2f}",
                      *(_rate(versus.get(r)) for r in references))
    Console(file=out, highlight=False, width=width).print(table)


def _rate(item) -> str:
    if item is None:  # the reference's own row
        return ""
    if item.rate is None:
        return "no games"
    return f"{item.rate:.2f} [{item.low:.2f}, {item.high:.2f}] n={item.games}"
