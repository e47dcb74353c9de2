"""Open any game's core-written log into one `MatchRecord`: the header, each turn's answers, and readers of the
game's own part (a folder log's files, a log.jsonl's rows, the bots' output). A log from outside td-runner (a
spec trace file, an official log) becomes one too where its game reads it (`Game.open_foreign_log`): it keeps
less (no events, no inputs), and the tools check what it has."""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import attrs

from runner.errors import UserError
from runner.games.interface import Answer, FolderLog, Game, JsonlLog, Session
from runner.matchlog.bot_output import output_path, read_turns
from runner.matchlog.record import RECORD_FILE, answer_of, read_header

CONFIG_FILE = "game-config.json"
MATCH_FILE = "match.json"


@attrs.frozen
class RecordedTurn:
    """One turn of the record: what each active seat answered (as the game was given it), the digest of its
    input line where the log keeps one, and the game's events and refusals."""

    turn: int
    answers: Mapping[str, Answer]
    inputs: Mapping[str, int]  # seat -> the CRC-32 of its input line, where the game gives one
    events: tuple[str, ...] | None  # None: a log from outside does not keep them (nor all of `rejected`)
    rejected: Mapping[str, tuple[str, ...]]
    line: int  # its line number in record.jsonl (a log from outside: in its file), for messages


@attrs.frozen
class MatchRecord:
    """A core-written log, opened: enough to rebuild its session and to read every file it kept."""

    path: Path
    game: Game
    header: Mapping[str, Any]
    turns: tuple[RecordedTurn, ...]
    match: Mapping[str, Any] | None  # match.json, None when the match did not finish writing it
    #: None for a log the core wrote; for a log read from outside (`Game.open_foreign_log`), which has no
    #: match.json, events or refusals, whether it shows the match over (its final files are there)
    ended: bool | None = None
    #: a log from outside read into a record: its layout where it is not the game's (a spec trace file is one
    #: row per turn, as a JsonlLog), its rows as read, the line of the first one in its file (after a header),
    #: and the keys of the game's rows it does not keep (left out of every comparison)
    layout: FolderLog | JsonlLog | None = None
    given_rows: tuple[Any, ...] | None = None
    first_row_line: int = 1
    forgives: tuple[str, ...] = ()
    match_where: str = MATCH_FILE  # where `match` was read, for messages (a trace's end line)
    #: what reading a log from outside found wrong in it that no turn's replay shows (an Invaders trace whose
    #: turn-0 row is not the game's start): `verify` reports each as a difference
    read_problems: tuple[str, ...] = ()
    _outputs_read: dict[str, dict[int, str]] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    @property
    def log(self) -> FolderLog | JsonlLog:
        """How this log keeps the game's part of each turn."""
        return self.layout or self.game.log

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.header.get("seats") or ())

    @property
    def names(self) -> dict[str, str]:
        """seat -> player name, the seat folders' names (`A - nick`)."""
        return dict(self.header.get("names") or {})

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.header.get("options") or {})

    @property
    def seed(self) -> int:
        return int(self.header.get("seed") or 0)

    @cached_property
    def turns_by_number(self) -> dict[int, RecordedTurn]:
        return {turn.turn: turn for turn in self.turns}

    def turn_folder(self, turn: int) -> Path:
        """A folder log's folder of `turn`."""
        return self.path / self.log.turn_folder.format(turn=turn)  # type: ignore[union-attr]

    def seat_file(self, turn: int, seat: str, name: str) -> Path:
        """Where a folder log keeps `name` (its log name) of `seat` at `turn`."""
        return self.turn_folder(turn) / self.names.get(seat, seat) / name

    def logged_name(self, name: str) -> str:
        """An input file's name in a folder log (Tower Defence keeps state.json as JsonMap.json)."""
        log = self.log
        return log.file_names.get(name, name) if isinstance(log, FolderLog) else name

    @cached_property
    def rows(self) -> list[Any]:
        """A log.jsonl log's rows, one per turn played, in order ([] for a folder log)."""
        log = self.log
        if self.given_rows is not None or not isinstance(log, JsonlLog):
            return list(self.given_rows or ())
        return read_jsonl(self.path / log.file_name)

    def row_line(self, index: int) -> int:
        """The line of the `index`th row in its file, for messages."""
        return self.first_row_line + index

    def bot_output(self, turn: int, seat: str) -> str:
        """What `seat`'s bot printed at `turn` (stderr, stray stdout, the runner's notes); "" where not kept."""
        log = self.log
        if self.given_rows is not None:
            return ""  # a log from outside: it keeps no bot output
        if isinstance(log, FolderLog):
            return read_text(self.seat_file(turn, seat, log.output)) or ""
        return self._outputs(seat).get(turn, "")

    def _outputs(self, seat: str) -> dict[int, str]:
        if seat not in self._outputs_read:  # a log.jsonl game keeps one output file per seat: read it once
            self._outputs_read[seat] = read_turns(output_path(self.path, self.log.output_folder, seat))  # type: ignore[union-attr]
        return self._outputs_read[seat]


