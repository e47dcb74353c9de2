"""Compare two match logs round by round, player by player, file by file (`td-runner diff`).

Default mode forgives what the official engine leaves non-deterministic (see matchlog/compare.py) and
skips `Console/BotOutput.txt`, the bots' own stdout, which often holds timings. `strict` compares every
file byte for byte, BotOutput.txt included.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator

import attrs

from runner.errors import UserError
from runner.games.tower_defence.logs.compare import (
    TEXT_MAP_SECTIONS,
    Difference,
    compare_states,
    compare_text,
    json_differences,
)
from runner.games.tower_defence.logs.layout import (
    BOT_OUTPUT,
    CONSOLE,
    END_GAME_STATE,
    JSON_MAP,
    PLAYER_COMMAND,
    TEXT_MAP,
    MatchLog,
    round_dir_name,
)

SEATS = ("A", "B")
DEFAULT_FILES = (JSON_MAP, TEXT_MAP, PLAYER_COMMAND, CONSOLE)
STRICT_FILES = DEFAULT_FILES + (BOT_OUTPUT,)
_SNIPPET = 40


@attrs.frozen
class FileDifference:
    """What differs in one file (or folder) of one round.

    `player` is None for round-level things (the round folder, endGameState.txt); `file` is None when a
    whole folder is missing. `missing` names the log ("A" = LOG_A, "B" = LOG_B) lacking the file/folder;
    otherwise `fields` holds the first differing fields.
    """

    round: int
    player: str | None
    file: str | None
    missing: str | None = None
    fields: tuple[Difference, ...] = ()


@attrs.frozen
class DiffReport:
    rounds_compared: int
    differing_rounds: tuple[int, ...]
    #: Every differing file of the first differing round (empty when the logs are identical).
    first_round: tuple[FileDifference, ...]
    notes: tuple[str, ...] = ()

    @property
    def identical(self) -> bool:
        return not self.differing_rounds


def _first_char_difference(expected: str, actual: str) -> Difference:
    """Locate the first differing character (strict mode, when parsed JSON is equal: key order, spacing)."""
    index = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b), min(len(expected), len(actual)))
    start = max(0, index - _SNIPPET // 2)
    return Difference(f"char {index}", expected[start : index + _SNIPPET], actual[start : index + _SNIPPET])


def compare_file(name: str, expected: str, actual: str, *, strict: bool, limit: int | None) -> list[Difference]:
    """Differences between two versions of one log file ([] = same under the chosen mode)."""
    if expected == actual:
        return []
    if name == JSON_MAP:
        try:
            if not strict:
                return compare_states(expected, actual, ignore_list_order=True, limit=limit)
            found = list(itertools.islice(json_differences(json.loads(expected), json.loads(actual)), limit))
            return found or [_first_char_difference(expected, actual)]
        except ValueError:
            if "\n" not in expected and "\n" not in actual:  # one-line JSON: point at the character
                return [_first_char_difference(expected, actual)]
    sections = TEXT_MAP_SECTIONS if name == TEXT_MAP and not strict else ()
    return compare_text(expected, actual, sorted_sections=sections, limit=limit)


class _LogFiles:
    """Raw file access to one log; cheaper than pathlib per file, which matters at ~8,000 files a log."""

    def __init__(self, log: MatchLog) -> None:
        self.log = log
        self.base = str(log.path)
        self.rounds = frozenset(log.rounds)

    def path(self, number: int, seat: str | None, name: str = "") -> str:
        if seat is None:
            return os.path.join(self.base, round_dir_name(number), name)
        return os.path.join(self.base, round_dir_name(number), self.log.player_dirs[seat], name)

    def read(self, number: int, seat: str | None, name: str) -> bytes | None:
        path = self.path(number, seat, name)
        try:
            with open(path, "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise UserError(f"{path}: cannot read: {exc}") from None


def _decode(data: bytes) -> str:
    # surrogateescape is lossless, so different bytes stay different even when a bot printed garbage
    return data.decode("utf-8", errors="surrogateescape")


class _LogDiffer:
    def __init__(self, log_a: MatchLog, log_b: MatchLog, *, strict: bool, limit: int | None) -> None:
        self.logs = {"A": _LogFiles(log_a), "B": _LogFiles(log_b)}
        self.files = STRICT_FILES if strict else DEFAULT_FILES
        self.strict = strict
        self.limit = limit

    def _read_both(self, number: int, seat: str | None, name: str) -> dict[str, bytes | None]:
        return {side: files.read(number, seat, name) for side, files in self.logs.items()}

    def _compare(self, number: int, seat: str | None, name: str, limit: int | None) -> FileDifference | None:
        data = self._read_both(number, seat, name)
        if data["A"] == data["B"]:
            return None
        if data["A"] is None or data["B"] is None:
            return FileDifference(number, seat, name, missing="A" if data["A"] is None else "B")
        fields = compare_file(name, _decode(data["A"]), _decode(data["B"]), strict=self.strict, limit=limit)
        return FileDifference(number, seat, name, fields=tuple(fields)) if fields else None

    def round_differences(self, number: int, limit: int | None) -> Iterator[FileDifference]:
        """Yield the differing files of one round present in both logs."""
        for seat in SEATS:
            found = [d for d in (self._compare(number, seat, name, limit) for name in self.files) if d]
            sides_missing = {d.missing for d in found if d.missing}
            for side in sides_missing:
                # report a missing player folder once instead of each of its files
                if not os.path.isdir(self.logs[side].path(number, seat)):
                    yield FileDifference(number, seat, None, missing=side)
                    found = [d for d in found if d.missing != side]
            yield from found
        end = self._compare(number, None, END_GAME_STATE, limit)
        if end is not None:
            yield end

    def run(self) -> DiffReport:
        log_a, log_b = self.logs["A"].log, self.logs["B"].log
        present = {"A": self.logs["A"].rounds, "B": self.logs["B"].rounds}
        numbers = sorted(present["A"] | present["B"])
        differing: list[int] = []
        first_round: tuple[FileDifference, ...] = ()
        for number in numbers:
            if number not in present["A"] or number not in present["B"]:
                found: tuple[FileDifference, ...] = (
                    FileDifference(number, None, None, missing="A" if number not in present["A"] else "B"),
                )
            elif differing:
                # only the first differing round is shown in detail; later ones just need a yes/no
                first = next(self.round_differences(number, 1), None)
                found = () if first is None else (first,)
            else:
                found = tuple(self.round_differences(number, self.limit))
            if found:
                if not differing:
                    first_round = found
                differing.append(number)
        notes = tuple(
            f"player {seat} folders are named differently: {log_a.player_dirs[seat]!r} vs {log_b.player_dirs[seat]!r}"
            for seat in SEATS
            if log_a.player_dirs[seat] != log_b.player_dirs[seat]
        )
        return DiffReport(len(numbers), tuple(differing), first_round, notes)


def diff_logs(log_a: MatchLog, log_b: MatchLog, *, strict: bool = False, limit: int | None = 10) -> DiffReport:
    """Compare two match logs; `limit` caps the fields reported per differing file of the first round."""
    return _LogDiffer(log_a, log_b, strict=strict, limit=limit).run()
