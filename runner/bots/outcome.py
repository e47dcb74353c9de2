"""What happened in one bot turn, as data: the match loop records it, it never has to catch anything."""

from __future__ import annotations

import enum
import signal

import attrs

from runner.games.interface import Absent


class TurnStatus(enum.Enum):
    OK = "ok"
    TIMEOUT = "timeout"  # still running at the wall-clock limit; killed (spec 8.4)
    CRASH = "crash"  # non-zero exit or killed by a signal (a resource limit included)
    FAILED_TO_START = "failed_to_start"  # never ran: the program vanished, the bot folder is gone, ...


#: built for every bot turn: a mutable attrs record, as a frozen one's init costs three times as much (0.9
#: vs 0.3 us); nothing changes it after it is made.
@attrs.define
class TurnOutcome:
    """One run of a bot. `command` is what the engine parses and PlayerCommand.txt records (spec 4.1)."""

    status: TurnStatus
    command: str  # "" when command.txt is missing, refused or blank, else its first line (games render "" their way)
    seconds: float  # wall time of the bot's process tree, start to end (or to the kill)
    output: str  # stdout+stderr, interleaved as written, capped (an event says how much was dropped)
    exit_code: int | None  # None after a timeout kill or a failed start; negative = killed by that signal
    events: tuple[str, ...] = ()  # one-line notes for the bot's author ("exit code 3", "timed out after ...")
    #: the games' words for a fault or a refused file, after "bot " (runner.games.interface.Answer.detail)
    detail: str = ""
    absent: Absent | None = None  # no answer file: none written, or the one found refused (per-turn bots)
    #: the fault of an earlier turn still in force (a dead persistent bot asked again): the game sees the
    #: fault again, but it is not counted again and has no event (runner/match.py PlayerTally)
    repeated: bool = False


def seconds_text(milliseconds: int) -> str:
    """A time limit as the games' messages give it: `5.0 s`, `2.0 s`, `0.25 s`."""
    seconds = milliseconds / 1000
    return f"{seconds:.1f} s" if milliseconds % 100 == 0 else f"{seconds:g} s"


_SIGNAL_HINTS = {
    "SIGXCPU": " (CPU time limit)",
    "SIGXFSZ": " (file size limit)",
    "SIGKILL": " (the CPU time limit, or the kernel's out-of-memory killer)",
}


def describe_exit(code: int) -> str:
    """A non-zero exit as the bot's events give it: `exit code 3`, `killed by SIGXCPU (CPU time limit)`."""
    if code > 0:
        return f"exit code {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"killed by {name}{_SIGNAL_HINTS.get(name, '')}"


def exit_detail(code: int) -> str:
    """An exit as the games' messages give it, after "bot ": `exited with status 1`, `was killed by SIGSEGV`."""
    return f"exited with status {code}" if code > 0 else f"was {describe_exit(code)}"


def format_size(count: int) -> str:
    """`812 MiB`, `1.5 KiB`, `37 bytes`: sizes as event texts show them."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            value = count / scale
            return f"{value:.0f} {unit}" if value == int(value) or value >= 100 else f"{value:.1f} {unit}"
    return f"{count} bytes"
