"""The core's frames: how a persistent bot of any game that offers them (`Game.persistent_frames`) is asked.

A game that speaks files (the bot reads its input files, writes one answer file) gets persistent bots for
free: the runner sends each turn's input files on the bot's stdin and reads the answer file's bytes from its
stdout, each one length-prefixed, so that the bytes are exactly those a per-turn bot would find and write
and every rule on the answer (its size cap, its lines, UTF-8, "no file") reads them the same way.

Request, runner -> bot, once per turn:

    turn <N> <F>\\n                 N: the turn (as the game numbers it), F: how many files follow
    <name> <size>\\n<size bytes>    F times: a file's name (no spaces) and its UTF-8 bytes, nothing after them

Answer, bot -> runner:

    answer <N> <size>\\n<size bytes>    the answer file's content for turn N, exactly <size> bytes
    answer <N> none\\n                  no answer file this turn (as a per-turn bot that writes none)

Every other stdout line is the bot's output (BotOutput.txt), as is stderr. A frame for an earlier turn (the
late answer to a turn that timed out) is read whole and dropped. Only the first `cap + 1` bytes of an answer
are kept, as a per-turn bot's answer file is read; the rest is read and thrown away, so the next frame is
found whatever the size. Pure: bytes in, records out; `runner/bots/persistent.py` does the I/O.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping

import attrs

from runner.bots.command_file import answer_text, is_java_blank
from runner.games.interface import Absent

#: a longer stdout "line" outside a frame is cut into output: no bot may grow the runner's memory without bound
LINE_CAP = 1 << 20
_MAX_DIGITS = 18  # a turn or size of more digits is no header (int() of thousands of digits raises)


def encode_request(turn: int, files: Mapping[str, str]) -> bytes:
    """The request frame of one turn: its header, then each file's name, size and bytes in the given order."""
    parts = [b"turn %d %d\n" % (turn, len(files))]
    for name, text in files.items():
        data = text.encode("utf-8")
        parts.append(b"%s %d\n" % (name.encode("utf-8"), len(data)))
        parts.append(data)
    return b"".join(parts)


def frame_name_problem(name: str) -> str | None:
    """Why a game's input file name cannot be sent in a frame (a bot splits the header at spaces), or None."""
    if not name or any(character.isspace() for character in name):
        return f"file name {name!r} is empty or has white space"
    return None


#: built once per answer: a mutable attrs record (see TurnOutcome)
@attrs.define
class Frame:
    """One answer frame read whole: the turn it names, the answer's text as the game gets it, the notes on
    reading it (cut at the cap, not UTF-8) and `absent` for `answer <N> none`."""

    turn: int
    text: str
    notes: tuple[str, ...] = ()
    absent: Absent | None = None


class FrameReader:
    """Splits a persistent bot's stdout into output lines, notes and answer frames, across reads and turns.

    `next()` gives one item at a time: bytes (output: whole lines, newlines included) or a `Frame`; None when
    it needs more bytes. `notes` collects what the bot's author should be told (a line that starts like a
    header but is none); the caller empties it.
    """

    def __init__(self, name: str, cap: int, every_line: bool) -> None:
        self.name = name  # the answer file's name, for the notes ("commands.txt larger than 64 KiB ...")
        self.cap = cap
        self.every_line = every_line
        self.buffer = bytearray()
        self.turn = -1  # the turn of the frame being read (while `left` > 0 or a body of size 0 is due)
        self.size = 0
        self.left = -1  # bytes of the current body still to come; -1: between frames
        self.body = bytearray()  # the first cap + 1 bytes of the body
        self.rest_blank = True  # whether the body's bytes past cap + 1 are Java whitespace (first-line games)
        self.rest_decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.notes: list[str] = []

    def feed(self, data: bytes) -> None:
        self.buffer += data

    def next(self) -> bytes | Frame | None:
        if self.left >= 0:
            return self._body()
        buffer = self.buffer
        header = buffer.find(b"answer")
        # the whole lines before the first that may be a header are output, in one piece (a flood of lines
        # costs one slice a read, not Python work per line)
        lines_end = buffer.rfind(b"\n", 0, header) + 1 if header >= 0 else buffer.rfind(b"\n") + 1
        if lines_end:
            output = bytes(buffer[:lines_end])
            del buffer[:lines_end]
            return output
        end = buffer.find(b"\n")
        if end < 0:
            if len(buffer) <= LINE_CAP:
                return None
            line = bytes(buffer)
            buffer.clear()
            return line
        line = bytes(buffer[: end + 1])
        del buffer[: end + 1]
        parts = line.split()
        if not parts or parts[0] != b"answer":
            return line
        if (len(parts) == 3 and parts[1].isdigit() and len(parts[1]) <= _MAX_DIGITS
                and (parts[2] == b"none" or parts[2].isdigit() and len(parts[2]) <= _MAX_DIGITS)):
            if parts[2] == b"none":
                return Frame(int(parts[1]), "", (), Absent.NO_FILE)
            self.turn, self.size, self.left = int(parts[1]), int(parts[2]), int(parts[2])
            return self._body()
        shown = line.decode("utf-8", errors="replace").strip()
        self.notes.append(f"stdout line {shown[:80]!r} is no answer header (answer <turn> <size>, or answer "
                          "<turn> none): kept as output")
        return line

    def _body(self) -> Frame | None:
        """Take what the buffer holds of the current body; the frame once its last byte is in."""
        buffer = self.buffer
        if self.left and buffer:
            taken = min(len(buffer), self.left)
            room = self.cap + 1 - len(self.body)
            if room > 0:
                self.body += buffer[: min(room, taken)]
            if taken > room and not self.every_line and self.rest_blank:
                self.rest_blank = is_java_blank(self.rest_decoder.decode(bytes(buffer[max(room, 0):taken])))
            del buffer[:taken]
            self.left -= taken
        if self.left:
            return None
        text, notes = answer_text(bytes(self.body), self.size, self.cap, self.name, self.every_line,
                                  self._rest_is_blank)
        frame = Frame(self.turn, text, tuple(notes))
        self.left = -1
        self.body = bytearray()
        self.rest_blank = True
        self.rest_decoder.reset()
        return frame

    def _rest_is_blank(self) -> bool:
        return self.rest_blank and is_java_blank(self.rest_decoder.decode(b"", final=True))

    def leftover(self) -> bytes:
        """What was read but is no whole item (the bot's last words before it died): output."""
        rest = bytes(self.body) + bytes(self.buffer) if self.left >= 0 else bytes(self.buffer)
        self.buffer.clear()
        self.body = bytearray()
        self.left = -1
        return rest
