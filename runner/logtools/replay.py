"""The terminal `replay` of any game's log: per turn the state's view (`Game.replay_view`, by default the lines of
`text_view()`), the turn's events, each seat's answer as sent with its ruling and fault, and with a seat named,
that bot's output. The view is the replay's own, so where the log was written by other rules (another engine,
an edited file) the replay says from which turn on, with the first difference `verify` would name."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import attrs

from runner.games.interface import FolderLog, Session, TurnReport
from runner.logtools.record import MatchRecord, RecordedTurn, open_record, read_text
from runner.logtools.compare import file_difference
from runner.matchlog.record import input_digest
from runner.replay.record import as_sent


@attrs.frozen
class Frame:
    view: list[Any]  # the state the turn was played from (the last frame: the final state)
    turn: RecordedTurn | None  # None for the final state
    report: TurnReport | None
    #: the end of the match after this frame: words of the outcome the replay reached (None: not over)
    end: str | None = None


@attrs.frozen
class RecordReplay:
    """A log replayed through its recorded answers, ready to show turn by turn."""

    record: MatchRecord
    frames: dict[int, Frame]
    #: the first turn whose replayed inputs differ from the log's, and that first difference (None: none)
    parted: tuple[int, str] | None = None

    @property
    def turns(self) -> tuple[int, ...]:
        return tuple(self.frames)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.record.seats

    def render(self, turn: int, seat: str | None = None) -> list[Any]:
        frame = self.frames[turn]
        word = getattr(self.record.game, "turn_word", "turn")
        lines: list[Any] = [f"{word} {turn}" + ("" if frame.turn else " (final state)")]
        if self.parted is not None and turn >= self.parted[0]:
            lines.append(f"warning: the replay differs from the log from {word} {self.parted[0]} on, so what is "
                         f"shown is the replay's ({self.parted[1]}; `td-runner verify` lists all)")
        lines += frame.view
        if frame.turn is None or frame.report is None:
            match = self.record.match or {}
            if match:
                lines.append(f"end: {match.get('end_reason')}, winner {match.get('winner') or 'none'}")
            else:  # a log without match.json: the outcome the replay reached, if any
                lines.append(frame.end or "the log stops here: the match was not over")
            return lines
        rejected = frame.report.rejected
        events = [event for event in frame.report.events if not any(event in why for why in rejected.values())]
        if events:  # an event that is a seat's refusal is shown with that seat's answer
            lines.append("events:")
            lines += [f"  {event}" for event in events]
        for who, answer in frame.turn.answers.items():
            ruling = "refused: " + "; ".join(rejected[who]) if rejected.get(who) else "accepted"
            lines.append(f"{who}: {as_sent(answer.text) if answer.text else '(nothing)'} -> {ruling}")
            if answer.fault is not None:
                lines.append(f"  fault: {answer.fault.value}" + (f" (bot {answer.detail})" if answer.detail else ""))
            elif answer.absent is not None:
                lines.append(f"  absent: {answer.absent.value}" + (f" (bot {answer.detail})" if answer.detail else ""))
        if seat is not None:
            lines.append(f"--- {seat} bot output ---")
            lines += self.record.bot_output(turn, seat).splitlines() or ["(none)"]
        return lines


def replay_log(game: Any, path: Any) -> RecordReplay:
    """Replay the log's answers once, keeping each turn's view and report, and noting the first turn whose
    inputs differ from the log's (compared as `verify` does, until the first difference)."""
    record = open_record(game, path)
    session = game.log_session(record)
    names = record.names
    forgive = frozenset(getattr(game, "log_forgives", ()))
    frames: dict[int, Frame] = {}
    parted: tuple[int, str] | None = None
    for turn in record.turns:
        if session.outcome() is not None or turn.turn != session.turn:
            break  # `verify` says why; the replay shows what can be shown
        if parted is None and (found := _difference(record, turn, session, forgive)):
            parted = (turn.turn, found)
        view = game.replay_view(session, names)
        answers = {seat: turn.answers[seat] for seat in session.active_seats() if seat in turn.answers}
        frames[turn.turn] = Frame(view, turn, session.play_turn(answers))
    outcome = session.outcome()
    end = None if outcome is None else f"end: {outcome.reason}, winner {outcome.winner or 'none'}"
    frames.setdefault(session.turn, Frame(game.replay_view(session, names), None, None, end))
    return RecordReplay(record, frames, parted)


def _difference(record: MatchRecord, turn: RecordedTurn, session: Session, forgive: Collection[str]) -> str | None:
    """Where the log first holds the turn's start otherwise than the replay: a log.jsonl record's digest of an
    input line; a folder log's copy of the view where it keeps one (one small text), else its input files
    (compared as `verify` compares them)."""
    log = record.log
    folder = isinstance(log, FolderLog)
    inputs = session.inputs() if turn.inputs or (folder and not log.view) else {}  # type: ignore[union-attr]
    view = {log.view: session.text_view()} if folder and log.view else {}  # type: ignore[union-attr]
    for seat in turn.answers:
        if (digest := turn.inputs.get(seat)) is not None and digest != input_digest(inputs[seat].line or ""):
            return f"seat {seat}: the CRC-32 of its input line"
        for name, text in (view or inputs[seat].files).items() if folder else ():
            path = record.seat_file(turn.turn, seat, name if view else record.logged_name(name))
            logged = read_text(path)
            if logged not in (None, text) and (found := file_difference(path.name, logged, text, forgive)):
                return f"{path.relative_to(record.path)}: {found}"
    return None
