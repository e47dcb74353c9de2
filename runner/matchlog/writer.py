"""Write a match log: turn folders (one sub-folder per seat) or one `log.jsonl`, every file atomically."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any, Mapping

from runner.errors import UserError


#: The longest a line appended to a log.jsonl waits in memory before it is written (seconds).
FLUSH_S = 0.02
_LINE_BUFFER = 1 << 20  # bytes: a flush by time, never one forced by a full buffer in a normal turn


class LogWriteError(UserError):
    """The match folder cannot be written (no such parent, not a folder, no permission, disk full)."""


def write_atomically(path: Path, content: str | bytes) -> None:
    """Write UTF-8 text (exact line ends) or bytes; readers never see a half-written file."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # bot-output/<seat>.txt
        if isinstance(content, bytes):
            temporary.write_bytes(content)
        else:
            with open(temporary, "w", encoding="utf-8", newline="") as handle:
                handle.write(content)
        os.replace(temporary, path)
    except OSError as exc:
        raise LogWriteError(f"{path}: cannot write the match log: {exc.strerror or exc}") from None


#: a turn folder's files: created (or emptied, as `open(path, "w")` would) in the turn's new `.partial` folder
_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC


def _write_files(folder: str, files: Mapping[str, str]) -> None:
    """Write each `name: text` of a turn folder as UTF-8 with its exact line ends, with three system calls a file
    (open, write, close; an empty file two) instead of the ~ten of `open()` (fstat, ioctl, lseeks, a mkdir of
    the parent) and its text layer: a Lanes turn writes eleven files, whose folder took ~420 us of CPU on
    tmpfs that way and takes ~125 us this way. A name's sub-folder (Console/Console.txt) is made once."""
    made: set[str] = set()
    for name, text in files.items():
        if "/" in name:
            sub = name.rpartition("/")[0]
            if sub not in made:
                os.makedirs(f"{folder}/{sub}", exist_ok=True)
                made.add(sub)
        data = text.encode("utf-8")
        handle = os.open(f"{folder}/{name}", _FILE_FLAGS, 0o666)
        try:
            written = os.write(handle, data) if data else 0
            while written < len(data):  # a regular file takes it in one call, unless a signal cuts it short
                written += os.write(handle, data[written:])
        finally:
            os.close(handle)


class MatchLogWriter:
    """Creates `<folder>/<turn folder>/<player name>/...` as turns are played, or appends to a log.jsonl.

    A turn is written into a hidden `.<turn folder>.partial` folder and renamed into place in one step:
    readers (and a log cut short by Ctrl-C) see a turn whole or not at all, never one player's files
    without the other's.
    """

    def __init__(self, folder: Path, names: dict[str, str]) -> None:
        self.folder = folder
        self.names = names
        self._flush_at: dict[str, float] = {}  # name -> time.monotonic() after which its next line flushes it
        self._lines: dict[str, Any] = {}  # name -> open handle of a line log (log.jsonl), kept for the match
        self._mkdir(folder)

    @staticmethod
    def _mkdir(folder: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LogWriteError(f"{folder}: cannot create the match folder: {exc.strerror or exc}") from None

    def write_round(
        self, turn_folder: str, files: Mapping[str, Mapping[str, str]], turn_files: Mapping[str, str] | None = None
    ) -> None:
        """Write one turn: `files` maps seat -> {log-relative name (JsonMap.json, Console/Console.txt, ...):
        text}; `turn_files` are written in the turn folder itself (endGameState.txt, events.json)."""
        final = self.folder / turn_folder
        partial = f"{self.folder}/.{final.name}.partial"
        try:
            try:
                os.mkdir(partial)
            except FileExistsError:  # left by an earlier interrupted run
                shutil.rmtree(partial, ignore_errors=True)
                os.mkdir(partial)
            for seat, player_files in files.items():
                player_dir = f"{partial}/{self.names[seat]}"
                os.mkdir(player_dir)
                _write_files(player_dir, player_files)
            if turn_files:
                _write_files(partial, turn_files)
            os.rename(partial, final)
        except OSError as exc:
            shutil.rmtree(partial, ignore_errors=True)
            raise LogWriteError(f"{final}: cannot write the match log: {exc.strerror or exc}") from None
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)  # Ctrl-C mid-turn: the turn was not played
            raise

    def append_line(self, name: str, line: str) -> None:
        """Append one line to a log file (log.jsonl). The file stays open for the match (reopening it every
        turn cost a third of a 12,630-turn Invaders match) and is flushed when FLUSH_S has passed since its
        last flush (and at close): one write call per few turns, not per turn, while a runner killed with
        SIGKILL still leaves every turn logged up to FLUSH_S before the kill (Ctrl-C and SIGTERM lose nothing:
        the match loop closes the writer)."""
        try:
            handle = self._lines.get(name)
            if handle is None:
                handle = self._lines[name] = open(self.folder / name, "a", encoding="utf-8", newline="",
                                                  buffering=_LINE_BUFFER)
            handle.write(line)
            now = time.monotonic()
            if now >= self._flush_at.get(name, 0.0):
                self._flush_at[name] = now + FLUSH_S
                handle.flush()
        except OSError as exc:
            raise LogWriteError(f"{self.folder / name}: cannot write the match log: {exc.strerror or exc}") from None

    def flush(self, name: str) -> None:
        """Write out what a line log holds now (a folder log's record.jsonl, once its turn folder is written)."""
        handle = self._lines.get(name)
        if handle is None:
            return
        try:
            handle.flush()
        except OSError as exc:
            raise LogWriteError(f"{self.folder / name}: cannot write the match log: {exc.strerror or exc}") from None
        self._flush_at[name] = time.monotonic() + FLUSH_S

    def close(self) -> None:
        """Flush and close the line logs (the turn folders are already complete)."""
        handles, self._lines = self._lines, {}
        for name, handle in handles.items():
            try:
                handle.close()
            except OSError as exc:
                raise LogWriteError(f"{self.folder / name}: cannot write the match log: {exc.strerror or exc}") from None

    def write_file(self, name: str, content: str | bytes) -> None:
        write_atomically(self.folder / name, content)

    def write_text(self, name: str, text: str) -> None:
        write_atomically(self.folder / name, text)

    def write_json(self, name: str, data: Any) -> None:
        self.write_text(name, json.dumps(data, indent=2) + "\n")
