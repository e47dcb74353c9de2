"""The record of a game's `Replayed` (source.py): what the core adds to every game's turns.

The names come from match.json (else the game's), each seat's command and bot output from where the core's log
writer put them (a FolderLog turn's answer and output files; a JsonlLog's `bot-output/<seat>.txt`), unless the
game gave them. The fault badges, the markers of faults and refusals and the result line are html.py's
(`finish`), for every record alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.games import get_game
from runner.games.interface import FolderLog, JsonlLog
from runner.matchlog.bot_output import output_path, read_turns
from runner.replay.record import RecordBuilder
from runner.replay.source import Replayed, late


def read_text(path: Path) -> str | None:
    """A log file's text as a replay shows it (bytes that are not UTF-8 replaced), None when it cannot be read."""
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return None


def read_json(path: Path) -> Any:
    """A log file's JSON, None when it cannot be read or is not JSON."""
    text = read_text(path)
    try:
        return None if text is None else json.loads(text)
    except ValueError:
        return None


def read_match_json(path: Path) -> dict[str, Any] | None:
    """A log folder's match.json as a dict, or None (no folder, no file, not a JSON object)."""
    data = read_json(Path(path) / "match.json")
    return data if isinstance(data, dict) else None


def seat_names(path: Path, seats: list[str], fallback: dict[str, str]) -> dict[str, str]:
    """seat -> its player's name (`A - Nick`, also its folder in a FolderLog): match.json's, else the game's,
    else the seat itself."""
    found = {p.get("seat"): p.get("name") for p in (read_match_json(path) or {}).get("players") or []
             if isinstance(p, dict)}
    return {seat: str(found.get(seat) or fallback.get(seat) or seat) for seat in seats}


class _FolderFiles:
    """A FolderLog's per-turn seat files: `<turn folder>/<name>/<file>` (or the folder that starts with
    `<seat> - `, for a log whose names are not match.json's)."""

    def __init__(self, path: Path, log: FolderLog, names: dict[str, str]) -> None:
        self.path, self.log, self.names = path, log, names

    def folder(self, turn: int, seat: str) -> Path | None:
        turn_folder = self.path / self.log.turn_folder.format(turn=turn)
        named = turn_folder / self.names[seat]
        if named.is_dir():
            return named
        if not turn_folder.is_dir():
            return None
        return next((child for child in sorted(turn_folder.iterdir())
                     if child.is_dir() and child.name.startswith(f"{seat} - ")), None)

    def read(self, turn: int, seat: str, name: str | None) -> str | None:
        folder = self.folder(turn, seat) if name else None
        return read_text(folder / name) if folder is not None else None


def _outputs(path: Path, replayed: Replayed, log: FolderLog | JsonlLog,
             names: dict[str, str]) -> Callable[[int, str], str] | None:
    """turn, seat -> the bot's output the log keeps for that turn ("" none); None: the log keeps none."""
    if isinstance(log, FolderLog):
        files = _FolderFiles(path, log, names)
        return lambda turn, seat: files.read(turn, seat, log.output) or ""
    folder = Path(path) if Path(path).is_dir() else None  # a trace file has no bot output beside it
    by_seat = {seat: read_turns(output_path(folder, log.output_folder, seat)) if folder else {}
               for seat in replayed.seats}
    if not any(by_seat.values()):
        return None
    return lambda turn, seat: by_seat[seat].get(turn, "")


def record_of(path: Path, replayed: Replayed) -> dict[str, Any]:
    """The game's record (runner/replay/record.py has its shape), before html.py finishes it."""
    path = Path(path)
    seats = list(replayed.seats)
    names = seat_names(path, seats, dict(replayed.names))
    log = replayed.log or get_game(replayed.game).log
    read_output = _outputs(path, replayed, log, names)
    files = _FolderFiles(path, log, names) if isinstance(log, FolderLog) else None
    builder = RecordBuilder(replayed.game, replayed.title, [(seat, names[seat]) for seat in seats],
                            replayed.stats, replayed.turn_word, replayed.frame_bytes)
    last: Any = None
    for turn in replayed.turns:
        if turn.seats is not last:  # (a long match shares the seats' answers between turns)
            last = parts = turn.seats
            commands = [part.command for part in parts]
            rulings = [part.ruling for part in parts]
            outputs = [("" if read_output is None else None) if part.output is None else part.output
                       for part in parts]
        sent, said = commands, outputs
        if files is not None and None in commands:
            sent = [files.read(turn.number, seat, files.log.answer) or "" if command is None else command
                    for seat, command in zip(seats, commands)]
        if None in outputs:
            said = [read_output(turn.number, seat) if output is None else output
                    for seat, output in zip(seats, outputs)]
        builder.add(turn.number, turn.numbers, sent, rulings, said, turn.frame, turn.frame_size)
        for kind, text in turn.marks:
            builder.mark(turn.number, kind, text)
    if not builder.turns:
        raise UserError(f"{path}: no played {replayed.turn_word.lower()}s in this log")
    return builder.build(late(replayed.board), result=late(replayed.result), note=late(replayed.note),
                         max_bytes=replayed.max_bytes, step_word=replayed.step_word)
