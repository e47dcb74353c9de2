"""`diff` of two core-written logs of one game: turn by turn, seat by seat, naming the first turn they part.

Per turn and seat: the answer as read, its fault, absence and detail, the input (a folder log's files, JSON
compared structurally and text by lines; a log.jsonl record's digest); then the game's part (turn files or
row). The bots' own output only with `strict`; answer times never (they differ on every run).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runner.games.interface import Answer, Check, FolderLog
from runner.logtools.compare import file_difference, first_difference
from runner.logtools.record import MatchRecord, RecordedTurn, open_record, read_text

MAX_LINES = 30


def diff_logs(game: Any, path_a: Any, path_b: Any, options: Mapping[str, Any]) -> Check:
    a, b = open_record(game, path_a), open_record(game, path_b)
    strict = bool(options.get("strict"))
    forgive = () if strict else (*getattr(game, "log_forgives", ()), *a.forgives, *b.forgives)
    found: list[str] = []
    first: int | None = None
    for index, (turn_a, turn_b) in enumerate(zip(a.turns, b.turns)):
        here = _turn(a, b, index, turn_a, turn_b, strict, forgive)
        if here and first is None:
            first = turn_a.turn
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
    lines = [f"{head}: {len(found)} difference{'s' if len(found) != 1 else ''}", *found[:MAX_LINES]]
    if len(found) > MAX_LINES:
        lines.append(f"... and {len(found) - MAX_LINES} more")
    return Check(False, tuple(lines), data)


def _turn(a: MatchRecord, b: MatchRecord, index: int, turn_a: RecordedTurn, turn_b: RecordedTurn, strict: bool,
          forgive: tuple[str, ...]) -> list[str]:
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
        found += _seat_files(a, b, turn, seat, strict, forgive)
    log = a.log
    if isinstance(log, FolderLog) and isinstance(b.log, FolderLog):
        found += _files(a.turn_folder(turn), b.turn_folder(turn), f"turn {turn}", forgive)
    elif not isinstance(log, FolderLog) and not isinstance(b.log, FolderLog):  # (a trace beside a folder log:
        row_a = a.rows[index] if index < len(a.rows) else None  # their answers are what they share)
        row_b = b.rows[index] if index < len(b.rows) else None
        if difference := first_difference(row_a, row_b, forgive):
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


def _seat_files(a: MatchRecord, b: MatchRecord, turn: int, seat: str, strict: bool,
                forgive: tuple[str, ...]) -> list[str]:
    log = a.log
    if not isinstance(log, FolderLog) or not isinstance(b.log, FolderLog):
        if strict and a.bot_output(turn, seat) != b.bot_output(turn, seat):
            return [f"turn {turn}, seat {seat}: bot output differs"]
        return []
    skipped = set() if strict else {log.answer, log.output}  # the answer is compared as read, above
    folder_a = a.turn_folder(turn) / a.names.get(seat, seat)
    folder_b = b.turn_folder(turn) / b.names.get(seat, seat)
    return _files(folder_a, folder_b, f"turn {turn}, seat {seat}", forgive, skipped=skipped)


def _files(folder_a: Any, folder_b: Any, where: str, forgive: tuple[str, ...],
           skipped: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The files (not sub-folders) of two folders, by name."""
    names_a = {p.name for p in folder_a.iterdir() if p.is_file()} if folder_a.is_dir() else set()
    names_b = {p.name for p in folder_b.iterdir() if p.is_file()} if folder_b.is_dir() else set()
    found = []
    for name in sorted((names_a | names_b) - skipped):
        text_a, text_b = read_text(folder_a / name), read_text(folder_b / name)
        if text_a is None or text_b is None:
            found.append(f"{where}, {name}: in only one log")
        elif difference := file_difference(name, text_a, text_b, forgive):
            found.append(f"{where}, {name}: {difference}")
    return found
