"""What a match shows in the terminal: a live progress line, per-round errors (verbose), a result table."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from runner.bots.outcome import TurnOutcome
from runner.games import GameSession, RoundReport
from runner.match import MatchSummary, Player

END_REASONS = {
    "health": "a base was destroyed",
    "max_rounds": "the round limit was reached",
    "do_nothing_limit": "a bot did nothing too many consecutive rounds",
    "interrupted": "interrupted",
}


def result_line(summary: MatchSummary) -> str:
    """One line: who won, scores, health, rounds and where the log is."""
    a, b = (summary.standings[p.seat] for p in summary.players)
    names = {p.seat: p.name for p in summary.players}
    if summary.interrupted:
        verdict = "interrupted"
    elif summary.winner is None:
        verdict = "tie"
    else:
        verdict = f"winner {names[summary.winner]}"
    return (
        f"{verdict} after {summary.rounds} rounds ({END_REASONS.get(summary.end_reason, summary.end_reason)}): "
        f"score {a['score']}-{b['score']}, health {a['health']}-{b['health']}; log {summary.folder}"
    )


class MatchDisplay:
    """A MatchObserver drawing on a rich Console; silent except for the result line with `quiet`."""

    def __init__(self, out: TextIO, players: tuple[Player, ...], max_rounds: int, *, quiet: bool,
                 verbose: bool) -> None:
        # not a terminal (a file, a pipe, a test): no terminal width to respect, so never squeeze the table
        width = None if getattr(out, "isatty", lambda: False)() else 120
        self.console = Console(file=out, highlight=False, width=width)
        self.players = players
        self.quiet = quiet
        self.verbose = verbose
        self.progress = Progress(
            TextColumn("round"),
            MofNCompleteColumn(),
            BarColumn(),
            TextColumn("{task.fields[standings]}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
            disable=quiet,
        )
        self.task = self.progress.add_task("match", total=max_rounds + 1, standings="")

    def __enter__(self) -> "MatchDisplay":
        self.progress.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.progress.stop()

    def round_played(
        self, round_number: int, session: GameSession, report: RoundReport, outcomes: dict[str, TurnOutcome]
    ) -> None:
        standings = session.standings()
        text = "  ".join(
            f"{p.seat}: hp {standings[p.seat]['health']} score {standings[p.seat]['score']}" for p in self.players
        )
        self.progress.update(self.task, completed=round_number + 1, standings=text)
        if self.verbose and not self.quiet:
            self.progress.console.print(f"round {round_number}: errors {list(report.errors)}", markup=False)
            for seat, outcome in outcomes.items():
                for event in outcome.events:
                    self.progress.console.print(f"round {round_number}: {seat}: {event}", markup=False)

    def show_result(self, summary: MatchSummary) -> None:
        if not self.quiet:
            table = Table(title="Result", box=None, header_style="bold")
            table.add_column("player", no_wrap=True)
            table.add_column("language", no_wrap=True)
            for column in ("score", "health", "timeouts", "crashes", "invalid", "bot s"):
                table.add_column(column, justify="right", no_wrap=True)
            for player in summary.players:
                tally = summary.tallies[player.seat]
                standing = summary.standings[player.seat]
                table.add_row(
                    player.name, player.language, str(standing["score"]), str(standing["health"]),
                    str(tally.timeouts), str(tally.crashes), str(tally.invalid_commands),
                    f"{tally.bot_seconds:.2f}",
                )
            self.console.print(table)
        self.console.print(result_line(summary), markup=False, soft_wrap=True)
