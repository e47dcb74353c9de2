"""The HTML replay every game gets without writing one (`GameDefaults.html_replay`): the core's record of the log
replayed through the game's own `Session`, shown with the common panels, timeline and charts and no board.

Why: a new game (the guide's worked example) used to have no HTML replay until it wrote an `html_record.py`;
the record (runner/logtools/record.py) already holds every answer, fault and refusal, and `standings()` gives
each seat's numbers turn by turn, so the core can show all of it. A game adds a board drawing by writing its
own `html_replay` (the four games do).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from runner.games.interface import Answer
from runner.logtools.record import MatchRecord, RecordedTurn, open_record
from runner.replay.assemble import record_of
from runner.replay.source import Replayed, SeatTurn, Turn

#: The page's words for the default replay's missing board (the viewer draws "no board drawing" in its place).
NO_BOARD = "the core's default replay: this game has no board drawing"


def ruling_of(answer: Answer | None, rejected: Sequence[str]) -> tuple[str, str]:
    """The record's word on one seat's answer (source.py's CONTENT_KINDS): a fault first (html.py names it from
    match.json's events, counted once), then a refusal for its content, then nothing given, else accepted."""
    if answer is None:
        return ("out", "")  # not an active seat this turn: never a fault of its own
    if answer.fault is not None:
        return ("fault", f"bot {answer.detail}" if answer.detail else answer.fault.value)
    if rejected:
        return ("invalid", "; ".join(rejected))
    if not answer.text.strip():
        return ("none", f"bot {answer.detail}" if answer.detail else (answer.absent.value if answer.absent else ""))
    return ("ok", "")


def _numbers(standings: Mapping[str, Mapping[str, Any]], seats: Sequence[str]) -> list[dict[str, Any]]:
    """Each seat's numeric standings (a value that is no number is not charted)."""
    return [{name: value for name, value in (standings.get(seat) or {}).items()
             if isinstance(value, (int, float)) and not isinstance(value, bool)} for seat in seats]


def _turn(record: MatchRecord, recorded: RecordedTurn, numbers: list[dict[str, Any]]) -> Turn:
    seats = []
    for seat in record.seats:
        answer = recorded.answers.get(seat)
        seats.append(SeatTurn(ruling_of(answer, recorded.rejected.get(seat, ())),
                              answer.text if answer is not None else "",
                              record.bot_output(recorded.turn, seat) if answer is not None else ""))
    return Turn(recorded.turn, seats, numbers, None)


def default_html_replay(game: Any, path: Path) -> tuple[dict[str, Any], str]:
    """The log's HTML record (before html.py adds match.json's faults and result) and no board script.

    Each turn's numbers are `standings()` after the recorded answers were played; a log whose answers stop
    fitting the rules (a changed file: `verify` names it) is shown up to that turn, and its note says so."""
    record = open_record(game, path)
    session = game.log_session(record)
    turns: list[Turn] = []
    stats: dict[str, None] = {}  # every seat's number names, in the order first met
    stopped = ""
    for recorded in record.turns:
        if session.outcome() is not None or recorded.turn != session.turn:
            stopped = (f"the log's answers stop fitting the rules at {game.turn_word} {recorded.turn}: "
                       "`td-runner verify` names the difference; the turns before it are shown")
            break
        session.play_turn({seat: recorded.answers[seat] for seat in session.active_seats()
                           if seat in recorded.answers})
        numbers = _numbers(session.standings(), record.seats)
        for own in numbers:
            stats.update(dict.fromkeys(own))
        turns.append(_turn(record, recorded, numbers))
    replayed = Replayed(game.name, game.title, record.seats, tuple(stats), turns, None,
                        turn_word=game.turn_word.capitalize(), names=record.names,
                        note="; ".join(filter(None, (NO_BOARD, stopped))))
    return record_of(Path(path), replayed), ""
