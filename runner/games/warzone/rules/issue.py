"""Issue-time checks (spec 2.5): turn one player's parsed sheet into accepted deploys and other orders.

Checks run against the state at the start of the turn; nothing here depends on another player's file.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.orders import CARD_OF, Order, OrderSheet, Rejection
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.state import GameState


@attrs.frozen
class Issued:
    """One player's accepted orders: `reinforced` (reinforce lines, applied at issue), D and M of spec 2.5."""

    reinforced: tuple[Order, ...]
    deploys: tuple[Order, ...]
    others: tuple[Order, ...]
    rejected: tuple[Rejection, ...]


@attrs.define
class _Issuer:
    """The running totals of one player's issue: the unassigned pool and the unused hand."""

    state: GameState
    warmap: WarMap
    seat: str
    pool: int
    hand: dict[str, int]

    def owns(self, tid: int) -> bool:
        return self.state.owner[tid] == self.seat

    def not_yours(self, tid: int) -> str | None:
        return None if self.owns(tid) else f"territory {self.warmap.label(tid)} is not yours"

    def same(self, order: Order) -> str | None:
        if order.source == order.target:
            return f"from and to are the same territory {self.warmap.label(order.source)}"
        return None


def _check_deploy(issuer: _Issuer, order: Order) -> tuple[str, str] | None:
    if reason := issuer.not_yours(order.target):
        return "E_NOT_OWNER", reason
    if order.count > issuer.pool:
        return "E_POOL", f"deploy {order.count} but only {issuer.pool} armies left in the pool"
    return None


def _check_advance(issuer: _Issuer, order: Order) -> tuple[str, str] | None:
    # spec 8 R4: `advance 1 1 1` is E_SAME_TERRITORY, so sameness is checked before adjacency
    if reason := issuer.not_yours(order.source):
        return "E_NOT_OWNER", reason
    if reason := issuer.same(order):
        return "E_SAME_TERRITORY", reason
    if not issuer.warmap.is_neighbour(order.source, order.target):
        return "E_NOT_ADJACENT", (f"territory {issuer.warmap.label(order.target)} is not a neighbour of "
                                  f"{issuer.warmap.label(order.source)}")
    return None


def _check_bomb(issuer: _Issuer, order: Order) -> tuple[str, str] | None:
    if issuer.owns(order.target):
        return "E_OWN_TERRITORY", f"territory {issuer.warmap.label(order.target)} is yours"
    if not any(issuer.owns(tid) for tid in issuer.warmap.neighbours_of(order.target)):
        return "E_NOT_ADJACENT", f"territory {issuer.warmap.label(order.target)} touches none of yours"
    return None


def _check_blockade(issuer: _Issuer, order: Order) -> tuple[str, str] | None:
    if reason := issuer.not_yours(order.target):
        return "E_NOT_OWNER", reason
    return None


def _check_airlift(issuer: _Issuer, order: Order) -> tuple[str, str] | None:
    for tid in (order.source, order.target):
        if reason := issuer.not_yours(tid):
            return "E_NOT_OWNER", reason
    if reason := issuer.same(order):
        return "E_SAME_TERRITORY", reason
    return None


def _check_negotiate(issuer: _Issuer, order: Order) -> tuple[str, str] | None:
    if not issuer.state.players[order.seat].alive:
        return "E_PLAYER_GONE", f"player {order.seat} has been eliminated"
    if order.seat == issuer.seat:
        return "E_SELF", "you cannot negotiate with yourself"
    return None


def _check_nothing(issuer: _Issuer, order: Order) -> tuple[str, str] | None:
    return None


_CHECKS: dict[str, Callable[[_Issuer, Order], tuple[str, str] | None]] = {
    "deploy": _check_deploy,
    "advance": _check_advance,
    "airlift": _check_airlift,
    "bomb": _check_bomb,
    "blockade": _check_blockade,
    "negotiate": _check_negotiate,
    "reinforce": _check_nothing,
}


def _check(issuer: _Issuer, order: Order) -> tuple[str, str] | None:
    """The first failing check (spec 2.5 step 3): the table's checks, then an unused card of the type."""
    if failure := _CHECKS[order.kind](issuer, order):
        return failure
    card = CARD_OF.get(order.kind)
    if card is not None and issuer.hand[card] == 0:
        return "E_NO_CARD", f"no unused {card} card in hand"
    return None


def issue_orders(state: GameState, warmap: WarMap, rules: Rules, seat: str, sheet: OrderSheet) -> Issued:
    """Check `seat`'s sheet; applies accepted effects to the state at once: reinforcement cards add to the
    pool, deploys reduce it, played cards leave the hand and go back to the deck (spec 2.5, 2.8)."""
    player = state.players[seat]
    issuer = _Issuer(state, warmap, seat, player.pool, dict(player.hand))
    rejected = list(sheet.rejected)
    reinforced, deploys, others = [], [], []

    def accept_or_reject(order: Order) -> bool:
        if failure := _check(issuer, order):
            rejected.append(Rejection(order.line, order.text, *failure))
            return False
        card = CARD_OF.get(order.kind)
        if card is not None:
            issuer.hand[card] -= 1
            state.deck[card] += 1  # spec 2.8: back in the deck at issue time
        return True

    for order in sheet.orders:  # spec 2.5 step 2: reinforcement cards before anything else
        if order.kind == "reinforce" and accept_or_reject(order):
            issuer.pool += rules.reinforcement_card_armies
            reinforced.append(order)
    for order in sheet.orders:
        if order.kind == "reinforce" or not accept_or_reject(order):
            continue
        if order.kind == "deploy":
            issuer.pool -= order.count
            deploys.append(order)
        else:
            others.append(order)
    player.pool = issuer.pool
    player.hand = issuer.hand
    rejected.sort(key=lambda rejection: rejection.line)
    return Issued(tuple(reinforced), tuple(deploys), tuple(others), tuple(rejected))
