"""Game config loading: our JSON, the official .properties (spec 1.1), every bad key, and round trips."""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner.games.tower_defence.config_file import (
    GAME_CONFIG_KEYS,
    game_config_to_json,
    game_config_to_properties,
    load_game_config,
    parse_game_config,
    read_properties,
)
from runner.games.tower_defence.engine.config import BuildingStats, BuildingType, GameConfig, IronCurtainStats
from runner.errors import UserError
from tests.conftest import TRACE_NAMES

REPO = Path(__file__).resolve().parents[4]
DEFAULT_PROPERTIES = game_config_to_properties(GameConfig())


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _load_error(path: Path) -> str:
    with pytest.raises(UserError) as caught:
        load_game_config(path)
    message = str(caught.value)
    assert "\n" not in message
    return message


def _properties_with(key: str, value: str | None) -> str:
    """The default file with one key's value replaced (None: the line removed)."""
    pattern = re.compile(rf"^{re.escape(key)} = .*$\n", re.MULTILINE)
    assert pattern.search(DEFAULT_PROPERTIES), key
    return pattern.sub(lambda _: "" if value is None else f"{key} = {value}\n", DEFAULT_PROPERTIES)


# --- the shipped file and the official files ------------------------------------------------------------


def test_shipped_game_config_holds_the_official_defaults() -> None:
    config = load_game_config(REPO / "game-config.json")
    assert config == GameConfig()
    assert config.buildings[BuildingType.TESLA].price == 100
    assert config.buildings[BuildingType.TESLA].energy_per_shot == 100
    assert config.iron_curtain == IronCurtainStats(price=100, active_rounds=6, reset_period=30, construction_score=20)


def test_shipped_game_config_is_what_the_writer_produces() -> None:
    data = json.loads((REPO / "game-config.json").read_text(encoding="utf-8"))
    assert data.pop("$schema") == "./schema/game-config.schema.json"
    assert data == game_config_to_json(GameConfig())


@pytest.mark.parametrize("trace", TRACE_NAMES)
def test_every_official_properties_file_loads_as_the_defaults(conformance_root: Path, trace: str) -> None:
    assert load_game_config(conformance_root / trace / "game-config.properties") == GameConfig()


def test_properties_table_covers_every_official_key(conformance_root: Path) -> None:
    text = (conformance_root / TRACE_NAMES[0] / "game-config.properties").read_text(encoding="latin-1")
    entries, problems = read_properties(text)
    assert problems == []
    assert [key.property for key in GAME_CONFIG_KEYS] == list(entries)  # same keys, same order
    assert "game.config.tesla.energy.per.shot" in entries


def test_non_tesla_buildings_get_energy_per_shot_zero(conformance_root: Path) -> None:
    config = load_game_config(conformance_root / TRACE_NAMES[0] / "game-config.properties")
    for kind in (BuildingType.DEFENSE, BuildingType.ATTACK, BuildingType.ENERGY):
        assert config.buildings[kind].energy_per_shot == 0


# --- .properties: every missing / wrong key -------------------------------------------------------------


@pytest.mark.parametrize("key", [key.property for key in GAME_CONFIG_KEYS])
def test_each_missing_property_is_named(tmp_path: Path, key: str) -> None:
    path = _write(tmp_path, "x.properties", _properties_with(key, None))
    assert _load_error(path) == f"game config {path}: missing key {key}"


@pytest.mark.parametrize("key", [key.property for key in GAME_CONFIG_KEYS if not key.is_text])
@pytest.mark.parametrize(
    ("value", "read_as"),
    [("abc", "abc"), ("1.5", "1.5"), ("0x10", "0x10"), ("1_0", "1_0"), ("", ""), ("5 5", "5 5"), ("\\u0663", "\u0663")],
)
def test_each_non_integer_property_is_named(tmp_path: Path, key: str, value: str, read_as: str) -> None:
    path = _write(tmp_path, "x.properties", _properties_with(key, value))
    assert _load_error(path).startswith(f"game config {path}: {key}: {read_as!r} is not an integer (line ")


@pytest.mark.parametrize("value", ["2147483648", "-2147483649"])
def test_integers_beyond_32_bits_are_refused(tmp_path: Path, value: str) -> None:
    path = _write(tmp_path, "x.properties", _properties_with("game.config.max-rounds", value))
    assert _load_error(path).startswith(f"game config {path}: game.config.max-rounds: {value} does not fit in a 32-bit")


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("game.config.map-width", "15", "15 is not a multiple of 2"),
        ("game.config.map-width", "0", "0 is less than the minimum of 2"),
        ("game.config.map-height", "0", "0 is less than the minimum of 1"),
        ("game.config.tesla.config.price", "-1", "-1 is less than the minimum of 0"),
        ("game.config.ironcurtain.config.reset-period", "0", "0 is less than the minimum of 1"),
        ("game.config.max-do-nothings", "0", "0 is less than the minimum of 1"),
        ("game.config.starting-health", "-5", "-5 is less than the minimum of 1"),
        ("game.config.attack.config.icon", "", "'' should be non-empty"),
        ("game.config.attack.config.icon", "AB", "'AB' is too long"),
    ],
)
def test_values_that_would_break_the_engine_are_refused(tmp_path: Path, key: str, value: str, expected: str) -> None:
    path = _write(tmp_path, "x.properties", _properties_with(key, value))
    assert _load_error(path) == f"game config {path}: {key}: {expected}"


