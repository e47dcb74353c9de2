"""matchlog.compare: normalisation of JSON states and difference finding with paths / line numbers."""

from __future__ import annotations

import json

import pytest

from runner.games.tower_defence.logs.compare import (
    MISSING,
    TEXT_MAP_SECTIONS,
    Difference,
    compare_states,
    compare_text,
    json_differences,
    normalise_state,
)


def _missile(x: int, owner: str, ident: str) -> dict:
    return {"damage": 5, "speed": 2, "id": ident, "x": x, "y": 3, "playerType": owner}


def _state(*, missiles: list, prices_order=("ATTACK", "DEFENSE"), tesla=None, curtain=None, score=10) -> str:
    prices = {"ATTACK": 30, "DEFENSE": 30}
    state = {
        "gameDetails": {
            "round": 4,
            "buildingPrices": {key: prices[key] for key in prices_order},
            "buildingsStats": {key: {"price": prices[key]} for key in prices_order},
        },
        "players": [{"playerType": "A", "score": score}, {"playerType": "B", "score": 7}],
        "gameMap": [[{"x": 7, "y": 3, "buildings": [], "missiles": missiles, "cellOwner": "A"}]],
        "teslaHitList": tesla or [],
        "ironCurtainHitList": curtain or [],
    }
    return json.dumps(state, separators=(",", ":"))


def test_normalise_drops_missile_ids_and_sorts_stats_keys() -> None:
    state = normalise_state(_state(missiles=[_missile(7, "A", "x-1")], prices_order=("DEFENSE", "ATTACK")),
                            ignore_list_order=False)
    assert state["gameMap"][0][0]["missiles"] == [{"damage": 5, "speed": 2, "x": 7, "y": 3, "playerType": "A"}]
    assert list(state["gameDetails"]["buildingPrices"]) == ["ATTACK", "DEFENSE"]
    assert list(state["gameDetails"]["buildingsStats"]) == ["ATTACK", "DEFENSE"]


def test_states_differing_only_in_ids_and_key_order_are_equivalent() -> None:
    a = _state(missiles=[_missile(7, "A", "id-1")])
    b = _state(missiles=[_missile(7, "A", "id-2")], prices_order=("DEFENSE", "ATTACK"))
    assert compare_states(a, b, ignore_list_order=False) == []


def test_list_order_is_forgiven_only_on_request() -> None:
    tesla_ab = [[{"x": 1, "y": 1, "playerType": "A"}], [{"x": 9, "y": 1, "playerType": "B"}]]
    curtain_ab = [{"x": 8, "y": 2, "playerType": "A"}, {"x": 7, "y": 5, "playerType": "B"}]
    a = _state(missiles=[_missile(7, "A", "1"), _missile(7, "B", "2")], tesla=tesla_ab, curtain=curtain_ab)
    b = _state(missiles=[_missile(7, "B", "3"), _missile(7, "A", "4")], tesla=tesla_ab[::-1], curtain=curtain_ab[::-1])
    assert compare_states(a, b, ignore_list_order=True) == []
    paths = [d.path for d in compare_states(a, b, ignore_list_order=False, limit=None)]
    assert paths == [
        "gameMap[0][0].missiles[0].playerType",
        "gameMap[0][0].missiles[1].playerType",
        "teslaHitList[0][0].x",
        "teslaHitList[0][0].playerType",
        "teslaHitList[1][0].x",
        "teslaHitList[1][0].playerType",
        "ironCurtainHitList[0].x",
        "ironCurtainHitList[0].y",
        "ironCurtainHitList[0].playerType",
        "ironCurtainHitList[1].x",
        "ironCurtainHitList[1].y",
        "ironCurtainHitList[1].playerType",
    ]


def test_a_changed_value_is_located_by_path() -> None:
    a = _state(missiles=[], score=10)
    b = _state(missiles=[], score=11)
    assert compare_states(a, b, ignore_list_order=True) == [Difference("players[0].score", 10, 11)]
    first = next(json_differences(json.loads(a), json.loads(b)))
    assert (first.path, first.expected, first.actual) == ("players[0].score", 10, 11)
    assert next(json_differences(json.loads(a), json.loads(a)), None) is None


def test_missing_keys_types_and_list_lengths() -> None:
    expected = {"a": 1, "b": [1, 2], "c": True, "d": 1}
    actual = {"a": 1, "b": [1, 2, 3], "c": 1, "e": 2, "d": 1.0}
    assert list(json_differences(expected, actual)) == [
        Difference("b", [1, 2], [1, 2, 3]),  # different lengths: the whole list, once
        Difference("c", True, 1),  # bool is not int
        Difference("d", 1, 1.0),
        Difference("e", MISSING, 2),
    ]
    assert list(json_differences({"x": {"y": 1}}, {"x": {}})) == [Difference("x.y", 1, MISSING)]


def test_compare_states_rejects_non_json() -> None:
    with pytest.raises(ValueError):
        compare_states("{", "{}", ignore_list_order=True)


TEXT_MAP_TAIL = (
    "######## BUILDING DATA #########\nFORMAT : [x,y] Owner|BuildingType \n\n{buildings}"
    "###############################\n\n####### MISSILE DATA ########\nFORMAT : [x,y] Owner|Damage|Speed \n\n"
    "{missiles}###############################\n"
)


def _text_map(buildings: list[str], missiles: list[str]) -> str:
    return "Round Number : 3\n" + TEXT_MAP_TAIL.format(
        buildings="".join(line + "\n" for line in buildings), missiles="".join(line + "\n" for line in missiles)
    )


def test_text_map_sections_compare_as_multisets() -> None:
    a = _text_map(["[0,1] A|ENERGY", "[15,1] B|ENERGY"], ["[3,3] A|5|2", "[12,3] B|5|2"])
    b = _text_map(["[15,1] B|ENERGY", "[0,1] A|ENERGY"], ["[12,3] B|5|2", "[3,3] A|5|2"])
    assert compare_text(a, b, sorted_sections=TEXT_MAP_SECTIONS) == []
    assert compare_text(a, b)[0] == Difference("line 5", "[0,1] A|ENERGY", "[15,1] B|ENERGY")


def test_text_map_section_difference_is_still_found() -> None:
    a = _text_map(["[0,1] A|ENERGY"], ["[3,3] A|5|2"])
    b = _text_map(["[0,1] A|ENERGY"], ["[3,3] A|5|2", "[4,3] A|5|2"])
    first = compare_text(a, b, sorted_sections=TEXT_MAP_SECTIONS)[0]
    assert first == Difference("line 12", "###############################", "[4,3] A|5|2")


def test_text_line_numbers_and_missing_lines() -> None:
    assert compare_text("a\nb\nc\n", "a\nB\nc\n") == [Difference("line 2", "b", "B")]
    assert compare_text("a\n", "a") == [Difference("line 2", "", MISSING)]
    assert compare_text("a\r\n", "a\n") == [Difference("line 1", "a\r", "a")]
    assert len(compare_text("1\n2\n3\n", "4\n5\n6\n", limit=2)) == 2
