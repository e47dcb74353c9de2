"""The hand-checked test vectors of spec section 10 (V1-V11), played through the pure engine."""

from __future__ import annotations

import json

import attrs
import pytest

from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.game import EndReason, check_game_over, play_round
from runner.games.tower_defence.engine.state import CommandOrder, GameState
from runner.games.tower_defence.protocol import Renderers
from runner.games.tower_defence.protocol.end_game import render_end_game_state

RICH = attrs.evolve(GameConfig(), start_energy=1000)


def play(config: GameConfig, script: dict[int, dict[str, str]], rounds: int,
         order: CommandOrder = CommandOrder.A_FIRST) -> GameState:
    """Play `rounds` rounds; `script[r]` holds the commands of round r (missing seats send "")."""
    state = GameState.new(config, command_order=order)
    for number in range(rounds):
        play_round(state, script.get(number, {}))
    return state


def view(state: GameState, seat: str = "A") -> dict:
    return json.loads(Renderers(state.config).state_json(state, seat))


def energy_score(state: GameState, seat: str) -> tuple[int, int]:
    player = state.players[seat]
    return player.energy, player.score


def test_v1_worked_example() -> None:
    state = play(GameConfig(), {0: {"A": "0,0,2"}, 2: {"B": "6,3,1"}}, 4)
    assert energy_score(state, "A") == (29, 32)
    assert energy_score(state, "B") == (10, 24)
    a_view, b_view = view(state, "A"), view(state, "B")
    assert a_view["gameMap"][3][7]["missiles"][0]["playerType"] == "B"
    assert a_view["gameMap"][3][9]["buildings"][0]["weaponCooldownTimeLeft"] == 3
    # B's view: players keep engine order with swapped labels; the board is mirrored
    assert [p["playerType"] for p in b_view["players"]] == ["B", "A"]
    assert b_view["gameMap"][0][15]["buildings"][0]["playerType"] == "B"
    assert b_view["gameMap"][3][8]["missiles"][0]["playerType"] == "A"
    assert b_view["gameMap"][3][8]["missiles"][0]["id"] == a_view["gameMap"][3][7]["missiles"][0]["id"]


def test_v3_attack_timing_and_win() -> None:
    script = {0: {"A": "7,3,1", "B": "3,3,0"}}
    state = play(RICH, script, 2)
    assert [(m.x, m.y) for m in state.missiles] == [(9, 3)]
    play_round(state, {})
    assert [(m.x, m.y) for m in state.missiles] == [(11, 3)]
    play_round(state, {})  # round 3: the defence is built and the missile entering (12,3) hits it
    defence = state.grid[(12, 3)]
    assert defence.health == 15 and state.players["A"].score == 29
    assert state.grid[(7, 3)].weapon_cooldown_time_left == 1
    while check_game_over(state) is None:
        play_round(state, {})
    result = check_game_over(state)
    assert state.round == 98 and result.winner == "A" and result.reason is EndReason.HEALTH
    names = {"A": "A - Alpha", "B": "B - Beta"}
    assert render_end_game_state(state, result, names) == (
        "The winner is: A - Alpha\n\nA - Alpha- score:2014 health:100\nB - Beta- score:500 health:0\n"
    )


@pytest.mark.parametrize("command, final_round", [("a,b,c", 50), ("1,2", 25), ("Exception", 50)])
def test_v4_do_nothing_limit(command: str, final_round: int) -> None:
    state = GameState.new(GameConfig())
    while check_game_over(state) is None:
        play_round(state, {"A": command})
    result = check_game_over(state)
    assert state.round == final_round and result.reason is EndReason.DO_NOTHING_LIMIT
    if command == "a,b,c":
        names = {"A": "A - Alpha", "B": "B - Beta"}
        assert render_end_game_state(state, result, names) == (
            "Bot did nothing too many consecutive rounds\n\nThe game ended in a tie\n\n"
            "A - Alpha- score:250 health:100\nB - Beta- score:250 health:100\n"
        )


def test_v4_bad_type_does_not_reset_the_counter() -> None:
    state = GameState.new(GameConfig())
    for number in range(51):
        play_round(state, {"A": "9,9,9" if number == 49 else "a,b,c"})
        if check_game_over(state) is not None:
            break
    assert state.round == 50


def test_blank_commands_neither_reset_nor_count() -> None:
    state = GameState.new(GameConfig())
    for command in ("a,b,c", "", "No Command", "a,b,c"):
        play_round(state, {"A": command})
    assert state.players["A"].do_nothing_streak == 2
    play_round(state, {"A": "0,0,4"})  # well formed but too expensive: reset to 0, then +1
    assert state.players["A"].do_nothing_streak == 1


