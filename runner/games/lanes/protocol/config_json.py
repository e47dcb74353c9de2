"""The game config as JSON (`game-config.json`; schema/lanes/game-config.schema.json): render and parse.

Keys are snake_case like state.json's (spec 10.2). Every key is optional when parsing: a missing one
keeps the spec's value, so `{}` is the spec game and a file may change just `start_hp`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from runner.errors import UserError
from runner.games.lanes.rules.config import Kind, LanesConfig, UnitStats

#: Top-level integer keys and their smallest sensible value.
_NUMBERS = {
    "width": 2,
    "rows": 3,
    "max_towers_per_row": 1,
    "start_hp": 1,
    "start_money": 0,
    "income": 0,
    "kill_bounty": 0,
    "max_turns": 1,
    "timesteps": 1,
    "max_count": 1,
}
_UNIT_NUMBERS = {"hp": 1, "damage": 0, "range": 0, "speed": 0, "cost": 0}
_UNIT_KEYS = ("kind", "letter", *_UNIT_NUMBERS)


def render_config(config: LanesConfig) -> dict[str, Any]:
    data: dict[str, Any] = {key: getattr(config, key) for key in _NUMBERS}
    data["units"] = {
        name: {"kind": s.kind.value, "letter": s.letter, **{key: getattr(s, key) for key in _UNIT_NUMBERS}}
        for name, s in config.units.items()
    }
    return data


def parse_config(data: Any, where: str = "game config") -> LanesConfig:
    """A config from JSON data; UserError (one line) on anything the rules cannot play with."""
    if not isinstance(data, Mapping):
        raise UserError(f"{where}: expected a JSON object, got {type(data).__name__}")
    defaults = LanesConfig()
    unknown = sorted(set(data) - set(_NUMBERS) - {"units", "$schema"})
    if unknown:
        raise UserError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join([*_NUMBERS, 'units'])})")
    values = {key: _integer(data.get(key, getattr(defaults, key)), low, f"{where}: {key}") for key, low in _NUMBERS.items()}
    units = dict(defaults.units)
    given = data.get("units", {})
    if not isinstance(given, Mapping):
        raise UserError(f"{where}: units: expected an object")
    for name, stats in given.items():
        if name not in units:  # behaviours are keyed by name (spec 5), so the set of types is fixed
            raise UserError(f"{where}: units: unknown unit {name!r} (known: {', '.join(units)})")
        units[name] = _parse_unit(stats, units[name], f"{where}: units.{name}")
    config = LanesConfig(**values, units=units)
    if config.max_towers_per_row >= config.width:  # spec 2 / D3: every row keeps a cell without a tower
        raise UserError(f"{where}: max_towers_per_row must be below width ({config.width})")
    return config


def _parse_unit(data: Any, default: UnitStats, where: str) -> UnitStats:
    if not isinstance(data, Mapping):
        raise UserError(f"{where}: expected an object")
    unknown = sorted(set(data) - set(_UNIT_KEYS))
    if unknown:
        raise UserError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(_UNIT_KEYS)})")
    if data.get("kind", default.kind.value) != default.kind.value:
        raise UserError(f"{where}: kind must stay {default.kind.value!r}")
    letter = data.get("letter", default.letter)
    if not isinstance(letter, str) or len(letter) != 1 or not letter.isalpha():
        raise UserError(f"{where}: letter must be one letter")
    numbers = {key: _integer(data.get(key, getattr(default, key)), low, f"{where}.{key}") for key, low in _UNIT_NUMBERS.items()}
    if default.kind is Kind.SOLDIER and (numbers["range"] < 1 or numbers["speed"] < 1):
        raise UserError(f"{where}: a soldier needs range and speed of at least 1 (spec 5.3)")
    return attrs.evolve(default, letter=letter, **numbers)


def _integer(value: Any, low: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{where}: expected an integer, got {value!r}")
    if value < low:
        raise UserError(f"{where}: {value} is below the minimum {low}")
    return value
