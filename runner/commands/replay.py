"""`td-runner replay LOG`: watch a match log round by round in the terminal.

Keys (when stdin and stdout are terminals): n / enter / space / right arrow next round, p / left arrow
previous, q quit. `--speed S` plays on by itself, S seconds per round (q quits). With stdin not a terminal
every round is printed in turn; `--round N` prints one round and exits. Colours only on a terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.text import Text

from runner.engine.state import PLAYERS, CommandOrder
from runner.errors import ExitCode, UserError
from runner.matchlog.layout import log_game_config, open_match_log
from runner.matchlog.replay import MatchReplay, PlayerSummary, RoundView
from runner.matchlog.verify import recorded_order

HELP = "show a match log round by round: console map, health/energy/score, commands and their errors"

STYLE = {"A": "bold cyan", "B": "bold magenta"}
FRAME = {"A": "cyan", "B": "magenta"}
LABEL = "dim"
CURTAIN = "bold black on yellow"
BOT_OUTPUT_LINES = 20
KEYS_HELP = "n/enter: next   p: previous   q: quit"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="match folder (the one holding 'Round 000', ...)")
    parser.add_argument("--round", type=int, metavar="N", help="print round N and exit")
    parser.add_argument(
        "--player", choices=PLAYERS, type=str.upper, help="also show this player's bot output every round"
    )
    parser.add_argument("--speed", type=float, metavar="SECONDS", help="play on by itself, SECONDS per round")
    parser.add_argument("--no-color", action="store_true", help="never use colours")


# --- rendering: RoundView -> rich Text lines -------------------------------------------------------------


def render_map_row(row: str) -> Text:
    """Colour one console-map row (spec 7.3): A's half and missiles (`>`) in A's colour, B's in B's,
    buildings in their owner's colour (upper case = constructed), the curtain column highlighted."""
    text = Text()
    cells = row.count("[")
    half = cells // 2
    column = 0
    inside = False
    for char in row:
        side = "A" if column < half else "B"
        if char == "[":
            inside = True
            text.append(char, FRAME[side])
        elif char == "]":
            inside = False
            column += 1
            text.append(char, FRAME[side])
        elif not inside:
            text.append(char, CURTAIN)  # the pseudo-column between the halves: ` \ / `
        elif char == ">":
            text.append(char, STYLE["A"])
        elif char == "<":
            text.append(char, STYLE["B"])
        elif char.isalpha():
            text.append(char, STYLE[side] if char.isupper() else f"{FRAME[side]} italic")
        else:
            text.append(char, LABEL)
    return text


def _curtain(summary: PlayerSummary) -> str:
    if summary.iron_curtain_active:
        return "active"
    return "available" if summary.iron_curtain_available else "-"


def _player_line(seat: str, name: str, summary: PlayerSummary | None, width: int) -> Text:
    line = Text(f"{name:<{width}}", STYLE[seat])
    if summary is None:
        return line.append("  (no readable JsonMap.json this round)")
    return line.append(
        f"  health {summary.health:>3}  energy {summary.energy:>5}  score {summary.score:>6}  "
        f"hits taken {summary.hits_taken:>3}  iron curtain {_curtain(summary)}"
    )


def _command_text(command: str | None) -> str:
    if command is None:
        return "(no PlayerCommand.txt)"
    return command if command else "(nothing)"


def render_round(view: RoundView, names: dict[str, str], last: int, player: str | None = None) -> list[Text]:
    """The lines shown for one round; plain text when printed to a non-terminal."""
    width = max(len(name) for name in names.values())
    lines = [Text(f"Round {view.number:03d} of {last:03d}", "bold")]
    if view.warning:
        lines.append(Text(f"warning: {view.warning}", "yellow"))
    lines.extend(_player_line(seat, names[seat], view.players[seat], width) for seat in PLAYERS)
    if view.console_map:
        lines.extend(render_map_row(row) for row in view.console_map)
    else:
        lines.append(Text("(no Console/Console.txt this round)", LABEL))
    if view.is_final and view.end_game_state is not None:
        lines.append(Text("final state; game over:", "bold"))
        lines.extend(Text(f"  {line}") for line in view.end_game_state.rstrip("\n").split("\n") if line)
        return lines
    lines.append(Text("commands:"))
    for seat in PLAYERS:
        lines.append(Text(f"  {names[seat]:<{width}}  ", STYLE[seat]).append(_command_text(view.commands[seat])))
    if view.errors:
        lines.append(Text("errors:"))
        lines.extend(Text(f"  {error}", "red") for error in view.errors)
    else:
        lines.append(Text("errors: none"))
    if player is not None:
        lines.extend(_bot_output(names[player], player, view.bot_output[player]))
    if view.is_final:
        lines.append(Text("the log stops here without endGameState.txt (the match did not finish)", "yellow"))
    return lines


def _bot_output(name: str, seat: str, output: str | None) -> Iterator[Text]:
    if output is None:
        yield Text(f"bot output of {name}: (no Console/BotOutput.txt)")
        return
    rows = output.rstrip("\n").split("\n") if output else []
    yield Text(f"bot output of {name}:" + ("" if rows else " (empty)"), STYLE[seat])
    yield from (Text(f"  {row}") for row in rows[:BOT_OUTPUT_LINES])
    if len(rows) > BOT_OUTPUT_LINES:
        yield Text(f"  ... ({len(rows) - BOT_OUTPUT_LINES} more lines)", LABEL)


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
    log = open_match_log(args.log)
    if args.round is not None and args.round not in log.rounds:
        raise UserError(f"{log.path}: no round {args.round} (the log has rounds {log.rounds[0]}..{log.final_round})")
    config, _ = log_game_config(log)
    replay = MatchReplay(log, config, recorded_order(log) or CommandOrder.B_FIRST)
    console = Console(file=streams.out, color_system=None if args.no_color else "auto", highlight=False)
    names = dict(log.player_dirs)

    def show(index: int) -> None:
        for line in render_round(replay.round(replay.rounds[index]), names, log.final_round, args.player):
            console.print(line, soft_wrap=True)

    if args.round is not None:
        show(replay.rounds.index(args.round))
        return ExitCode.OK
    interactive = console.is_terminal and _can_read_keys()
    if not interactive:
        for index in range(len(replay.rounds)):
            if index:
                console.print()
                time.sleep(args.speed or 0)
            show(index)
        return ExitCode.OK
    with _keys_mode():
        _step(console, len(replay.rounds), show, args.speed)
    return ExitCode.OK


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
