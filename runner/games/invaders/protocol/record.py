"""A turn's log.jsonl line (spec 18) as text, byte for byte what `json.dumps(record, separators=(",", ":"))`
writes for the record dict, built alongside that dict.

json.dumps of the record was the largest cost of a live turn's Python work (about 200,000 instructions a turn
in a 12,630-turn game, mostly the tower rows). The rows rarely change: in the sample game nine turns in ten
have exactly the towers of the turn before, and on the others about one row differs. So each tower's row
(list and text) is kept per tower object with the (level, cooldown) it was made from (pos and type never
change on one object; power and range change only with the level), and the whole `tw` part is reused while
no tower changed. Everything a bot chose (its answer, the result and fault words) goes through json.dumps,
so the bytes stay the encoder's own.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping
from typing import Any

import attrs

from runner.games.invaders.rules.jsnum import js_number
from runner.games.invaders.rules.state import State, Tower
from runner.games.invaders.rules.turn import Actions, Penalty, is_over

_COMPACT = (",", ":")
_LEVEL_COOLDOWN = operator.attrgetter("level", "cooldown")


def dumps(value: Any) -> str:
    """What the match loop would write for `value` (json.dumps, compact separators, ASCII)."""
    return "null" if value is None else json.dumps(value, separators=_COMPACT)


_words: dict[str, str] = {}  # the results of actions ("none", "applied", reasons): a few, every turn
_WORDS_LIMIT = 4096


def word(text: str) -> str:
    """`dumps(text)` of a string, remembered."""
    encoded = _words.get(text)
    if encoded is None:
        if len(_words) >= _WORDS_LIMIT:
            _words.clear()
        encoded = _words[text] = dumps(text)
    return encoded


def add_faults(record: dict[str, Any], faults: Mapping[str, str], disqualified: list[str] | None) -> str:
    """Adds `faults` (if any) and `dq` (if not None) to the end of `record`; returns their text, to go before the
    line's closing brace."""
    text = ""
    if faults:
        record["faults"] = dict(faults)
        text += f',"faults":{dumps(record["faults"])}'
    if disqualified is not None:
        record["dq"] = disqualified
        text += f',"dq":{dumps(disqualified)}'
    return text


@attrs.define(eq=False)
class _Towers:
    """The `tw` rows as last rendered: the towers present (slot order) and their (level, cooldown), the row
    list and text of each tower, and the whole part."""

    present: list[Tower] = attrs.Factory(list)
    marks: list[tuple[int, int]] = attrs.Factory(list)
    rows: dict[Tower, tuple[tuple[int, int], list[Any], str]] = attrs.Factory(dict)
    lists: list[list[Any]] = attrs.Factory(list)
    text: str = "[]"


@attrs.define(eq=False)
class RecordRenderer:
    """Builds each turn's record (the dict `TurnReport.record`) and its line; one per session."""

    towers: _Towers = attrs.Factory(_Towers)

    def render(
        self, state: State, invader: Any, defender: Any, actions: Actions, penalty: Penalty | None,
        faults: Mapping[str, str], disqualified: list[str] | None = None,
    ) -> tuple[dict[str, Any], str]:
        """(record, line without newline) of a played turn; the record equals `render_row` of the same
        arguments plus `ir`, `dr`, then `faults` and `dq` when there are any (spec 18)."""
        hpm = js_number(state.hp_multiplier)
        tower_lists, tower_text = self._tower_rows(state)
        invaders = [i for i in state.invaders if i is not None]
        invader_lists = [[i.pos, i.hp, i.maxhp, i.defense, i.stun_res, i.stun_time] for i in invaders]
        record: dict[str, Any] = {
            "t": state.turn, "ig": state.invader_gold, "dg": state.defender_gold, "life": state.defender_life,
            "thru": state.invaders_through, "inc": state.invader_income, "bmax": state.invader_boost_max,
            "hpm": hpm, "tsls": state.turns_since_spawn, "ia": invader, "da": defender, "sp": actions.spawned,
        }
        parts = [
            f'{{"t":{state.turn},"ig":{state.invader_gold},"dg":{state.defender_gold},'
            f'"life":{state.defender_life},"thru":{state.invaders_through},"inc":{state.invader_income},'
            f'"bmax":{state.invader_boost_max},"hpm":{hpm if type(hpm) is int else dumps(hpm)},'
            f'"tsls":{state.turns_since_spawn},"ia":{dumps(invader)},"da":{dumps(defender)},'
            f'"sp":{"true" if actions.spawned else "false"}'
        ]
        if penalty is not None:
            record["pen"] = [penalty.base, js_number(penalty.mult)]
            parts.append(f',"pen":{dumps(record["pen"])}')
        if is_over(state):
            record["end"] = True
            parts.append(',"end":true')
        record["tw"] = tower_lists
        record["iv"] = invader_lists
        record["ir"] = actions.invader
        record["dr"] = actions.defender
        iv_text = ",".join([f"[{i.pos},{i.hp},{i.maxhp},{i.defense},{i.stun_res},{i.stun_time}]" for i in invaders])
        parts.append(f',"tw":{tower_text},"iv":[{iv_text}],"ir":{word(actions.invader)},"dr":{word(actions.defender)}')
        if faults or disqualified is not None:
            parts.append(add_faults(record, faults, disqualified))
        parts.append("}")
        return record, "".join(parts)

    def _tower_rows(self, state: State) -> tuple[list[list[Any]], str]:
        """The `tw` rows (list, text): the last ones while no tower changed (C-speed list comparisons)."""
        cache = self.towers
        present = list(filter(None, state.towers))
        marks = list(map(_LEVEL_COOLDOWN, present))
        if present == cache.present and marks == cache.marks:  # identity comparison: Tower has no __eq__
            return cache.lists, cache.text
        rows = {}
        for tower, mark in zip(present, marks):
            row = cache.rows.get(tower)
            if row is None or row[0] != mark:
                values = [tower.pos, tower.type, tower.power, tower.range, tower.cooldown, tower.level]
                row = (mark, values, dumps(values))
            rows[tower] = row
        cache.present, cache.marks, cache.rows = present, marks, rows
        cache.lists = [row[1] for row in rows.values()]  # dict order is slot order
        cache.text = f"[{','.join([row[2] for row in rows.values()])}]"
        return cache.lists, cache.text