@pytest.mark.parametrize("order", list(CommandOrder))
def test_v5_tesla_duel(order: CommandOrder) -> None:
    state = play(RICH, {0: {"A": "6,3,4", "B": "1,3,4"}}, 11, order)
    a_shot = [(14, 3, "B"), (6, 3, "A")]
    b_shot = [(6, 3, "A"), (14, 3, "B")]
    expected = [a_shot, b_shot] if order is CommandOrder.A_FIRST else [b_shot, a_shot]
    assert state.tesla_hits == expected
    assert energy_score(state, "A") == (855, 125) and energy_score(state, "B") == (855, 125)
    assert view(state, "B")["teslaHitList"] == view(state, "A")["teslaHitList"]  # never mirrored


def test_v6_tesla_against_buildings_and_base() -> None:
    script = {0: {"A": "6,3,4", "B": "0,2,0"}, 1: {"A": "7,3,4", "B": "1,3,1"}, 2: {"B": "2,4,2"},
              3: {"B": "0,4,4"}}
    state = play(RICH, script, 11)
    assert state.tesla_hits == [[(13, 4, "B"), (14, 3, "B"), (15, 2, "B"), (6, 3, "A")]]
    score = state.players["A"].score
    play_round(state, {})
    assert state.tesla_hits == [[(0, 0, "B"), (7, 3, "A")]]
    assert state.players["B"].health == 80 and state.players["A"].score == score + 305
    play_round(state, {})
    play_round(state, {})
    assert state.tesla_hits == [[(7, 3, "A"), (6, 3, "A"), (15, 4, "B")]]


def test_v7_curtain_blocks_tesla() -> None:
    script = {0: {"A": "6,3,4", "B": "0,2,0"}, 1: {"A": "7,3,4", "B": "5,3,1"}, 2: {"B": "2,4,2"},
              3: {"B": "0,4,4"}, 31: {"A": "0,0,5"}}
    state = play(RICH, script, 35)
    energy_before = state.players["B"].energy
    play_round(state, {})
    assert state.tesla_hits == [[(15, 4, "B"), (7, 4, "B")]]
    assert state.curtain_hits == [(7, 4, "B")]
    assert state.players["B"].energy == energy_before - 100 + 5


def test_v8_curtain_blocks_missiles() -> None:
    script = {0: {"B": "7,0,1"}, 1: {"B": "6,1,1"}, 31: {"A": "0,0,5"}}
    state = play(RICH, script, 32)
    lifetimes = []
    for number in range(32, 38):
        lifetimes.append(state.players["A"].iron_curtain_time_left)
        if number == 34:
            assert state.curtain_hits == [(7, 0, "B")]
        if number == 35:
            assert state.curtain_hits == [(7, 1, "B")]
        play_round(state, {})
    assert lifetimes == [5, 4, 3, 2, 1, 0]


def test_v9_curtain_reset_round_activation() -> None:
    curtain = {60: "0,0,5", 61: "0,0,5", 65: "0,0,5", 66: "0,0,5", 67: "0,0,5"}
    state = GameState.new(RICH)
    errors = {}
    for number in range(68):
        play_round(state, {"A": curtain.get(number, "")})
        errors[number] = list(state.errors)
        if number == 60:
            assert state.players["A"].can_place_iron_curtain and state.players["A"].iron_curtain_time_left == 5
        if number == 66:
            assert not state.players["A"].can_place_iron_curtain
            assert state.players["A"].iron_curtain_time_left == 5
    one_active = ["Player A: Invalid command received: You can only have one [1] active Iron Curtain at any time"]
    assert errors[60] == [] and errors[66] == []
    assert errors[61] == one_active and errors[65] == one_active
    assert errors[67] == ["Player A: Invalid command received: Cannot place the Iron Curtain consecutively, "
                          "wait until [23] rounds have elapsed"]


def test_v10_killed_attack_building_still_fires() -> None:
    state = play(RICH, {0: {"B": "7,3,1"}, 3: {"A": "0,3,4"}}, 14)
    assert (8, 3) not in state.grid
    assert any((m.x, m.y, m.owner) == (6, 3, "B") for m in state.missiles)


def test_v11_missile_ignores_building_finished_under_it() -> None:
    state = play(RICH, {0: {"A": "7,3,1"}, 5: {"B": "6,3,2"}}, 6)
    assert state.grid[(9, 3)].construction_time_left == 0
    assert any((m.x, m.y) == (9, 3) for m in state.missiles)
    play_round(state, {})
    assert state.grid[(9, 3)].health == 5 and state.grid[(9, 3)].construction_time_left == -1
    assert any((m.x, m.y) == (11, 3) for m in state.missiles)


def test_b_errors_show_engine_x() -> None:
    state = play(RICH, {0: {"B": "0,0,2"}, 1: {"B": "0,0,2"}}, 2)
    assert state.errors == ["Player B: Invalid command received: Cannot build a building on a cell occupied "
                            "by another building, X:15, Y:0"]
    play_round(state, {"B": "1,1,3"})
    assert state.errors == ["Player B: Invalid command received: No building to deconstruct, X:14, Y:1"]


def test_round_zero_curtains_are_reported_active() -> None:
    state = GameState.new(GameConfig())
    assert all(p["isIronCurtainActive"] for p in view(state)["players"])
    assert " \\ / " in Renderers(state.config).console(state)
