"""The terminal `replay` of any game's core-written log: per turn the state's `text_view()`, the turn's events,
each seat's answer as sent with its ruling and fault, and with a seat named, that bot's output."""

from __future__ import annotations

from typing import Any

import attrs

from runner.games.interface import TurnReport
from runner.logtools.record import MatchRecord, RecordedTurn, open_record
from runner.replay.record import as_sent


@attrs.frozen
class Frame:
    view: str  # the state the turn was played from (the last frame: the final state)
    turn: RecordedTurn | None  # None for the final state
    report: TurnReport | None


@attrs.frozen
class RecordReplay:
    """A log replayed through its recorded answers, ready to show turn by turn."""

    record: MatchRecord
    frames: dict[int, Frame]

    @property
    def turns(self) -> tuple[int, ...]:
        return tuple(self.frames)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.record.seats

    def render(self, turn: int, seat: str | None = None) -> list[Any]:
        frame = self.frames[turn]
        word = getattr(self.record.game, "turn_word", "turn")
        lines: list[Any] = [f"{word} {turn}" + ("" if frame.turn else " (final state)"), *frame.view.splitlines()]
        if frame.turn is None or frame.report is None:
            match = self.record.match or {}
            if match:
                lines.append(f"end: {match.get('end_reason')}, winner {match.get('winner') or 'none'}")
            return lines
        if frame.report.events:
            lines.append("events:")
            lines += [f"  {event}" for event in frame.report.events]
        for who, answer in frame.turn.answers.items():
            rejected = frame.report.rejected.get(who, ())
            ruling = "refused: " + "; ".join(rejected) if rejected else "accepted"
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
    """Replay the log's answers once, keeping each turn's view and report."""
    record = open_record(game, path)
    session = game.log_session(record)
    frames: dict[int, Frame] = {}
    for turn in record.turns:
        if session.outcome() is not None or turn.turn != session.turn:
            break  # `verify` says why; the replay shows what can be shown
        view = session.text_view()
        report = session.play_turn({seat: turn.answers[seat] for seat in session.active_seats()
                                    if seat in turn.answers})
        frames[turn.turn] = Frame(view, turn, report)
    frames.setdefault(session.turn, Frame(session.text_view(), None, None))
    return RecordReplay(record, frames)
