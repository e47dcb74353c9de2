"""The shipped schemas: well-formed, accepting every official state, rejecting broken files with clear paths."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner import fastschema, schemas
from runner.games.tower_defence.config_file import game_config_to_json
from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.validate import STATE, check_json, check_state_board
from runner.validate import validate_path

OURS = ("game-config", "runner-config", "state", "match")
EXAMPLE_STATE = Path(__file__).parent / "data" / "example-state.json"


def _problems(name: str, data: Any) -> list[str]:
    return [str(problem) for problem in schemas.check_schema(name, data)]


def _state_problems(data: Any) -> list[str]:
    return [str(p) for p in check_json(STATE, json.dumps(data).encode(), check_state_board)[1]]


@pytest.fixture(scope="module")
def example_state() -> dict[str, Any]:
    return json.loads(EXAMPLE_STATE.read_text(encoding="utf-8"))


@pytest.fixture
def state(example_state: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(example_state)


def _match_json() -> dict[str, Any]:
    player = {
        "seat": "A", "name": "A - Bot", "bot_dir": "/bots/a", "language": "python3", "score": 10, "health": 0,
        "timeouts": 1, "crashes": 0, "invalid_commands": 2, "bot_seconds": 0.25,
    }  # fmt: skip
    return {
        "players": [player, dict(player, seat="B", name="B - Console", bot_dir=None, language="console")],
        "winner": "B",
        "rounds": 37,
        "end_reason": "health",
        "seed": 0,
        "game_config": game_config_to_json(GameConfig()),
        "wall_seconds": 3.5,
    }


# --- the schema files themselves -------------------------------------------------------------------------


@pytest.mark.parametrize("name", OURS)
def test_schema_is_well_formed_and_documented(name: str) -> None:
    schema = json.loads(schemas.schema_path(name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"{schemas.SCHEMA_BASE}{name}.schema.json"
    assert schema["title"] and len(schema["description"]) > 40


@pytest.mark.parametrize("name", (*OURS, "bot"))
def test_fast_check_compiles_every_schema_we_ship(name: str) -> None:
    schema = schemas.validator(name).schema
    fastschema.compile_schema(schema, schemas._registry().resolver(schema["$id"]))  # no Unsupported


# --- state.schema.json -----------------------------------------------------------------------------------


def test_official_example_state_is_valid(example_state: dict[str, Any]) -> None:
    assert _state_problems(example_state) == []
    assert schemas._quick_check(STATE)(example_state)  # the fast path, not only jsonschema, accepts it


def test_every_state_of_every_conformance_trace_is_valid(conformance_root: Path) -> None:
    expected = sorted(conformance_root.glob("*/Round */*/JsonMap.json"))
    checked = []
    for trace in sorted(conformance_root.iterdir()):
        for report in validate_path(trace):
            assert report.is_valid, (report.path, report.problems[:3], report.unreadable)
            if report.kind == STATE:
                checked.append(report.path)
    assert sorted(checked) == expected
    assert len(expected) > 3000


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda s: s.pop("gameMap"), "$: missing key 'gameMap'"),
        (lambda s: s["gameMap"][2][3].update(cellOwner="C"), "$.gameMap[2][3].cellOwner: 'C' is not one of 'A', 'B'"),
        (lambda s: s["gameMap"][0][0]["buildings"][0].update(buildingType="WALL"),
         "$.gameMap[0][0].buildings[0].buildingType: 'WALL' is not one of 'DEFENSE', 'ATTACK', 'ENERGY', 'TESLA'"),
        (lambda s: s["gameMap"][0][0]["buildings"][0].pop("health"), "$.gameMap[0][0].buildings[0]: missing key 'health'"),
        (lambda s: s["players"][1].update(energy=30.5), "$.players[1].energy: 30.5 is not of type 'integer'"),
        (lambda s: s["players"][0].update(energy=-1), "$.players[0].energy: -1 is less than the minimum of 0"),
        (lambda s: s["players"].pop(), "$.players: [{'playerType': 'A', 'energy': 4077, 'health': 100, 'hitsTaken': 0, "
         "'score': 7247, 'ironCurtainAvailable': False, 'activeIronCurtainLifetime': 3, 'isIronCurtainActive': True}] "
         "is too short"),
        (lambda s: s["gameDetails"].update(extra=1), "$.gameDetails: unknown key 'extra'"),
        (lambda s: s["gameDetails"]["buildingPrices"].pop("TESLA"), "$.gameDetails.buildingPrices: missing key 'TESLA'"),
        (lambda s: s["teslaHitList"].append([{"x": 1, "y": 1, "playerType": "C"}]),
         "$.teslaHitList[0][0].playerType: 'C' is not one of 'A', 'B'"),
        (lambda s: s["gameMap"][5][9]["missiles"].append({"damage": 5, "speed": 2, "id": "x", "x": 9, "y": 5, "playerType": "A"}),
         "$.gameMap[5][9].missiles[0].id: 'x' does not match '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'"),
        (lambda s: s["gameDetails"].update(mapWidth=15), "$.gameDetails.mapWidth: 15 is not a multiple of 2"),
    ],
)  # fmt: skip
def test_schema_rejects_broken_states(state: dict[str, Any], change, expected: str) -> None:
    change(state)
    assert expected in _state_problems(state)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda s: s["gameMap"].pop(), "$.gameMap: 7 rows, but mapHeight is 8"),
        (lambda s: s["gameMap"][4].pop(), "$.gameMap[4]: 15 cells, but mapWidth is 16"),
        (lambda s: s["gameMap"][1][2].update(x=5), "$.gameMap[1][2]: cell says x=5, y=1, but sits at x=2, y=1"),
        (lambda s: s["gameMap"][1][12].update(cellOwner="A"), "$.gameMap[1][12].cellOwner: 'A', but x=12 is in B's half"),
        (lambda s: s["gameMap"][0][0]["buildings"][0].update(y=3), "$.gameMap[0][0].buildings[0]: at x=0, y=3, not in its cell"),
        (lambda s: s["players"][1].update(playerType="A"), "$.players: playerType values are ['A', 'A'], expected one 'A' and one 'B'"),
        (lambda s: s["players"][0].update(isIronCurtainActive=False), "$.players[0].isIronCurtainActive: disagrees with activeIronCurtainLifetime >= 0"),
        (lambda s: s["gameDetails"]["buildingPrices"].update(TESLA=100), "$.gameDetails.buildingPrices.TESLA: 100, but buildingsStats says 300"),
        (lambda s: s["ironCurtainHitList"].append({"x": 16, "y": 0, "playerType": "A"}), "$.ironCurtainHitList[0]: x=16, y=0 is off the 16x8 board"),
    ],
)  # fmt: skip
def test_board_rules_beyond_the_schema(state: dict[str, Any], change, expected: str) -> None:
    change(state)
    assert schemas.check_schema(STATE, state) == []  # the schema alone cannot see these
    assert _state_problems(state) == [expected]


# --- match.schema.json -----------------------------------------------------------------------------------


def test_match_json_valid_examples() -> None:
    match = _match_json()
    assert _problems("match", match) == []
    match["players"][0]["events"] = [{"round": 3, "event": "exit code 1"}]
    match["players"][1]["future_counter"] = 4  # documented: new snake_case keys are allowed
    match["runner_version"] = "0.2.0"
    match.update(winner=None, end_reason="interrupted")
    assert _problems("match", match) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda m: m.pop("seed"), "$: missing key 'seed'"),
        (lambda m: m.update(winner="C"), "$.winner: 'C' is not one of 'A', 'B', None"),
        (lambda m: m.update(end_reason="timeout"),
         "$.end_reason: 'timeout' is not one of 'health', 'max_rounds', 'do_nothing_limit', 'interrupted'"),
        (lambda m: m.update(endReason="health"), "$: bad key 'endReason': 'endReason' does not match '^[a-z][a-z0-9_]*$'"),
        (lambda m: m["players"].reverse(), "$.players[0].seat: 'B' should be 'A'"),
        (lambda m: m["players"].append(m["players"][0]), "$.players: Expected at most 2 items but found 1 extra: "),
        (lambda m: m["players"][0].pop("invalid_commands"), "$.players[0]: missing key 'invalid_commands'"),
        (lambda m: m["players"][1].update(bot_seconds=-1), "$.players[1].bot_seconds: -1 is less than the minimum of 0"),
        (lambda m: m["players"][1].update(events=[{"round": 1}]), "$.players[1].events[0]: missing key 'event'"),
        (lambda m: m["game_config"].update(mapWidth=15), "$.game_config.mapWidth: 15 is not a multiple of 2"),
        (lambda m: m["game_config"].pop("buildings"), "$.game_config: missing key 'buildings'"),
        (lambda m: m.update(rounds=-1), "$.rounds: -1 is less than the minimum of 0"),
    ],
)  # fmt: skip
def test_match_json_invalid_examples(change, expected: str) -> None:
    match = _match_json()
    change(match)
    assert any(problem.startswith(expected) for problem in _problems("match", match)), _problems("match", match)


# --- the fast check never says yes to an invalid document --------------------------------------------------

_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.floats(-1, 20, allow_nan=False) | st.sampled_from(["A", "B", "", "TESLA", "x"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.sampled_from(["x", "y", "id", "price"]), children, max_size=3),
    max_leaves=6,
)  # fmt: skip


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node[:3]):
            found += _paths(value, path + (index,))
    return found


def _mutate(document: Any, data: st.DataObject) -> Any:
    document = copy.deepcopy(document)
    path = data.draw(st.sampled_from(_paths(document)[1:]))
    parent = document
    for part in path[:-1]:
        parent = parent[part]
    action = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if action == "delete":
        del parent[path[-1]]
    elif action == "add" and isinstance(parent, dict):
        parent[data.draw(st.sampled_from(["extra", "x", "playerType", "$schema"]))] = data.draw(_json_values)
    else:
        parent[path[-1]] = data.draw(_json_values)
    return document


@settings(max_examples=300, deadline=None)
@given(data=st.data(), name=st.sampled_from(OURS))
def test_fast_check_is_sound(data: st.DataObject, name: str) -> None:
    examples = {
        "state": json.loads(EXAMPLE_STATE.read_text(encoding="utf-8")),
        "match": _match_json(),
        "game-config": game_config_to_json(GameConfig()),
        "runner-config": {"player-a": "a", "max-runtime-ms": 5, "limits": {"open-files": 9}, "languages": {"x": ["y"]}},
    }
    document = _mutate(examples[name], data)
    if schemas._quick_check(name)(document):
        assert list(schemas.validator(name).iter_errors(document)) == []
