"""What each order does when it executes (spec 2.7), including the battle; skips are events, not errors."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.events import EventLog
from runner.games.warzone.rules.orders import Order
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.state import NEUTRAL, GameState


@attrs.define
class Execution:
    """The running part of one turn: the state, the truces made so far and who conquered something."""

    state: GameState
    warmap: WarMap
    rules: Rules
    log: EventLog
    truces: set[frozenset[str]] = attrs.Factory(set)
    conquered: set[str] = attrs.Factory(set)

    def avail(self, tid: int) -> int:
        """Armies that may leave `tid` (spec 2.7: one stays behind with one_army_stands_guard)."""
        armies = self.state.armies[tid]
        return max(0, armies - 1) if self.rules.one_army_stands_guard else armies

    def in_truce(self, seat: str, other: str) -> bool:
        return other != NEUTRAL and frozenset((seat, other)) in self.truces

    def label(self, tid: int) -> str:
        return self.warmap.label(tid)


def _source_lost(run: Execution, seat: str, order: Order) -> bool:
    if run.state.owner[order.source] == seat:
        return False
    run.log.skipped(seat, order, "S_SOURCE_LOST", f"territory {run.label(order.source)} is no longer yours")
    return True


def _no_armies(run: Execution, seat: str, order: Order, k: int) -> bool:
    if k > 0:
        return False
    run.log.skipped(seat, order, "S_NO_ARMIES", f"no armies can leave territory {run.label(order.source)}")
    return True


def _move(run: Execution, order: Order, k: int) -> None:
    run.state.armies[order.source] -= k
    run.state.armies[order.target] += k


def execute_deploy(run: Execution, seat: str, order: Order) -> None:
    run.state.armies[order.target] += order.count  # spec 2.7: the pool was reduced at issue
    run.log.order_event(seat, order, "deployed", territory=order.target, armies=order.count)


def execute_advance(run: Execution, seat: str, order: Order) -> None:
    state = run.state
    if _source_lost(run, seat, order):
        return
    k = min(order.count, run.avail(order.source))  # spec 1 #13: clamp to what is there
    if _no_armies(run, seat, order, k):
        return
    defender = state.owner[order.target]
    if defender == seat:  # spec 1 #12: ownership at execution time decides move or attack
        _move(run, order, k)
        run.log.order_event(seat, order, "moved", **{"from": order.source, "to": order.target,
                                                     "ordered": order.count, "armies": k})
        return
    if run.in_truce(seat, defender):
        run.log.skipped(seat, order, "S_TRUCE", f"player {seat} and player {defender} are in truce this turn")
        return
    _battle(run, seat, order, k, defender)


def _battle(run: Execution, seat: str, order: Order, k: int, defender: str) -> None:
    """spec 2.7: one simultaneous round, k attacker rolls then d defender rolls from the battle stream."""
    state = run.state
    state.armies[order.source] -= k
    d = state.armies[order.target]
    rng = state.battle_rng
    hits_a = sum(rng.chance(run.rules.attack_kill_pct) for _ in range(k))
    hits_d = sum(rng.chance(run.rules.defend_kill_pct) for _ in range(d))
    defenders_killed, attackers_killed = min(d, hits_a), min(k, hits_d)
    defenders_left, attackers_left = d - defenders_killed, k - attackers_killed
    conquered = defenders_left == 0 and attackers_left >= 1
    if conquered:
        state.owner[order.target] = seat
        state.armies[order.target] = attackers_left
        run.conquered.add(seat)
    else:  # spec 1 #10, #11: survivors go home; both wiped out leaves the defender with 0
        state.armies[order.target] = defenders_left
        state.armies[order.source] += attackers_left
    run.log.order_event(seat, order, "attack", **{
        "from": order.source, "to": order.target, "defender": defender, "ordered": order.count,
        "attackers": k, "defenders": d, "defenders_killed": defenders_killed,
        "attackers_killed": attackers_killed, "attackers_left": attackers_left,
        "defenders_left": defenders_left, "conquered": conquered})


def execute_bomb(run: Execution, seat: str, order: Order) -> None:
    state, target = run.state, order.target
    owner = state.owner[target]
    if owner == seat:
        run.log.skipped(seat, order, "S_OWN_TARGET", f"territory {run.label(target)} is yours now")
    elif not any(state.owner[tid] == seat for tid in run.warmap.neighbours_of(target)):
        run.log.skipped(seat, order, "S_NOT_ADJACENT", f"territory {run.label(target)} touches none of yours now")
    elif run.in_truce(seat, owner):
        run.log.skipped(seat, order, "S_TRUCE", f"player {seat} and player {owner} are in truce this turn")
    else:
        before = state.armies[target]
        state.armies[target] = before // 2  # spec 1 #16: floor(a/2) remain
        run.log.order_event(seat, order, "bombed", territory=target, owner=owner, before=before,
                            after=state.armies[target])


def execute_blockade(run: Execution, seat: str, order: Order) -> None:
    state, target = run.state, order.target
    if state.owner[target] != seat:
        run.log.skipped(seat, order, "S_TARGET_NOT_OWNED", f"territory {run.label(target)} is no longer yours")
        return
    before = state.armies[target]
    state.armies[target] = before * run.rules.blockade_multiplier
    state.owner[target] = NEUTRAL
    run.log.order_event(seat, order, "blockaded", territory=target, before=before, after=state.armies[target])


def execute_airlift(run: Execution, seat: str, order: Order) -> None:
    if _source_lost(run, seat, order):
        return
    if run.state.owner[order.target] != seat:
        run.log.skipped(seat, order, "S_TARGET_NOT_OWNED", f"territory {run.label(order.target)} is no longer yours")
        return
    k = min(order.count, run.avail(order.source))
    if _no_armies(run, seat, order, k):
        return
    _move(run, order, k)
    run.log.order_event(seat, order, "airlifted", **{"from": order.source, "to": order.target,
                                                     "ordered": order.count, "armies": k})


def execute_negotiate(run: Execution, seat: str, order: Order) -> None:
    if not run.state.players[order.seat].alive:
        run.log.skipped(seat, order, "S_PLAYER_GONE", f"player {order.seat} has been eliminated")
        return
    run.truces.add(frozenset((seat, order.seat)))  # spec 2.7: until the end of this turn
    run.log.order_event(seat, order, "truce", **{"with": order.seat})


EXECUTORS: dict[str, Callable[[Execution, str, Order], None]] = {
    "deploy": execute_deploy,
    "advance": execute_advance,
    "airlift": execute_airlift,
    "bomb": execute_bomb,
    "blockade": execute_blockade,
    "negotiate": execute_negotiate,
}
