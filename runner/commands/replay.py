"""`td-runner replay LOG`: watch a match log round by round in the terminal.

Keys (when stdin and stdout are terminals): n / enter / space / right arrow next round, p / left arrow
previous, q quit. `--speed S` plays on by itself, S seconds per round (q quits). With stdin not a terminal
every round is printed in turn; `--round N` prints one round and exits. Colours only on a terminal.

`--html [FILE]` writes one self-contained HTML page that plays the match instead (runner/replay/html.py);
FILE defaults to the log's path plus `.html`, beside the log folder.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console
from rich.text import Text

from runner.commands.options import add_log_game_option
from runner.errors import ExitCode, UserError
from runner.games import game_of_log

EXITS = "exit codes: 0 shown, 2 not a log or bad input, 70 a bug"

LABEL = "dim"
KEYS_HELP = "n/enter: next   p: previous   q: quit"


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("log", metavar="LOG", nargs="?",
                        help="match folder (holding match.json, or 'Round 000', ...)")
    parser.add_argument("--round", "--turn", dest="round", type=int, metavar="N",
                        help="print turn N (a Tower Defence round) and exit; either word for any game")
    parser.add_argument(
        "--player", metavar="SEAT", help="also show this seat's bot output every round (A, B, ...)"
    )
    parser.add_argument("--speed", type=float, metavar="SECONDS", help="play on by itself, SECONDS per round")
    parser.add_argument("--no-color", action="store_true", help="never use colours")
    add_log_game_option(parser)
    parser.add_argument("--html", nargs="?", const="", metavar="FILE",
                        help="write a self-contained HTML replay (no network needed) to FILE, default LOG.html "
                        "beside the log, and exit")


# --- terminal keys ----------------------------------------------------------------------------------------


@contextlib.contextmanager
def _keys_mode() -> Iterator[None]:
    """Unbuffered, unechoed stdin for the whole session, so keys typed while a round renders still count."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _read_key(timeout: float | None = None) -> str | None:
    """One key press ("next", "previous", "quit", or None on timeout / other keys); needs _keys_mode."""
    import select

    fd = sys.stdin.fileno()
    if timeout is not None and not select.select([fd], [], [], timeout)[0]:
        return None
    char = os.read(fd, 1).decode("latin-1")
    if char == "\x1b" and select.select([fd], [], [], 0.05)[0]:  # arrow keys arrive as ESC [ C / ESC [ D
        char += os.read(fd, 2).decode("latin-1")
    if char in ("n", "N", "\n", "\r", " ", "\x1b[C"):
        return "next"
    if char in ("p", "P", "\x1b[D"):
        return "previous"
    if char in ("q", "Q", "\x04", ""):
        return "quit"
    return None


def _can_read_keys() -> bool:
    try:
        import termios  # noqa: F401  (not on Windows: play through instead)
    except ImportError:
        return False
    return sys.stdin is not None and sys.stdin.isatty()


# --- command ---------------------------------------------------------------------------------------------


def run(args: argparse.Namespace, streams) -> int:
    if args.speed is not None and args.speed < 0:
        raise UserError("--speed: must be 0 or more seconds")
    if args.log is None:
        if args.html and Path(args.html).is_dir():  # `replay --html LOG`: the log was read as --html's FILE
            args.log, args.html = args.html, ""
        else:
            raise UserError("give the match folder to replay: td-runner replay LOG [--html [FILE]]")
    path = Path(args.log)
    if args.html is not None:
        from runner.replay.html import write_html_replay

        written, size = write_html_replay(path, Path(args.html) if args.html else None, game=args.game)
        print(f"wrote {written} ({size / 1e6:.2f} MB)", file=streams.out)
        return ExitCode.OK
    game = game_of_log(path, args.game)
    replay = game.replay(path)
    turns = replay.turns
    if args.round is not None and args.round not in turns:
        word = getattr(game, "turn_word", "turn")
        raise UserError(f"{path}: no {word} {args.round} (the log has {word}s {turns[0]}..{turns[-1]})")
    seat = None
    if args.player is not None:
        seat = _seat(args.player, replay.seats, path)
    console = Console(file=streams.out, color_system=None if args.no_color else "auto", highlight=False)

    def show(index: int) -> None:
        for line in replay.render(turns[index], seat):
            console.print(line, soft_wrap=True)

    if args.round is not None:
        show(turns.index(args.round))
        return ExitCode.OK
    interactive = console.is_terminal and _can_read_keys()
    if not interactive:
        for index in range(len(turns)):
            if index:
                console.print()
                time.sleep(args.speed or 0)
            show(index)
        return ExitCode.OK
    with _keys_mode():
        _step(console, len(turns), show, args.speed)
    return ExitCode.OK


def _seat(given: str, seats: tuple[str, ...], path: Path) -> str:
    """The seat named by --player, case-insensitively (`a` is seat A)."""
    for seat in seats:
        if seat.lower() == given.lower():
            return seat
    raise UserError(f"--player: {path} has no seat {given!r} (its seats: {', '.join(seats)})")


def _step(console: Console, count: int, show: Callable[[int], None], speed: float | None) -> None:
    """The interactive loop: show a round, wait for a key (or `speed` seconds), move."""
    index = 0
    while True:
        console.clear()
        show(index)
        at_end = index == count - 1
        console.print(Text(KEYS_HELP + ("   (last round)" if at_end else ""), LABEL))
        if speed is not None and not at_end:
            key = _read_key(speed) or "next"
        else:
            key = _read_key()
        if key == "quit":
            return
        if key == "next":
            index = min(index + 1, count - 1)
        elif key == "previous":
            index = max(index - 1, 0)
