"""The persistent-bot line protocol of spec 18: one request line per turn, one JSON answer line back.

The state text is built by hand rather than through json.dumps of dicts: it is rendered every turn of games
of tens of thousands of turns, and the same text goes to both bots.
"""

from __future__ import annotations

import json
import operator
from typing import Any

import attrs

from runner.games.invaders.rules.jsnum import js_number
from runner.games.invaders.rules.state import State

_NULL = "null"


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)  # one decoder: json.loads(**kw) builds one a call


@attrs.frozen
class ParsedAnswer:
    """A bot's answer line as a JSON value, or why it is not one (a fault, spec 18)."""

    value: Any = None
    error: str | None = None


_NO_ACTION = ParsedAnswer(None)


def parse_answer(text: str) -> ParsedAnswer:
    """One answer line -> its JSON value; never raises. NaN/Infinity are refused as JSON.parse would."""
    if text == _NULL:  # most answers of most turns: no decoder call
        return _NO_ACTION
    try:
        return ParsedAnswer(_DECODER.decode(text))
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError; so is a 5000-digit int
        shown = text if len(text) <= 60 else text[:57] + "..."
        return ParsedAnswer(error=f"answer is not JSON ({error.__class__.__name__}): {shown!r}")


#: Tower fragments by field values. Most towers look the same turn after turn, and formatting a hundred of
#: them was the largest cost of a turn's request; the cache is emptied when it grows past _CACHE_LIMIT.
_tower_texts: dict[tuple[Any, ...], str] = {}
_CACHE_LIMIT = 65536


def _tower_text(key: tuple[Any, ...]) -> str:
    if len(_tower_texts) >= _CACHE_LIMIT:
        _tower_texts.clear()
    level, pos, power, reach, cooldown, kind = key
    text = _tower_texts[key] = (
        f'{{"level":{level},"pos":{pos},"power":{power},"range":{reach},"cooldown":{cooldown},"type":"{kind}"}}'
    )
    return text


def render_state_json(state: State) -> str:
    """The spec 7 view as compact JSON, equal to json.dumps(render_view(state), separators=(",", ":"))."""
    invaders = ",".join([
        _NULL
        if i is None
        else f'{{"pos":{i.pos},"hp":{i.hp},"maxhp":{i.maxhp},"defense":{i.defense},'
        f'"stunRes":{i.stun_res},"stunTime":{i.stun_time}}}'
        for i in state.invaders
    ])
    towers = []
    for t in state.towers:
        if t is None:
            towers.append(_NULL)
            continue
        key = (t.level, t.pos, t.power, t.range, t.cooldown, t.type)
        text = _tower_texts.get(key)
        towers.append(text if text is not None else _tower_text(key))
    return (
        f'{{"turnNumber":{state.turn},"invaderGold":{state.invader_gold},'
        f'"invaderIncome":{state.invader_income},"invaderBoostMax":{state.invader_boost_max},'
        f'"invaderHPMultiplier":{json.dumps(js_number(state.hp_multiplier))},'
        f'"turnsSinceLastSpawn":{state.turns_since_spawn},"defenderGold":{state.defender_gold},'
        f'"defenderLife":{state.defender_life},"invaderSlots":[{invaders}],"towerSlots":[{",".join(towers)}]}}'
    )


def render_request(turn: int, side: str, state_json: str) -> str:
    """The request line of spec 18: {"turn": T, "side": ..., "state": {...}} (compact, no newline)."""
    return f'{{"turn":{turn},"side":"{side}","state":{state_json}}}'


#: The opt-in request format a persistent bot asks for with `"request": "delta"` in bot.json (README: "The
#: delta request"). The default request sends all 200 slots as objects, ~6 kB a turn that the bot's JSON
#: parser spends most of its turn on; the delta sends the scalars, the invaders flat, and only the towers
#: that changed since the previous request (a bot receives every request, in order, so it can keep them).
DELTA = "delta"
SCALARS = ("turnNumber", "invaderGold", "invaderIncome", "invaderBoostMax", "invaderHPMultiplier",
           "turnsSinceLastSpawn", "defenderGold", "defenderLife")

_LEVEL_COOLDOWN = operator.attrgetter("level", "cooldown")


@attrs.define(eq=False)
class SentTowers:
    """The towers as of the previous delta: per slot (tower object, level, cooldown) or None (pos and type never
    change on one object, power and range only with the level); and the towers present with their (level,
    cooldown) in slot order, to tell in C-speed list comparisons that nothing changed, the usual case."""

    slots: list[tuple[Any, int, int] | None] = attrs.Factory(lambda: [None] * 100)
    present: list[Any] = attrs.Factory(list)
    marks: list[tuple[int, int]] = attrs.Factory(list)


def render_delta(state: State, sent: SentTowers) -> str:
    """The body of a delta request for `state` (everything after `"side":...,`), moving `sent` on. Keys:

    * `delta`: the spec 7 scalars in SCALARS order;
    * `iv`: every invader, flat: pos, hp, maxhp, defense, stunRes, stunTime, then the next invader's six;
    * `tw`: the tower slots that changed: `[pos, level, power, range, cooldown, type]`, or `[pos]` for a slot
      that became empty.
    """
    present = list(filter(None, state.towers))
    marks = list(map(_LEVEL_COOLDOWN, present))
    changes = []
    if present != sent.present or marks != sent.marks:  # identity comparisons: Tower has no __eq__
        sent.present, sent.marks = present, marks
        slots = sent.slots
        for pos, (tower, before) in enumerate(zip(state.towers, slots)):
            if tower is None:
                if before is not None:
                    changes.append(f"[{pos}]")
                    slots[pos] = None
            elif before is None or before[0] is not tower or before[1] != tower.level or before[2] != tower.cooldown:
                slots[pos] = (tower, tower.level, tower.cooldown)
                changes.append(f'[{pos},{tower.level},{tower.power},{tower.range},{tower.cooldown},"{tower.type}"]')
    invaders = ",".join([
        f"{i.pos},{i.hp},{i.maxhp},{i.defense},{i.stun_res},{i.stun_time}" for i in state.invaders if i is not None
    ])
    return (
        f'"delta":[{state.turn},{state.invader_gold},{state.invader_income},{state.invader_boost_max},'
        f'{json.dumps(js_number(state.hp_multiplier))},{state.turns_since_spawn},{state.defender_gold},'
        f'{state.defender_life}],"iv":[{invaders}],"tw":[{",".join(changes)}]'
    )


def render_delta_request(turn: int, side: str, body: str) -> str:
    """A delta request line: {"turn": T, "side": ..., "delta": [...], "iv": [...], "tw": [...]}."""
    return f'{{"turn":{turn},"side":"{side}",{body}}}'
