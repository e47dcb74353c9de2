"""Write a match log in the official folder layout (spec 7.4), every file atomically."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping

from runner.errors import UserError
from runner.matchlog.layout import BOT_OUTPUT, CONSOLE, END_GAME_STATE, PLAYER_COMMAND, round_dir_name


class LogWriteError(UserError):
    """The match folder cannot be written (no such parent, not a folder, no permission, disk full)."""


def write_atomically(path: Path, text: str) -> None:
    """Write UTF-8 text with exactly the given line ends; readers never see a half-written file."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        raise LogWriteError(f"{path}: cannot write the match log: {exc.strerror or exc}") from None


class MatchLogWriter:
    """Creates `<folder>/Round NNN/<player name>/...` as rounds are played."""

    def __init__(self, folder: Path, names: dict[str, str]) -> None:
        self.folder = folder
        self.names = names
        self._mkdir(folder)

    @staticmethod
    def _mkdir(folder: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LogWriteError(f"{folder}: cannot create the match folder: {exc.strerror or exc}") from None

    def write_player_round(
        self, round_number: int, seat: str, state_files: Mapping[str, str], command: str, console: str,
        bot_output: str,
    ) -> None:
        """One player's files of one round; `state_files` maps log file names (JsonMap.json, ...) to text."""
        player_dir = self.folder / round_dir_name(round_number) / self.names[seat]
        self._mkdir(player_dir / "Console")
        for name, text in (*state_files.items(), (PLAYER_COMMAND, command), (CONSOLE, console),
                           (BOT_OUTPUT, bot_output)):
            write_atomically(player_dir / name, text)

    def write_end_of_game(self, round_number: int, text: str) -> None:
        write_atomically(self.folder / round_dir_name(round_number) / END_GAME_STATE, text)

    def write_text(self, name: str, text: str) -> None:
        write_atomically(self.folder / name, text)

    def write_json(self, name: str, data: Any) -> None:
        self.write_text(name, json.dumps(data, indent=2) + "\n")
