"""One tournament match, from a picklable `MatchTask` to a `GameRecord`, in whatever process or machine runs it.

The local pool's worker processes and Dask workers both call `run_task`. It never raises because of a bot: a
crash or time-out plays as the game's rules say, and a bot that cannot start loses (see `forfeit_ranking`).
An exception here is the infrastructure's (disk, a bug): the backend reports it and the match stays unplayed.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.bots.limits import Limits
from runner.bots.outcome import TurnOutcome, TurnStatus
from runner.bots.persistent import STARTUP_MS
from runner.errors import UserError
from runner.games import get_game
from runner.games.interface import Session, TurnReport
from runner.match import Player
from runner.play import MatchPlan, load_player, start_match
from runner.tournament.entrants import give_seat
from runner.tournament.records import GameRecord, SeatResult

#: games.jsonl's end_reason of a match stopped by `--match-timeout` (recorded as unfinished, not rated)
MATCH_TIMEOUT = "match_timeout"


@attrs.frozen
class MatchTask:
    """Everything a worker needs to play one match; bots are named by content hash (`names` for the record)."""

    match_id: str
    index: int
    round: int
    seed: int
    game: str
    seats: tuple[str, ...]
    bots: tuple[str, ...]  # content hashes, seat order
    names: tuple[str, ...]  # the entrants' names, seat order
    options: dict[str, Any]
    config: Any  # the game's configured config (`Game.configure`), made once by the tournament
    limits: Limits = Limits()
    startup_ms: int = STARTUP_MS
    deadline_s: float | None = None  # the whole match's wall-clock limit; None: none
    html_replay: bool = False  # also write the match's HTML replay, gzipped, beside its log (a league's)


@attrs.frozen
class MatchResult:
    """A task's end: a record to keep (finished, or unfinished at its deadline), or why there is none
    (interrupted, an error)."""

    match_id: str
    record: GameRecord | None
    problem: str | None = None  # set when record is None
    interrupted: bool = False


class MatchOvertime(KeyboardInterrupt):
    """Raised in the match loop when a match passes its deadline: the loop then stops as on Ctrl-C, closing
    its bots (a running Dask task cannot be cancelled from outside, so the task must end itself). It is
    checked after each turn, so a match can run over by at most one turn (bounded by the bots' limits)."""


#: a module constant: `TurnStatus.OK` goes through the enum class's __getattr__ hook (Python 3.11)
_OK = TurnStatus.OK


class _Watcher:
    """A MatchObserver that counts each seat's turn statuses and enforces the match deadline.

    Called every turn of every league and tournament match (Invaders: 12,630 of them a game), so the usual
    turn, every answer OK and nothing refused, only adds to `ok`: an enum's hash, which a status count keyed
    by TurnStatus takes, is Python code (1.2 us a turn for two seats, ~7% of an Invaders turn's own work)."""

    def __init__(self, seats: Sequence[str], deadline_s: float | None) -> None:
        self.ok: dict[str, int] = {seat: 0 for seat in seats}
        self.other: dict[str, dict[TurnStatus, int]] = {seat: {} for seat in seats}  # every status but OK
        self.faults: dict[str, list[dict[str, Any]]] = {seat: [] for seat in seats}
        self.deadline = None if deadline_s is None else time.monotonic() + deadline_s

    def statuses(self, seat: str) -> dict[TurnStatus, int]:
        """How many of `seat`'s turns ended with each status (statuses that never happened left out)."""
        return {**({_OK: self.ok[seat]} if self.ok[seat] else {}), **self.other[seat]}

    def round_played(self, round_number: int, session: Session, report: TurnReport,
                     outcomes: dict[str, TurnOutcome]) -> None:
        for seat, outcome in outcomes.items():
            refused, status = report.rejected, outcome.status
            if status is _OK:
                self.ok[seat] += 1
                if not refused or seat not in refused:
                    continue
            else:
                counts = self.other[seat]
                counts[status] = counts.get(status, 0) + 1
            if len(self.faults[seat]) < FAULT_NOTES and not outcome.repeated:  # a dead bot: noted when it died
                self.faults[seat].append(fault_note(round_number, outcome, refused.get(seat, ())))
        if self.deadline is not None and time.monotonic() > self.deadline and session.outcome() is None:
            raise MatchOvertime  # (a game that has just ended is left to finish: its result stands)


#: Faults kept per seat with the bot's own output (the first ones: later ones are usually the same).
FAULT_NOTES = 3
SEATS = ".seats"  # <bots>/.seats/<match>-XXXX/<seat>/: the seats of matches being played
OUTPUT_TAIL = 2000  # characters of the bot's output kept per fault note


def fault_note(turn: int, outcome: TurnOutcome, rejected: Sequence[str]) -> dict[str, Any]:
    """One fault as a league page shows it: the turn, what went wrong, and the end of the bot's own output."""
    what = outcome.status.value if outcome.status is not TurnStatus.OK else "invalid"
    detail = outcome.detail or "; ".join([*outcome.events, *rejected])
    output = outcome.output + "".join(f"[td-runner] {event}\n" for event in outcome.events)
    return {"turn": turn, "kind": what, "detail": detail[:500], "output": output[-OUTPUT_TAIL:]}


def _seats_folder(bot_dirs: Mapping[str, Path], task: MatchTask) -> Path:
    """A fresh folder for the match's seats, beside the snapshots (`<bots>/.seats/`: the same file system, so
    seats can hard-link the snapshots' files), or in the temporary folder when that cannot be made."""
    try:
        root = Path(bot_dirs[task.bots[0]]).parent / SEATS
        root.mkdir(exist_ok=True)
        return Path(tempfile.mkdtemp(prefix="match-", dir=root))
    except (OSError, KeyError, IndexError):
        return Path(tempfile.mkdtemp(prefix="td-tournament-"))


def run_task(task: MatchTask, bot_dirs: Mapping[str, Path], folder: Path) -> MatchResult:
    """Play `task` with each bot given a seat folder made from `bot_dirs[hash]`; the log goes to `folder`
    (which must not exist). The record's `log` is left None for the caller to fill in."""
    started, cpu_started = time.monotonic(), time.process_time()
    game = get_game(task.game)
    scratch = _seats_folder(bot_dirs, task)
    try:
        players, problems = [], {}
        for seat, bot_hash in zip(task.seats, task.bots):
            copy = scratch / seat
            give_seat(bot_dirs[bot_hash], copy)
            try:
                players.append(load_player(game, seat, copy))
            except UserError as exc:  # e.g. this worker lacks the bot's interpreter
                problems[seat] = str(exc)
        if problems:
            return MatchResult(task.match_id, forfeit_record(task, problems))
        plan = MatchPlan(game, tuple(players), dict(task.options), task.config, task.seed, task.limits,
                         task.startup_ms)
        watcher = _Watcher(task.seats, task.deadline_s)
        runner = start_match(plan, folder, watcher)
        summary = runner.run()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    overtime = isinstance(runner.stopped_by, MatchOvertime)
    outcome = summary.outcome
    if not overtime and outcome is None:
        return MatchResult(task.match_id, None, "interrupted", interrupted=True)
    never_started = [seat for seat in task.seats if _never_started(watcher.statuses(seat))]
    disqualified = outcome.details.get("disqualified") if outcome else None
    disqualified = set(disqualified if isinstance(disqualified, list) else [disqualified] if disqualified else [])
    seats = []
    for seat, bot_hash, name in zip(task.seats, task.bots, task.names):
        tally = summary.tallies[seat]
        seats.append(SeatResult(
            seat=seat, bot=name, hash=bot_hash, started=seat not in never_started,
            timeouts=tally.timeouts, crashes=tally.crashes - tally.failed_to_start,  # the core's counts: each
            failed_to_start=tally.failed_to_start, invalid=tally.invalid_commands,  # fault once (match.json's)
            disqualified=seat in disqualified, numbers=dict(summary.standings.get(seat, {})),
            faults=tuple(watcher.faults[seat]),
        ))
    common = dict(match=task.match_id, index=task.index, round=task.round, seed=task.seed, seats=tuple(seats),
                  rounds=summary.rounds, wall_seconds=round(time.monotonic() - started, 3),
                  cpu_seconds=round(time.process_time() - cpu_started, 3))
    if outcome is None:  # stopped at the deadline; the numbers are the game's standings then
        why = f"stopped at the match time limit of {task.deadline_s:g} s after {summary.rounds} rounds"
        record = GameRecord(**common, ranking=(), game_ranking=(), draw=False, end_reason=MATCH_TIMEOUT,
                            unfinished=why)
    else:
        ranking = forfeit_ranking(outcome.ranking, never_started)
        record = GameRecord(**common, ranking=ranking,
                            game_ranking=tuple(tuple(group) for group in outcome.ranking),
                            draw=outcome.draw or len(ranking) == 1, end_reason=summary.end_reason,
                            details=_json(dict(outcome.details)))
    if task.html_replay:
        write_packed_replay(folder)
    return MatchResult(task.match_id, record)


def write_packed_replay(folder: Path) -> bool:
    """The HTML replay of the log in `folder`, gzipped, beside it (runner/replay/cache.py `packed_beside`), so
    that a league's pages never build one on a request; False when it could not be made (the league's
    background builder tries again). Never raises: the match is played and its result stands regardless."""
    from runner.replay.cache import packed_beside
    from runner.replay.html import write_html_replay

    target = packed_beside(folder)
    try:
        target.unlink(missing_ok=True)  # an earlier attempt's (a worker that died after writing it)
        write_html_replay(folder, target, public=True)  # a league replay is public: no bot output
    except Exception:  # noqa: BLE001 - a replay is a convenience; the log and the result are what count
        return False
    return True


def _never_started(counts: Mapping[TurnStatus, int]) -> bool:
    """Every turn this bot was asked ended with its process not starting."""
    return bool(counts) and counts.get(TurnStatus.FAILED_TO_START, 0) == sum(counts.values())


def forfeit_ranking(ranking: Sequence[Sequence[str]], losers: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The ranking with the seats in `losers` (bots that could not start) taken out and tied at the bottom;
    when every seat is a loser, one group: nobody won."""
    if not losers:
        return tuple(tuple(group) for group in ranking)
    kept = [tuple(seat for seat in group if seat not in losers) for group in ranking]
    return (*[group for group in kept if group], tuple(seat for group in ranking for seat in group if seat in losers))


def forfeit_record(task: MatchTask, problems: Mapping[str, str]) -> GameRecord:
    """A match not played because the bots of `problems` (seat -> why) cannot start: they lose it."""
    seats = tuple(SeatResult(seat, name, bot_hash, started=seat not in problems)
                  for seat, bot_hash, name in zip(task.seats, task.bots, task.names))
    losers = [seat for seat in task.seats if seat in problems]
    starters = tuple(seat for seat in task.seats if seat not in problems)
    ranking = (starters, tuple(losers)) if starters else (tuple(task.seats),)
    reason = "; ".join(f"{seat}: {problem}" for seat, problem in problems.items())
    return GameRecord(match=task.match_id, index=task.index, round=task.round, seed=task.seed, seats=seats,
                      ranking=ranking, game_ranking=(), draw=len(ranking) == 1, end_reason="forfeit", rounds=0,
                      details={}, forfeit=reason)


def _json(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(item) for item in value]
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)
