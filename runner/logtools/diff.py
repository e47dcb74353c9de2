"""`diff` of two core-written logs of one game: turn by turn, seat by seat, naming the first turn they part.

Per turn and seat: the answer as read, its fault, absence and detail, the input (a folder log's files, JSON
compared structurally and text by lines; a log.jsonl record's digest); then the game's part (turn files or
row), and a folder log's final folder. By default what the game forgives is forgiven (`log_forgives`,
`log_unordered`) and the bots' own output skipped; `strict` compares every file byte for byte. Answer times
never (they differ on every run).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from runner.games.interface import Answer, Check, FolderLog
from runner.logtools.compare import file_difference, first_difference
from runner.logtools.record import MatchRecord, RecordedTurn, open_record

MAX_LINES = 30


def diff_logs(game: Any, path_a: Any, path_b: Any, options: Mapping[str, Any]) -> Check:
    a, b = open_record(game, path_a), open_record(game, path_b)
    strict = bool(options.get("strict"))
    forgives = (*getattr(game, "log_forgives", ()), *a.forgives, *b.forgives)  # the game's, and a trace's
    rules = _Rules(strict) if strict else _Rules(strict, forgives, tuple(getattr(game, "log_unordered", ())))
    found: list[str] = []
    first: int | None = None
    for index, (turn_a, turn_b) in enumerate(zip(a.turns, b.turns)):
        here = _turn(a, b, index, turn_a, turn_b, rules)
        if here and first is None:
            first = turn_a.turn
        found += here
    if isinstance(a.log, FolderLog) and isinstance(b.log, FolderLog) and len(a.turns) == len(b.turns) and a.turns:
        end = a.turns[-1].turn + 1  # the final folder: the state the match ended in, its final files
        here = [line for seat in a.seats for line in _seat_files(a, b, end, seat, rules)]
        here += _files(a.turn_folder(end), b.turn_folder(end), f"turn {end}", rules)
        first = end if here and first is None else first
        found += here
    if len(a.turns) != len(b.turns):
        found.append(f"{len(a.turns)} turns != {len(b.turns)} turns")
        if first is None:
            first = min(len(a.turns), len(b.turns)) + (a.turns or b.turns)[0].turn
    if a.match is not None and b.match is not None:
        ends = ("winner", "end_reason", "rounds", "ranking")
        if difference := first_difference({k: a.match.get(k) for k in ends}, {k: b.match.get(k) for k in ends}):
            found.append(f"{a.match_where if a.match_where == b.match_where else 'the results'}: {difference}")
    data = {"turns_a": len(a.turns), "turns_b": len(b.turns), "first_turn": first, "differences": found}
    if not found:
        return Check(True, (f"{path_a} and {path_b}: {len(a.turns)} turns, identical"
                            + ("" if strict else " (bot output and timing aside)"),), data)
    head = f"the logs part at turn {first}" if first is not None else "the logs differ in their result"
    shown = max(1, int(options.get("fields") or MAX_LINES))  # `td-runner diff --fields N`
    lines = [f"{head}: {len(found)} difference{'s' if len(found) != 1 else ''}", *found[:shown]]
    if len(found) > shown:
        lines.append(f"... and {len(found) - shown} more")
    return Check(False, tuple(lines), data)


@attrs.frozen
class _Rules:
    """What `diff` compares: everything byte for byte (`strict`), or forgiving what the game says it may."""

    strict: bool
    forgive: tuple[str, ...] = ()  # JSON keys skipped (`Game.log_forgives`)
    unordered: tuple[str, ...] = ()  # JSON keys of lists, line prefixes of runs, in any order (`Game.log_unordered`)


def _turn(a: MatchRecord, b: MatchRecord, index: int, turn_a: RecordedTurn, turn_b: RecordedTurn,
          rules: _Rules) -> list[str]:
    turn = turn_a.turn
    if turn != turn_b.turn:
        return [f"turn {turn} != turn {turn_b.turn} at record line {turn_a.line}"]
    found = []
    both_core = turn_a.events is not None and turn_b.events is not None  # (a log from outside keeps no inputs)
    rows = not isinstance(a.log, FolderLog) and not isinstance(b.log, FolderLog)
    # a trace keeps each answer as its game read it (a value, a normal form), in its row: beside a log the core
    # wrote (the answer as sent), their rows say whether they agree
    texts = both_core or (turn_a.events is None and turn_b.events is None) or not rows
    for seat in dict.fromkeys([*turn_a.answers, *turn_b.answers]):
        answer_a, answer_b = turn_a.answers.get(seat), turn_b.answers.get(seat)
        if answer_a is None or answer_b is None:
            found.append(f"turn {turn}, seat {seat}: plays in only one log")
            continue
        if texts and (difference := first_difference(_answer(answer_a), _answer(answer_b))):
            found.append(f"turn {turn}, seat {seat}, answer: {difference}")
        if both_core and turn_a.inputs.get(seat) != turn_b.inputs.get(seat):
            found.append(f"turn {turn}, seat {seat}, input: {turn_a.inputs.get(seat)} != {turn_b.inputs.get(seat)}")
        found += _seat_files(a, b, turn, seat, rules)
    log = a.log
    if isinstance(log, FolderLog) and isinstance(b.log, FolderLog):
        found += _files(a.turn_folder(turn), b.turn_folder(turn), f"turn {turn}", rules)
    elif not isinstance(log, FolderLog) and not isinstance(b.log, FolderLog):  # (a trace beside a folder log:
        row_a = a.rows[index] if index < len(a.rows) else None  # their answers are what they share)
        row_b = b.rows[index] if index < len(b.rows) else None
        if difference := first_difference(row_a, row_b, rules.forgive, unordered=rules.unordered):
            found.append(f"turn {turn}, {log.file_name} line {a.row_line(index)}: {difference}")
    if not both_core:
        return found  # a log from outside keeps no events
    if difference := first_difference({"events": list(turn_a.events), "rejected": dict(turn_a.rejected)},
                                      {"events": list(turn_b.events), "rejected": dict(turn_b.rejected)}):
        found.append(f"turn {turn}, record: {difference}")
    return found


def _answer(answer: Answer) -> dict[str, Any]:
    return {"text": answer.text, "fault": answer.fault and answer.fault.value,
            "absent": answer.absent and answer.absent.value, "detail": answer.detail}


def _seat_files(a: MatchRecord, b: MatchRecord, turn: int, seat: str, rules: _Rules) -> list[str]:
    log = a.log
    if not isinstance(log, FolderLog) or not isinstance(b.log, FolderLog):
        if rules.strict and a.bot_output(turn, seat) != b.bot_output(turn, seat):
            return [f"turn {turn}, seat {seat}: bot output differs"]
        return []
    skipped = set() if rules.strict else {log.answer, log.output}  # the answer is compared as read, above
    folder_a = a.turn_folder(turn) / a.names.get(seat, seat)
    folder_b = b.turn_folder(turn) / b.names.get(seat, seat)
    return _files(folder_a, folder_b, f"turn {turn}, seat {seat}", rules, skipped, deep=True)


def _files(folder_a: Path, folder_b: Path, where: str, rules: _Rules,
           skipped: frozenset[str] | set[str] = frozenset(), deep: bool = False) -> list[str]:
    """The files of two folders by name (with `deep`, those of sub-folders too, as `Console/Console.txt`).
    Plain strings and os.scandir: pathlib cost more than the reads on logs of 400 turns."""
    names_a, names_b = _names(str(folder_a), deep), _names(str(folder_b), deep)
    if (names_a is None) != (names_b is None):
        return [f"{where}: {folder_a.name if names_a is not None else folder_b.name}/ in only one log"]
    found = []
    for name in sorted(((names_a or set()) | (names_b or set())) - skipped):
        data_a, data_b = _read(f"{folder_a}/{name}"), _read(f"{folder_b}/{name}")
        if data_a == data_b:
            continue
        if data_a is None or data_b is None:
            found.append(f"{where}, {name}: in only one log")
        elif difference := file_difference(name, data_a.decode(errors="replace"), data_b.decode(errors="replace"),
                                           rules.forgive, rules.unordered):
            found.append(f"{where}, {name}: {difference}")
        elif rules.strict:
            found.append(f"{where}, {name}: the same content in other bytes (key order, spacing or encoding)")
    return found


def _names(folder: str, deep: bool) -> set[str] | None:
    """The files of a folder (None: no such folder), relative, with `/` between folder and file."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return None
    names = set()
    for entry in entries:
        if entry.is_file():
            names.add(entry.name)
        elif deep and entry.is_dir():
            names |= {f"{entry.name}/{name}" for name in _names(entry.path, deep) or ()}
    return names


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None
