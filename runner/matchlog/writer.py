"""Write a match log in the official folder layout (spec 7.4), every file atomically."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Mapping

from runner.errors import UserError
from runner.matchlog.layout import END_GAME_STATE, round_dir_name


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
    """Creates `<folder>/Round NNN/<player name>/...` as rounds are played.

    A round is written into a hidden `.Round NNN.partial` folder and renamed into place in one step: readers
    (and a log cut short by Ctrl-C) see a round whole or not at all, never one player's files without the
    other's.
    """

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

    def write_round(
        self, round_number: int, files: Mapping[str, Mapping[str, str]], end_of_game: str | None = None
    ) -> None:
        """Write one round: `files` maps seat -> {log-relative name (JsonMap.json, Console/Console.txt, ...):
        text}; `end_of_game` is endGameState.txt's text in the final round."""
        final = self.folder / round_dir_name(round_number)
        partial = self.folder / f".{final.name}.partial"
        try:
            shutil.rmtree(partial, ignore_errors=True)  # left by an earlier interrupted run
            for seat, player_files in files.items():
                player_dir = partial / self.names[seat]
                (player_dir / "Console").mkdir(parents=True)
                for name, text in player_files.items():
                    with open(player_dir / name, "w", encoding="utf-8", newline="") as handle:
                        handle.write(text)
            if end_of_game is not None:
                with open(partial / END_GAME_STATE, "w", encoding="utf-8", newline="") as handle:
                    handle.write(end_of_game)
            os.rename(partial, final)
        except OSError as exc:
            shutil.rmtree(partial, ignore_errors=True)
            raise LogWriteError(f"{final}: cannot write the match log: {exc.strerror or exc}") from None
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)  # Ctrl-C mid-round: the round was not played
            raise

    def write_text(self, name: str, text: str) -> None:
        write_atomically(self.folder / name, text)

    def write_json(self, name: str, data: Any) -> None:
        self.write_text(name, json.dumps(data, indent=2) + "\n")
