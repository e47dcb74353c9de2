"""Write a match log in the official folder layout (spec 7.4), every file atomically."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from runner.matchlog.layout import (
    BOT_OUTPUT,
    CONSOLE,
    END_GAME_STATE,
    JSON_MAP,
    PLAYER_COMMAND,
    TEXT_MAP,
    round_dir_name,
)


def write_atomically(path: Path, text: str) -> None:
    """Write UTF-8 text with exactly the given line ends; readers never see a half-written file."""
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    os.replace(temporary, path)


class MatchLogWriter:
    """Creates `<folder>/Round NNN/<player name>/...` as rounds are played."""

    def __init__(self, folder: Path, names: dict[str, str]) -> None:
        self.folder = folder
        self.names = names
        folder.mkdir(parents=True, exist_ok=True)

    def write_player_round(
        self, round_number: int, seat: str, state_json: str, text_map: str, command: str, console: str,
        bot_output: str,
    ) -> None:
        player_dir = self.folder / round_dir_name(round_number) / self.names[seat]
        (player_dir / "Console").mkdir(parents=True, exist_ok=True)
        for name, text in (
            (JSON_MAP, state_json),
            (TEXT_MAP, text_map),
            (PLAYER_COMMAND, command),
            (CONSOLE, console),
            (BOT_OUTPUT, bot_output),
        ):
            write_atomically(player_dir / name, text)

    def write_end_of_game(self, round_number: int, text: str) -> None:
        write_atomically(self.folder / round_dir_name(round_number) / END_GAME_STATE, text)

    def write_text(self, name: str, text: str) -> None:
        write_atomically(self.folder / name, text)

    def write_json(self, name: str, data: Any) -> None:
        self.write_text(name, json.dumps(data, indent=2) + "\n")
