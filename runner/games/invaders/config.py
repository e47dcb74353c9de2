"""The match settings spec 18 leaves to td-runner: the turn cap and what a bot's fault means. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

DEFAULT_MAX_TURNS = 100_000  # spec 18: the cap of the reference's later revisions
DISQUALIFY = "disqualify"
IGNORE = "ignore"
FAULT_POLICIES = (DISQUALIFY, IGNORE)


@attrs.frozen
class InvadersConfig:
    """`max_turns` >= 1; `faults` is DISQUALIFY (the seed's rule) or IGNORE (development: a null action)."""

    max_turns: int = DEFAULT_MAX_TURNS
    faults: str = DISQUALIFY


def check_config_json(data: Any) -> str | None:
    """Why a game-config.json value is not an invaders config, or None."""
    if not isinstance(data, dict):
        return "the config must be a JSON object"
    unknown = sorted(set(data) - {"maxTurns", "faults"})
    if unknown:
        return f"unknown key {unknown[0]!r} (maxTurns, faults)"
    max_turns = data.get("maxTurns", DEFAULT_MAX_TURNS)
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
        return f"maxTurns must be a positive integer, got {max_turns!r}"
    if data.get("faults", DISQUALIFY) not in FAULT_POLICIES:
        return f"faults must be one of {', '.join(FAULT_POLICIES)}, got {data.get('faults')!r}"
    return None


def parse_config_json(data: Mapping[str, Any]) -> InvadersConfig:
    """A checked config JSON object (see `check_config_json`) -> the record."""
    return InvadersConfig(max_turns=data.get("maxTurns", DEFAULT_MAX_TURNS), faults=data.get("faults", DISQUALIFY))


def render_config_json(config: InvadersConfig) -> dict[str, Any]:
    """The record as game-config.json and match.json's `game_config`."""
    return {"maxTurns": config.max_turns, "faults": config.faults}
