"""spec 12.1: board, row rule, cells, money, recruit-then-deploy, header/trailer, parsing, end of game, income."""

from __future__ import annotations

import attrs
import pytest

from runner.games.lanes.protocol.commands import parse_commands, read_orders
from runner.games.lanes.rules.orders import Deploy, Stance
from runner.games.lanes.rules.state import GameState, Player, Tower, new_game
from runner.games.lanes.rules.turn import decide, play_turn
from tests.games.lanes.lanes_helpers import CONFIG, commands, play, play_first


def codes(text: str, state: GameState | None = None, player: int = 0) -> list[str]:
    state = state or new_game(CONFIG)
    orders, problems = read_orders(text, state, player, CONFIG)
    assert (orders is None) == bool(problems)
    return [p.code for p in problems]


def test_board_is_7_by_21_and_towers_go_on_rows_0_to_19() -> None:
    assert (CONFIG.width, CONFIG.rows, CONFIG.deploy_row, CONFIG.max_build_row) == (7, 21, 20, 19)
    assert codes(commands(1, "BUILD missile 0 0", "BUILD missile 6 19")) == []
    assert codes(commands(1, "BUILD missile 3 20")) == ["E10"]
    assert codes(commands(1, "BUILD missile 3 -1")) == ["E10"]
    assert codes(commands(1, "BUILD missile 7 3")) == ["E09"]


def test_six_towers_per_row_and_a_destroyed_one_frees_a_place() -> None:
    six = [f"BUILD blockade {col} 10" for col in range(6)]
    assert codes(commands(1, *six)) == []
    assert codes(commands(1, *six, "BUILD blockade 6 10")) == ["E12"]
    # P1's bomb breaks P2's blockade at (0,10) (ten hits, t=10..19); then P2 may build a sixth again
    result = play_first(["RECRUIT bomb", "DEPLOY bomb 1 0"], six)
    assert codes(commands(2, "BUILD blockade 6 10"), result.state, player=1) == []
    assert result.summary.towers_lost == (0, 1)
    whole = attrs.evolve(result.state, towers=(result.state.towers[0], tuple(
        Tower("blockade", col, 10, 30) for col in range(6))))
    assert codes(commands(2, "BUILD blockade 6 10"), whole, player=1) == ["E12"]


def test_an_occupied_cell_gives_e11_even_when_filled_by_an_earlier_line() -> None:
    assert codes(commands(1, "BUILD missile 2 4", "BUILD rocket 2 4")) == ["E11"]
    state = attrs.evolve(new_game(CONFIG), towers=((Tower("frost", 0, 4, 10),), ()))
    assert codes(commands(1, "BUILD missile 0 4"), state) == ["E11"]


def test_money_is_paid_in_file_order_and_an_overdraft_rejects_the_whole_file() -> None:
    poor = attrs.evolve(new_game(CONFIG), players=(Player(10, 10, dict.fromkeys(CONFIG.soldier_types, 0)),) * 2)
    assert codes(commands(1, "RECRUIT bomb 3", "BUILD blockade 0 0"), poor) == []  # 9 + 1
    text = commands(1, "BUILD missile 0 0", "RECRUIT bomb 4", "RECRUIT rifle 1", "DEPLOY rifle 1 0")
    orders, problems = read_orders(text, poor, 0, CONFIG)
    assert orders is None
    assert [str(p) for p in problems] == ["E13 line 3: not enough money for 4 bomb (cost 12, left 7)"]
    # the rejected player does nothing (no build, no recruit, no deployment) and sees its errors next turn
    after = play_turn(CONFIG, poor, (None, None), (tuple(map(str, problems)), ()))
    assert after.state.towers == ((), ()) and after.state.players[0].money == 11
    assert after.summary.deployments == ((), ())
    assert after.state.errors[0] == ("E13 line 3: not enough money for 4 bomb (cost 12, left 7)",)


def test_recruits_count_for_deploys_wherever_they_stand_in_the_file() -> None:
    assert codes(commands(1, "RECRUIT rifle 2", "DEPLOY rifle 1 0 3")) == ["E17"]
    assert codes(commands(1, "DEPLOY rifle 1 0 2", "RECRUIT rifle 2")) == []
    assert codes(commands(1, "DEPLOY rifle 1 0", "DEPLOY rifle 2 0 2", "RECRUIT rifle 2")) == ["E17"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (commands(2), ["E03"]),  # in turn 3
        ("TURN 3\nBUILD missile 0 0\n", ["E04"]),
        ("TURN 3\nEND\nBUILD missile 0 0\nEND\n", ["E04"]),
        ("TURN 3\nTURN 3\nEND\n", ["E03"]),
        ("BUILD missile 0 0\nEND\n", ["E03"]),
        ("", ["E03", "E04"]),
        ("# only a comment\n\n", ["E03", "E04"]),
    ],
)
def test_header_and_trailer(text: str, expected: list[str]) -> None:
    state = attrs.evolve(new_game(CONFIG), turn=3)
    assert codes(text, state) == expected


