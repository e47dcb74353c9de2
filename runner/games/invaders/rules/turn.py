"""One turn of spec 4, split where the AIs are asked: `start_turn` runs phases A-G, `finish_turn` applies
both answers (I, J). Bots see the state between the two (spec 4 H), so a session holds it there.

Hot path: a game runs tens of thousands of turns, so the phases are plain loops over the two rows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import compress
from typing import Any

import attrs

from runner.games.invaders.rules import constants as C
from runner.games.invaders.rules.actions import (
    Build,
    DefenderAction,
    Destroy,
    Invalid,
    Spawn,
    Upgrade,
    parse_defender_action,
    parse_invader_action,
)
from runner.games.invaders.rules.jsnum import to_int32
from runner.games.invaders.rules.state import Invader, State, Tower, new_tower

APPLIED = "applied"
NO_ACTION = "none"


@attrs.frozen
class Penalty:
    """The hoarding penalty that fired this turn (spec 4 C): gold lost is trunc(base * mult)."""

    base: int
    mult: float


@attrs.frozen
class Actions:
    """What became of both answers: APPLIED, NO_ACTION or the reason the action was ignored."""

    invader: str
    defender: str

    @property
    def spawned(self) -> bool:
        return self.invader == APPLIED


QUIET_TURN = Actions(NO_ACTION, NO_ACTION)  # both answered null


def _damage(invaders: list[Invader | None], cell: int, invader: Invader, power: int) -> None:
    # spec 4 A: damage is max(power - defense, 1); a dead invader leaves its cell at once
    loss = power - invader.defense
    invader.hp -= loss if loss > 1 else 1
    if invader.hp <= 0:
        invaders[cell] = None


def occupied_cells(state: State) -> list[int]:
    """The invader row's occupied cells, ascending."""
    return list(compress(_ROW, state.invaders))  # an Invader is truthy, an empty cell None


_ROW = range(C.BOARD_LENGTH)
_CELLS = frozenset(_ROW)
_LAST, _TURRET, _STUNNER = C.LAST_CELL, C.TURRET, C.STUNNER  # module globals: read once per tower, every turn


def _tower_cells(occupied: list[int], reach: int) -> Iterable[int]:
    """Tower cells, descending, that may see an invader of `occupied` with a range up to `reach`."""
    if len(occupied) * (2 * reach + 1) >= C.BOARD_LENGTH:
        return range(C.LAST_CELL, -1, -1)
    cells = {cell for invader in occupied for cell in range(invader - reach, invader + reach + 1)}
    return sorted(cells & _CELLS, reverse=True)  # spec 3.1: cells outside 0..99 hold nothing


def run_towers(state: State, occupied: list[int] | None = None) -> None:
    """spec 4 A: towers act from cell 99 down to 0; a tower on cooldown only counts down.

    `occupied` is `occupied_cells(state)` when the caller has it. Only towers within reach of an invader are
    visited in order: a tower's action touches invaders and its own cooldown only, so the towers that merely
    count down can do so apart, and a tower with no invader in reach at the start of the phase has none when
    its turn comes (towers never add invaders).
    """
    towers = state.towers
    present = list(filter(None, towers))
    counting = [tower for tower in present if tower.cooldown]
    if occupied is None:
        occupied = occupied_cells(state)
    if occupied and len(counting) < len(present):  # an invader, and a tower ready to act
        reach = max([tower.range for tower in present])
        _fire(state.invaders, towers, _tower_cells(occupied, reach))
    for tower in counting:  # these had a cooldown when the phase started, so none of them fired
        tower.cooldown -= 1


