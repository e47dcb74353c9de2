"""One turn (spec 2.3): reinforcement, issue, the two-phase round robin (spec 2.6), end of turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.cards import draw_card
from runner.games.warzone.rules.events import EventLog
from runner.games.warzone.rules.execute import EXECUTORS, Execution
from runner.games.warzone.rules.income import income_of
from runner.games.warzone.rules.issue import issue_orders
from runner.games.warzone.rules.orders import Order, OrderSheet, Rejection
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.state import GameState


@attrs.frozen
class TurnResult:
    """The full record of one turn: public events, and each player's private rejections and draws."""

    turn: int
    turn_order: tuple[str, ...]
    events: tuple[dict[str, Any], ...]
    rejected: Mapping[str, tuple[Rejection, ...]]
    cards_drawn: Mapping[str, tuple[str, ...]]


def turn_sequence(state: GameState, rules: Rules) -> tuple[str, ...]:
    """This turn's sequence R (spec 2.6): rotated by (t-1) mod N with `rotate`, minus eliminated seats."""
    order = state.play_order
    if rules.move_order == "rotate":
        s = (state.turn - 1) % len(order)
        order = order[s:] + order[:s]
    return tuple(seat for seat in order if state.players[seat].alive)


def begin_turn(state: GameState, warmap: WarMap, rules: Rules) -> None:
    """Move to the next turn and add every alive player's income to their pool (spec 2.3 step 1)."""
    state.turn += 1
    for seat in state.alive_seats():
        state.players[seat].pool += income_of(state, warmap, rules, seat).total


def play_turn(state: GameState, warmap: WarMap, rules: Rules, sheets: Mapping[str, OrderSheet]) -> TurnResult:
    """Play the current turn with each alive seat's parsed sheet (missing: no orders), then begin the next
    turn unless the game is over (then only the turn number moves on, so the final state has its own number)."""
    sequence = turn_sequence(state, rules)
    run = Execution(state, warmap, rules, EventLog())
    issued = {seat: issue_orders(state, warmap, rules, seat, sheets.get(seat, OrderSheet())) for seat in sequence}
    for seat in sequence:  # spec 4.2: reinforced events first, in R, each in file order
        for order in issued[seat].reinforced:
            run.log.order_event(seat, order, "reinforced", armies=rules.reinforcement_card_armies)
    _round_robin(run, sequence, {seat: list(issued[seat].deploys) for seat in sequence}, phase_two=False)
    _round_robin(run, sequence, {seat: list(issued[seat].others) for seat in sequence}, phase_two=True)
    drawn = _end_turn(run, sequence)
    result = TurnResult(
        turn=state.turn,
        turn_order=sequence,
        events=tuple(run.log.events),
        rejected={seat: issued[seat].rejected for seat in sequence},
        cards_drawn=drawn,
    )
    if state.is_over:
        state.turn += 1
    else:
        begin_turn(state, warmap, rules)
    return result


def _round_robin(run: Execution, sequence: tuple[str, ...], queues: dict[str, list[Order]], phase_two: bool) -> None:
    """Passes over R, each alive player executing their next order, until no orders are left (spec 2.6)."""
    position = dict.fromkeys(sequence, 0)
    while not run.state.is_over:
        ran = False
        for seat in sequence:
            if not run.state.players[seat].alive or position[seat] >= len(queues[seat]):
                continue
            order = queues[seat][position[seat]]
            position[seat] += 1
            EXECUTORS[order.kind](run, seat, order)
            ran = True
            if phase_two:
                _eliminate(run, sequence, queues, position)
                if run.state.is_over:
                    return
        if not ran:
            return


def _eliminate(run: Execution, sequence: tuple[str, ...], queues: dict[str, list[Order]],
               position: dict[str, int]) -> None:
    """spec 2.6: after each order, players owning nothing are out, their remaining orders dropped; the game
    ends as soon as at most one player is alive (spec 2.9)."""
    state = run.state
    for seat in sequence:
        player = state.players[seat]
        if player.alive and not state.owned_by(seat):
            player.eliminated_turn = state.turn
            run.log.game_event("eliminated", player=seat)
            for order in queues[seat][position[seat]:]:
                run.log.order_event(seat, order, "dropped")
            position[seat] = len(queues[seat])
    alive = state.alive_seats()
    if len(alive) <= 1:
        state.winner = alive[0] if alive else None
        state.end_reason = "conquest"
        run.log.game_event("game_over", winner=state.winner, reason="conquest")


def _end_turn(run: Execution, sequence: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """spec 2.3 step 5: card rewards in R (none once the game is over), truces end, the turn limit."""
    state, rules = run.state, run.rules
    drawn: dict[str, tuple[str, ...]] = {seat: () for seat in sequence}
    if state.is_over:
        return drawn
    for seat in sequence:
        if seat in run.conquered and state.players[seat].alive:
            kind = draw_card(state.deck, state.cards_rng)
            if kind is not None:
                state.players[seat].hand[kind] += 1
                drawn[seat] = (kind,)
                run.log.game_event("card", player=seat)
    run.truces.clear()
    if rules.undeployed == "lose":
        for seat in sequence:
            state.players[seat].pool = 0
    if rules.max_turns and state.turn >= rules.max_turns:
        state.end_reason = "max_turns"
        run.log.game_event("game_over", winner=None, reason="max_turns")
    return drawn
