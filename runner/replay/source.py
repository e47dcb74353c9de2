"""The one small shape in which a game hands its log to the HTML replay: turn by turn, seat by seat.

The core's replay of a record (default.py) and a game that reads its own log (Invaders' rows, for speed) hand
it over as a `Replayed` (the seats, the names of its numbers, the board the drawing needs once, and an
iterable of `Turn`s) and nothing more: the core (`assemble.py`) adds the
players' names, the commands and the bot output the log keeps in its usual places, the fault badges from
match.json's events (the core's words and counts), the markers of every refused answer and fault, the result
line, and the thinning of long matches. Why: the four games used to re-type that plumbing, each a little
differently (issue 33).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from runner.games.interface import FolderLog, JsonlLog

#: A game's word on an answer's content: accepted; nothing to do or given; refused (the text says why, "line
#: 7: ..." naming the command's line); the seat no longer plays (eliminated, the match over, the other side
#: disqualified: never a fault of this seat's); the log shows a fault of the core's (a time-out, a crash: the
#: core names it from match.json, the game only says the answer was not read).
CONTENT_KINDS = ("ok", "none", "invalid", "out", "fault")


@attrs.frozen
class SeatTurn:
    """One seat's answer in a turn and the game's ruling on it (equal ones may be one object, shared by many
    turns: a 100,000-turn match repeats a few).

    `command`: the answer as the log keeps it, None to let the core read it from a FolderLog's answer file
    ("" when there is none); `output`: the bot's output, None to let the core read it from the log (a
    FolderLog turn's output file, a JsonlLog's `bot-output/<seat>.txt`)."""

    ruling: tuple[str, str] = ("ok", "")
    command: str | None = None
    output: str | None = None


@attrs.frozen
class Turn:
    """One turn shown: its number, each seat's answer (in `Replayed.seats` order), each seat's own numbers
    (stat name -> value; a stat that is not the seat's is left out, and its panel does not show it), the
    board's frame (or a function making it, called only if the frame is kept: see RecordBuilder), and the
    game's own notable things, `(marker kind, text)` (a tower destroyed, a breach, the end; faults and
    refusals are the core's)."""

    number: int
    seats: Sequence[SeatTurn]
    numbers: Sequence[Mapping[str, Any]]
    frame: Any
    marks: Sequence[tuple[str, str]] = ()
    frame_size: int | None = None


#: A value given now, or a function giving it once every turn is read (Tower Defence learns its board's size
#: from the states it reads).
Late = Any | Callable[[], Any]


@attrs.frozen
class Replayed:
    """A game's log as the replay needs it. `names`: each seat's name when the log has no match.json;
    `result`: the result line when it has none; `log`: where the core finds the commands and bot output;
    `frame_bytes`: the boards' budget (RecordBuilder)."""

    game: str
    title: str
    seats: Sequence[str]
    stats: Sequence[str]
    turns: Iterable[Turn]
    board: Late
    turn_word: str = "Turn"
    names: Mapping[str, str] = attrs.field(factory=dict)
    result: Late = ""
    note: Late = ""
    max_bytes: int | None = None
    frame_bytes: int | None = None
    step_word: str | None = None
    log: FolderLog | JsonlLog | None = None  # None: the registered game's `Game.log`


def late(value: Late) -> Any:
    """A `Late` value's value."""
    return value() if callable(value) else value
