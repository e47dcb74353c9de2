"""Read a match log in the official folder layout (spec 7.4); the writer lives in matchlog/writer.py.

An official log has no record.jsonl: `official_record` reads it into the core's `MatchRecord` (answers from the
PlayerCommand.txt files, seats and names from the folder names, the config and command order from its side
files), so the core's `verify` and `diff` serve it as they serve the logs td-runner writes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from runner.errors import UserError
from runner.games.interface import Answer

if TYPE_CHECKING:
    from runner.games.tower_defence.engine.state import CommandOrder
    from runner.logtools.record import MatchRecord

ROUND_DIR = re.compile(r"Round (\d{3,})")
PLAYER_DIR = re.compile(r"([AB]) - .*")

#: File names inside one player's round folder, relative to it.
JSON_MAP = "JsonMap.json"
TEXT_MAP = "TextMap.txt"
PLAYER_COMMAND = "PlayerCommand.txt"
CONSOLE = "Console/Console.txt"
BOT_OUTPUT = "Console/BotOutput.txt"
PLAYER_FILES = (JSON_MAP, TEXT_MAP, PLAYER_COMMAND, CONSOLE, BOT_OUTPUT)
END_GAME_STATE = "endGameState.txt"


def round_dir_name(round_number: int) -> str:
    return f"Round {round_number:03d}"


def read_text(path: Path | str) -> str | None:
    """Read a log file exactly (UTF-8, no newline translation); None when it does not exist."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read: {exc}") from None


@attrs.frozen
class MatchLog:
    """A match folder: its round numbers and the folder name of each seat ("A - Nick", "B - Nick")."""

    path: Path
    rounds: tuple[int, ...]
    player_dirs: dict[str, str]

    @property
    def final_round(self) -> int:
        return self.rounds[-1]

    def player_file(self, round_number: int, seat: str, name: str) -> str | None:
        """The text of one player's file in one round (None when missing)."""
        # plain string paths: pathlib's joins cost more than the read on 400-round logs
        return read_text(f"{self.path}/{round_dir_name(round_number)}/{self.player_dirs[seat]}/{name}")

    def end_game_state(self) -> str | None:
        return read_text(self.path / round_dir_name(self.final_round) / END_GAME_STATE)

    def commands(self) -> list[dict[str, str]]:
        """Each played round's recorded commands by seat (the final round, where no bot ran, excluded)."""
        played = self.rounds[:-1] if self.end_game_state() is not None else self.rounds
        result = []
        for number in played:
            result.append({seat: self.player_file(number, seat, PLAYER_COMMAND) or "" for seat in self.player_dirs})
        return result

    def side_file(self, name: str) -> Path | None:
        path = self.path / name
        return path if path.is_file() else None

    def driver_notes(self) -> dict | None:
        """The conformance traces' side file (command processing order, official GameResult)."""
        path = self.side_file("driver-notes.json")
        if path is None:
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise UserError(f"{path}: not valid JSON: {exc}") from None


#: Game config files looked for in a match folder, in this order (ours first, then the official name).
LOG_CONFIG_NAMES = ("game-config.json", "game-config.properties")


def open_match_log(path: Path | str) -> MatchLog:
    """Index a match folder; a UserError saying why when it is not one."""
    path = Path(path)
    if not path.exists():
        raise UserError(f"{path}: no such folder")
    if not path.is_dir():
        raise UserError(f"{path}: not a folder (a match log is a folder of 'Round NNN' folders)")
    rounds = []
    for child in path.iterdir():
        match = ROUND_DIR.fullmatch(child.name)
        if match and child.is_dir():
            rounds.append(int(match.group(1)))
    if not rounds:
        raise UserError(f"{path}: not a match log: no 'Round NNN' folders")
    rounds.sort()
    if rounds[0] != 0:
        raise UserError(f"{path}: not a complete match log: the first round folder is Round {rounds[0]:03d}")
    player_dirs: dict[str, str] = {}
    for child in sorted((path / round_dir_name(0)).iterdir()):
        match = PLAYER_DIR.fullmatch(child.name)
        if match and child.is_dir():
            player_dirs.setdefault(match.group(1), child.name)
    if set(player_dirs) != {"A", "B"}:
        raise UserError(f"{path / round_dir_name(0)}: expected folders 'A - <name>' and 'B - <name>'")
    return MatchLog(path, tuple(rounds), player_dirs)


def recorded_order(log: MatchLog) -> "CommandOrder | None":
    """The command order written by the conformance driver (driver-notes.json), if any."""
    from runner.games.tower_defence.engine.state import CommandOrder

    notes = log.driver_notes()
    if not (notes and isinstance(notes.get("commandProcessingOrder"), str)):
        return None
    try:
        return CommandOrder.parse(notes["commandProcessingOrder"])
    except ValueError as exc:
        raise UserError(f"{log.path / 'driver-notes.json'}: commandProcessingOrder: {exc}") from None


def official_record(game: object, path: Path) -> "MatchRecord":
    """An official log as the core's record: every played round's commands as read (a final round with
    endGameState.txt is the end, not a turn), the driver's command order (None: unknown), the log's config."""
    from runner.logtools.record import CONFIG_FILE, MatchRecord, RecordedTurn

    log = open_match_log(path)
    ended = log.end_game_state() is not None
    order = recorded_order(log)
    config = next((name for name in LOG_CONFIG_NAMES if log.side_file(name)), CONFIG_FILE)
    header = {"game": game.name, "seats": sorted(log.player_dirs), "names": dict(log.player_dirs), "seed": 0,  # type: ignore[attr-defined]
              "options": {"command_order": order and str(order)}, "config": config}
    blank = game.log.blank_answer  # type: ignore[attr-defined]  # "No Command": the official words for nothing
    turns = tuple(
        RecordedTurn(number, {seat: Answer("" if text.strip() == blank else text) for seat in sorted(log.player_dirs)
                              for text in [log.player_file(number, seat, PLAYER_COMMAND) or ""]}, {}, None, {}, 0)
        for number in range(log.final_round + (0 if ended else 1)))
    return MatchRecord(log.path, game, header, turns, None, ended=ended)  # type: ignore[arg-type]
