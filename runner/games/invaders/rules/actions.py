"""Turn a bot's JSON answer into an action record, or a reason it is invalid (spec 8, 9, 18).

Parsing needs no state: it only decides what was asked. Whether the ask is affordable or fits the board is
decided by `check_*` in `turn.py`. Nothing here raises on any JSON value.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from runner.games.invaders.rules import constants as C
from runner.games.invaders.rules.jsnum import is_truthy

_SHOWN_CHARS = 60


@attrs.frozen
class Spawn:
    """An invader spawn request with its three boosts (spec 4 I)."""

    hp: int = 0
    defense: int = 0
    stun_res: int = 0


@attrs.frozen
class Build:
    pos: int
    type: str


@attrs.frozen
class Upgrade:
    pos: int
    stat: str


@attrs.frozen
class Destroy:
    pos: int


@attrs.frozen
class Invalid:
    """An answer that asks for nothing valid; `reason` goes to the log."""

    reason: str


DefenderAction = Build | Upgrade | Destroy


def show(value: Any) -> str:
    """A short JSON rendering of a bot's value for a message."""
    try:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


def integral(value: Any) -> int | None:
    """A JSON number with an integral value as an int (5.0 -> 5), else None. Booleans are not numbers."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def parse_invader_action(value: Any) -> Spawn | Invalid | None:
    """The invader's answer: None for no action, else a Spawn or the reason it is invalid.

    spec 8: any falsy value is no action and any truthy value is a spawn request; a value that is not an
    object has no boost properties, so `true` or `7` asks for a plain invader. spec 18: a boost that is
    present must be a non-negative integral number (the reference's coercion of fractions, booleans and
    strings is closed). Decision: a boost given as null counts as absent, as JS `undefined` would.
    """
    if not is_truthy(value):
        return None
    if not isinstance(value, dict):
        return Spawn()
    boosts = []
    for key in ("hp", "defense", "stunRes"):
        raw = value.get(key)
        if raw is None:
            boosts.append(0)
            continue
        number = integral(raw)
        if number is None or number < 0:
            return Invalid(f"spawn: {key} must be a non-negative integer, got {show(raw)}")
        boosts.append(number)
    return Spawn(*boosts)


def parse_defender_action(value: Any) -> DefenderAction | Invalid | None:
    """The defender's answer: None for no action, else an action or the reason it is invalid (spec 8, 4 J).

    spec 18: `pos` must be an integral JSON number in 0..99 for every action (closes spec 14 B4's phantom
    towers and string-pos range inflation).
    """
    if not is_truthy(value):
        return None
    if not isinstance(value, dict):
        return Invalid(f"not an action object: {show(value)}")
    action = value.get("action")
    if action not in ("build", "upgrade", "destroy"):
        return Invalid(f"unknown action {show(action)} (build, upgrade or destroy)")
    raw_pos = value.get("pos")
    pos = integral(raw_pos)
    if pos is None or not 0 <= pos <= C.LAST_CELL:
        return Invalid(f"{action}: pos must be an integer in 0..{C.LAST_CELL}, got {show(raw_pos)}")
    if action == "build":
        kind = value.get("type")
        if kind not in C.VALID_TOWER_TYPES:
            return Invalid(f"build: unknown tower type {show(kind)} (turret, bomb or stunner)")
        return Build(pos, kind)
    if action == "upgrade":
        stat = value.get("stat")
        if stat not in C.UPGRADE_STATS:
            return Invalid(f"upgrade: unknown stat {show(stat)} (power or range)")
        return Upgrade(pos, stat)
    return Destroy(pos)
