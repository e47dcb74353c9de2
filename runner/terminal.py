"""What a match shows in the terminal: a live progress line, per-round errors (verbose), a result table."""

from __future__ import annotations

import time
from typing import TextIO

from runner.bots.outcome import TurnOutcome
from runner.games.interface import Session, TurnReport
from runner.match import MatchSummary, Player

#: The result line shows this many of the game's standings (its first ones: score, health for Tower Defence).
SHOWN_STANDINGS = 2
#: Seconds between two updates of the progress line (round number and standings).
PROGRESS_UPDATE_S = 0.05


def _numbers(summary: MatchSummary) -> str:
    """`score 12-34, health 0-5`: the first standings of every seat, seats in order."""
    seats = [p.seat for p in summary.players]
    keys = list(summary.standings.get(seats[0], {}))[:SHOWN_STANDINGS]
    return ", ".join(f"{key} " + "-".join(str(summary.standings[s].get(key, "?")) for s in seats) for key in keys)


def result_line(summary: MatchSummary, end_reasons: dict[str, str] | None = None) -> str:
    """One line: who won (or the ranking), the game's main numbers, rounds, and where the log is."""
    names = {p.seat: p.name for p in summary.players}
    if summary.interrupted:
        verdict = "interrupted"
    elif summary.winner is not None:
        verdict = f"winner {names[summary.winner]}"
    elif summary.outcome is not None and summary.outcome.draw:
        verdict = "draw"
    elif summary.outcome is not None and len(summary.outcome.ranking) > 1:
        verdict = "tie at the top: " + ", ".join(names[s] for s in summary.outcome.ranking[0])
    else:
        verdict = "tie"
    line = f"{verdict} after {summary.end_text()}"
    if not summary.interrupted:  # "interrupted after 13 rounds (interrupted)" says it twice
        reason = deciding_faults(summary) or (end_reasons or {}).get(summary.end_reason, summary.end_reason)
        line += f" ({reason})"
    numbers = _numbers(summary)
    line += f": {numbers}" if numbers else ""
    failing = summary.failing_players
    if failing:
        line += "; never answered: " + ", ".join(p.name for p in failing)
    return line + f"; log {summary.folder}"


def deciding_faults(summary: MatchSummary) -> str | None:
    """The faults that decided a match (a disqualification: Outcome.details names the seats and their
    faults), each with its bot and turn: `invader - X disqualified in turn 1: no start-up and first answer
    within 10000 ms ...`; None when no fault decided it. The core's own words for the fault when it logged
    one that turn (a time-out, a crash), else the game's (an answer that is not JSON)."""
    details = summary.outcome.details if summary.outcome is not None else {}
    disqualified = details.get("disqualified")
    if not disqualified:
        return None
    seats = disqualified if isinstance(disqualified, list) else [disqualified]
    faults = details.get("faults") if isinstance(details.get("faults"), dict) else {}
    names = {p.seat: p.name for p in summary.players}
    turn = summary.last_turn if summary.last_turn is not None else summary.rounds
    said = []
    for seat in seats:
        tally = summary.tallies.get(seat)
        logged = [e for e in (tally.events if tally else []) if e.get("fault") and e.get("round") == turn]
        what = logged[-1]["event"] if logged else faults.get(seat, "a fault")
        said.append(f"{names.get(seat, seat)} disqualified in {summary.turn_word} {turn}: {what}")
    return "; ".join(said)


class QuietDisplay:
    """A MatchObserver that shows only the result line (`--quiet`), printed plainly: it never loads rich
    (~40 ms of start-up, a tenth of a short match's command)."""

    def __init__(self, out: TextIO, end_reasons: dict[str, str] | None = None) -> None:
        self.out = out
        self.end_reasons = end_reasons or {}

    def set_total(self, max_rounds: int | None) -> None:
        """No progress bar to end."""

    def __enter__(self) -> "QuietDisplay":
        return self

    def __exit__(self, *_: object) -> None:
        pass

    def round_played(
        self, round_number: int, session: Session, report: TurnReport, outcomes: dict[str, TurnOutcome]
    ) -> None:
        """Nothing shows while the match runs."""

    def show_result(self, summary: MatchSummary) -> None:
        print(result_line(summary, self.end_reasons), file=self.out)