def test_accepted_integer_spellings(tmp_path: Path) -> None:
    text = _properties_with("game.config.max-rounds", "+0400")
    text = text.replace("game.config.start-energy = 20", "game.config.start-energy=  20   ")
    path = _write(tmp_path, "x.properties", text)
    config = load_game_config(path)
    assert (config.max_rounds, config.start_energy) == (400, 20)


def test_icons_are_trimmed(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.properties", _properties_with("game.config.tesla.config.icon", "   Z   "))
    assert load_game_config(path).buildings[BuildingType.TESLA].icon == "Z"


def test_the_irregular_tesla_key_is_required_and_a_regular_spelling_is_suggested(tmp_path: Path) -> None:
    text = DEFAULT_PROPERTIES.replace("game.config.tesla.energy.per.shot", "game.config.tesla.config.energy-per-shot")
    path = _write(tmp_path, "x.properties", text)
    assert _load_error(path) == (
        f"game config {path}: missing key game.config.tesla.energy.per.shot"
        " (did you mean 'game.config.tesla.config.energy-per-shot'?)"
    )


def test_unknown_properties_are_ignored_like_the_official_runner(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.properties", DEFAULT_PROPERTIES + "game.config.something.new = 3\n")
    assert load_game_config(path) == GameConfig()


def test_a_key_given_twice_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.properties", DEFAULT_PROPERTIES + "game.config.max-rounds = 10\n")
    line = DEFAULT_PROPERTIES.splitlines().index("game.config.max-rounds = 400") + 1
    last = len(DEFAULT_PROPERTIES.splitlines()) + 1
    assert _load_error(path) == f"game config {path}: game.config.max-rounds: given twice (lines {line} and {last})"


def test_several_problems_are_counted_in_the_one_line(tmp_path: Path) -> None:
    text = _properties_with("game.config.map-width", None)
    text = text.replace("game.config.map-height = 8", "")
    path = _write(tmp_path, "x.properties", text)
    assert _load_error(path) == (
        f"game config {path}: missing key game.config.map-width"
        " (and 1 more; `td-runner validate` lists them all)"
    )


def test_java_properties_syntax() -> None:
    text = (
        "# comment\n"
        "! also a comment\n"
        "   \n"
        "a = 1\n"
        "b:2\n"
        "c 3\n"
        "d=four \\\n"
        "      five\n"
        "e\\=f = 6\n"
        "g = \\u0041\\\\\n"
        "h =\n"
    )
    entries, problems = read_properties(text)
    assert problems == []
    assert {key: value for key, (value, _) in entries.items()} == {
        "a": "1", "b": "2", "c": "3", "d": "four five", "e=f": "6", "g": "A\\", "h": "",
    }  # fmt: skip
    assert entries["d"][1] == 7 and entries["e=f"][1] == 9


def test_windows_line_ends_and_a_byte_order_mark_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "x.properties"
    path.write_bytes(DEFAULT_PROPERTIES.replace("\n", "\r\n").encode("ascii"))
    assert load_game_config(path) == GameConfig()
    path = tmp_path / "x.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(game_config_to_json(GameConfig())).encode())
    assert load_game_config(path) == GameConfig()


# --- JSON ------------------------------------------------------------------------------------------------


def _json_with(tmp_path: Path, change) -> Path:
    data = game_config_to_json(GameConfig())
    change(data)
    return _write(tmp_path, "x.json", json.dumps(data))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.pop("maxRounds"), "$: missing key 'maxRounds'"),
        (lambda d: d["buildings"]["TESLA"].pop("price"), "$.buildings.TESLA: missing key 'price'"),
        (lambda d: d["buildings"]["TESLA"].pop("energyPerShot"), "$.buildings.TESLA: missing key 'energyPerShot'"),
        (lambda d: d["ironCurtain"].pop("resetPeriod"), "$.ironCurtain: missing key 'resetPeriod'"),
        (lambda d: d.update(maxRound=3), "$: unknown key 'maxRound' (did you mean 'maxRounds'?)"),
        (lambda d: d["buildings"]["ATTACK"].update(energyPerShot=0), "$.buildings.ATTACK: unknown key 'energyPerShot'"),
        (lambda d: d["buildings"].update(WALL={}), "$.buildings: unknown key 'WALL'"),
        (lambda d: d.update(mapWidth=15), "$.mapWidth: 15 is not a multiple of 2"),
        (lambda d: d.update(mapWidth=16.0), "$.mapWidth: 16.0 is not of type 'integer'"),
        (lambda d: d.update(maxRounds=True), "$.maxRounds: True is not of type 'integer'"),
        (lambda d: d.update(maxRounds="400"), "$.maxRounds: '400' is not of type 'integer'"),
        (lambda d: d.update(maxRounds=2**31), "$.maxRounds: 2147483648 is greater than the maximum of 2147483647"),
        (lambda d: d["buildings"]["ENERGY"].update(price=-20), "$.buildings.ENERGY.price: -20 is less than the minimum of 0"),
        (lambda d: d["buildings"]["ENERGY"].update(icon=" "), "$.buildings.ENERGY.icon: ' ' does not match '^\\\\S*$'"),
    ],
)
def test_json_problems_name_the_key(tmp_path: Path, change, expected: str) -> None:
    path = _json_with(tmp_path, change)
    assert _load_error(path) == f"game config {path}: {expected}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{", "not valid JSON: Expecting property name enclosed in double quotes (line 1 column 2)"),
        ('{"mapWidth": 16, "mapWidth": 16}', "duplicate key 'mapWidth'"),
        ('{"mapWidth": NaN}', "NaN is not valid JSON"),
        ("[]", "$: [] is not of type 'object'"),
    ],
)
def test_broken_json(tmp_path: Path, text: str, expected: str) -> None:
    path = _write(tmp_path, "x.json", text)
    assert _load_error(path) == f"game config {path}: {expected}"


