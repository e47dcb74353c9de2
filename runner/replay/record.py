"""The compact record an HTML replay embeds, and the builder that makes it.

A game's `html_replay(path)` hook returns `(record, board_js)`; a game makes the record by handing its log to
the core in one small shape (source.py, assemble.py), which fills a RecordBuilder. The record is plain JSON
data, one entry per turn shown, kept column-wise so that a 100,000-turn match stays small (and its columns
packed in the page: pack.py):

    {"format": 1, "game": "invaders", "title": "Invaders", "turn_word": "Turn",
     "seats": [{"seat": "defender", "name": "defender - Bot"}, ...],
     "turns": [1, 2, ...],                      # the turn number of each turn shown, ascending
     "stats": [{"name": "life", "values": [[...per turn...] per seat]}, ...],  # None: not that seat's number
     "commands": [[...per turn...] per seat],   # the command (answer) the seat gave at that turn ("" none)
     "rulings": [[[kind, text] per turn] per seat],  # the runner's ruling on it, kind in RULING_KINDS (equal
                                                     # rulings may be one list: replace one, never change it)
     "outputs": [[...per turn...] per seat],    # the bot's output that turn (clipped; "" none)
     "markers": [[turn, kind, text], ...],      # notable turns for the scrub bar, kind in MARKER_KINDS
     "board": {...},                            # whatever the game's board JavaScript needs once
     "frames": [...per board frame...],         # whatever it needs to draw a turn (self-contained: no
                                                # deltas, so any frame can be dropped when thinning)
     "frame_index": [0, 16, 32, ...],           # optional: the index in `turns` of each frame (ascending,
                                                # the first 0); absent, frames[i] is turns[i]'s
     "result": "...", "note": "...", "max_bytes": N,
     "step_word": "Timestep"}                   # optional: frames have sub-steps (below)

Every turn has its numbers, commands, rulings and outputs (the viewer shows a seat only the numbers it has,
and charts each from 0 with its axis values and a key of the seats drawn); a long match (Invaders: 100,000 turns) keeps a
board frame for only some of them (`frame_index`, see RecordBuilder's `frame_bytes`): a turn without one
shows the board of the last turn before it that has one, and says so.

The board JavaScript (the game's `html_board.js`) draws the board's coordinates as the commands name them
(the page's tests read what it wrote with `ReplayViewer.boardText()`) and sets `window.ReplayBoard = {aspect(record), draw(ctx,
width, height, record, index, colors, step), describe(record, index, step), steps(record, index)}`, where
`index` is a frame's (`record.frames[index]`); `describe` and `steps` are optional. A game whose turns
have an inside worth watching (Lanes' 100 timesteps) gives `steps`: frame `index` then has sub-steps
0..steps(record, index) (0: none), which the viewer plays, steps through and names with `step_word`; `step`
is the sub-step to draw, the last one (the frame's end) unless the user picks another (a turn shown with
another turn's board gets no sub-steps and `step` undefined). The sub-steps' data lives in the game's own
frame, so thinning keeps or drops a frame with all of its sub-steps.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

FORMAT = 1

#: What the runner made of a seat's answer: accepted; nothing given; refused (and why); no answer in time;
#: the bot crashed; the seat no longer plays (eliminated, or the match is over).
RULING_KINDS = ("ok", "none", "invalid", "timeout", "crash", "out")

#: Notable turns, drawn on the scrub bar (colours in viewer.css).
MARKER_KINDS = (
    "destroyed", "curtain", "conquest", "elimination", "breach", "timeout", "crash", "invalid", "end",
)

#: A bot's output is clipped to this many characters per turn (the log keeps all of it).
OUTPUT_CHARS = 2000
#: A command is clipped to this many characters per turn.
COMMAND_CHARS = 600


def clip(text: str | None, limit: int = OUTPUT_CHARS) -> str:
    """`text` at most `limit` characters, saying how much was cut; None becomes ""."""
    if not text:
        return ""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n... ({len(text) - limit} more characters in the log)"


#: An answer as sent is shown on one line of at most this many characters (terminal replays).
SENT_CHARS = 200


def as_sent(text: str, limit: int = SENT_CHARS) -> str:
    """An answer as the bot sent it, on one line for a terminal replay: its lines joined by " | ", clipped."""
    line = " | ".join(part for part in text.splitlines() if part.strip()) or repr(text)
    return line if len(line) <= limit else f"{line[:limit]}... ({len(line) - limit} more characters)"


class RecordBuilder:
    """Collects frames one by one and gives the record; games call `add` once per turn shown.

    `frame_bytes`: keep board frames of at most about this many bytes of JSON in all. Every turn keeps its
    numbers, commands and rulings; the boards are kept for every `stride`-th turn, the stride doubling (and
    every other kept board dropped) each time the boards outgrow the budget, so a game of any length ends
    with between half the budget and all of it. A frame given as a function is only made when it is kept
    (Invaders: reading a 100,000-turn log's boards costs more than the rest of the replay). The first turn,
    the last one and (while they take at most a quarter of the budget) the marked ones keep their boards."""

    def __init__(self, game: str, title: str, seats: Sequence[tuple[str, str]], stats: Sequence[str],
                 turn_word: str = "Turn", frame_bytes: int | None = None) -> None:
        self.game, self.title, self.turn_word = game, title, turn_word
        self.seats = [{"seat": seat, "name": name} for seat, name in seats]
        self.stat_names = list(stats)
        self.turns: list[int] = []
        # per turn, as given: each seat's numbers, and each seat's (command, ruling, output) as shown; turned
        # into columns by `build` (one pass in C over 100,000 turns, not a dozen appends a turn)
        self._numbers: list[Sequence[Mapping[str, Any]]] = []
        self._answers: list[Sequence[tuple[str, list[str], str]]] = []
        self._last: tuple[tuple[Any, Any, Any], Any] | None = None  # the last answers given, and as shown
        self.frames: list[Any] = []
        self.frame_index: list[int] = []  # the turn index of each kept frame
        self.markers: list[list[Any]] = []
        self.frame_bytes = frame_bytes
        self.stride = 1
        self._sizes: list[int] = []  # JSON bytes of each kept frame (with frame_bytes)
        self._total = 0  # their sum
        self._pinned: dict[int, int] = {}  # turn index -> bytes of a marked turn's frame, kept whatever the stride
        self._latest: tuple[int, Any, int | None] | None = None  # the last turn's (index, frame, size), not kept
        self._shared: dict[tuple[str, str], list[str]] = {}

    def add(self, turn: int, numbers: Sequence[Mapping[str, Any]], commands: Sequence[str | None],
            rulings: Sequence[tuple[str, str]], outputs: Sequence[str | None], frame: Any,
            frame_size: int | None = None) -> None:
        """One turn: `numbers[p]` is seat p's numbers (stat name -> value, its own stats only); commands,
        rulings, outputs per seat; `frame` the board's data, or a function of no arguments that makes it.
        `frame_size`: about the frame's JSON bytes, when the caller knows them without making it (a kept frame
        is then made only by `build`). Answers equal to the last turn's are shown as they were (a long match
        repeats its answers)."""
        index = len(self.turns)
        self.turns.append(turn)
        self._numbers.append(numbers)
        last = self._last
        if last is None or not (commands == last[0][0] and rulings == last[0][1] and outputs == last[0][2]):
            shown = tuple(self._shown(command, ruling, output)
                          for command, ruling, output in zip(commands, rulings, outputs))
            last = self._last = ((commands, rulings, outputs), shown)
        self._answers.append(last[1])
        if self.frame_bytes is None or index % self.stride == 0:
            self._keep(index, frame, frame_size)
            self._latest = None
        else:
            self._latest = (index, frame, frame_size)

    def _shown(self, command: str | None, ruling: tuple[str, str], output: str | None) -> tuple[str, list[str], str]:
        found = self._shared.get(tuple(ruling))  # one list per distinct ruling: replaced, never changed in place
        if found is None:
            found = self._shared[tuple(ruling)] = list(ruling)
        return (command if command and len(command) <= COMMAND_CHARS else clip(command, COMMAND_CHARS), found,
                clip(output) if output else "")

    def mark(self, turn: int, kind: str, text: str) -> None:
        """A notable turn for the scrub bar; marking the turn just added keeps its board."""
        self.markers.append([turn, kind, text])
        if self._latest is not None and self.turns and turn == self.turns[-1] and self.frame_bytes is not None:
            if sum(self._pinned.values()) < self.frame_bytes // 4:
                index = self._latest[0]
                self._pinned[index] = self._keep(*self._latest)
                self._latest = None

    def _keep(self, index: int, frame: Any, size: int | None = None) -> int:
        """Keep turn `index`'s frame; its JSON size (0 without a budget)."""
        if self.frame_bytes is None or size is None:
            frame = frame() if callable(frame) else frame
        self.frames.append(frame)
        self.frame_index.append(index)
        if self.frame_bytes is None:
            return 0
        if size is None:
            size = len(json.dumps(frame, separators=(",", ":"), ensure_ascii=False))
        self._sizes.append(size)
        self._total += size
        if self._total > self.frame_bytes:
            self._halve()
        return size

    def _halve(self) -> None:
        """Double the stride until the kept frames fit the budget (pinned ones stay)."""
        while self._total > self.frame_bytes and self.stride < max(1, len(self.turns)):
            self.stride *= 2
            kept = [k for k, index in enumerate(self.frame_index)
                    if index % self.stride == 0 or index in self._pinned]
            self.frames = [self.frames[k] for k in kept]
            self.frame_index = [self.frame_index[k] for k in kept]
            self._sizes = [self._sizes[k] for k in kept]
            self._total = sum(self._sizes)

    def build(self, board: Any, result: str = "", note: str = "", max_bytes: int | None = None,
              step_word: str | None = None) -> dict[str, Any]:
        if self._latest is not None:  # the last turn's board is always shown
            self.frames.append(self._latest[1])
            self.frame_index.append(self._latest[0])
            self._latest = None
        self.frames = [frame() if callable(frame) else frame for frame in self.frames]
        seats = range(len(self.seats))
        stats = [{"name": name, "values": [[own[p].get(name) for own in self._numbers] for p in seats]}
                 for name in self.stat_names]
        commands, rulings, outputs = ([[answers[p][k] for answers in self._answers] for p in seats] for k in range(3))
        record = {
            "format": FORMAT, "game": self.game, "title": self.title, "turn_word": self.turn_word,
            "seats": self.seats, "turns": self.turns, "stats": stats,
            "commands": commands, "rulings": rulings, "outputs": outputs,
            "markers": self.markers, "board": board, "frames": self.frames, "result": result, "note": note,
        }
        if len(self.frames) < len(self.turns):
            record["frame_index"] = self.frame_index
        if max_bytes is not None:
            record["max_bytes"] = max_bytes
        if step_word is not None:
            record["step_word"] = step_word
        return record


