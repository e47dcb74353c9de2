"""The rule settings of a match (spec 6, minus the map): one frozen record the rules read everywhere."""

from __future__ import annotations

import attrs

MOVE_ORDERS = ("rotate", "fixed")
UNDEPLOYED = ("keep", "lose")


@attrs.frozen
class Rules:
    """spec 6 defaults; `max_turns` 0 means no limit."""

    max_turns: int = 100
    initial_pool: int = 50
    initial_armies: int = 0
    initial_cards: int = 2
    deck_per_type: int = 10
    min_reinforcement: int = 3
    attack_kill_pct: int = 60
    defend_kill_pct: int = 70
    blockade_multiplier: int = 3
    reinforcement_card_armies: int = 5
    one_army_stands_guard: bool = False
    move_order: str = "rotate"
    undeployed: str = "keep"
    max_orders: int = 500
