"""spec 10 and 12.3: state.json, map.txt, errors.txt, the config's JSON form, and commands.txt never raising."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner.errors import UserError
from runner.games.lanes.protocol.commands import parse_commands, read_orders, render_orders, render_problems
from runner.games.lanes.protocol.config_json import parse_config, render_config
from runner.games.lanes.protocol.state_json import render_state, render_state_data
from runner.games.lanes.protocol.text_map import render_map
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.state import GameState, Player, Tower, new_game
from tests.games.lanes.lanes_helpers import CONFIG, commands, play_first

SCHEMAS = Path(__file__).parents[3] / "schema" / "lanes"


def schema_validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


SPEC_UNITS = {  # spec 10.2 / 12.1.8, copied from the spec's table
    "missile": {"kind": "tower", "hp": 10, "damage": 2, "range": 2, "speed": 0, "cost": 3},
    "rocket": {"kind": "tower", "hp": 10, "damage": 1, "range": 2, "speed": 0, "cost": 3},
    "frost": {"kind": "tower", "hp": 10, "damage": 1, "range": 1, "speed": 0, "cost": 3},
    "blockade": {"kind": "tower", "hp": 30, "damage": 0, "range": 0, "speed": 0, "cost": 1},
    "shield": {"kind": "soldier", "hp": 5, "damage": 1, "range": 1, "speed": 1, "cost": 2},
    "rifle": {"kind": "soldier", "hp": 3, "damage": 1, "range": 2, "speed": 1, "cost": 2},
    "bomb": {"kind": "soldier", "hp": 3, "damage": 3, "range": 1, "speed": 1, "cost": 3},
    "horse": {"kind": "soldier", "hp": 3, "damage": 1, "range": 1, "speed": 2, "cost": 3},
}


def test_state_json_has_exactly_the_fields_of_10_2() -> None:
    data = render_state_data(CONFIG, new_game(CONFIG), 0)
    assert list(data) == [
        "protocol", "turn", "max_turns", "timesteps", "you", "board", "units", "me", "opponent", "last_turn", "errors"
    ]
    assert data["board"] == {
        "width": 7, "rows": 21, "deploy_row": 20, "goal_row": 0, "max_build_row": 19, "max_towers_per_row": 6
    }
    assert data["units"] == SPEC_UNITS and list(data["units"]) == list(SPEC_UNITS)
    assert data["me"] == {"hp": 10, "money": 100, "soldiers": dict.fromkeys(["shield", "rifle", "bomb", "horse"], 0),
                          "towers": []}
    assert data["opponent"] == {"hp": 10, "towers": []}
    assert (data["protocol"], data["turn"], data["you"], data["last_turn"], data["errors"]) == (
        "twolane-1", 1, 1, None, [])
    schema_validator("state").validate(data)


def test_last_turn_lists_the_opponents_scheduled_soldiers_including_the_dead() -> None:
    result = play_first(["RECRUIT rifle 3", "DEPLOY rifle 1 3 3"], ["BUILD rocket 3 5"])  # scenario D
    p2 = json.loads(render_state(CONFIG, result.state, 1))
    assert p2["you"] == 2 and p2["turn"] == 2
    assert p2["last_turn"] == {
        "scored": {"me": 0, "opponent": 0},
        "killed": {"me": 0, "opponent": 3},
        "towers_lost": {"me": 0, "opponent": 0},
        "opponent_deployments": [[1, 3, "rifle"]] * 3,
    }
    assert p2["me"]["towers"] == [{"type": "rocket", "col": 3, "row": 5, "hp": 7}]
    p1 = json.loads(render_state(CONFIG, result.state, 0))
    assert p1["last_turn"]["killed"] == {"me": 3, "opponent": 0}
    assert p1["last_turn"]["opponent_deployments"] == []
    assert "money" not in p1["opponent"] and p1["me"]["soldiers"]["rifle"] == 3
    for data in (p1, p2):
        schema_validator("state").validate(data)


def test_a_rejected_file_reaches_the_next_state_and_errors_txt() -> None:
    state = new_game(CONFIG)
    orders, problems = read_orders(commands(1, "RECRUIT rifle 2", "DEPLOY rifle 1 0 3"), state, 0, CONFIG)
    assert orders is None
    text = render_problems(problems)
    assert text == "E17 line 3: deploying 3 more rifle exceeds the 2 owned (already scheduled 0)\n"
    after = attrs.evolve(state, errors=(tuple(text.splitlines()), ()))
    assert json.loads(render_state(CONFIG, after, 0))["errors"] == text.splitlines()
    assert render_problems([]) == ""


SPEC_FRAME = """\
turn 1 t=5  P1 hp 10 money 81 | P2 hp 10 money 91
lane 1        lane 2
20 .......    20 .......
19 .......    19 .......
18 .......    18 .......
17 ......s    17 .......
16 .......    16 .......
15 .......    15 ...3...
14 .......    14 .......
13 .......    13 .......
12 .......    12 h......
11 .......    11 h......
10 .......    10 B......
 9 .......     9 .......
 8 .......     8 .......
 7 .......     7 .......
 6 .B.....     6 .......
 5 .......     5 ...R...
 4 .......     4 .......
 3 .....F.     3 .M.....
 2 ..M....     2 .......
 1 .......     1 .......
 0 .......     0 .......
   0123456       0123456