#: The per-turn lists of a record (besides `turns` and the stats): what thinning turns shortens.
PER_FRAME = ("commands", "rulings", "outputs")


def frames_of(record: dict[str, Any]) -> list[int]:
    """The turn index of each of the record's frames."""
    index = record.get("frame_index")
    return list(range(len(record["turns"]))) if index is None else list(index)


def thin(record: dict[str, Any], keep: Sequence[int]) -> dict[str, Any]:
    """The record with only the turns at indexes `keep` (ascending, the first 0) and the frames of those
    turns; markers keep their turn numbers."""
    out = dict(record)
    out["turns"] = [record["turns"][i] for i in keep]
    out["stats"] = [{**stat, "values": [[seat[i] for i in keep] for seat in stat["values"]]}
                    for stat in record["stats"]]
    for key in PER_FRAME:
        out[key] = [[seat[i] for i in keep] for seat in record[key]]
    position = {turn_index: new for new, turn_index in enumerate(keep)}
    kept = [(position[i], frame) for i, frame in zip(frames_of(record), record["frames"]) if i in position]
    return _with_frames(out, kept)


def thin_frames(record: dict[str, Any], keep: Sequence[int]) -> dict[str, Any]:
    """The record with only the frames at positions `keep` (ascending, the first 0); every turn stays."""
    index = frames_of(record)
    return _with_frames(dict(record), [(index[k], record["frames"][k]) for k in keep])


def _with_frames(record: dict[str, Any], frames: Sequence[tuple[int, Any]]) -> dict[str, Any]:
    record["frames"] = [frame for _, frame in frames]
    record.pop("frame_index", None)
    if len(frames) < len(record["turns"]):
        record["frame_index"] = [index for index, _ in frames]
    return record
