"""Income (spec 2.4): max(min_reinforcement, floor(T/3) + bonuses of fully owned continents)."""

from __future__ import annotations

import attrs

from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.state import GameState


@attrs.frozen
class Income:
    """The parts of one player's income, as `state.json`'s `me.income` shows them (spec 4.2)."""

    territories: int  # floor(T / 3)
    continents: tuple[int, ...]  # ids of the continents owned whole
    minimum_applied: bool
    total: int


def income_of(state: GameState, warmap: WarMap, rules: Rules, seat: str) -> Income:
    """`seat`'s income from the current board (spec 2.4; the minimum applies to the total)."""
    owned = [state.owner[tid] == seat for tid in range(len(state.owner))]
    base = sum(owned) // 3
    whole = tuple(c.id for c in warmap.continents if all(owned[tid] for tid in warmap.members(c.id)))
    earned = base + sum(warmap.continents[cid - 1].bonus for cid in whole)
    return Income(base, whole, earned < rules.min_reinforcement, max(rules.min_reinforcement, earned))
