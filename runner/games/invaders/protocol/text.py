"""Text drawings of the path for spectators: one 100-character line per turn (replay), two rows (text view)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from runner.games.invaders.rules import constants as C

TOWER_LETTERS = {C.TURRET: "T", C.BOMB: "B", C.STUNNER: "S"}
INVADER = ">"
STUNNED = "*"
EMPTY = "."


def render_invader_row(invaders: Sequence[Sequence[Any]]) -> str:
    """The invader row from spec 16 `iv` entries: `>` walking, `*` stunned, `.` empty."""
    cells = [EMPTY] * C.BOARD_LENGTH
    for pos, _hp, _maxhp, _defense, _stun_res, stun_time in invaders:
        cells[pos] = STUNNED if stun_time else INVADER
    return "".join(cells)


def render_tower_row(towers: Sequence[Sequence[Any]]) -> str:
    """The tower row from spec 16 `tw` entries: T turret, B bomb, S stunner (lower case while locked)."""
    cells = [EMPTY] * C.BOARD_LENGTH
    for pos, kind, _power, _range, cooldown, _level in towers:
        letter = TOWER_LETTERS.get(kind, "?")
        cells[pos] = letter.lower() if cooldown else letter
    return "".join(cells)


def render_path(row: dict[str, Any]) -> str:
    """Both rows folded into one 100-character line: an invader hides the tower beside it."""
    invaders = render_invader_row(row["iv"])
    towers = render_tower_row(row["tw"])
    return "".join(i if i != EMPTY else t for i, t in zip(invaders, towers))


def render_summary(row: dict[str, Any]) -> str:
    """Turn, life and both sides' gold of a spec 16 row."""
    return f"turn {row['t']:>6}  life {row['life']:>3}  gold defender {row['dg']} invader {row['ig']}"


def render_board(row: dict[str, Any]) -> str:
    """The multi-line spectator view: summary, invader row, tower row."""
    return "\n".join(
        (render_summary(row), "invaders " + render_invader_row(row["iv"]), "towers   " + render_tower_row(row["tw"]))
    )