def read_text(path: Path) -> str | None:
    """A logged file's text (undecodable bytes replaced), or None when it is not there."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def read_jsonl(path: Path) -> list[Any]:
    """The JSON values of a .jsonl file (or .jsonl.gz), one per non-empty line; a last line cut short by a kill
    is left out; UserError naming the file and line otherwise."""
    try:
        if path.name.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                text = handle.read()
        else:
            text = path.read_text(encoding="utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as error:  # EOFError: a truncated .gz
        raise UserError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") from None
    lines = text.split("\n")
    values = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            values.append(json.loads(line))
        except ValueError as error:
            if number == len(lines) and not text.endswith("\n"):
                break  # the runner was killed while writing this line
            raise UserError(f"{path}:{number}: not valid JSON: {error}") from None
    return values


def read_match(folder: Path) -> dict[str, Any] | None:
    path = folder / MATCH_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UserError(f"{path}: not valid JSON: {error}") from None
    return data if isinstance(data, dict) else None


def is_record_log(path: Path) -> bool:
    """Whether `path` is a log folder the core wrote (it has a record.jsonl with a header)."""
    return Path(path).is_dir() and read_header(path) is not None


def open_record(game: Game, path: Path) -> MatchRecord:
    """The log at `path` as one record: one the core wrote, or one from outside that its game reads
    (`Game.open_foreign_log`); UserError (one line) when it is neither."""
    path = Path(path)
    header = read_header(path) if path.is_dir() else None
    reader = getattr(game, "open_foreign_log", None)  # (a game not built on GameDefaults may lack it)
    if header is None and reader is not None and (foreign := reader(path)) is not None:
        return foreign  # type: ignore[no-any-return]
    if path.is_file():
        raise UserError(f"{path}: not a log of {game.name} (a folder td-runner wrote, or a trace file the game "
                        "reads)")
    if not path.is_dir():
        raise UserError(f"{path}: no such log folder")
    if header is None:
        raise UserError(f"{path}: not a match log written by td-runner (no {RECORD_FILE} with a header)")
    if header.get("game") != game.name:
        raise UserError(f"{path}: a {header.get('game')} log, not a {game.name} log")
    turns = []
    for number, line in enumerate(read_jsonl(path / RECORD_FILE)[1:], start=2):
        try:
            turns.append(RecordedTurn(
                int(line["turn"]), {seat: answer_of(entry) for seat, entry in line["seats"].items()},
                {seat: entry["input"] for seat, entry in line["seats"].items() if "input" in entry},
                tuple(line.get("events", ())), {k: tuple(v) for k, v in line.get("rejected", {}).items()}, number))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise UserError(f"{path / RECORD_FILE}:{number}: not a turn of the record ({error})") from None
    return MatchRecord(path, game, header, tuple(turns), read_match(path))


def trace_record(game: Game, path: Path, seats: tuple[str, ...],
                 turns: list[tuple[Any, dict[str, Answer], Any, dict[str, tuple[str, ...]]]],
                 first_line: int, match: Mapping[str, Any] | None = None, forgives: tuple[str, ...] = (),
                 match_where: str = "", problems: tuple[str, ...] = ()) -> MatchRecord:
    """A spec trace file read into a record (for `Game.open_foreign_log`): per turn its number, each seat's
    answer, its row (what the game's `TurnReport.record` holds) and the refusals the trace shows, the first from
    line `first_line` of the file, how it ended in match.json's words (read at `match_where`) and what is wrong
    with it besides (`problems`); its seats play with the game's default config, no seed and no events."""
    recorded = tuple(RecordedTurn(turn, answers, {}, None, rejected, first_line + index)
                     for index, (turn, answers, _, rejected) in enumerate(turns))
    header = {"game": game.name, "seats": list(seats), "names": {}, "seed": 0, "options": {}}
    return MatchRecord(Path(path), game, header, recorded, match, layout=JsonlLog(file_name=Path(path).name),
                       given_rows=tuple(turn[2] for turn in turns), first_row_line=first_line, forgives=forgives,
                       match_where=match_where or MATCH_FILE, read_problems=problems)


def default_log_session(game: Game, record: MatchRecord) -> Session:
    """A new session for a log: its game-config.json and the header's seats, seed, options and request formats
    (`GameDefaults.log_session`; a game whose config needs more, such as Warzone's map copy, overrides it)."""
    config_path = record.path / record.header.get("config", CONFIG_FILE)  # a log from outside may name its own
    config = game.configure(config_path if config_path.is_file() else None, {})
    session = game.new_session(config, record.seats, record.seed, record.options)
    for seat, name in (record.header.get("requests") or {}).items():
        session.use_request_format(seat, name)  # type: ignore[attr-defined]
    return session
