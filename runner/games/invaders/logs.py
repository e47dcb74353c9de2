"""What is Invaders' own in its logs and files: a spec 16 reference trace (a koth trace, `.jsonl` or `.jsonl.gz`,
from the turn-0 row on) read into the core's record, so its verify, diff and replay are the core's
(runner/logtools); the config and state files `validate` knows by their content.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.games.interface import Answer, Fault
from runner.games.invaders.rules.state import State
from runner.games.invaders.rules.trace import render_row
from runner.games.invaders.session import DEFENDER, INVADER, SEATS
from runner.logtools.compare import first_difference
from runner.logtools.record import MatchRecord, read_jsonl, trace_record
from runner.schemas import Problem, check_schema

LOG_NAME = "log.jsonl"
CONFIG_SCHEMA = "invaders/game-config"
_FAULTS = {fault.value: fault for fault in Fault}


def _rows_file(path: Path) -> Path:  # (the HTML record reads a log folder's rows or a trace, line by line)
    path = Path(path)
    return path / LOG_NAME if path.is_dir() else path


def _open_text(path: Path) -> Any:
    return gzip.open(path, "rt", encoding="utf-8") if path.name.endswith(".gz") else path.open(encoding="utf-8")


def is_log(path: Path) -> bool:
    """Whether `path` is a trace file: a .jsonl (.gz) whose first line is a spec 16 row."""
    if not Path(path).is_file() or not Path(path).name.endswith((".jsonl", ".jsonl.gz")):
        return False
    try:
        with _open_text(Path(path)) as handle:
            first = json.loads(handle.readline())
    except (OSError, EOFError, ValueError):
        return False
    return isinstance(first, dict) and {"t", "ig", "dg", "tw", "iv"} <= first.keys()


def open_trace(game: Any, path: Path) -> MatchRecord | None:
    """A trace as the core's record: each turn's answers are its `da` and `ia` as JSON text (a recorded fault
    as that fault), its row the row the session writes; a turn-0 row that is not the game's start is a problem. The
    trace keeps no `ir`/`dr` (what became of each action): left out of the comparisons where it has none."""
    if not is_log(path):
        return None
    rows, first_line, problems = read_jsonl(Path(path)), 1, ()
    if rows and rows[0].get("t") == 0 and "ia" not in rows[0]:  # the initial state, before turn 1
        if difference := first_difference(rows[0], render_row(State())):
            problems = (f"turn 0, {Path(path).name} line 1 (the start): {difference}",)
        rows, first_line = rows[1:], 2
    turns = []
    for number, row in enumerate(rows, start=first_line):
        if not isinstance(row, dict):
            raise UserError(f"{path}:{number}: not a spec 16 row (a JSON object)")
        faults = row.get("faults") or {}
        answers = {seat: Answer("", _FAULTS[faults[seat]]) if faults.get(seat) in _FAULTS else
                   Answer("null" if row.get(key) is None else json.dumps(row[key], separators=(",", ":")))
                   for seat, key in ((DEFENDER, "da"), (INVADER, "ia"))}  # ("null": most answers of most turns)
        turns.append((row.get("t"), answers, row, {}))  # (what was refused is in `ir`/`dr` where it has them)
    kept = not rows or "ir" in rows[0]
    return trace_record(game, Path(path), SEATS, turns, first_line, forgives=() if kept else ("ir", "dr"),
                        problems=problems)


def config_problems(data: Any) -> list[Problem]:
    """What is wrong with an Invaders config given as JSON (schema/invaders/game-config.schema.json)."""
    return list(dict.fromkeys(check_schema(CONFIG_SCHEMA, data)))


def detect_kind(path: Path, data: Any) -> str | None:
    """A config or a state by content (both are plain JSON objects); None when it is neither."""
    if not isinstance(data, dict) or not data:
        return None
    if data.keys() <= {"maxTurns", "faults"}:
        return "invaders-config"
    return "invaders-state" if {"turnNumber", "invaderSlots", "towerSlots"} & data.keys() else None
