"""What is Invaders' own in its logs: spec 16 reference traces (koth traces, `.jsonl` or `.jsonl.gz`, starting
with the turn-0 row) verified, diffed and replayed by their rows, and a config or state file validated. The logs
the core writes (a folder with `log.jsonl`, one spec 16 row per turn plus `ir`/`dr`, and record.jsonl) get the
core's tools (runner/logtools); a folder without record.jsonl is read as a trace. They read files, so they live
outside rules/ and protocol/.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Iterator

import attrs

from runner.errors import UserError
from runner.games.interface import Check, FileReport
from runner.games.invaders.protocol import render_path
from runner.games.invaders.rules.replay import check_rows
from runner.games.invaders.rules.trace import STATE_KEYS, TURN_KEYS, compare_rows
from runner.schemas import MAX_PROBLEMS, Problem, check_schema
from runner.words import plural

LOG_NAME = "log.jsonl"
MAX_LINES = 20

#: The kinds of file `td-runner validate --kind` knows for Invaders.
CONFIG, STATE, LOG = "invaders-config", "invaders-state", "invaders-log"
KINDS = (CONFIG, STATE, LOG)
CONFIG_SCHEMA, STATE_SCHEMA = "invaders/game-config", "invaders/state"


def _rows_file(path: Path) -> Path:
    path = Path(path)
    return path / LOG_NAME if path.is_dir() else path


def _open_text(path: Path) -> Any:
    if path.name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def iter_rows(path: Path) -> Iterator[dict[str, Any]]:
    """The rows of a log folder or trace file, one JSON object per non-empty line; UserError on bad input."""
    source = _rows_file(path)
    try:
        with _open_text(source) as handle:
            for number, line in enumerate(handle, 1):
                if line.strip():
                    try:
                        yield json.loads(line)
                    except ValueError as error:
                        raise UserError(f"{source}:{number}: not JSON: {error}") from None
    except (OSError, EOFError) as error:  # EOFError: a truncated .gz
        raise UserError(f"{source}: cannot read: {getattr(error, 'strerror', None) or error}") from None


def read_match_json(path: Path) -> dict[str, Any] | None:
    """A log folder's match.json, or None (a bare trace file, or none written)."""
    summary = Path(path) / "match.json"
    if not summary.is_file():
        return None
    try:
        data = json.loads(summary.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UserError(f"{summary}: not valid JSON: {error}") from None
    return data if isinstance(data, dict) else None


def is_log(path: Path) -> bool:
    """Whether `path` is an Invaders log folder or trace file (its first line is a spec 16 row)."""
    source = _rows_file(path)
    if not source.is_file() or not source.name.endswith((".jsonl", ".jsonl.gz")):
        return False
    try:
        with _open_text(source) as handle:
            first = json.loads(handle.readline())
    except (OSError, EOFError, ValueError):
        return False
    return isinstance(first, dict) and {"t", "ig", "dg", "tw", "iv"} <= first.keys()


def verify(path: Path) -> Check:
    """Replay a trace's answers through the rules and compare every field of every turn."""
    turns, problems = check_rows(iter_rows(path), limit=MAX_LINES)
    if problems:
        return Check(False, (f"{path}: {len(problems)} difference(s) replaying {turns} turns", *problems),
                     {"turns": turns, "problems": problems})
    return Check(True, (f"{path}: {plural(turns, 'turn')} replayed, every field identical",), {"turns": turns})


def _rows_by_turn(path: Path) -> dict[int, dict[str, Any]]:
    return {row["t"]: row for row in iter_rows(path) if isinstance(row, dict) and isinstance(row.get("t"), int)}


def diff(path_a: Path, path_b: Path, strict: bool = False) -> Check:
    """Compare two logs turn by turn: the spec 16 fields, and with `strict` every recorded key."""
    rows_a, rows_b = _rows_by_turn(path_a), _rows_by_turn(path_b)
    lines: list[str] = []
    differing = []
    for turn in sorted(rows_a.keys() & rows_b.keys()):
        a, b = rows_a[turn], rows_b[turn]
        keys = tuple(sorted(a.keys() | b.keys())) if strict else STATE_KEYS + TURN_KEYS
        found = compare_rows(a, b, keys)
        if found:
            differing.append(turn)
            if len(lines) < MAX_LINES:
                lines.extend(f"turn {turn}: {d}" for d in found[: MAX_LINES - len(lines)])
    only_a = sorted(rows_a.keys() - rows_b.keys())
    only_b = sorted(rows_b.keys() - rows_a.keys())
    for label, only in (("A", only_a), ("B", only_b)):
        if only:
            lines.append(f"turns {only[0]}..{only[-1]} only in {label} ({len(only)})")
    same = not differing and not only_a and not only_b
    head = "the logs are identical" if same else f"{len(differing)} turn(s) differ, first at turn {differing[0]}" if differing else "the logs differ in length"
    data = {"turns_a": len(rows_a), "turns_b": len(rows_b), "differing_turns": len(differing),
            "first_difference": differing[0] if differing else None}
    return Check(same, (head, *lines), data)


@attrs.define
class LogReplay:
    """A log opened for the terminal replay: one line per turn (path, life, gold), the actions per seat."""

    rows: dict[int, dict[str, Any]]
    turns: tuple[int, ...]
    seats: tuple[str, ...] = ("defender", "invader")

    def render(self, turn: int, seat: str | None = None) -> list[Any]:
        row = self.rows[turn]
        lines: list[Any] = [
            f"{turn:>6} {render_path(row)} life {row['life']:>3} gold D {row['dg']} I {row['ig']}"
        ]
        faults, dq = row.get("faults") or {}, row.get("dq") or ()
        for faulty, fault in faults.items():  # every seat's fault, in the log's words (a line that is not JSON
            if seat in (None, faulty):  # quotes the answer as sent)
                lines.append(f"       {faulty}: fault: {fault}" + ("; disqualified" if faulty in dq else ""))
        if seat in ("defender", "invader") and "ia" in row and seat not in faults:
            answer, result = (row.get("da"), row.get("dr")) if seat == "defender" else (row.get("ia"), row.get("ir"))
            shown = json.dumps(answer, separators=(",", ":"))
            lines.append(f"       {seat}: {shown}" + (f" -> {result}" if result is not None else ""))
        return lines


def replay(path: Path) -> LogReplay:
    """Open a log folder or trace file for the terminal replay."""
    rows = _rows_by_turn(path)
    if not rows:
        raise UserError(f"{_rows_file(path)}: no turns in this log")
    return LogReplay(rows, tuple(sorted(rows)))


def config_problems(data: Any) -> list[Problem]:
    """What is wrong with an Invaders config given as JSON (schema/invaders/game-config.schema.json)."""
    return _unique(check_schema(CONFIG_SCHEMA, data))


def _unique(problems: list[Problem]) -> list[Problem]:
    # runner.schemas words a `required` error once per missing key and per error: keep each problem once
    return list(dict.fromkeys(problems))


def detect_kind(path: Path, data: Any) -> str | None:
    """CONFIG or STATE by content (both are plain JSON objects); None when it is neither."""
    if not isinstance(data, dict) or not data:
        return None
    if data.keys() <= {"maxTurns", "faults"}:
        return CONFIG
    if {"turnNumber", "invaderSlots", "towerSlots"} & data.keys():
        return STATE
    return None


def validate(path: Path, kind: str | None) -> list[FileReport] | None:
    """Reports for an Invaders config file, state view or log folder (replayed); None for anything else."""
    path = Path(path)
    if path.is_dir():
        if kind not in (None, LOG) or not is_log(path):
            return None
        return [_validate_log(path)]
    if not path.is_file():
        return None
    if kind == LOG or (kind is None and path.name.endswith((".jsonl", ".jsonl.gz"))):
        return [_validate_log(path)] if kind == LOG or is_log(path) else None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        return [FileReport(path, kind, unreadable=error.strerror or str(error))] if kind else None
    except ValueError as error:
        return [FileReport(path, kind, (Problem("", f"not valid JSON: {error}"),))] if kind else None
    kind = kind or detect_kind(path, data)
    if kind == CONFIG:
        return [FileReport(path, kind, tuple(config_problems(data)))]
    if kind == STATE:
        return [FileReport(path, kind, tuple(_unique(check_schema(STATE_SCHEMA, data))))]
    return None


def _validate_log(path: Path) -> FileReport:
    """A log is valid when replaying it through the rules reproduces every recorded field."""
    try:
        _, problems = check_rows(iter_rows(path), limit=MAX_PROBLEMS)
    except UserError as error:
        return FileReport(path, LOG, unreadable=str(error))
    return FileReport(path, LOG, tuple(Problem("", problem) for problem in problems))