def match_display(out: TextIO, players: tuple[Player, ...], max_rounds: int | None, *, quiet: bool,
                  verbose: bool, end_reasons: dict[str, str] | None = None) -> "QuietDisplay | MatchDisplay":
    """The display a match command asks for: the result line alone with `quiet`, else the rich one."""
    if quiet:
        return QuietDisplay(out, end_reasons)
    return MatchDisplay(out, players, max_rounds, verbose=verbose, end_reasons=end_reasons)


class MatchDisplay:
    """A MatchObserver drawing on a rich Console: a live progress line, per-round errors (verbose), the
    result table and line."""

    def __init__(self, out: TextIO, players: tuple[Player, ...], max_rounds: int | None, *, verbose: bool,
                 end_reasons: dict[str, str] | None = None) -> None:
        from rich.console import Console  # imported here: a quiet match never loads rich
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        # not a terminal (a file, a pipe, a test): no terminal width to respect, so never squeeze the table
        width = None if getattr(out, "isatty", lambda: False)() else 120
        self.console = Console(file=out, highlight=False, width=width)
        self.players = players
        self.verbose = verbose
        self.progress = Progress(
            TextColumn("round"),
            MofNCompleteColumn(),
            BarColumn(),
            TextColumn("{task.fields[standings]}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
        )
        self.end_reasons = end_reasons or {}
        total = None if max_rounds is None else max_rounds + 1
        self.task = self.progress.add_task("match", total=total, standings="")
        self.next_update = 0.0  # time.monotonic() of the next progress update

    def set_total(self, max_rounds: int | None) -> None:
        """The progress bar's end, once the session knows it."""
        self.progress.update(self.task, total=None if max_rounds is None else max_rounds + 1)

    def __enter__(self) -> "MatchDisplay":
        self.progress.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.progress.stop()

    def round_played(
        self, round_number: int, session: Session, report: TurnReport, outcomes: dict[str, TurnOutcome]
    ) -> None:
        now = time.monotonic()
        if now >= self.next_update:  # rich redraws 10 times a second: updating it every turn of a 12,630-turn
            self.next_update = now + PROGRESS_UPDATE_S  # game cost more than the turn's own work
            standings = session.standings()
            text = "  ".join(
                f"{p.seat}: " + " ".join(f"{key} {value}" for key, value in list(standings[p.seat].items())[:2])
                for p in self.players
            )
            self.progress.update(self.task, completed=round_number + 1, standings=text)
        if self.verbose:
            for event in report.events:  # nothing printed for a round without errors
                self.progress.console.print(f"round {round_number}: {event}", markup=False)
            for seat, outcome in outcomes.items():
                for event in outcome.events:
                    self.progress.console.print(f"round {round_number}: {seat}: {event}", markup=False)

    def show_result(self, summary: MatchSummary) -> None:
        from rich.table import Table

        table = Table(title="Result", box=None, header_style="bold")
        table.add_column("player", no_wrap=True)
        table.add_column("language", no_wrap=True)
        keys = list(summary.standings.get(summary.players[0].seat, {}))[:SHOWN_STANDINGS]
        for column in (*keys, "timeouts", "crashes", "invalid", "bot s"):
            table.add_column(column, justify="right", no_wrap=True)
        for player in summary.players:
            tally = summary.tallies[player.seat]
            standing = summary.standings[player.seat]
            table.add_row(
                player.name, player.language, *(str(standing.get(key, "")) for key in keys),
                str(tally.timeouts), str(tally.crashes), str(tally.invalid_commands),
                f"{tally.bot_seconds:.2f}",
            )
        self.console.print(table)
        self.console.print(result_line(summary, self.end_reasons), markup=False, soft_wrap=True)
