"""`games.jsonl`: one JSON line per finished match, the only state a tournament keeps.

A line is written whole with one `write` on a file opened for appending, after the match log is in place, so
a tournament killed at any moment leaves complete lines (and at worst a torn last line, which `read_records`
skips and `append_record` cuts off). What is in the file is done; everything else is played again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import attrs

from runner.errors import UserError

GAMES_FILE = "games.jsonl"
#: The current schedule's match ids in playing order, rewritten by every run. Records of other ids (a bot
#: replaced by `--replace`, or whose files changed) stay in games.jsonl but no longer count.
SCHEDULE_FILE = "schedule.json"


@attrs.frozen
class SeatResult:
    """One seat of a finished match: who sat there and what went wrong for its bot."""

    seat: str
    bot: str  # the entrant's name
    hash: str  # the entrant's content hash
    started: bool = True  # False: the bot could not start (folder refused, or every turn failed to start)
    timeouts: int = 0
    crashes: int = 0
    failed_to_start: int = 0  # turns whose process could not be started
    invalid: int = 0  # answers the game refused
    disqualified: bool = False
    numbers: dict[str, Any] = attrs.field(factory=dict)  # the game's per-seat standings (score, health, ...)
    faults: tuple[dict[str, Any], ...] = ()  # the first faults: turn, kind, detail, the bot's own output (tail)


@attrs.frozen
class GameRecord:
    """A finished match as `games.jsonl` keeps it.

    `ranking` is what the tournament scores: the game's ranking (`game_ranking`) with seats that could not
    start moved below every seat that did. `draw` is True when nobody won (a tie, or a game's draw such as
    Warzone's turn limit), and then every seat counts as drawn.

    `unfinished` says why a match was stopped before the game ended (`--match-timeout`): it has no ranking
    and no winner, is not rated, and is kept so that `--resume` does not play it again and again.
    """

    match: str
    index: int  # position in the schedule: standings replay records in this order
    round: int
    seed: int
    seats: tuple[SeatResult, ...]
    ranking: tuple[tuple[str, ...], ...]
    game_ranking: tuple[tuple[str, ...], ...]
    draw: bool
    end_reason: str
    rounds: int
    details: dict[str, Any] = attrs.field(factory=dict)  # the game's outcome details (Invaders' score, ...)
    forfeit: str | None = None  # why the match was not played (a bot could not start), else None
    unfinished: str | None = None  # why the match was stopped before its end (ranking empty), else None
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0  # the runner's CPU for this match (bots excluded)
    log: str | None = None  # the match log, relative to the tournament folder

    @property
    def winner(self) -> str | None:
        if self.draw or not self.ranking or len(self.ranking[0]) != 1:
            return None
        return self.ranking[0][0]

    def seat(self, seat: str) -> SeatResult:
        return next(result for result in self.seats if result.seat == seat)

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self, recurse=True)
        data["ranking"] = [list(group) for group in self.ranking]
        data["game_ranking"] = [list(group) for group in self.game_ranking]
        data["winner"] = self.winner
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        fields = {field.name for field in attrs.fields(cls)}
        values = {key: value for key, value in data.items() if key in fields}
        values["seats"] = tuple(SeatResult(**{**seat, "faults": tuple(seat.get("faults", ()))}) for seat in data["seats"])
        values["ranking"] = tuple(tuple(group) for group in data["ranking"])
        values["game_ranking"] = tuple(tuple(group) for group in data.get("game_ranking", data["ranking"]))
        return cls(**values)


def describe(record: GameRecord) -> str:
    """`Tiny1 beats Tiny0 (max_rounds, 3 rounds, 1.2 s)`, or a table's ranking `A > B = C`."""
    names = {seat.seat: seat.bot for seat in record.seats}
    if record.unfinished:
        return (f"{' vs '.join(names.values())} unfinished: {record.unfinished} (seed {record.seed}, "
                f"{record.wall_seconds:.1f} s) {record.log or ''}").rstrip()
    if len(record.seats) == 2 and record.winner is not None:
        loser = next(seat.seat for seat in record.seats if seat.seat != record.winner)
        verdict = f"{names[record.winner]} beats {names[loser]}"
    elif len(record.seats) == 2:
        verdict = f"{names[record.seats[0].seat]} draws with {names[record.seats[1].seat]}"
    else:
        verdict = " > ".join(" = ".join(names[seat] for seat in group) for group in record.ranking)
        verdict += " (draw)" if record.draw else ""
    if record.forfeit:
        return f"{verdict} by forfeit: {record.forfeit}"
    faults = [f"{seat.bot}: {n} {what}" for seat in record.seats
              for n, what in ((seat.timeouts, "time-outs"), (seat.crashes, "crashes")) if n]
    extra = f"; {', '.join(faults)}" if faults else ""
    return (f"{verdict} (seed {record.seed}, {record.end_reason}, {record.rounds} rounds, "
            f"{record.wall_seconds:.1f} s{extra}) {record.log or ''}").rstrip()


def read_records(folder: Path) -> list[GameRecord]:
    """Every complete record of `folder/games.jsonl` (none when there is no file), first one per match id."""
    path = folder / GAMES_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror or exc}") from None
    records: dict[str, GameRecord] = {}
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = GameRecord.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError) as exc:
            if number == len(lines):  # a torn last line (the tournament was killed mid-write): not done
                break
            raise UserError(f"{path}: line {number}: not a game record: {exc}") from None
        records.setdefault(record.match, record)
    return list(records.values())


