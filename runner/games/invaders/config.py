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


def parse_config_json(data: Mapping[str, Any]) -> InvadersConfig:
    """A config JSON object already checked against schema/invaders/game-config.schema.json -> the record."""
    return InvadersConfig(max_turns=data.get("maxTurns", DEFAULT_MAX_TURNS), faults=data.get("faults", DISQUALIFY))


def render_config_json(config: InvadersConfig) -> dict[str, Any]:
    """The record as game-config.json and match.json's `game_config`."""
    return {"maxTurns": config.max_turns, "faults": config.faults}
