"""A player's orders for one turn as records, and the problems that reject them (spec 10.3-10.5).

The records are what a parsed `commands.txt` means; `line` keeps the physical line number (1-based) so
every problem can point at its line.
"""

from __future__ import annotations

import enum

import attrs


class Stance(enum.Enum):
    """spec 5.2: how a deployed soldier treats towers beside its path."""

    ADVANCE = "advance"
    FIRE = "fire"


@attrs.frozen
class Build:
    tower: str
    col: int
    row: int
    line: int = 0


@attrs.frozen
class Recruit:
    soldier: str
    count: int = 1
    line: int = 0


@attrs.frozen
class Deploy:
    soldier: str
    timestep: int
    col: int
    count: int = 1
    stance: Stance = Stance.ADVANCE
    line: int = 0


Command = Build | Recruit | Deploy


@attrs.frozen
class Orders:
    """The commands of one file in file order (spec 10.4: BUILD and RECRUIT apply in this order)."""

    turn: int
    commands: tuple[Command, ...] = ()

    @property
    def deploys(self) -> tuple[Deploy, ...]:
        return tuple(c for c in self.commands if isinstance(c, Deploy))


@attrs.frozen(order=True)
class Problem:
    """One reason a command file is rejected: the code (E01..E17), the line (None: the whole file), the text."""

    code: str
    line: int | None
    message: str

    def __str__(self) -> str:
        # spec 10.5: "Exx line N: message", or "Exx message" for a problem of the whole file
        where = "" if self.line is None else f" line {self.line}:"
        return f"{self.code}{where} {self.message}"
