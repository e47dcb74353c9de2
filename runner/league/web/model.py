"""What the pages show, as plain records: the one shape both a league database and a tournament folder fill,
so the page templates (pages.py) exist once. Every string here is raw (unescaped) text from a bot folder or
the database: pages.py escapes it. A standings line is the league's own `StandingRow` (a tournament fills
one per entrant, without ids, versions or status)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

import attrs

from runner.league.standings import StandingRow


@attrs.frozen
class Info:
    """The site's heading and what a live page compares to know it is stale."""

    title: str  # e.g. "tower-defence league"
    game: str
    matches: int
    state: str  # changes whenever a match finishes or an event is recorded (state.json's "key")
    has_events: bool  # leagues have an events page, tournaments do not


@attrs.frozen
class Seat:
    """One seat of a listed match."""

    player: str
    version: int | None
    place: int | None  # 1 is first; None in an unfinished match
    role: str = ""


@attrs.frozen
class MatchRow:
    id: int
    finished: float | None  # seconds since the epoch; None when not known
    seats: tuple[Seat, ...]
    end_reason: str
    rounds: int
    wall_seconds: float
    replay: bool  # the match has a log to replay
    note: str | None = None  # why it was forfeited or left unfinished


@attrs.frozen
class Crosstable:
    """`cells[(row, column)]` = the row player's (wins, draws, losses) against the column player."""

    names: tuple[str, ...]
    cells: dict[tuple[str, str], tuple[int, int, int]]


@attrs.frozen
class Event:
    time: float
    kind: str
    player: str | None
    text: str


@attrs.frozen
class Version:
    number: int
    hash: str
    created: float | None
    status: str
    reason: str | None
    build_output: str | None
    nick: str
    language: str
    games: int
    wins: int
    draws: int
    losses: int
    faults: int


@attrs.frozen
class ChartPoint:
    """A rating after one of the player's matches."""

    match: int
    mu: float
    sigma: float
    version: int


@attrs.frozen
class Fault:
    match: int
    version: int | None
    turn: Any
    kind: str
    detail: str
    output: str


@attrs.frozen
class PlayerPage:
    name: str
    retired: bool
    versions: tuple[Version, ...]
    charts: tuple[tuple[str, tuple[ChartPoint, ...]], ...]  # (role, points) per role; '' without sides
    matches: tuple[MatchRow, ...]  # the most recent first
    faults: tuple[Fault, ...]  # the most recent first


class Source(Protocol):
    """What the routes read; one per request (a league source holds a read-only connection)."""

    def info(self) -> Info: ...
    def standings(self) -> list[StandingRow]: ...
    def recent_matches(self, limit: int) -> list[MatchRow]: ...
    def crosstable(self) -> Crosstable: ...
    def events(self, limit: int) -> list[Event]: ...
    def player(self, name: str) -> PlayerPage | None: ...
    def player_names(self) -> list[str]: ...
    def match_ids(self) -> list[int]: ...
    def match_log(self, match: int) -> Path | None: ...
    def standings_json(self) -> dict[str, Any]: ...
