"""Rules details the traces do not reach: spec 18 validation, JS truthiness, cell bounds, growth, ToInt32."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner.games.invaders.rules import APPLIED, NO_ACTION, State, finish_turn, start_turn
from runner.games.invaders.rules.actions import (
    Build,
    Destroy,
    Invalid,
    Spawn,
    Upgrade,
    parse_defender_action,
    parse_invader_action,
)
from runner.games.invaders.rules.jsnum import is_truthy, js_number, to_int32
from runner.games.invaders.rules.state import Invader, new_tower
from runner.games.invaders.rules.turn import move_invaders, run_towers

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=6,
)
action_like = st.fixed_dictionaries(
    {},
    optional={
        "action": st.sampled_from(["build", "upgrade", "destroy", "spawn", "sell"]) | json_values,
        "type": st.sampled_from(["turret", "bomb", "stunner", "laser"]) | json_values,
        "stat": st.sampled_from(["power", "range", "speed"]) | json_values,
        "pos": st.integers(-3, 103) | st.floats(-3, 103) | json_values,
        "hp": st.integers(-3, 30) | json_values,
        "defense": st.integers(-3, 3) | json_values,
        "stunRes": st.integers(-3, 3) | json_values,
    },
)


@pytest.mark.parametrize("value", [None, False, 0, 0.0, "", float("nan")])
def test_falsy_answers_are_no_action(value: object) -> None:
    assert not is_truthy(value)
    assert parse_invader_action(value) is None
    assert parse_defender_action(value) is None


@pytest.mark.parametrize("value", [{}, [], True, 7, "x", [5]])
def test_any_truthy_invader_answer_is_a_plain_spawn(value: object) -> None:
    # spec 8: {} and [] are truthy in JavaScript; a non-object has no boost properties
    assert parse_invader_action(value) == Spawn()


def test_invader_boosts() -> None:
    assert parse_invader_action({"hp": 3, "defense": 1.0, "stunRes": None, "action": "spawn"}) == Spawn(3, 1, 0)
    for bad in (1.5, -1, True, "5", [5]):
        parsed = parse_invader_action({"hp": bad})
        assert isinstance(parsed, Invalid) and "hp must be a non-negative integer" in parsed.reason


def test_defender_actions_and_spec18_pos() -> None:
    assert parse_defender_action({"action": "build", "type": "bomb", "pos": 5.0}) == Build(5, "bomb")
    assert parse_defender_action({"action": "upgrade", "stat": "range", "pos": 0}) == Upgrade(0, "range")
    assert parse_defender_action({"action": "destroy", "pos": 99}) == Destroy(99)
    for pos in (2.5, True, "5", "05", 100, -1, None, [1]):
        parsed = parse_defender_action({"action": "build", "type": "turret", "pos": pos})
        assert isinstance(parsed, Invalid) and "pos must be an integer in 0..99" in parsed.reason
    assert "unknown action" in parse_defender_action({"action": "sell", "pos": 3}).reason
    assert "unknown tower type" in parse_defender_action({"action": "build", "type": "laser", "pos": 3}).reason
    assert "unknown stat" in parse_defender_action({"action": "upgrade", "stat": "speed", "pos": 3}).reason
    assert "not an action object" in parse_defender_action([1]).reason


@settings(max_examples=120, deadline=None)
@given(invader=json_values | action_like, defender=json_values | action_like)
def test_any_answers_never_raise_and_keep_the_state_sane(invader: object, defender: object) -> None:
    state = State(invader_gold=1000, invader_boost_max=5, defender_gold=100)
    state.towers[3] = new_tower(3, "turret")
    actions = finish_turn(state, invader, defender)
    assert isinstance(actions.invader, str) and isinstance(actions.defender, str)
    assert state.invader_gold >= 0 and state.defender_gold >= 0
    assert all(t is None or (t.pos == i and isinstance(t.pos, int)) for i, t in enumerate(state.towers))
    assert all(i is None or isinstance(i.hp, int) for i in state.invaders)
    json.dumps([actions.invader, actions.defender])


def test_spawn_checks_cell_gold_and_the_cap_on_the_sum() -> None:
    state = State(invader_gold=100, invader_boost_max=3)
    assert finish_turn(state, {"hp": 2, "defense": 1, "stunRes": 1}, None).invader.startswith("spawn: boosts total 4")
    assert finish_turn(state, {"defense": 2, "stunRes": 1}, None).spawned
    assert state.invader_gold == 100 - 40 and state.turns_since_spawn == 0
    assert state.invaders[0].defense == 2 and state.invaders[0].hp == 10
    assert finish_turn(state, {}, None).invader == "spawn: cell 0 is occupied"
    state.invaders[0] = None
    assert finish_turn(state, {"hp": 3}, None).invader == APPLIED and state.invader_gold == 47
    assert finish_turn(State(invader_gold=9), True, None).invader == "spawn: costs 10 gold, invader has 9"
    assert finish_turn(State(), None, None).invader == NO_ACTION


def test_hp_multiplier_applies_with_truncation() -> None:
    state = State(invader_gold=100, invader_boost_max=10, hp_multiplier=1.1 * 1.1)
    finish_turn(state, {"hp": 7}, None)
    assert state.invaders[0].hp == int(17 * 1.2100000000000002) == 20


def test_defender_build_upgrade_destroy_refund() -> None:
    state = State(defender_gold=30)
    assert finish_turn(state, None, {"action": "build", "type": "stunner", "pos": 7}).defender == APPLIED
    tower = state.towers[7]
    assert (tower.power, tower.range, tower.cooldown, tower.level) == (1, 0, 10, 0)
    assert "occupied" in finish_turn(state, None, {"action": "build", "type": "bomb", "pos": 7}).defender
    tower.cooldown = 3
    assert finish_turn(state, None, {"action": "upgrade", "stat": "range", "pos": 7}).defender == APPLIED
    assert (tower.range, tower.cooldown, tower.level) == (1, 10, 1)  # spec 13 #5: overwrites the lock
    assert "no tower at 8" in finish_turn(state, None, {"action": "destroy", "pos": 8}).defender
    assert state.defender_gold == 10
    assert finish_turn(state, None, {"action": "destroy", "pos": 7}).defender == APPLIED
    assert state.defender_gold == 20 and state.towers[7] is None  # refund 5 + 5 * level


def test_tower_ranges_never_wrap_around_the_row() -> None:
    state = State()
    state.invaders[99] = Invader(99, 5, 5, 0, 0)
    turret = new_tower(0, "turret")
    turret.cooldown, turret.range = 0, 1
    state.towers[0] = turret
    bomb = new_tower(1, "bomb")
    bomb.cooldown = 0
    state.towers[1] = bomb
    run_towers(state)
    assert state.invaders[99].hp == 5  # index -1 is not cell 99


def test_stunner_bomb_and_movement() -> None:
    state = State()
    for cell in (4, 5, 6):
        state.invaders[cell] = Invader(cell, 3, 3, 0, 0)
    stunner = new_tower(6, "stunner")
    stunner.cooldown, stunner.power = 0, 2
    bomb = new_tower(5, "bomb")
    bomb.cooldown, bomb.range = 0, 1
    state.towers[5], state.towers[6] = bomb, stunner
    run_towers(state)
    assert state.invaders[6].stun_time == 2 and stunner.cooldown == 3 and bomb.cooldown == 5
    assert [state.invaders[c].hp for c in (4, 5, 6)] == [2, 2, 2]
    move_invaders(state)
    assert [c for c, i in enumerate(state.invaders) if i] == [4, 5, 6]  # the stunned leader holds the queue
    state.invaders[6].stun_time = 0
    move_invaders(state)
    assert [(c, i.pos) for c, i in enumerate(state.invaders) if i] == [(5, 5), (6, 6), (7, 7)]


def test_exit_costs_a_life_and_one_turn_clock() -> None:
    state = State()
    state.invaders[99] = Invader(99, 5, 5, 0, 0)
    start_turn(state)
    assert state.defender_life == 99 and state.turn == 1 and not any(state.invaders)


@pytest.mark.parametrize(
    ("turn", "income", "cap"),
    [(100, 11, 2), (200, 12, 4), (900, 19, 18), (1000, 21, 21), (1100, 23, 24), (9900, 199, 288), (10000, 202, 292)],
)
def test_growth_table_of_spec_4f(turn: int, income: int, cap: int) -> None:
    state = State(turns_since_spawn=-10**9)
    while state.turn < turn:
        start_turn(state)
    assert (state.invader_income, state.invader_boost_max) == (income, cap)


def test_hp_multiplier_grows_every_25000_turns() -> None:
    state = State(turn=24999)
    start_turn(state)
    assert state.hp_multiplier == 1.1
    state.turn = 49999
    start_turn(state)
    assert state.hp_multiplier == 1.2100000000000002


def test_hoarding_penalty_floors_gold_at_zero() -> None:
    state = State(turns_since_spawn=29, invader_gold=1, invader_income=14)
    penalty = start_turn(state)
    assert (penalty.base, penalty.mult) == (2, 2.0) and state.invader_gold == 0


def test_js_numbers() -> None:
    assert to_int32(2**31 + 0.5) == -(2**31) and to_int32(-1.9) == -1 and to_int32(float("inf")) == 0
    assert js_number(1.0) == 1 and isinstance(js_number(1.0), int) and js_number(1.1) == 1.1