def test_keywords_are_case_insensitive_and_comments_and_blank_lines_are_skipped() -> None:
    text = "# plan\n\nturn 1   # header\n\tBuild MISSILE 3\t2\n  recruit Rifle 2\n\nDeploy RIFLE 1 0 2 FIRE\nend\n"
    orders, problems = read_orders(text, new_game(CONFIG), 0, CONFIG)
    assert problems == [] and orders is not None
    assert [c.line for c in orders.commands] == [4, 5, 7]
    assert orders.deploys == (Deploy("rifle", 1, 0, 2, Stance.FIRE, 7),)


def test_deploy_optional_fields() -> None:
    parsed = parse_commands(commands(1, "DEPLOY rifle 5 3 fire", "DEPLOY rifle 5 3 2", "DEPLOY horse 9 1"), 1, CONFIG)
    assert parsed.problems == ()
    assert [(d.count, d.stance) for d in parsed.orders.deploys] == [
        (1, Stance.FIRE), (2, Stance.ADVANCE), (1, Stance.ADVANCE)]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("BUILD missile x 3", "E05"),
        ("BUILD missile 1.5 3", "E05"),
        ("SELL missile 1 3", "E06"),
        ("BUILD missile 1", "E06"),
        ("RECRUIT", "E06"),
        ("DEPLOY rifle 1 2 3 fire extra", "E06"),
        ("BUILD laser 1 3", "E07"),
        ("RECRUIT tank", "E08"),
        ("DEPLOY tank 1 3", "E08"),
        ("BUILD frost 9 3", "E09"),
        ("BUILD frost 3 25", "E10"),
        ("RECRUIT rifle 0", "E14"),
        ("RECRUIT rifle 1001", "E14"),
        ("DEPLOY rifle 0 3", "E15"),
        ("DEPLOY rifle 1 3 1 charge", "E16"),
        ("DEPLOY rifle 1 3 charge", "E16"),
        ("DEPLOY rifle 1 3", "E17"),
    ],
)
def test_each_code_for_one_bad_line(line: str, code: str) -> None:
    assert codes(commands(1, line)) == [code]


def test_every_problem_is_reported_in_line_order() -> None:
    text = commands(1, "BUILD laser x 3", "RECRUIT tank", "DEPLOY rifle 101 9")
    orders, problems = read_orders(text, new_game(CONFIG), 0, CONFIG)
    assert [str(p) for p in problems] == [
        "E07 line 2: unknown tower type 'laser' (missile, rocket, frost, blockade)",
        "E05 line 2: 'x' is not an integer",
        "E08 line 3: unknown soldier type 'tank' (shield, rifle, bomb, horse)",
        "E15 line 4: timestep 101 out of range 1..100",
        "E09 line 4: column 9 out of range 0..6",
    ]


def test_oversized_files_give_e02() -> None:
    assert codes("TURN 1\n" + "#" * 70_000 + "\nEND\n") == ["E02"]
    assert codes("TURN 1\n" + "\n" * 2001 + "END\n") == ["E02"]
    # spec 10.5: larger than 65536 bytes is E02; exactly 65536 is accepted (the runner reads 65537 to tell)
    padding = 65536 - len("TURN 1\n#\nEND\n")
    assert codes("TURN 1\n#" + "x" * (padding + 1) + "\nEND\n") == ["E02"]
    assert codes("TURN 1\n#" + "x" * padding + "\nEND\n") == []


def test_an_owned_soldier_deploys_at_most_once_and_unscheduled_ones_sit_out() -> None:
    first = play_first(["RECRUIT rifle 5", "DEPLOY rifle 1 0 2"], [])
    assert first.state.players[0].soldiers["rifle"] == 5
    assert [(e.timestep, e.col, e.soldier) for e in first.summary.deployments[0]] == [(1, 0, "rifle")] * 2
    assert max(step[1] for step in first.steps) == 2  # never more than the two scheduled on lane 2
    assert codes(commands(2, "DEPLOY rifle 1 0 3", "DEPLOY rifle 5 1 3"), first.state) == ["E17"]


def test_end_of_game() -> None:
    state = new_game(CONFIG)
    both_down = attrs.evolve(state, turn=5, players=(Player(0, 1, {}), Player(-3, 1, {})))
    assert decide(CONFIG, both_down) == decide(CONFIG, both_down) and decide(CONFIG, both_down).winner is None
    one_down = attrs.evolve(both_down, players=(Player(1, 1, {}), Player(0, 1, {})))
    assert (decide(CONFIG, one_down).winner, decide(CONFIG, one_down).reason) == (0, "hp")
    assert decide(CONFIG, attrs.evolve(state, turn=100)) is None
    last = attrs.evolve(state, turn=101, players=(Player(9, 1, {}), Player(10, 1, {})))
    assert (decide(CONFIG, last).winner, decide(CONFIG, last).reason) == (1, "max_turns")
    assert decide(CONFIG, attrs.evolve(state, turn=101)).winner is None  # 10-10 after turn 100: a draw


def test_income_after_turn_one() -> None:
    result = play_first([], [])
    assert [p.money for p in result.state.players] == [101, 101]
    assert play(result.state, [], []).state.players[0].money == 102