def _fire(invaders: list[Invader | None], towers: list[Tower | None], cells: Iterable[int]) -> None:
    """The towers of `cells` (descending) that are off cooldown act, each seeing the kills before it."""
    for pos in cells:
        tower = towers[pos]
        if tower is None or tower.cooldown:
            continue
        reach = tower.range
        low = pos - reach if pos > reach else 0  # spec 3.1: cells outside 0..99 are empty, never wrapped
        high = pos + reach
        if high > _LAST:
            high = _LAST
        kind = tower.type
        if kind == _TURRET:
            if reach == 1 and pos:  # most turrets: the three cells unrolled (high is pos + 1 or 99)
                cell = high
                invader = invaders[cell]
                if invader is None and high != pos:
                    cell = pos
                    invader = invaders[cell]
                if invader is None:
                    cell = pos - 1
                    invader = invaders[cell]
                if invader is not None:
                    loss = tower.power - invader.defense
                    invader.hp -= loss if loss > 1 else 1
                    if invader.hp <= 0:
                        invaders[cell] = None
                continue
            for cell in range(high, low - 1, -1):  # farthest-along invader first
                invader = invaders[cell]
                if invader is not None:
                    loss = tower.power - invader.defense  # _damage, inlined: the hottest line of a game
                    invader.hp -= loss if loss > 1 else 1
                    if invader.hp <= 0:
                        invaders[cell] = None
                    break
        elif kind == _STUNNER:
            for cell in range(high, low - 1, -1):
                invader = invaders[cell]
                if invader is not None and invader.stun_time == 0:
                    resisted = tower.power - invader.stun_res
                    invader.stun_time = resisted if resisted > 0 else 0
                    tower.cooldown = tower.power + 1  # even when fully resisted
                    break
        elif invaders[pos] is not None:  # bomb: only its own cell triggers it, whatever the range
            for cell in range(low, high + 1):
                invader = invaders[cell]
                if invader is not None:
                    _damage(invaders, cell, invader, tower.power)
            tower.cooldown = C.BOMB_COOLDOWN


def move_invaders(state: State, occupied: list[int] | None = None) -> None:
    """spec 4 B: farthest first, so a queue behind a moving leader advances together.

    `occupied` may list the cells occupied at any earlier point of this turn (towers only remove invaders):
    a moving invader lands on a higher cell, which was already visited.
    """
    invaders = state.invaders
    for cell in reversed(occupied_cells(state) if occupied is None else occupied):
        invader = invaders[cell]
        if invader is None:
            continue
        if invader.stun_time > 0:
            invader.stun_time -= 1
        elif cell == C.LAST_CELL:
            invaders[cell] = None
            state.defender_life -= 1
        elif invaders[cell + 1] is None:
            invaders[cell + 1] = invader
            invaders[cell] = None
            invader.pos = cell + 1


def charge_hoarding(state: State) -> Penalty | None:
    """spec 4 C: every 10 turns without a spawn past the first 10, lose trunc(base * mult) gold."""
    state.turns_since_spawn += 1
    if state.turns_since_spawn % C.HOARD_PENALTY_INTERVAL:
        return None
    base = state.turns_since_spawn // C.HOARD_PENALTY_INTERVAL - 1
    if base <= 0:
        return None
    mult = max(math.sqrt(state.invader_income - 10), 1)  # the income before this turn's growth
    state.invader_gold -= int(base * mult)
    if state.invader_gold < 0:
        state.invader_gold = 0
    return Penalty(base, mult)


def grow_economy(state: State) -> None:
    """spec 4 D-G: the clock, income every 10 turns, growth every 100, the HP multiplier every 25000."""
    state.turn += 1
    turn = state.turn
    if turn % C.INCOME_INTERVAL:
        return
    state.invader_gold += state.invader_income
    state.defender_gold += 1
    if turn % C.INCOME_INCREASE_INTERVAL == 0:
        # spec 4 F: trunc(log10(T)) is the digit count minus one (checked equal in the spec)
        digits = len(str(turn)) - 1
        state.invader_income += digits - 1
        state.invader_boost_max += digits
    if turn % C.HP_MULT_INTERVAL == 0:
        state.hp_multiplier *= C.INVADER_HP_MULTIPLIER_GROWTH_RATE


def start_turn(state: State) -> Penalty | None:
    """Phases A-G of the next turn; afterwards `state.turn` is the turn the AIs decide (spec 4 H)."""
    occupied = occupied_cells(state)
    run_towers(state, occupied)
    move_invaders(state, occupied)
    penalty = charge_hoarding(state)
    grow_economy(state)
    return penalty