def test_json_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b'{"icon": "\xff"}')
    assert _load_error(path) == f"game config {path}: not UTF-8 text (byte 10)"


# --- unreadable files and the format choice --------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.properties"
    assert _load_error(path) == f"game config {path}: no such file"


def test_folder_instead_of_file(tmp_path: Path) -> None:
    assert _load_error(tmp_path) == f"game config {tmp_path}: is a folder, not a file"


def test_format_is_sniffed_when_the_extension_says_nothing(tmp_path: Path) -> None:
    assert load_game_config(_write(tmp_path, "rules.txt", DEFAULT_PROPERTIES)) == GameConfig()
    as_json = json.dumps(game_config_to_json(GameConfig()), indent=2)
    assert load_game_config(_write(tmp_path, "rules.cfg", "\n  " + as_json)) == GameConfig()


def test_extension_wins_over_content(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.json", DEFAULT_PROPERTIES)
    assert "not valid JSON" in _load_error(path)


# --- writers and round trips -----------------------------------------------------------------------------

_counts = st.integers(min_value=0, max_value=2**31 - 1)
_positive = st.integers(min_value=1, max_value=2**31 - 1)
_icons = st.characters(blacklist_categories=("Zs", "Zl", "Zp", "Cc", "Cs")).filter(lambda c: not c.isspace())


def _stats(tesla: bool) -> st.SearchStrategy[BuildingStats]:
    return st.builds(
        BuildingStats,
        health=_positive, construction_time=_counts, price=_counts, weapon_damage=_counts, weapon_speed=_counts,
        weapon_cooldown_period=_counts, destroy_multiplier=_counts, construction_score=_counts,
        energy_generated_per_turn=_counts, max_range=_counts, icon=_icons,
        energy_per_shot=_counts if tesla else st.just(0),
    )  # fmt: skip


_configs = st.builds(
    GameConfig,
    map_width=st.integers(min_value=1, max_value=2**30 - 1).map(lambda n: 2 * n),
    map_height=_positive, max_rounds=_counts, start_energy=_counts, round_income_energy=_counts,
    starting_health=_positive, health_score_multiplier=_counts, energy_score_multiplier=_counts,
    deconstruction_refund_amount=_counts, max_do_nothings=_positive,
    buildings=st.fixed_dictionaries({kind: _stats(kind is BuildingType.TESLA) for kind in BuildingType}),
    iron_curtain=st.builds(IronCurtainStats, price=_counts, active_rounds=_counts, reset_period=_positive,
                           construction_score=_counts),
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(_configs)
def test_json_round_trip(config: GameConfig) -> None:
    raw = json.dumps(game_config_to_json(config)).encode("utf-8")
    assert parse_game_config(raw, "json") == (config, [])


@settings(max_examples=150, deadline=None)
@given(_configs)
def test_properties_round_trip(config: GameConfig) -> None:
    text = game_config_to_properties(config)
    assert text.isascii()  # Java reads .properties as ISO-8859-1; icons beyond ASCII are \u-escaped
    assert parse_game_config(text.encode("latin-1"), "properties") == (config, [])


def test_written_properties_use_the_official_keys_in_order() -> None:
    lines = [line for line in DEFAULT_PROPERTIES.splitlines() if line and not line.startswith("#")]
    assert [line.split(" = ")[0] for line in lines] == [key.property for key in GAME_CONFIG_KEYS]
    assert "game.config.tesla.energy.per.shot = 100" in lines
    assert "game.config.defense.config.construction-time-left = 3" in lines


def test_only_teslas_may_spend_energy_per_shot() -> None:
    config = GameConfig()
    buildings = dict(config.buildings)
    buildings[BuildingType.ATTACK] = attrs.evolve(buildings[BuildingType.ATTACK], energy_per_shot=1)
    with pytest.raises(ValueError, match="ATTACK has energy_per_shot 1"):
        game_config_to_json(attrs.evolve(config, buildings=buildings))
