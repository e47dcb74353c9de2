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

from pathlib import Path

from runner.bots.outcome import TurnOutcome, format_size

TAIL_BYTES = 64 * 1024


class SeatOutput:
    """One seat's output: the head up to the cap, then a rolling tail."""

    def __init__(self, cap: int, tail: int = TAIL_BYTES) -> None:
        self.cap = cap
        self.tail_cap = tail
        self.head: list[str] = []
        self.head_size = 0
        self.tail: list[str] = []
        self.tail_size = 0
        self.dropped = 0  # characters neither in the head nor in the tail

    def add(self, text: str) -> None:
        if self.head_size + len(text) <= self.cap and not self.tail:
            self.head.append(text)
            self.head_size += len(text)
            return
        self.tail.append(text)
        self.tail_size += len(text)
        while self.tail_size > self.tail_cap and len(self.tail) > 1:
            gone = self.tail.pop(0)
            self.tail_size -= len(gone)
            self.dropped += len(gone)

    def text(self) -> str:
        if not self.dropped:
            return "".join(self.head) + "".join(self.tail)
        note = f"[td-runner] bot output truncated: {format_size(self.dropped)} dropped here\n"
        return "".join(self.head) + note + "".join(self.tail)


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
