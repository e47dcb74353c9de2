"""The persistent-bot line protocol of spec 18: one request line per turn, one JSON answer line back.

The state text is built by hand rather than through json.dumps of dicts: it is rendered every turn of games
of tens of thousands of turns, and the same text goes to both bots.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from runner.games.invaders.rules.jsnum import js_number
from runner.games.invaders.rules.state import State

_NULL = "null"


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


@attrs.frozen
class ParsedAnswer:
    """A bot's answer line as a JSON value, or why it is not one (a fault, spec 18)."""

    value: Any = None
    error: str | None = None


def parse_answer(text: str) -> ParsedAnswer:
    """One answer line -> its JSON value; never raises. NaN/Infinity are refused as JSON.parse would."""
    try:
        return ParsedAnswer(json.loads(text, parse_constant=_reject_constant))
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError; so is a 5000-digit int
        shown = text if len(text) <= 60 else text[:57] + "..."
        return ParsedAnswer(error=f"answer is not JSON ({error.__class__.__name__}): {shown!r}")


def render_state_json(state: State) -> str:
    """The spec 7 view as compact JSON, equal to json.dumps(render_view(state), separators=(",", ":"))."""
    invaders = ",".join(
        _NULL
        if i is None
        else f'{{"pos":{i.pos},"hp":{i.hp},"maxhp":{i.maxhp},"defense":{i.defense},'
        f'"stunRes":{i.stun_res},"stunTime":{i.stun_time}}}'
        for i in state.invaders
    )
    towers = ",".join(
        _NULL
        if t is None
        else f'{{"level":{t.level},"pos":{t.pos},"power":{t.power},"range":{t.range},'
        f'"cooldown":{t.cooldown},"type":"{t.type}"}}'
        for t in state.towers
    )
    return (
        f'{{"turnNumber":{state.turn},"invaderGold":{state.invader_gold},'
        f'"invaderIncome":{state.invader_income},"invaderBoostMax":{state.invader_boost_max},'
        f'"invaderHPMultiplier":{json.dumps(js_number(state.hp_multiplier))},'
        f'"turnsSinceLastSpawn":{state.turns_since_spawn},"defenderGold":{state.defender_gold},'
        f'"defenderLife":{state.defender_life},"invaderSlots":[{invaders}],"towerSlots":[{towers}]}}'
    )


def render_request(turn: int, side: str, state_json: str) -> str:
    """The request line of spec 18: {"turn": T, "side": ..., "state": {...}} (compact, no newline)."""
    return f'{{"turn":{turn},"side":"{side}","state":{state_json}}}'
