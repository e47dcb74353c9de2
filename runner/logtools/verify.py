"""`verify` for any game's core-written log: replay the recorded answers through a new session and compare every
input given, every turn's record and the final files, naming the first difference by turn, seat, file and
JSON path."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from typing import Any

from runner.games.interface import Check, FolderLog, Session, TurnInput, TurnReport
from runner.logtools.compare import equal_but, file_difference, first_difference, first_line_difference
from runner.logtools.record import MatchRecord, RecordedTurn, open_record, read_text
from runner.matchlog.record import RECORD_FILE, input_digest
from runner.words import plural

MAX_LINES = 30  # differences listed; the rest are counted
_STOP = 200  # differences after which the replay stops (a wrong config differs everywhere)


def verify_log(game: Any, path: Any, record: MatchRecord | None = None) -> Check:
    """The whole check: `Game.verify` of every game that has no log tools of its own (`record`: the log already
    opened, perhaps with other options, such as Tower Defence's command order)."""
    record = record or open_record(game, path)
    forgive = frozenset((*getattr(game, "log_forgives", ()), *record.forgives))
    session = game.log_session(record)
    found: list[str] = list(record.read_problems)  # what reading a log from outside found wrong with its start
    first: int | None = 0 if found else None  # the first turn with a difference
    for index, turn in enumerate(record.turns):
        if session.outcome() is not None:
            found.append(f"turn {turn.turn}: the replayed match ended before it")
            break
        if turn.turn != session.turn:
            found.append(f"turn {turn.turn}: the replay is at turn {session.turn}")
            break
        active = session.active_seats()
        if set(active) != set(turn.answers):
            found.append(f"turn {turn.turn}: seats {sorted(turn.answers)} answered, the replay asks {sorted(active)}")
        if turn.inputs or isinstance(record.log, FolderLog):  # (a trace from outside keeps no inputs)
            found += _inputs(record, turn.turn, session.inputs(), active, turn.inputs, forgive,
                             _view(record, session))
        report = session.play_turn({seat: turn.answers[seat] for seat in active if seat in turn.answers})
        found += _report(record, index, turn, report, forgive)
        first = turn.turn if first is None and found else first
        if len(found) >= _STOP:
            break
    else:
        found += _ending(record, session, forgive)
    turns = len(record.turns)
    if not found:
        cut_short = record.ended is None and (record.match is None or record.match.get("end_reason") == "interrupted")
        kept = "every input, record and final file" if record.given_rows is None else \
            "every row" + ("" if cut_short else " and the end")
        note = "; the log records no result (a trace without an end line, a match cut short or interrupted), so " \
            "none was compared" if cut_short else ""
        return Check(True, (f"{path}: {plural(turns, 'turn')} replayed, {kept} identical{note}",),
                     {"turns": turns, "differences": [], "first_turn": None})
    lines = [f"{path}: {len(found)} difference{'s' if len(found) != 1 else ''} in {turns} turns; the first:"]
    lines += [f"  {line}" for line in found[:MAX_LINES]]
    if len(found) > MAX_LINES:
        lines.append(f"  ... and {len(found) - MAX_LINES} more")
    return Check(False, tuple(lines), {"turns": turns, "differences": found,
                                       "first_turn": session.turn if first is None else first})


def _inputs(record: MatchRecord, turn: int, inputs: Mapping[str, TurnInput], seats: Collection[str],
            digests: Mapping[str, int], forgive: Collection[str], view: str | None) -> list[str]:
    """Each seat's input: a folder log's files (and its copy of the view), a log.jsonl record's digest of the
    input line."""
    found = []
    folder_log = isinstance(record.log, FolderLog)
    for seat in seats:
        given = inputs[seat]
        if folder_log:
            found += _files(record, turn, seat, given.files, forgive)
            found += _answer_file(record, turn, seat)
            found += _view_file(record, turn, seat, view)
        logged = digests.get(seat)
        if logged is not None and given.line is not None and logged != (sent := input_digest(given.line)):
            found.append(f"turn {turn}, seat {seat}, {RECORD_FILE} input: CRC-32 {logged} != {sent} (the replayed "
                         "input line differs)")
    return found


def _files(record: MatchRecord, turn: int, seat: str, files: Mapping[str, str], forgive: Collection[str]) -> list[str]:
    found = []
    for name, text in files.items():
        logged_name = record.logged_name(name)
        path = record.seat_file(turn, seat, logged_name)
        where = path.relative_to(record.path)
        logged = read_text(path)
        if logged is None:
            found.append(f"turn {turn}, seat {seat}, {where}: missing")
        elif difference := file_difference(logged_name, logged, text, forgive):
            found.append(f"turn {turn}, seat {seat}, {where}: {difference}")
    return found


def _view(record: MatchRecord, session: Session) -> str | None:
    """`Session.text_view()` where a folder log keeps a copy of it in each seat's folder."""
    log = record.log
    return session.text_view() if isinstance(log, FolderLog) and log.view else None


def _view_file(record: MatchRecord, turn: int, seat: str, view: str | None) -> list[str]:
    """A folder log's copy of `Session.text_view()` in each seat's folder, where the game keeps one."""
    if view is None:
        return []
    path = record.seat_file(turn, seat, record.log.view)  # type: ignore[union-attr]
    logged = read_text(path)
    difference = "missing" if logged is None else first_line_difference(logged, view)
    return [f"turn {turn}, seat {seat}, {path.relative_to(record.path)}: {difference}"] if difference else []


def _answer_file(record: MatchRecord, turn: int, seat: str) -> list[str]:
    """A folder log's answer file against the answer the record says the game was given (a blank one may be
    kept in the game's words, Tower Defence's "No Command")."""
    answer = record.turns_by_number[turn].answers.get(seat)
    log = record.log
    path = record.seat_file(turn, seat, log.answer)  # type: ignore[union-attr]
    logged = read_text(path)
    if answer is None or logged is None or logged == answer.text:
        return []
    if not answer.text and logged == log.blank_answer:  # type: ignore[union-attr]
        return []
    return [f"turn {turn}, seat {seat}, {path.relative_to(record.path)}: "
            f"{first_line_difference(logged, answer.text)} (the answer recorded in {RECORD_FILE})"]


def _report(record: MatchRecord, index: int, turn: RecordedTurn, report: TurnReport,
            forgive: Collection[str]) -> list[str]:
    """The game's part of the turn: its turn files (folder log) or its row (log.jsonl), and the core record's
    events and refusals."""
    found = []
    log = record.log
    if isinstance(log, FolderLog):
        for name, text in report.log_files.items():
            path = record.turn_folder(turn.turn) / name
            logged = read_text(path)
            if logged is None:
                found.append(f"turn {turn.turn}, {path.relative_to(record.path)}: missing")
            elif difference := file_difference(name, logged, text, forgive):
                found.append(f"turn {turn.turn}, {path.relative_to(record.path)}: {difference}")
    else:
        rows = record.rows
        row = rows[index] if index < len(rows) else None
        if row is None:
            found.append(f"turn {turn.turn}, {log.file_name}: no line {record.row_line(index)}")
        elif (row != (replayed_row := report.record) and not equal_but(row, replayed_row, record.forgives)
              and (difference := first_difference(row, replayed_row, forgive))):
            found.append(f"turn {turn.turn}, {log.file_name} line {record.row_line(index)}: {difference}")
    if turn.events is None:
        return found  # a log from outside keeps no events or refusals: its files or rows are all there is
    replayed = {"events": list(report.events), "rejected": {k: list(v) for k, v in report.rejected.items()}}
    logged = {"events": list(turn.events), "rejected": {k: list(v) for k, v in turn.rejected.items()}}
    if difference := first_difference(logged, replayed, forgive):
        found.append(f"turn {turn.turn}, {RECORD_FILE} line {turn.line}: {difference}")
    return found


def _ending(record: MatchRecord, session: Session, forgive: Collection[str]) -> list[str]:
    """After the last recorded turn: a folder log's final folder, and match.json's result (a log from outside
    has no match.json: whether it shows the match over is `record.ended`)."""
    outcome = session.outcome()
    ended = record.ended
    if ended is None and (record.match is None or record.match.get("end_reason") == "interrupted"):
        return []  # a log the core wrote, cut short: its turns are all there is to check
    if outcome is None:
        if ended is False:
            return [f"the log stops after turn {session.turn - 1} without a match's final files; the replay goes on"]
        return [f"{'the log' if ended else record.match_where}: the match ended, but the replay goes on after turn "
                f"{session.turn - 1}"]
    if ended is False:
        return [f"turn {session.turn}: the replayed match ends, but the log has no final files"]
    found = []
    if isinstance(record.log, FolderLog):
        view = _view(record, session)
        for seat, given in session.inputs().items():
            if seat in session.active_seats():
                found += _files(record, session.turn, seat, given.files, forgive)
                found += _view_file(record, session.turn, seat, view)
        final = record.turn_folder(session.turn)
        for name, text in session.final_files(record.names).items():
            logged = read_text(final / name)
            difference = "missing" if logged is None else file_difference(name, logged, text, forgive)
            if difference:
                found.append(f"turn {session.turn}, {(final / name).relative_to(record.path)}: {difference}")
    if record.match is None:
        return found
    replayed = {"end_reason": outcome.reason, "winner": outcome.winner,
                "ranking": [list(group) for group in outcome.ranking]}
    more = {"rounds": len(record.turns), **json.loads(json.dumps(outcome.details))}  # where the log says them
    replayed.update((key, value) for key, value in more.items() if key in record.match)
    logged = {key: record.match.get(key) for key in replayed}
    if difference := first_difference(logged, replayed):
        found.append(f"{record.match_where}: {difference}")
    return found
