"""The bot output of a log.jsonl game: one `bot-output/<seat>.txt` per seat for the whole match.

A folder log keeps each turn's output in that turn's folder (`BotOutput.txt`); a game of tens of thousands
of turns has no turn folders, so its bots' stderr, their stdout lines that were not answers, and the runner's
own `[td-runner]` lines about them are gathered here, turn by turn. It is kept in memory and written when the
match ends, however it ends (the last turn, Ctrl-C, a runner error): nothing of it is on a turn's path.

Capped like a turn's BotOutput.txt: the first `cap` bytes are kept, then only the last `tail` bytes, so a
chatty bot that later crashes still leaves its last words; the bytes between are counted in a `[td-runner]`
line.
"""

from __future__ import annotations

import re
from pathlib import Path

from runner.bots.outcome import TurnOutcome, format_size

TAIL_BYTES = 64 * 1024


def utf8_size(text: str) -> int:
    """The bytes `text` takes in the file (UTF-8): the cap is in bytes, as a turn's BotOutput.txt's is."""
    return len(text) if text.isascii() else len(text.encode("utf-8", errors="surrogatepass"))


class SeatOutput:
    """One seat's output: the head up to the cap, then a rolling tail (sizes in UTF-8 bytes)."""

    def __init__(self, cap: int, tail: int = TAIL_BYTES) -> None:
        self.cap = cap
        self.tail_cap = tail
        self.head: list[str] = []
        self.head_size = 0
        self.tail: list[tuple[str, int]] = []  # (text, its size)
        self.tail_size = 0
        self.dropped = 0  # bytes neither in the head nor in the tail

    def add(self, text: str) -> None:
        size = utf8_size(text)
        if self.head_size + size <= self.cap and not self.tail:
            self.head.append(text)
            self.head_size += size
            return
        self.tail.append((text, size))
        self.tail_size += size
        while self.tail_size > self.tail_cap and len(self.tail) > 1:
            _, gone = self.tail.pop(0)
            self.tail_size -= gone
            self.dropped += gone

    def text(self) -> str:
        tail = "".join(text for text, _ in self.tail)
        if not self.dropped:
            return "".join(self.head) + tail
        note = f"[td-runner] bot output truncated: {format_size(self.dropped)} dropped here\n"
        return "".join(self.head) + note + tail


class BotOutputLog:
    """Every seat's output of a match, written as `<folder>/<seat>.txt` by `write`."""

    def __init__(self, seats: tuple[str, ...], cap: int) -> None:
        self.seats = {seat: SeatOutput(cap) for seat in seats}

    def add_turn(self, turn: int, seat: str, outcome: TurnOutcome) -> None:
        """One turn's output of one seat; a turn with no output and no runner note adds nothing."""
        if not outcome.output and not outcome.events:
            return
        output = outcome.output
        if output and not output.endswith("\n"):
            output += "\n"
        notes = "".join(f"[td-runner] {event}\n" for event in outcome.events)
        self.seats[seat].add(f"[td-runner] turn {turn}\n{output}{notes}")

    def files(self) -> dict[str, str]:
        """seat file name -> text, for every seat (an empty file says the bot wrote nothing)."""
        return {f"{seat}.txt": output.text() for seat, output in self.seats.items()}


def output_path(folder: Path, output_folder: str, seat: str) -> Path:
    """Where `BotOutputLog` puts a seat's output in a match folder."""
    return folder / output_folder / f"{seat}.txt"


_TURN_LINE = re.compile(r"^\[td-runner\] turn (\d+)$", re.M)


def read_turns(path: Path) -> dict[int, str]:
    """A seat's `bot-output/<seat>.txt` split back into turns: turn -> what `add_turn` wrote for it (replays
    show it beside the turn); {} when the file is missing or unreadable. Text before the first turn line (a
    truncation note) is left out; a bot that prints a turn line itself only misplaces its own output."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    marks = list(_TURN_LINE.finditer(text))
    turns: dict[int, str] = {}
    for mark, following in zip(marks, [*marks[1:], None]):
        end = following.start() if following else len(text)
        turn = int(mark.group(1))
        turns[turn] = turns.get(turn, "") + text[mark.end() + 1:end]
    return turns
