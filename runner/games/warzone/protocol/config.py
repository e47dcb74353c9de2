"""The `game-config.json` form of a Warzone config (spec 6): parse with defaults, check values, render.

Pure: the caller reads the file and the map. `schema/warzone/game-config.schema.json` says the same and a
test keeps the two in step.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from runner.games.warzone.rules.settings import MOVE_ORDERS, UNDEPLOYED, Rules

VALIDATIONS = ("strict", "lenient")

#: The map played when a config names none: a shipped map's name (runner/games/warzone/maps/), small (14
#: territories, 4 continents) and drawn by hand with real coordinates, so its replays look right.
DEFAULT_MAP = "td-harbour"


class ConfigError(ValueError):
    """A config value the user must fix; the message names the key."""


@attrs.frozen
class WarzoneConfig:
    """A match's configuration: the map as given (a file, or a shipped map's name), how strictly it is read,
    and the rules."""

    map: str = DEFAULT_MAP
    map_validation: str = "strict"
    rules: Rules = Rules()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _at_least(low: int, high: int | None = None) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if not _is_int(value) or value < low or (high is not None and value > high):
            return f"an integer from {low}" + (f" to {high}" if high is not None else " up")
        return None
    return check


def _one_of(choices: tuple[str, ...]) -> Callable[[Any], str | None]:
    return lambda value: None if value in choices else "one of " + ", ".join(map(repr, choices))


def _boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "true or false"


#: spec 6: each rule key and what its value must be (defaults come from Rules).
RULE_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "max_turns": _at_least(0),
    "initial_pool": _at_least(0),
    "initial_armies": _at_least(0),
    "initial_cards": _at_least(0),
    "deck_per_type": _at_least(0),
    "min_reinforcement": _at_least(0),
    "attack_kill_pct": _at_least(0, 100),
    "defend_kill_pct": _at_least(0, 100),
    "blockade_multiplier": _at_least(1),
    "reinforcement_card_armies": _at_least(0),
    "one_army_stands_guard": _boolean,
    "move_order": _one_of(MOVE_ORDERS),
    "undeployed": _one_of(UNDEPLOYED),
    "max_orders": _at_least(1),
}
KEYS = ("map", "map_validation", *RULE_CHECKS)


def parse_config(data: Mapping[str, Any], overrides: Mapping[str, Any] | None = None) -> WarzoneConfig:
    """A config from game-config.json's object plus non-None overrides (CLI options); ConfigError on a bad
    key or value. `"game": "warzone"` may be present (a shared config file names its game)."""
    merged = {key: value for key, value in data.items() if not (key == "game" and value == "warzone")}
    merged.update({key: value for key, value in (overrides or {}).items() if value is not None})
    for key in merged:
        if key not in KEYS:
            close = difflib.get_close_matches(key, KEYS, n=1)
            raise ConfigError(f"unknown key {key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    merged.setdefault("map", DEFAULT_MAP)
    if not isinstance(merged["map"], str) or not merged["map"]:
        raise ConfigError(f"map {merged['map']!r} should be the path of a .map file or a shipped map's name "
                          f"(default {DEFAULT_MAP!r})")
    validation = merged.get("map_validation", "strict")
    if validation not in VALIDATIONS:
        raise ConfigError(f"map_validation {validation!r} is not 'strict' or 'lenient'")
    for key, check in RULE_CHECKS.items():
        if key in merged and (wanted := check(merged[key])):
            raise ConfigError(f"{key} {merged[key]!r} should be {wanted}")
    rules = Rules(**{key: merged[key] for key in RULE_CHECKS if key in merged})
    return WarzoneConfig(map=merged["map"], map_validation=validation, rules=rules)


def render_config(config: WarzoneConfig) -> dict[str, Any]:
    """Every key with its value (defaults included), in spec 6's order: game-config.json of a log."""
    return {"game": "warzone", "map": config.map, "map_validation": config.map_validation,
            **{key: getattr(config.rules, key) for key in RULE_CHECKS}}
