"""The HTML replay every game gets without writing one (`GameDefaults.html_replay`): the core's record of the log
replayed through the game's own `Session`, shown with the common panels, timeline and charts and no board.

Why: a new game (the guide's worked example) used to have no HTML replay until it wrote an `html_record.py`;
the record (runner/logtools/record.py) already holds every answer, fault and refusal, and `standings()` gives
each seat's numbers turn by turn, so the core can show all of it. A game adds a board drawing by giving its
`BoardView` (`Game.board_view`): its html_board.js, what the drawing needs once, and a "frame of this turn"
function; the core plays the record and shows the rulings, numbers, bot output and the end (Warzone, Lanes,
Tower Defence). Invaders reads its own rows instead (a 100,000-turn match is written faster than it plays),
and hands its turns to assemble.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.games.interface import Answer, Session, TurnReport
from runner.logtools.record import MatchRecord, RecordedTurn, open_record
from runner.replay.assemble import record_of
from runner.replay.source import Replayed, SeatTurn, Turn

#: The page's words for the default replay's missing board (the viewer draws "no board drawing" in its place).
NO_BOARD = "the core's default replay: this game has no board drawing"


#: What a game's `BoardView.turn` returns: the turn's frame (or a function making it) and its notable things,
#: `(marker kind, text)` (faults, refusals and the end are the core's).
Shown = tuple[Any, Sequence[tuple[str, str]]]


@attrs.frozen
class BoardView:
    """A game's board in the core's replay. `board(record, session)`: what the drawing needs once, from the
    new session; `turn(record, session, recorded, play)`: the frame of one turn, where `play()` plays the
    recorded answers and gives the TurnReport (so the game takes the state before it, after it, or both);
    `script`: the game's html_board.js (runner/replay/record.py says what it sets)."""

    script: Path
    board: Callable[[MatchRecord, Session], Any]
    turn: Callable[[MatchRecord, Session, RecordedTurn, Callable[[], TurnReport]], Shown]
    #: the frame of the finished match's last state, shown as one more turn (None: the last turn played is
    #: the last shown)
    end: Callable[[Session], Any] | None = None
    step_word: str | None = None
    frame_bytes: int | None = None
    max_bytes: int | None = None


def end_mark(game: Any, session: Session, names: Mapping[str, str]) -> list[tuple[str, str]]:
    """The "end" marker of a finished session: who won (or a draw) and why, in the game's end-reason words."""
    outcome = session.outcome()
    if outcome is None:
        return []
    top = outcome.ranking[0] if outcome.ranking else ()
    head = f"{names.get(top[0], top[0])} won" if len(top) == 1 and not outcome.draw else "draw"
    words = dict(getattr(game, "end_reasons", {}) or {}).get(outcome.reason, outcome.reason)
    return [("end", f"{head}: {words}" if words else head)]


def ruling_of(answer: Answer | None, rejected: Sequence[str]) -> tuple[str, str]:
    """The record's word on one seat's answer (source.py's CONTENT_KINDS): a fault first (html.py names it from
    match.json's events, counted once), then nothing given (no answer file: never a refusal of its content),
    then a refusal for its content, else accepted."""
    if answer is None:
        return ("out", "")  # not an active seat this turn: never a fault of its own
    if answer.fault is not None:
        return ("fault", f"bot {answer.detail}" if answer.detail else answer.fault.value)
    if answer.absent is not None or not rejected and not answer.text.strip():  # (a game may refuse no file)
        return ("none", f"bot {answer.detail}" if answer.detail else (answer.absent.value if answer.absent else ""))
    if rejected:
        return ("invalid", "; ".join(rejected))
    return ("ok", "")


def _numbers(standings: Mapping[str, Mapping[str, Any]], seats: Sequence[str]) -> list[dict[str, Any]]:
    """Each seat's numeric standings (a value that is no number is not charted)."""
    return [{name: value for name, value in (standings.get(seat) or {}).items()
             if isinstance(value, (int, float)) and not isinstance(value, bool)} for seat in seats]


def _turn(record: MatchRecord, recorded: RecordedTurn, report: TurnReport, numbers: list[dict[str, Any]],
          shown: Shown) -> Turn:
    seats = []
    for seat in record.seats:
        answer = recorded.answers.get(seat)
        rejected = report.rejected.get(seat) or recorded.rejected.get(seat, ())  # the rules' word, as replayed
        seats.append(SeatTurn(ruling_of(answer, rejected), answer.text if answer is not None else "",
                              record.bot_output(recorded.turn, seat) if answer is not None else ""))
    return Turn(recorded.turn, seats, numbers, shown[0], list(shown[1]))


def default_html_replay(game: Any, path: Path, view: BoardView | None = None) -> tuple[dict[str, Any], str]:
    """The log's HTML record (before html.py adds match.json's faults and result) and the board's script (none
    without a `view`): its record (a log from outside too, through `open_foreign_log`) played through a new session.

    Each turn's numbers are `standings()` after the recorded answers were played, its refusals the rules'; a
    log whose answers stop fitting the rules (a changed file: `verify` names it) is shown up to that turn,
    and its note says so."""
    record = open_record(game, path)
    session = game.log_session(record)
    board = None if view is None else view.board(record, session)
    turns: list[Turn] = []
    stats: dict[str, None] = {}  # every seat's number names, in the order first met
    stopped = ""
    for recorded in record.turns:
        if session.outcome() is not None or recorded.turn != session.turn:
            stopped = (f"the log's answers stop fitting the rules at {game.turn_word} {recorded.turn}: "
                       "`td-runner verify` names the difference; the turns before it are shown")
            break
        played: list[TurnReport] = []

        def play(recorded: RecordedTurn = recorded) -> TurnReport:
            played.append(session.play_turn({seat: recorded.answers[seat] for seat in session.active_seats()
                                             if seat in recorded.answers}))
            return played[-1]

        shown = (None, ()) if view is None else view.turn(record, session, recorded, play)
        report = played[0] if played else play()
        numbers = _numbers(session.standings(), record.seats)
        for own in numbers:
            stats.update(dict.fromkeys(own))
        turns.append(_turn(record, recorded, report, numbers, shown))
    end = end_mark(game, session, record.names) if turns and not stopped else []
    if end and view is not None and view.end is not None:  # the board as the match ended
        numbers = _numbers(session.standings(), record.seats)
        turns.append(Turn(session.turn, [SeatTurn(("out", "the match is over"), "", "")] * len(record.seats),
                          numbers, view.end(session), []))
    if end:
        turns[-1].marks.extend(end)
    replayed = Replayed(game.name, game.title, record.seats, tuple(stats), turns, board,
                        turn_word=game.turn_word.capitalize(), names=record.names,
                        note="; ".join(filter(None, (NO_BOARD if view is None else "", stopped))),
                        result=end[0][1] if end else "",  # (html.py puts match.json's in its place)
                        step_word=view and view.step_word, frame_bytes=view and view.frame_bytes,
                        max_bytes=view and view.max_bytes)
    return record_of(Path(record.path), replayed), "" if view is None else view.script.read_text(encoding="utf-8")
