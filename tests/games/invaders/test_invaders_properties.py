"""Property tests over long games: random action streams for both sides (valid, invalid and junk answers)
never raise, the defender's life never rises, gold never goes negative, each cell holds at most one invader
and one tower, and the fast tower and movement phases (rules/turn.py) give exactly what a literal reading of
spec 4 A-B gives."""

from __future__ import annotations

import random
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from runner.games.invaders.rules import State, finish_turn, is_over, render_row, start_turn
from runner.games.invaders.rules import constants as C
from runner.games.invaders.rules.turn import charge_hoarding, grow_economy


def check_invariants(state: State, life_before: int) -> None:
    assert 0 <= state.defender_life <= life_before
    assert state.invader_gold >= 0 and state.defender_gold >= 0
    assert len(state.invaders) == len(state.towers) == C.BOARD_LENGTH
    invaders = [i for i in state.invaders if i is not None]
    towers = [t for t in state.towers if t is not None]
    assert len({id(i) for i in invaders}) == len(invaders) and len({id(t) for t in towers}) == len(towers)
    assert all(i is None or (i.pos == cell and i.hp > 0) for cell, i in enumerate(state.invaders))
    assert all(t is None or t.pos == cell for cell, t in enumerate(state.towers))
    assert all(t.cooldown >= 0 and t.power >= 1 and t.range >= 0 for t in towers)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), rich=st.booleans())
def test_random_long_games_keep_the_invariants(seed: int, rich: bool, random_answers: SimpleNamespace) -> None:
    rng = random.Random(seed)  # a seed, not st.randoms(): a 1500-turn stream is too much data to shrink
    state = State()
    if rich:  # enough gold for a crowded tower row, which the real economy only reaches after many turns
        state.defender_gold = 2000
    for _ in range(1500):
        life = state.defender_life
        start_turn(state)
        check_invariants(state, life)
        actions = finish_turn(state, random_answers.invader(rng, state), random_answers.defender(rng))
        assert isinstance(actions.invader, str) and isinstance(actions.defender, str)
        check_invariants(state, life)
        if is_over(state):
            break


def literal_towers(state: State) -> None:
    """spec 4 A read literally: every cell from 99 down, every covered cell scanned."""
    invaders = state.invaders

    def hit(cell: int, power: int) -> None:
        invader = invaders[cell]
        invader.hp -= max(power - invader.defense, 1)
        if invader.hp <= 0:
            invaders[cell] = None

    for pos in range(99, -1, -1):
        tower = state.towers[pos]
        if tower is None:
            continue
        if tower.cooldown != 0:
            tower.cooldown -= 1
            continue
        covered = [cell for cell in range(pos + tower.range, pos - tower.range - 1, -1) if 0 <= cell <= 99]
        if tower.type == "turret":
            for cell in covered:
                if invaders[cell] is not None:
                    hit(cell, tower.power)
                    break
        elif tower.type == "stunner":
            for cell in covered:
                if invaders[cell] is not None and invaders[cell].stun_time == 0:
                    invaders[cell].stun_time = max(tower.power - invaders[cell].stun_res, 0)
                    tower.cooldown = tower.power + 1
                    break
        elif invaders[pos] is not None:
            for cell in reversed(covered):
                if invaders[cell] is not None:
                    hit(cell, tower.power)
            tower.cooldown = 5


def literal_movement(state: State) -> None:
    """spec 4 B read literally."""
    invaders = state.invaders
    for cell in range(99, -1, -1):
        invader = invaders[cell]
        if invader is None:
            continue
        if invader.stun_time > 0:
            invader.stun_time -= 1
        elif cell == 99:
            invaders[cell] = None
            state.defender_life -= 1
        elif invaders[cell + 1] is None:
            invaders[cell], invaders[cell + 1] = None, invader
            invader.pos = cell + 1


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), gold=st.sampled_from((50, 300, 3000)))
def test_fast_phases_equal_the_literal_spec(seed: int, gold: int, random_answers: SimpleNamespace) -> None:
    rng = random.Random(seed)
    fast, plain = State(), State()
    fast.defender_gold = plain.defender_gold = gold
    for _ in range(1200):
        start_turn(fast)
        literal_towers(plain)
        literal_movement(plain)
        charge_hoarding(plain)
        grow_economy(plain)
        assert render_row(fast) == render_row(plain)
        invader, defender = random_answers.invader(rng, fast), random_answers.defender(rng)
        assert finish_turn(fast, invader, defender) == finish_turn(plain, invader, defender)
        if is_over(fast):
            break
