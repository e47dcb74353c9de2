"""Read `commands.txt` (spec 10.3-10.5) into `Orders` and problems; render orders in the trace's normal form.

Nothing here raises on any text: every defect becomes a `Problem` with its code and physical line.
A line with a syntax problem is left out of the orders, so the legality checks that follow see only
well-formed commands.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import attrs

from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.legality import check_orders
from runner.games.lanes.rules.orders import Build, Command, Deploy, Orders, Problem, Recruit, Stance
from runner.games.lanes.rules.state import GameState

MAX_BYTES = 65536  # spec 10.5 E02
MAX_LINES = 2000
_INTEGER = re.compile(r"[+-]?[0-9]+\Z")  # spec 10.3: decimal with an optional sign
_SEPARATORS = re.compile(r"[ \t]+")
_KEYWORDS = "(BUILD, RECRUIT, DEPLOY; TURN first, END last)"
_STANCES = {stance.value: stance for stance in Stance}


@attrs.frozen
class ParsedCommands:
    """A file read: the well-formed commands (in `orders`) and every syntax problem found."""

    orders: Orders
    problems: tuple[Problem, ...]


@attrs.frozen
class _Line:
    number: int
    tokens: tuple[str, ...]

    @property
    def keyword(self) -> str:
        return self.tokens[0].upper()


def split_lines(text: str) -> list[str]:
    """Physical lines as the spec numbers them: split at \\n, a trailing \\r dropped (CRLF files)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _command_lines(text: str) -> list[_Line]:
    found = []
    for number, line in enumerate(split_lines(text), start=1):
        content = line.split("#", 1)[0].strip(" \t")  # spec 10.3: '#' starts a comment
        if content:
            found.append(_Line(number, tuple(_SEPARATORS.split(content))))
    return found


def parse_commands(text: str, turn: int, config: LanesConfig) -> ParsedCommands:
    """Parse a whole file for `turn` (spec 10.3): header, trailer, and every command line."""
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > MAX_BYTES:
        return ParsedCommands(Orders(turn), (Problem("E02", None, f"commands.txt is larger than {MAX_BYTES} bytes"),))
    if len(split_lines(text)) > MAX_LINES:
        return ParsedCommands(Orders(turn), (Problem("E02", None, f"commands.txt has more than {MAX_LINES} lines"),))
    lines = _command_lines(text)
    problems: list[Problem] = []
    header = f"TURN {turn}"
    if not lines:
        problems.append(Problem("E03", None, f"first command must be '{header}' (the file holds no command)"))
    elif not _is_header(lines[0], turn):
        problems.append(Problem("E03", lines[0].number, f"first command must be '{header}'"))
    if not lines or lines[-1].keyword != "END":
        problems.append(Problem("E04", None, "missing END as the last command (file incomplete?)"))
    commands: list[Command] = []
    for index, line in enumerate(lines):
        keyword = line.keyword
        if keyword == "TURN":
            if index > 0:
                problems.append(Problem("E03", line.number, "TURN must be the first command and appear once"))
        elif keyword == "END":
            if index < len(lines) - 1:
                problems.append(Problem("E04", line.number, "END must be the last command and appear once"))
            elif len(line.tokens) > 1:
                problems.append(Problem("E06", line.number, "END takes no arguments"))
        elif keyword in _PARSERS:
            if index == 0:
                continue  # already reported as a missing header (E03)
            command, line_problems = _PARSERS[keyword](line, config)
            problems += line_problems
            if command is not None:
                commands.append(command)
        else:
            problems.append(Problem("E06", line.number, f"unknown command '{line.tokens[0]}' {_KEYWORDS}"))
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return ParsedCommands(Orders(turn, tuple(commands)), tuple(problems))


def read_orders(text: str, state: GameState, player: int, config: LanesConfig) -> tuple[Orders | None, list[Problem]]:
    """spec 10.5: the orders of an accepted file, or None and every problem of a rejected one."""
    parsed = parse_commands(text, state.turn, config)
    problems = list(parsed.problems)
    if not any(p.code == "E02" for p in problems):
        problems += check_orders(config, state, player, parsed.orders)
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return (None, problems) if problems else (parsed.orders, [])


def _is_header(line: _Line, turn: int) -> bool:
    return line.keyword == "TURN" and len(line.tokens) == 2 and _as_int(line.tokens[1]) == turn


def _as_int(token: str) -> int | None:
    return int(token) if _INTEGER.match(token) else None