def spawn_cost(spawn: Spawn) -> int:
    """spec 4 I: 10 + h + 10d + 10s."""
    return C.BASE_COST + C.HP_COST * spawn.hp + C.DEF_COST * spawn.defense + C.RES_COST * spawn.stun_res


def check_spawn(state: State, spawn: Spawn) -> str | None:
    """Why a spawn fails (spec 4 I), or None when it succeeds."""
    if state.invaders[0] is not None:
        return "spawn: cell 0 is occupied"
    cost = spawn_cost(spawn)
    if state.invader_gold < cost:
        return f"spawn: costs {cost} gold, invader has {state.invader_gold}"
    boost = spawn.hp + spawn.defense + spawn.stun_res
    if boost > state.invader_boost_max:
        return f"spawn: boosts total {boost}, the cap is {state.invader_boost_max}"
    return None


def spawn_invader(state: State, spawn: Spawn) -> None:
    """spec 4 I: a checked spawn; only defense and stun resistance escape the HP multiplier."""
    hp = to_int32((C.BASE_HP + spawn.hp) * state.hp_multiplier)
    state.invaders[0] = Invader(0, hp, hp, spawn.defense, spawn.stun_res)
    state.invader_gold -= spawn_cost(spawn)
    state.turns_since_spawn = 0


def check_defender(state: State, action: DefenderAction) -> str | None:
    """Why a defender action fails (spec 4 J), or None when it succeeds."""
    tower = state.towers[action.pos]
    if isinstance(action, Build):
        if tower is not None:
            return f"build: tower cell {action.pos} is occupied"
        if state.defender_gold < C.BUILD_COST:
            return f"build: costs {C.BUILD_COST} gold, defender has {state.defender_gold}"
        return None
    if tower is None:
        return f"{'upgrade' if isinstance(action, Upgrade) else 'destroy'}: no tower at {action.pos}"
    if isinstance(action, Upgrade) and state.defender_gold < C.UPGRADE_COST:
        return f"upgrade: costs {C.UPGRADE_COST} gold, defender has {state.defender_gold}"
    return None  # spec 4 J: destroy is allowed at any time, even on cooldown


def apply_defender(state: State, action: DefenderAction) -> None:
    """Carry out a checked defender action (spec 4 J)."""
    if isinstance(action, Build):
        state.towers[action.pos] = new_tower(action.pos, action.type)
        state.defender_gold -= C.BUILD_COST
    elif isinstance(action, Upgrade):
        tower = state.towers[action.pos]
        tower.level += 1
        if action.stat == "power":
            tower.power += 1
        else:
            tower.range += 1
        tower.cooldown = C.UPGRADE_TIME  # spec 13 #5: overwrites any cooldown, locked or firing
        state.defender_gold -= C.UPGRADE_COST
    elif isinstance(action, Destroy):
        tower = state.towers[action.pos]
        state.towers[action.pos] = None
        state.defender_gold += (C.BUILD_COST + C.UPGRADE_COST * tower.level) // 2  # half of what was spent


def _outcome_of(parsed: Any, check: Any, apply: Any, state: State) -> str:
    if parsed is None:
        return NO_ACTION
    if isinstance(parsed, Invalid):
        return parsed.reason
    reason = check(state, parsed)
    if reason is not None:
        return reason
    apply(state, parsed)
    return APPLIED


def finish_turn(
    state: State, invader_answer: Any, defender_answer: Any, spawn: Any = spawn_invader, defend: Any = apply_defender
) -> Actions:
    """Phases I and J: apply the invader's then the defender's JSON answer; never raises on any value.

    `spawn` and `defend` carry out a checked action: the compiled board (board.py) passes its own, so the
    parsing, the checks and their words are these in both.
    """
    if invader_answer is None and defender_answer is None:  # most turns of most games
        return QUIET_TURN
    invader = _outcome_of(parse_invader_action(invader_answer), check_spawn, spawn, state)
    defender = _outcome_of(parse_defender_action(defender_answer), check_defender, defend, state)
    return Actions(invader, defender)


def is_over(state: State) -> bool:
    """spec 4 K: the game ends on the turn the defender's life reaches 0."""
    return state.defender_life <= 0
