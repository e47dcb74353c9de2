"""The compact record an HTML replay embeds, and the helpers games use to build it.

A game's `html_replay(path)` hook returns `(record, board_js)`. The record is plain JSON data, one entry per
*frame* (a turn shown), kept column-wise so that a 20,000-turn match stays small:

    {"format": 1, "game": "invaders", "title": "Invaders", "turn_word": "Turn",
     "seats": [{"seat": "defender", "name": "defender - Bot"}, ...],
     "turns": [1, 2, ...],                      # the turn number of each frame, ascending
     "stats": [{"name": "life", "values": [[...per frame...] per seat]}, ...],
     "commands": [[...per frame...] per seat],  # the command (answer) the seat gave at that turn ("" none)
     "rulings": [[[kind, text] per frame] per seat],  # the runner's ruling on it, kind in RULING_KINDS
     "outputs": [[...per frame...] per seat],   # the bot's output that turn (clipped; "" none)
     "markers": [[turn, kind, text], ...],      # notable turns for the scrub bar, kind in MARKER_KINDS
     "board": {...},                            # whatever the game's board JavaScript needs once
     "frames": [...per frame...],               # whatever it needs per frame (self-contained: no deltas,
                                                # so any frame can be dropped when the record is thinned)
     "result": "...", "note": "...", "max_bytes": N,
     "step_word": "Timestep"}                   # optional: frames have sub-steps (below)

The board JavaScript (the game's `html_board.js`) sets `window.ReplayBoard = {aspect(record), draw(ctx,
width, height, record, index, colors, step), describe(record, index, step), steps(record, index)}`;
`describe` and `steps` are optional. A game whose turns have an inside worth watching (Lanes' 100
timesteps) gives `steps`: frame `index` then has sub-steps 0..steps(record, index) (0: none), which the
viewer plays, steps through and names with `step_word`; `step` is the sub-step to draw, the last one (the
frame's end) unless the user picks another. The sub-steps' data lives in the game's own frame, so
thinning keeps or drops a frame with all of its sub-steps.
"""

from __future__ import annotations

from collections.abc import Sequence
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


class RecordBuilder:
    """Collects frames one by one and gives the record; games call `add` once per turn shown."""

    def __init__(self, game: str, title: str, seats: Sequence[tuple[str, str]], stats: Sequence[str],
                 turn_word: str = "Turn") -> None:
        self.game, self.title, self.turn_word = game, title, turn_word
        self.seats = [{"seat": seat, "name": name} for seat, name in seats]
        self.stat_names = list(stats)
        self.turns: list[int] = []
        self.stats: list[list[list[Any]]] = [[[] for _ in self.seats] for _ in self.stat_names]
        self.commands: list[list[str]] = [[] for _ in self.seats]
        self.rulings: list[list[list[str]]] = [[] for _ in self.seats]
        self.outputs: list[list[str]] = [[] for _ in self.seats]
        self.frames: list[Any] = []
        self.markers: list[list[Any]] = []

    def add(self, turn: int, stats: Sequence[Sequence[Any]], commands: Sequence[str | None],
            rulings: Sequence[tuple[str, str]], outputs: Sequence[str | None], frame: Any) -> None:
        """One frame: `stats[s][p]` is stat s of seat p; commands, rulings, outputs per seat."""
        self.turns.append(turn)
        for s, values in enumerate(stats):
            for p, value in enumerate(values):
                self.stats[s][p].append(value)
        for p in range(len(self.seats)):
            self.commands[p].append(clip(commands[p], COMMAND_CHARS))
            kind, text = rulings[p]
            self.rulings[p].append([kind, text])
            self.outputs[p].append(clip(outputs[p]))
        self.frames.append(frame)

    def mark(self, turn: int, kind: str, text: str) -> None:
        self.markers.append([turn, kind, text])

    def build(self, board: Any, result: str = "", note: str = "", max_bytes: int | None = None,
              step_word: str | None = None) -> dict[str, Any]:
        record = {
            "format": FORMAT, "game": self.game, "title": self.title, "turn_word": self.turn_word,
            "seats": self.seats, "turns": self.turns,
            "stats": [{"name": name, "values": values} for name, values in zip(self.stat_names, self.stats)],
            "commands": self.commands, "rulings": self.rulings, "outputs": self.outputs,
            "markers": self.markers, "board": board, "frames": self.frames, "result": result, "note": note,
        }
        if max_bytes is not None:
            record["max_bytes"] = max_bytes
        if step_word is not None:
            record["step_word"] = step_word
        return record


#: The per-frame lists of a record: what thinning shortens.
PER_FRAME = ("commands", "rulings", "outputs")


def thin(record: dict[str, Any], keep: Sequence[int]) -> dict[str, Any]:
    """The record with only the frames at indexes `keep` (ascending); markers keep their turn numbers."""
    out = dict(record)
    out["turns"] = [record["turns"][i] for i in keep]
    out["frames"] = [record["frames"][i] for i in keep]
    out["stats"] = [{**stat, "values": [[seat[i] for i in keep] for seat in stat["values"]]}
                    for stat in record["stats"]]
    for key in PER_FRAME:
        out[key] = [[seat[i] for i in keep] for seat in record[key]]
    return out
