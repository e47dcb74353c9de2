"""Build and render a player's `state.json` (spec 4.2): compact JSON, keys in the spec's order.

The document is built once as a dict and rendered twice (JSON here, text in state_txt), so the two files
cannot disagree.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.income import income_of
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.state import GameState
from runner.games.warzone.rules.turn import TurnResult, turn_sequence

PROTOCOL = "td-runner/warzone/1"
#: `rules` keys shown to bots, in spec 4.2's order.
SHOWN_RULES = ("attack_kill_pct", "defend_kill_pct", "blockade_multiplier", "min_reinforcement",
               "reinforcement_card_armies", "one_army_stands_guard", "move_order", "undeployed", "max_orders")


@attrs.frozen
class BotReport:
    """What the runner saw of a bot's last turn (spec 4.2 `last_turn.bot`)."""

    status: str  # ok, timeout, crash, no_file, too_large, refused
    seconds: float | None = None

    def as_json(self) -> dict[str, Any]:
        return {"status": self.status, "seconds": self.seconds}


def map_document(warmap: WarMap) -> dict[str, Any]:
    """The `map` object: identical every turn (spec 4.2), so callers build it once."""
    return {
        "name": warmap.name,
        "continents": [{"id": c.id, "name": c.name, "bonus": c.bonus, "territories": list(warmap.members(c.id))}
                       for c in warmap.continents],
        "territories": [{"id": t.id, "name": t.name, "continent": t.continent,
                         "neighbours": list(warmap.neighbours_of(t.id))} for t in warmap.territories],
    }


def shared_document(state: GameState, warmap: WarMap, rules: Rules, names: Mapping[str, str],
                    map_doc: dict[str, Any] | None = None) -> dict[str, Any]:
    """The parts of this turn's state.json that are the same for every seat (built once per turn)."""
    return {
        "turn": state.turn,
        "max_turns": rules.max_turns,
        "rules": {key: getattr(rules, key) for key in SHOWN_RULES},
        "play_order": list(state.play_order),
        "turn_order": list(turn_sequence(state, rules)),
        "players": [_player(state, warmap, rules, seat, names) for seat in state.players],
        "map": map_doc if map_doc is not None else map_document(warmap),
        "board": [{"id": tid, "owner": state.owner[tid], "armies": state.armies[tid]}
                  for tid in warmap.territory_ids],
    }


def state_document(state: GameState, warmap: WarMap, rules: Rules, seat: str, shared: Mapping[str, Any],
                   last: TurnResult | None, bots: Mapping[str, BotReport]) -> dict[str, Any]:
    """`seat`'s view of the current state, keys in spec 4.2's order; `last` is the previous turn (None on
    turn 1); `shared` comes from `shared_document` for the same state."""
    me = state.players[seat]
    income = income_of(state, warmap, rules, seat)
    return {
        "protocol": PROTOCOL,
        "turn": shared["turn"],
        "max_turns": shared["max_turns"],
        "you": seat,
        "rules": shared["rules"],
        "play_order": shared["play_order"],
        "turn_order": shared["turn_order"],
        "players": shared["players"],
        "me": {
            "pool": me.pool,
            "hand": dict(me.hand),
            "income": {"territories": income.territories, "continents": list(income.continents),
                       "minimum_applied": income.minimum_applied, "total": income.total},
        },
        "map": shared["map"],
        "board": shared["board"],
        "last_turn": None if last is None else _last_turn(last, seat, bots),
    }


def _player(state: GameState, warmap: WarMap, rules: Rules, seat: str, names: Mapping[str, str]) -> dict[str, Any]:
    player = state.players[seat]
    return {
        "seat": seat,
        "name": names.get(seat, seat),
        "alive": player.alive,
        "territories": len(state.owned_by(seat)),
        "armies": state.armies_of(seat),
        "pool": player.pool,
        "income": income_of(state, warmap, rules, seat).total if player.alive else 0,
        "cards": player.card_count,
        "eliminated_turn": player.eliminated_turn,
    }


def _last_turn(last: TurnResult, seat: str, bots: Mapping[str, BotReport]) -> dict[str, Any]:
    """spec 4.2: public events; only this player's rejections and draws."""
    return {
        "turn": last.turn,
        "turn_order": list(last.turn_order),
        "events": list(last.events),
        "rejected": [attrs.asdict(rejection) for rejection in last.rejected.get(seat, ())],
        "cards_drawn": list(last.cards_drawn.get(seat, ())),
        "bot": bots.get(seat, BotReport("no_file")).as_json(),
    }


#: Values every seat's document shares in one turn (the same objects, from `shared_document`), and the
#: shared parts of `last_turn`: rendered once per turn when the caller passes a `fragments` cache.
SHARED_KEYS = frozenset({"rules", "play_order", "turn_order", "players", "map", "board"})
SHARED_LAST_TURN_KEYS = frozenset({"turn", "turn_order", "events"})


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _object(items: Mapping[str, Any], shared: frozenset[str], fragments: dict[str, str], prefix: str) -> str:
    """`_compact(items)`, byte for byte, taking the values named in `shared` from `fragments`."""
    parts = []
    for key, value in items.items():
        if key in shared:
            cached = fragments.get(prefix + key)
            if cached is None:
                cached = fragments[prefix + key] = _compact(value)
            parts.append(f"{_compact(key)}:{cached}")
        else:
            parts.append(f"{_compact(key)}:{_compact(value)}")
    return "{" + ",".join(parts) + "}"


def render_state_json(document: Mapping[str, Any], fragments: dict[str, str] | None = None) -> str:
    """Compact UTF-8 JSON, no spaces (spec 4.2). `fragments` (a fresh dict per turn, shared by every seat's
    document of that turn) caches the parts all seats share; the bytes are the same either way."""
    if fragments is None:
        return _compact(document)
    parts = []
    for key, value in document.items():
        if key == "last_turn" and value is not None:
            text = _object(value, SHARED_LAST_TURN_KEYS, fragments, "last_turn.")
        elif key in SHARED_KEYS:
            text = fragments.get(key) or fragments.setdefault(key, _compact(value))
        else:
            text = _compact(value)
        parts.append(f"{_compact(key)}:{text}")
    return "{" + ",".join(parts) + "}"