class _Fields:
    """Collects the problems of one line's fields while converting them."""

    def __init__(self, line: _Line) -> None:
        self.line = line
        self.problems: list[Problem] = []

    def integer(self, token: str) -> int:
        value = _as_int(token)
        if value is None:
            self.problems.append(Problem("E05", self.line.number, f"'{token}' is not an integer"))
            return 0
        return value

    def name(self, token: str, choices: Sequence[str], code: str, what: str) -> str:
        name = token.lower()
        if name not in choices:
            self.problems.append(
                Problem(code, self.line.number, f"unknown {what} '{token}' ({', '.join(choices)})")
            )
        return name

    def stance(self, token: str) -> Stance:
        stance = _STANCES.get(token.lower())
        if stance is None:
            self.problems.append(
                Problem("E16", self.line.number, f"unknown stance '{token}' ({', '.join(_STANCES)})")
            )
            return Stance.ADVANCE
        return stance

    def arity(self, low: int, high: int, usage: str) -> bool:
        given = len(self.line.tokens) - 1
        if low <= given <= high:
            return True
        wanted = str(low) if low == high else f"{low} to {high}"
        self.problems.append(
            Problem("E06", self.line.number, f"{usage.split()[0]} takes {wanted} arguments ({usage}), got {given}")
        )
        return False


ParseLine = Callable[[_Line, LanesConfig], tuple[Command | None, list[Problem]]]


def _parse_build(line: _Line, config: LanesConfig) -> tuple[Command | None, list[Problem]]:
    fields = _Fields(line)
    if not fields.arity(3, 3, "BUILD <tower> <col> <row>"):
        return None, fields.problems
    _, tower, col, row = line.tokens
    command = Build(
        fields.name(tower, config.tower_types, "E07", "tower type"),
        fields.integer(col),
        fields.integer(row),
        line.number,
    )
    return (None if fields.problems else command), fields.problems


def _parse_recruit(line: _Line, config: LanesConfig) -> tuple[Command | None, list[Problem]]:
    fields = _Fields(line)
    if not fields.arity(1, 2, "RECRUIT <soldier> [<count>]"):
        return None, fields.problems
    soldier = fields.name(line.tokens[1], config.soldier_types, "E08", "soldier type")
    count = fields.integer(line.tokens[2]) if len(line.tokens) == 3 else 1
    return (None if fields.problems else Recruit(soldier, count, line.number)), fields.problems


def _parse_deploy(line: _Line, config: LanesConfig) -> tuple[Command | None, list[Problem]]:
    fields = _Fields(line)
    if not fields.arity(3, 5, "DEPLOY <soldier> <timestep> <col> [<count>] [<stance>]"):
        return None, fields.problems
    soldier = fields.name(line.tokens[1], config.soldier_types, "E08", "soldier type")
    timestep, col = fields.integer(line.tokens[2]), fields.integer(line.tokens[3])
    extra = list(line.tokens[4:])
    count, stance = 1, Stance.ADVANCE
    # spec 10.3: with one optional field, a number is the count and a word the stance ("rifle 5 3 fire")
    if extra and (len(extra) == 2 or _looks_numeric(extra[0])):
        count = fields.integer(extra.pop(0))
    if extra:
        stance = fields.stance(extra[0])
    command = Deploy(soldier, timestep, col, count, stance, line.number)
    return (None if fields.problems else command), fields.problems


def _looks_numeric(token: str) -> bool:
    return token[:1].isdigit() or token[:1] in "+-"


_PARSERS: dict[str, ParseLine] = {"BUILD": _parse_build, "RECRUIT": _parse_recruit, "DEPLOY": _parse_deploy}


def render_orders(orders: Orders | None, turn: int) -> list[str]:
    """spec 11: the normal form, `TURN k` ... `END`; a rejected file (None) is just the two."""
    lines = [f"TURN {turn}"]
    for command in orders.commands if orders else ():
        if isinstance(command, Build):
            lines.append(f"BUILD {command.tower} {command.col} {command.row}")
        elif isinstance(command, Recruit):
            lines.append(f"RECRUIT {command.soldier} {command.count}")
        else:
            lines.append(
                f"DEPLOY {command.soldier} {command.timestep} {command.col} {command.count} {command.stance.value}"
            )
    lines.append("END")
    return lines


def render_problems(problems: Sequence[Problem]) -> str:
    """errors.txt (spec 10.1.4): one problem per line, empty when the file was accepted."""
    return "".join(f"{problem}\n" for problem in problems)
