"""`td-runner standings DIR`: print a tournament's standings, recomputed from its games.jsonl.

Also the table drawing that `td-runner tournament` prints at its end (this module owns that terminal output).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from runner.errors import ExitCode, UserError
from runner.tournament.records import GAMES_FILE, read_counted
from runner.tournament.run import SETTINGS_FILE, TournamentSettings
from runner.tournament.schedule import SIDED_GAMES
from runner.tournament.standings import Standings, compute_standings, read_standings

EXITS = "exit codes: 0 printed, 2 not a tournament folder, 70 a bug"

#: Above this many bots the crosstable is left to standings.json (it no longer fits a terminal).
CROSSTABLE_MAX = 12


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("folder", metavar="DIR", help="a tournament folder (holds games.jsonl)")
    parser.add_argument("--json", action="store_true", help="print standings.json's content instead of tables")
    parser.add_argument("--html", metavar="OUT",
                        help="write the standings, crosstable, each bot's page, the matches and their HTML "
                        "replays as static web pages into the folder OUT (opens from file:// or any web server)")


def load(folder: Path) -> Standings | dict[str, Any]:
    """The standings recomputed from games.jsonl with the stored settings; without those, standings.json."""
    settings_path = folder / SETTINGS_FILE
    if not folder.is_dir():
        raise UserError(f"tournament folder {folder} does not exist")
    if not (folder / GAMES_FILE).is_file() or not settings_path.is_file():
        return read_standings(folder)
    try:
        settings = TournamentSettings.from_json(json.loads(settings_path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError) as exc:
        raise UserError(f"{settings_path}: not a tournament settings file: {exc}") from None
    cap = settings.options.get("max_turns")
    scheduled = None
    try:
        scheduled = read_standings(folder).get("scheduled")
    except UserError:
        pass
    return compute_standings(settings.game, read_counted(folder), sides=SIDED_GAMES.get(settings.game),
                             turn_cap=cap if isinstance(cap, int) else None, scheduled=scheduled)


def run(args: argparse.Namespace, streams) -> int:
    if args.html is not None:
        from runner.league.web.export import write_site
        from runner.league.web.tournament_data import TournamentSource

        written = write_site(TournamentSource(Path(args.folder)), Path(args.html), cache=None)
        print(f"wrote {written} pages to {args.html} (open {Path(args.html) / 'index.html'})", file=streams.out)
        return ExitCode.OK
    standings = load(Path(args.folder))
    data = standings.to_json() if isinstance(standings, Standings) else standings
    if args.json:
        print(json.dumps(data, indent=2), file=streams.out)
    else:
        print_standings(data, streams.out)
    return ExitCode.OK


def print_standings(data: dict[str, Any], out) -> None:
    """The standings table, then the crosstable (row bot's wins-draws-losses against each column bot)."""
    width = None if getattr(out, "isatty", lambda: False)() else 160
    console = Console(file=out, highlight=False, width=width)
    rows = data.get("rows", [])
    played = f"{data.get('matches', 0)}" + (f" of {data['scheduled']}" if data.get("scheduled") else "")
    sided = any("role" in row for row in rows)
    cut = any(row.get("unfinished") for row in rows)  # an "unfinished" column only when --match-timeout cut some
    table = Table(title=f"{data.get('game', '?')}: {played} matches", title_justify="left")
    for column in ("#", "bot", *(("role", "mean turns") if sided else ()), "ordinal", "mu", "sigma", "games",
                   "W", "D", "L", *(() if sided else ("points",)), "timeouts", "crashes", "invalid", "no start", "DQ",
                   *(("unfinished",) if cut else ())):
        table.add_column(column, justify="left" if column in ("bot", "role") else "right")
    for place, row in enumerate(rows, 1):
        table.add_row(str(place), row["name"], *((row["role"], f"{row.get('mean_turns') or 0:g}") if sided else ()),
                      f"{row['ordinal']:.2f}", f"{row['mu']:.2f}", f"{row['sigma']:.2f}", str(row["games"]),
                      str(row["wins"]), str(row["draws"]), str(row["losses"]),
                      *(() if sided else (f"{row['points']:g}",)), str(row["timeouts"]), str(row["crashes"]),
                      str(row.get("invalid", 0)), str(row["cannot_start"]), str(row["disqualified"]),
                      *((str(row.get("unfinished", 0)),) if cut else ()))
    console.print(table)
    cross = data.get("crosstable", {})
    names = list(dict.fromkeys(row["name"] for row in rows))
    if not cross or len(names) > CROSSTABLE_MAX:
        return
    grid = Table(title="crosstable: the row bot's wins-draws-losses against the column bot"
                 + (" (mean turns)" if sided else ""), title_justify="left")
    grid.add_column("bot")
    for index, _ in enumerate(names, 1):
        grid.add_column(str(index), justify="right")
    for index, name in enumerate(names, 1):
        cells = []
        for other in names:
            cell = cross.get(name, {}).get(other)
            if cell is None:
                cells.append("" if other != name else "-")
                continue
            text = f"{cell['wins']}-{cell['draws']}-{cell['losses']}"
            cells.append(text + (f" ({cell['mean_turns']:g})" if "mean_turns" in cell else ""))
        grid.add_row(f"{index} {name}", *cells)
    console.print(grid)