def append_record(folder: Path, record: GameRecord) -> None:
    """Append one record as one line; a torn last line left by a killed run is cut off first."""
    path = folder / GAMES_FILE
    line = (json.dumps(record.to_json(), separators=(",", ":")) + "\n").encode()
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    except OSError as exc:
        raise UserError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        size = os.fstat(descriptor).st_size
        if size and os.pread(descriptor, 1, size - 1) != b"\n":
            content = os.pread(descriptor, size, 0)
            os.ftruncate(descriptor, content.rfind(b"\n") + 1)
        os.write(descriptor, line)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_schedule(folder: Path, match_ids: list[str], entrants: list[dict[str, str]]) -> None:
    """`schedule.json`: the match ids now scheduled, in playing order, and the entrants (hash, name, the
    folder as given), so that `td-runner grades` can name each bot's folder after the folders have moved.
    Written aside, renamed into place."""
    partial = folder / f".{SCHEDULE_FILE}.partial"
    partial.write_text(json.dumps({"matches": match_ids, "entrants": entrants}, indent=1) + "\n", encoding="utf-8")
    partial.replace(folder / SCHEDULE_FILE)


def counted(records: list[GameRecord], match_ids: list[str] | None) -> list[GameRecord]:
    """The records that count, each with its index in the current schedule: after `--add` the schedule of
    the larger field interleaves the new matches with the old, and standings replay records in that order,
    so they equal those of the same tournament played from scratch. `None` (no schedule file): all, as kept."""
    if match_ids is None:
        return list(records)
    position = {match: index for index, match in enumerate(match_ids)}
    return [attrs.evolve(record, index=position[record.match]) for record in records if record.match in position]


def read_counted(folder: Path) -> list[GameRecord]:
    """`read_records`, then only the current schedule's matches (`counted`)."""
    schedule = read_schedule(folder)
    return counted(read_records(folder), None if schedule is None else schedule["matches"])


def read_schedule(folder: Path) -> dict[str, Any] | None:
    """schedule.json's content (`matches`, `entrants`), None in a folder from before it was written."""
    path = folder / SCHEDULE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data.get("matches"), list):
            raise ValueError("no list of matches")
        return data
    except FileNotFoundError:
        return None
    except (OSError, ValueError, AttributeError) as exc:
        raise UserError(f"{path}: not a schedule file: {exc}") from None
