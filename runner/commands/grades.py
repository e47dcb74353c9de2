"""`td-runner grades DIR`: a tournament's or a league's grade sheet (who, W-D-L, points, margin, each fault
kind, rating, rank range), as a table, CSV or JSON; `--against BOT_DIR` adds each entrant's results against a
reference bot (a win rate; Invaders: the turns against it)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from runner.errors import ExitCode, UserError
from runner.league.store import DATABASE
from runner.tournament.grades import build_sheet, grade
from runner.tournament.gradesheet import GradeSheet
from runner.tournament.run import SETTINGS_FILE
from runner.words import plural

EXITS = "exit codes: 0 written, 2 neither a tournament nor a league folder, or a bad option, 70 a bug"


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("folder", metavar="DIR", help="a tournament folder (tournament.json) or a league folder "
                        "(league.sqlite)")
    parser.add_argument("--against", action="extend", nargs="+", default=[], metavar="BOT_DIR",
                        help="reference bots (entrants of the tournament, players of the league): each entrant's "
                        "win rate against each, draws half, with a Wilson interval; Invaders: the turns lasted "
                        "against each reference of the other role")
    parser.add_argument("--all-versions", action="store_true",
                        help="a league: one row per version of each player (default: its current version)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--csv", metavar="OUT", help="write the sheet as CSV to OUT ('-': standard output)")
    output.add_argument("--json", action="store_true", help="print the sheet as JSON")
    parser.add_argument("--confidence", type=float, default=0.95, help="of rank ranges and intervals (default 0.95)")
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples of the games (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="of the bootstrap (default 0): the same sheet every run")


def run(args: argparse.Namespace, streams) -> int:
    sheet = grade_folder(Path(args.folder), args.against, all_versions=args.all_versions,
                         confidence=args.confidence, resamples=args.resamples, seed=args.seed)
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


def grade_folder(folder: Path, against: list[str], *, all_versions: bool, confidence: float, resamples: int,
                 seed: int) -> GradeSheet:
    """A tournament folder's sheet or a league folder's, told apart by tournament.json and league.sqlite."""
    if (folder / SETTINGS_FILE).is_file():
        if all_versions:
            raise UserError(f"--all-versions is for a league; {folder} is a tournament (its --replace keeps "
                            "one version of each entrant)")
        return grade(folder, against, confidence=confidence, resamples=resamples, seed=seed)
    if (folder / DATABASE).is_file():
        from runner.league.grades import league_field

        field, references = league_field(folder, against, all_versions=all_versions)
        return build_sheet(field, references, confidence=confidence, resamples=resamples, seed=seed)
    if not folder.is_dir():
        raise UserError(f"{folder} does not exist")
    raise UserError(f"{folder} is neither a tournament folder ({SETTINGS_FILE}) nor a league folder ({DATABASE})")


def print_sheet(sheet: GradeSheet, out) -> None:
    width = None if getattr(out, "isatty", lambda: False)() else 220
    sided = "mean_turns" in sheet.extras
    table = Table(title=f"{sheet.game} {sheet.source}: {plural(sheet.matches, 'match')}; sorted by "
                  f"{sheet.sorted_by}; rank ranges at {sheet.confidence:g} confidence")
    references = sheet.references
    columns = ["rank", "bot", *(["role"] if sided else []), *(["version"] if sheet.source == "league" else []),
               "folder", "author", "language", "W-D-L", "points", "turns" if sided else "margin", "crash",
               "time-out", "invalid", "no start", *(["disq."] if sided else []), "mu", "sigma", "ordinal",
               *(f"vs {r}" for r in references)]
    for column in columns:
        table.add_column(column, justify="left" if column in ("bot", "role", "folder", "author", "language")
                         else "right")
    for row in sheet.rows:
        versus = {item.reference: item for item in row.against}
        measure = row.mean_turns if sided else row.margin
        table.add_row(row.rank, row.name, *([row.role or ""] if sided else []),
                      *([f"v{row.version} {row.status}"] if sheet.source == "league" else []),
                      row.folder, row.author, row.language,
                      f"{row.wins}-{row.draws}-{row.losses}", f"{row.points:g}",
                      "" if measure is None else f"{measure:.1f}", str(row.crashes), str(row.timeouts),
                      str(row.invalid), str(row.failed_to_start + row.cannot_start),
                      *([str(row.disqualified)] if sided else []), f"{row.mu:.2f}",
                      f"{row.sigma:.2f}", f"{row.ordinal:.2f}",
                      *(_versus(versus.get(r), sided) for r in references))
    Console(file=out, highlight=False, width=width).print(table)


def _versus(item, sided: bool) -> str:
    if item is None:  # the reference's own row
        return ""
    if item.rate is None:
        return "no games"
    if sided:
        return f"{item.rate:.0f} turns [{item.low:.0f}, {item.high:.0f}] n={item.games}"
    return f"{item.rate:.2f} [{item.low:.2f}, {item.high:.2f}] n={item.games}"