"""


def test_map_txt_reproduces_the_spec_frame() -> None:
    state = GameState(
        turn=1,
        players=(Player(10, 81, {}), Player(10, 91, {})),
        towers=(
            (Tower("blockade", 1, 6, 30), Tower("frost", 5, 3, 10), Tower("missile", 2, 2, 10)),
            (Tower("blockade", 0, 10, 30), Tower("rocket", 3, 5, 10), Tower("missile", 1, 3, 10)),
        ),
    )
    lane2 = [("rifle", 3, 15)] * 3 + [("horse", 0, 12), ("horse", 0, 11)]
    text = render_map(CONFIG, state, ([("shield", 6, 17)], lane2), timestep=5, show_money=True)
    assert text == SPEC_FRAME


def test_map_txt_for_bots_hides_money_and_shows_ten_soldiers_as_a_star() -> None:
    text = render_map(CONFIG, new_game(CONFIG), ([("bomb", 2, 20)] * 10, []))
    assert text.splitlines()[0] == "turn 1  P1 hp 10 | P2 hp 10"
    assert text.splitlines()[2] == "20 ..*....    20 ......."


def test_config_round_trips_and_matches_its_schema() -> None:
    data = render_config(CONFIG)
    schema_validator("game-config").validate(data)
    assert parse_config(data) == CONFIG
    assert parse_config({}) == CONFIG
    changed = parse_config({"start_hp": 30, "units": {"rifle": {"damage": 2}}})
    assert changed.start_hp == 30 and changed.units["rifle"].damage == 2 and changed.units["rifle"].hp == 3


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "expected a JSON object"),
        ({"start_hp": "10"}, "start_hp: expected an integer"),
        ({"start_hp": 0}, "below the minimum"),
        ({"colour": 1}, "unknown key 'colour'"),
        ({"units": {"laser": {}}}, "unknown unit 'laser'"),
        ({"units": {"rifle": {"kind": "tower"}}}, "kind must stay"),
        ({"units": {"horse": {"speed": 0}}}, "range and speed"),
        ({"max_towers_per_row": 7}, "below width"),
    ],
)
def test_bad_configs_are_one_line_user_errors(data: object, words: str) -> None:
    with pytest.raises(UserError, match=words):
        parse_config(data)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("TURNENDBUILDRECRUITDEPLOYmissilerifle fire#0123456789-+\n\t\r x")),
               max_size=200))
def test_any_commands_text_never_raises(text: str) -> None:
    state = attrs.evolve(new_game(CONFIG), turn=1)
    for body in (text, f"TURN 1\n{text}\nEND\n"):
        orders, problems = read_orders(body, state, 0, CONFIG)
        assert (orders is None) == bool(problems)
        assert all(p.code in {f"E{n:02d}" for n in range(2, 18)} for p in problems)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_unicode_text_never_raises(text: str) -> None:
    read_orders(text, new_game(CONFIG), 1, CONFIG)


command_lines = st.one_of(
    st.builds("BUILD {} {} {}".format, st.sampled_from(CONFIG.tower_types), st.integers(0, 6), st.integers(0, 19)),
    st.builds("RECRUIT {} {}".format, st.sampled_from(CONFIG.soldier_types), st.integers(1, 5)),
    st.builds("DEPLOY {} {} {} {} {}".format, st.sampled_from(CONFIG.soldier_types), st.integers(1, 100),
              st.integers(0, 6), st.integers(1, 3), st.sampled_from(["advance", "fire"])),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(command_lines, max_size=12))
def test_parse_render_parse_is_stable(lines: list[str]) -> None:
    parsed = parse_commands(commands(4, *lines), 4, CONFIG)
    assert parsed.problems == ()
    normal = render_orders(parsed.orders, 4)
    again = parse_commands("\n".join(normal) + "\n", 4, CONFIG)
    assert render_orders(again.orders, 4) == normal
    assert [attrs.evolve(c, line=0) for c in again.orders.commands] == [
        attrs.evolve(c, line=0) for c in parsed.orders.commands]


def test_game_config_json_default_values_validate() -> None:
    schema_validator("game-config").validate({})
    assert LanesConfig().deploy_row == 20
